"""The run store: one SQLite file per workspace, schema by ordered migrations."""
from db.store import open_db

__all__ = ["open_db"]
