"""Alembic environment: runs on the connection the store hands over (see bot.store.upgrade)."""

from alembic import context

from bot.store.schema import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
