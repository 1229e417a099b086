"""`ReplayBackend`: rerun a recorded investigation from a run DB with no model server.

Every model request is answered from the recorded DB's content-addressed `cache` table; the
request settings (models per role, token limits, temperature, seed, parse retries) come from
the backend config recorded there, so the same engine inputs produce the same requests, the
same cache keys and the same replies. A request that was never recorded fails as a call
(recorded, with the offline rule answering), it never reaches a network.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sqlite_utils

from core.backends.client import ModelClient
from core.backends.config import BackendConfig, BackendSettings, RoleConfig
from core.backends.openai_backend import OPT_REPLAY, OpenAIBackend
from core.errors import InputError
from db.model_calls import recorded_config_json
from db.store import open_db


def recorded_config(db: sqlite_utils.Database, run_id: str | None = None, *, source: str = "replay DB") -> BackendConfig:
    """The backend config recorded with a run (the latest one, or the one of run_id)."""
    recorded = recorded_config_json(db, run_id)
    if recorded is None:
        raise InputError(source, "no recorded model-backend run in this DB (nothing to replay)", field="cache")
    data = json.loads(recorded)
    backend = dict(data.get("backend") or {})
    backend.update(api_key=None, base_url=None, cache=None)
    roles = {}
    for name, r in (data.get("roles") or {}).items():
        if r.get("model"):
            roles[name] = RoleConfig(model=r["model"], max_tokens=r.get("max_tokens", 512),
                                     temperature=r.get("temperature"), vision=r.get("vision"),
                                     context_length=r.get("context_length"))
    return BackendConfig(backend=BackendSettings.model_validate(backend), roles=roles,
                         prices=data.get("prices") or {}, source=source)


class ReplayBackend(OpenAIBackend):
    name = "replay"

    def __init__(self, config: dict[str, Any] | None = None):
        config = dict(config or {})
        src = config.get(OPT_REPLAY)
        if not src:
            raise InputError("--backend replay", "needs the recorded run DB (e.g. --replay RUNS.db)")
        path = Path(str(src))
        if not path.is_file():
            raise InputError(path, "recorded run DB not found", field="replay")
        try:
            db = open_db(path, readonly=True)
            bc = recorded_config(db, config.get("replay_run"), source=str(path))
        except InputError:
            raise
        except Exception as e:
            raise InputError(path, f"not a readable run DB: {e}", field="replay") from None
        super().__init__(config, backend_config=bc, client=ModelClient(bc, replay_from=[db], replay_only=True),
                         replay_from=[db])
