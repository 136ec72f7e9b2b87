"""Tables of ``fracas serve``: a campaign's title and its access tokens (hashes only); the
server's sealing keys live in ``store_keys`` (0002).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add campaigns.title and the tokens table."""
    op.add_column("campaigns", sa.Column("title", sa.String(200), nullable=True))
    op.create_table(
        "tokens",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("campaign_id", sa.Integer, sa.ForeignKey("campaigns.id"), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False, unique=True),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("player", sa.String(80), nullable=True),
        sa.Column("label", sa.String(200), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("revoked", sa.String(40), nullable=True),
    )
    op.create_index("ix_tokens_campaign_id", "tokens", ["campaign_id"])


def downgrade() -> None:
    """Drop them again."""
    op.drop_index("ix_tokens_campaign_id", "tokens")
    op.drop_table("tokens")
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("title")
