"""Idempotency keys are each author's own: unique per (conflict, author, key), so a key one
viewer used is never refused to another (which would tell them it was used).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Replace the per-conflict key index with a per-author one (every stored key stays
    unique: it was unique per conflict)."""
    op.drop_index("ix_records_key", "records")
    op.create_index("ix_records_author_key", "records", ["conflict_id", "author", "key"],
                    unique=True)


def downgrade() -> None:
    """Back to one key per conflict (fails if two authors have used the same key since)."""
    op.drop_index("ix_records_author_key", "records")
    op.create_index("ix_records_key", "records", ["conflict_id", "key"], unique=True)
