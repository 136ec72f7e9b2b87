"""The store's own secrets: the key that signs its exports (never exported).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table of store keys."""
    op.create_table(
        "store_keys",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    """Drop the table of store keys."""
    op.drop_table("store_keys")
