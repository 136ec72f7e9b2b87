"""PostgreSQL helpers shared by the store tests and the store benchmark."""

from __future__ import annotations

from sqlalchemy import create_engine, text

from fracas.store.schema import metadata


def reset_pg(url: str) -> None:
    """Drop fracas's tables so the next use starts from a fresh database."""
    engine = create_engine(url)
    with engine.begin() as conn:
        metadata.drop_all(conn)
        conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    engine.dispose()
