"""Backends: one object per run answering each role of the loop.

Roles: perceive (skim every post into raw evidence), hypothesize (whole graph ->
hypotheses), route_fallback (a route when the deterministic routing table has none),
verify (admit / keep unresolved / remove one hypothesis), deep_visual (optional).
`OfflineBackend` answers every role with rules, lexicons and the gazetteer. Model
backends (core/backends, registered as "openai"/"replay") subclass it and override
the roles they have a model for, so every role falls back to the offline rule.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable

from core.engine.context import RunContext
from core.engine.types import EvidenceNode, Hypothesis, RouteProposal, Verdict  # noqa: F401 (Verdict re-exported)


class Backend:
    """Base class and protocol. Subclasses override roles; defaults are the offline rules."""

    name = "base"

    def __init__(self, config: dict[str, Any] | None = None):
        self.config = dict(config or {})

    def perceive(self, ctx: RunContext) -> list[EvidenceNode]:
        """Raw evidence drafts (node_id empty; data["cites"] lists post node ids)."""
        from core.engine.perceiver import perceive

        return perceive(ctx)

    def hypothesize(self, ctx: RunContext) -> list[Hypothesis]:
        from core.engine.hypothesizer import hypothesize

        return hypothesize(ctx)

    def route_fallback(self, ctx: RunContext, hypothesis: EvidenceNode, tried: set[str]) -> RouteProposal | None:
        """A route for a hypothesis the routing table could not serve; the offline rule has none."""
        return None

    def verify(self, ctx: RunContext, hypothesis: EvidenceNode) -> Verdict:
        from core.engine.verifier import verify_hypothesis

        return verify_hypothesis(ctx, hypothesis)

    def deep_visual(self, ctx: RunContext, image_path: str, question: str) -> list[dict[str, Any]] | None:
        """Optional strong-VLM look at one image: [{"text": ..., "carrier": ...}] or None if unsupported."""
        return None

    @property
    def has_deep_visual(self) -> bool:
        return type(self).deep_visual is not Backend.deep_visual


class OfflineBackend(Backend):
    name = "offline"


BackendFactory = Callable[[dict[str, Any]], Backend]
_REGISTRY: dict[str, BackendFactory] = {"offline": OfflineBackend}


def register_backend(name: str, factory: BackendFactory) -> None:
    _REGISTRY[name] = factory


def available_backends() -> list[str]:
    _load_plugins()
    return sorted(_REGISTRY)


def _load_plugins() -> None:
    # model backends register themselves on import (core/backends by the backends engineer)
    try:
        importlib.import_module("core.backends")
    except ImportError:
        pass


def make_backend(name: str = "offline", config: dict[str, Any] | None = None) -> Backend:
    if name not in _REGISTRY:
        _load_plugins()
    factory = _REGISTRY.get(name)
    if factory is None:
        from core.errors import InputError

        raise InputError("--backend", f"unknown backend {name!r} (known: {', '.join(sorted(_REGISTRY))})")
    return factory(dict(config or {}))
