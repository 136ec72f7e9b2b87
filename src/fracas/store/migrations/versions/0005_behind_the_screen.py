"""A conflict may be behind the GM's screen: ``conflicts.shown`` (false: only the GM of its
table sees it; ``fracas serve``, docs/table.md). Every conflict stored before stays shown.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add conflicts.shown, true for every conflict there is."""
    op.add_column("conflicts", sa.Column("shown", sa.Boolean, nullable=False,
                                         server_default=sa.true()))


def downgrade() -> None:
    """Drop it again (every conflict is then shown)."""
    with op.batch_alter_table("conflicts") as batch:
        batch.drop_column("shown")
