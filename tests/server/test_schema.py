"""schemathesis against the served OpenAPI document of a real server, with bounded examples:
no input makes a server error, every answer is documented and matches its schema, and input
the schema forbids is refused. (Not checked: that schema-valid input is accepted — a command
or a scenario file is a language of its own that no JSON schema describes.)"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import positive_data_acceptance

from tests.server.support import Served, new_table

EXAMPLES = 12


@pytest.fixture(scope="module")
def api(server: Served) -> dict[str, Any]:
    """The schema, and a table with a conflict the generated requests are aimed at."""
    table = new_table(server.url)
    path = table.conflict("vers-tavern-brawl")
    return {"schema": schemathesis.openapi.from_url(server.url + "/openapi.json"),
            "url": server.url, "table": table.id, "conflict": path.rsplit("/", 1)[1],
            "headers": table.gm.headers()}


def test_the_api_answers_every_input_as_documented(api: dict[str, Any]) -> None:
    operations = [result.ok() for result in api["schema"].get_all_operations()]
    assert len(operations) >= 15

    for operation in operations:
        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        def check(case: Any) -> None:
            params = case.path_parameters or {}
            if "table" in params:
                params["table"] = api["table"]
            if "conflict" in params:
                params["conflict"] = api["conflict"]
            case.call_and_validate(base_url=api["url"], headers=api["headers"],
                                   excluded_checks=[positive_data_acceptance])

        check()
