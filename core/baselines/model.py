"""Model calls of the baselines through core/backends (the roles of argus.toml).

`ModelAccess.for_run` returns None for the offline backend, and also when the model package
cannot be imported or the needed role has no model: the baseline then runs its offline rules
and says so in the run (a `note` event). Replies are grounded like the engine's: a cue is
kept only when its quote occurs in the text the model was shown. Calls are recorded in the
run DB's model_calls (tokens, duration) and cached by content hash.
"""
from __future__ import annotations

from typing import Any

from core.baselines.common import BaselineRun, Hit
from core.engine.types import Cue
from core.errors import InputError


class ModelAccess:
    def __init__(self, client: Any, config: Any, replay_from: list | None = None):
        self.client = client
        self.config = config
        self.replay_from = replay_from

    @classmethod
    def for_run(cls, run: BaselineRun, backend: str, role: str) -> "ModelAccess | None":
        if backend == "offline":
            return None
        try:
            from core.backends.client import ModelClient
            from core.backends.openai_backend import config_from
            from core.backends.replay import recorded_config  # noqa: F401  (the package is complete)
        except ImportError as e:
            run.notes.append(f"model backend not importable ({e}); offline rules used")
            return None
        try:
            cfg = config_from(run.config)
            if backend == "replay":
                from core.backends.replay import ReplayBackend

                be = ReplayBackend(run.config)
                client, cfg, replay_from = be.client, be.bc, be.health.replay_from
            else:
                client, replay_from = ModelClient(cfg), None
        except InputError:
            raise
        except Exception as e:  # a broken config is bad input for the whole batch
            raise InputError("--config", f"model backend {backend!r}: {e}") from e
        if not cfg.role(role).model:
            run.notes.append(f"role {role} has no model configured; offline rules used")
            return None
        return cls(client, cfg, replay_from)

    def vision(self, role: str) -> bool:
        """The configured `vision`, else the capability probe's answer (core/backends/capabilities.py)."""
        rc = self.config.role(role)
        if rc.vision is not None:
            return rc.vision
        from core.backends.capabilities import capabilities_for

        return bool(capabilities_for(self.config, role, replay_from=self.replay_from)[0].vision)

    @property
    def max_side(self) -> int:
        return int(self.config.backend.max_image_side)

    def call(self, run: BaselineRun, role: str, messages: list[dict], reply_model):
        res = self.client.complete(role, messages, reply_model, run.ctx.calls())
        run.db.conn.commit()
        if not res.ok:
            run.ctx.error(f"model:{role}", res.error or "failed")
        return res

    def cues(self, run: BaselineRun, *, block: str, source: str, images: list[str] | None = None) -> list[dict]:
        """Perceiver-role cues over one text block, grounded in `source`."""
        from core.backends.roles import grounded_cues, messages_for
        from core.backends.structured import PerceptionReply

        res = self.call(run, "perceiver", messages_for("perceiver", post=block, images=images or None),
                        PerceptionReply)
        if not res.ok:
            return []
        kept, _ = grounded_cues(res.value, source)
        return kept


def model_hits(cues: list[dict], node_for_quote) -> list[Hit]:
    """Model cues as Hits on the evidence node whose text holds the quote (None: dropped)."""
    from core.textmatch import normalize

    out = []
    for c in cues:
        node = node_for_quote(normalize(c["quote"]))
        if node is None:
            continue
        out.append(Hit(cue=Cue(attribute=c["attribute"], value=c["value"], confidence=c["confidence"],
                               span=c["quote"], cue="model"), node_id=node.node_id, post_id=node.post_id or ""))
    return out


def quote_finder(nodes):
    from core.textmatch import normalize

    texts = [(normalize(n.content), n) for n in nodes]

    def find(q: str):
        for t, n in texts:
            if q and q in t:
                return n
        return None

    return find


def hypotheses_from_model(run: BaselineRun, m: ModelAccess, nodes, *, tag: str, limit: int | None = None) -> list[Hit]:
    """One hypothesizer-role call over the given evidence nodes; each usable reply becomes a
    Hit quoting its first cited node (replies citing unknown ids are dropped)."""
    from core.backends.roles import evidence_block, messages_for, usable_hypotheses
    from core.backends.structured import HypothesesReply

    items = [{"id": n.node_id, "post_id": n.post_id, "carrier": n.carrier, "text": n.content}
             for n in nodes if n.status != "removed"]
    block = evidence_block(items) if limit is None else evidence_block(items, limit=limit)
    res = m.call(run, "hypothesizer", messages_for("hypothesizer", evidence=block), HypothesesReply)
    if not res.ok:
        return []
    kept, _ = usable_hypotheses(res.value, {i["id"] for i in items})
    by_id = {n.node_id: n for n in nodes}
    out = []
    for h in kept:
        ev = by_id[h["evidence"][0]]
        out.append(Hit(cue=Cue(attribute=h["attribute"], value=h["value"], confidence=h["confidence"],
                               span=ev.content[:80], cue=f"model:{tag}"), node_id=ev.node_id,
                       post_id=ev.post_id or ""))
    return out
