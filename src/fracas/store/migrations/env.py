"""Alembic environment: fracas passes its own connection (``config.attributes``)."""

from __future__ import annotations

from alembic import context

from fracas.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only when someone runs `alembic` by hand
    raise RuntimeError("fracas runs its migrations itself: use `fracas db upgrade`")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
