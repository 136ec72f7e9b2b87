"""The rulesets fracas ships, looked up by name."""

from __future__ import annotations

import importlib
import importlib.util

from fracas.engine.ruleset import Ruleset
from fracas.engine.suggest import did_you_mean
from fracas.errors import NotFound

#: name → "module:Class" of every shipped ruleset.
SHIPPED: dict[str, str] = {
    "etherscope": "fracas.rulesets.etherscope:Etherscope",
    "fabula-ultima": "fracas.rulesets.fabula_ultima:FabulaUltima",
    "vers": "fracas.rulesets.vers:Vers",
}

_loaded: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> None:
    """Make a ruleset known by its name (tests use this for their own small ruleset)."""
    _loaded[ruleset.name] = ruleset


def available() -> list[str]:
    """Names of the rulesets that can be loaded."""
    names = set(_loaded)
    for name, target in SHIPPED.items():
        module = target.partition(":")[0]
        if importlib.util.find_spec(module) is not None:
            names.add(name)
    return sorted(names)


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name`` or a NotFound error listing the available ones."""
    key = name.strip().lower()
    if key in _loaded:
        return _loaded[key]
    target = SHIPPED.get(key)
    if target is None:
        known = available()
        raise NotFound(f"unknown ruleset {name!r} (available: {', '.join(known)})"
                       f"{did_you_mean(key, known)}", ruleset=name)
    module_name, _, cls_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        raise NotFound(f"the {key} ruleset is not installed yet", ruleset=name) from None
    ruleset: Ruleset = getattr(module, cls_name)()
    _loaded[key] = ruleset
    return ruleset
