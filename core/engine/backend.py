"""Backends: one object per run answering each role of the loop.

Roles: perceive (skim every post into raw evidence), hypothesize (whole graph ->
hypotheses), route_fallback (a route when the deterministic routing table has none),
verify (admit / keep unresolved / remove one hypothesis), deep_visual (optional).
`OfflineBackend` answers every role with rules, lexicons and the gazetteer. Model
backends subclass it and override the roles they have a model for, so every role falls
back to the offline rule. They are plugins: a package names its factories (a callable
config -> Backend, e.g. the class) under the `argus.backends` entry-point group of its
pyproject.toml, as core/backends does for "openai" and "replay"; the engine imports
none of them by name.
"""
from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any, Callable

from core.engine.contract.changes import Perception
from core.engine.contract.config import EngineConfig
from core.engine.contract.view import GraphView
from core.engine.hypothesizer import hypothesize as offline_hypothesize
from core.engine.perceiver import perceive as offline_perceive
from core.engine.types import EvidenceNode, Hypothesis, RouteProposal, Verdict  # noqa: F401 (Verdict re-exported)
from core.engine.verifier import verify_hypothesis
from core.errors import InputError
from core.models import UserView
from db.model_calls import ModelCalls
from tools.base import Recorder


class Backend:
    """Base class and protocol. Subclasses override roles; defaults are the offline rules.

    Every role gets the run's read-only view and typed config, what else it needs passed
    explicitly, and `calls`, the recorder of model calls at this step (db/model_calls.py): a
    backend records through it and never holds the run DB."""

    name = "base"

    def __init__(self, config: dict[str, Any] | None = None):
        self.config = dict(config or {})

    def perceive(self, view: GraphView, config: EngineConfig, user: UserView, rec: Recorder,
                 calls: ModelCalls) -> Perception:
        """Post nodes and raw evidence drafts (node_id empty; data["cites"] lists post node ids),
        and the changes to store with them. `rec` records the skim's tool calls."""
        return offline_perceive(view, config, user, rec)

    def hypothesize(self, view: GraphView, config: EngineConfig, calls: ModelCalls) -> list[Hypothesis]:
        return offline_hypothesize(view, config)

    def route_fallback(self, view: GraphView, config: EngineConfig, hypothesis: EvidenceNode, tried: set[str],
                       remaining: float, calls: ModelCalls) -> RouteProposal | None:
        """A route for a hypothesis the routing table could not serve; the offline rule has none."""
        return None

    def verify(self, view: GraphView, config: EngineConfig, hypothesis: EvidenceNode, calls: ModelCalls) -> Verdict:
        return verify_hypothesis(view, config, hypothesis)

    def deep_visual(self, view: GraphView, config: EngineConfig, image_path: str, question: str,
                    calls: ModelCalls) -> list[dict[str, Any]] | None:
        """Optional strong-VLM look at one image: [{"text": ..., "carrier": ...}] or None if unsupported."""
        return None

    @property
    def has_deep_visual(self) -> bool:
        return type(self).deep_visual is not Backend.deep_visual


class OfflineBackend(Backend):
    name = "offline"


BackendFactory = Callable[[dict[str, Any]], Backend]
ENTRY_POINTS = "argus.backends"
_REGISTRY: dict[str, BackendFactory] = {"offline": OfflineBackend}


def register_backend(name: str, factory: BackendFactory) -> None:
    """Register a factory in this process (tests, embedding code); installed plugins use entry points."""
    _REGISTRY[name] = factory


def _plugins() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINTS)}


def available_backends() -> list[str]:
    return sorted(set(_REGISTRY) | set(_plugins()))


def make_backend(name: str = "offline", config: dict[str, Any] | None = None) -> Backend:
    factory = _REGISTRY.get(name)
    if factory is None:
        ep = _plugins().get(name)
        if ep is None:
            raise InputError("--backend", f"unknown backend {name!r} (known: {', '.join(available_backends())})")
        factory = _REGISTRY[name] = ep.load()
    return factory(dict(config or {}))
