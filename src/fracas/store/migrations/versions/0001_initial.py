"""The first schema: campaigns, conflicts, records (the log) and snapshots.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the four tables."""
    op.create_table(
        "campaigns",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("created", sa.String(40), nullable=False),
    )
    op.create_table(
        "conflicts",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("campaign_id", sa.Integer, sa.ForeignKey("campaigns.id"), nullable=False),
        sa.Column("ruleset", sa.String(60), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("seed", sa.String(200), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("updated", sa.String(40), nullable=False),
    )
    op.create_index("ix_conflicts_campaign_id", "conflicts", ["campaign_id"])
    op.create_table(
        "records",
        sa.Column("conflict_id", sa.String(40), sa.ForeignKey("conflicts.id"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("command", sa.Text, nullable=False),
        sa.Column("author", sa.String(80), nullable=False),
        sa.Column("time", sa.String(40), nullable=False),
        sa.Column("key", sa.String(200), nullable=True),
        sa.Column("data", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("conflict_id", "version", name="pk_records"),
    )
    op.create_index("ix_records_key", "records", ["conflict_id", "key"], unique=True)
    op.create_table(
        "snapshots",
        sa.Column("conflict_id", sa.String(40), sa.ForeignKey("conflicts.id"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("format", sa.String(200), nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.PrimaryKeyConstraint("conflict_id", "version", name="pk_snapshots"),
    )


def downgrade() -> None:
    """Drop the four tables."""
    for table in ("snapshots", "records", "conflicts", "campaigns"):
        op.drop_table(table)
