"""Alembic migrations of the event store (run by ``fracas db upgrade``)."""
