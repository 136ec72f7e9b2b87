"""Tables of ``fracas serve``: a campaign's title, its access tokens (hashes only) and the
server's sealing keys.

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
    """Add campaigns.title and the tokens and server_keys tables."""
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
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(60), primary_key=True),
        sa.Column("secret", sa.String(200), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    """Drop them again."""
    op.drop_table("server_keys")
    op.drop_index("ix_tokens_campaign_id", "tokens")
    op.drop_table("tokens")
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("title")
