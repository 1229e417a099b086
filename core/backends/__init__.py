"""Model backends: OpenAI-compatible roles ("openai") and record/replay ("replay").

Importing this package registers both with the engine's backend registry
(core/engine/backend.py imports it lazily from make_backend).
"""
from __future__ import annotations

from core.engine.backend import register_backend


def _openai(config):
    from core.backends.openai_backend import OpenAIBackend

    return OpenAIBackend(config)


def _replay(config):
    from core.backends.replay import ReplayBackend

    return ReplayBackend(config)


register_backend("openai", _openai)
register_backend("replay", _replay)
