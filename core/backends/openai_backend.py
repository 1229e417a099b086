"""`OpenAIBackend`: the engine's roles answered by OpenAI-compatible models, one per role.

A role with a configured model calls it; a role without one (or a call that fails after its
retries) is answered by the offline rule, and the failure stays recorded in `model_calls` and
in the run's non-fatal errors. Model perceptions and hypotheses are added to the offline
ones (rules stay the floor); the model verifier replaces the offline check but admits a
hypothesis only when its quotes really occur in the evidence they cite.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from core.backends.client import CallContext, ModelClient, image_data_url
from core.backends.config import BackendConfig, load_config
from core.backends.roles import (
    evidence_block,
    ground_verdict,
    grounded_cues,
    messages_for,
    post_block,
    usable_hypotheses,
    visual_findings,
    wrap_untrusted,
)
from core.backends.structured import (
    HypothesesReply,
    PerceptionReply,
    RouteReply,
    VerdictReply,
    VisualReply,
)
from core.engine.backend import Backend, Verdict
from core.engine.budget import NETWORK_FAMILIES, route_cost
from core.engine.context import RunContext
from core.engine.types import Cue, EvidenceNode, Hypothesis, RouteProposal
from core.schema import load_schema
from core.textmatch import normalize
from db.store import dumps

IMAGE_FAMILIES = frozenset({"ocr", "exif", "deep_visual"})
# zoom_ocr needs a text box the model cannot give; the routing table proposes it
ROUTER_FAMILIES = ("ocr", "exif", "gazetteer", "map_search", "web_search", "page_fetch", "deep_visual")
MAX_IMAGES_PER_POST = 4


# Keys of the engine's run config (make_backend(name, config)) that this package reads. They
# are stored in runs.config, so a resumed run rebuilds the same backend; no key is ever stored.
OPT_CONFIG = "backend_config"     # path of the TOML file (default: $ARGUS_CONFIG, ./argus.toml)
OPT_CACHE = "model_cache"         # extra content-addressed cache file shared across run DBs
OPT_REPLAY = "replay_from"        # replay: the recorded run DB


def backend_options(*, config: str | Path | None = None, cache: str | Path | None = None,
                    replay: str | Path | None = None) -> dict[str, str]:
    """Run-config entries for the CLI (`--config`, `--model-cache`, `--replay`)."""
    out = {}
    for key, val in ((OPT_CONFIG, config), (OPT_CACHE, cache), (OPT_REPLAY, replay)):
        if val:
            out[key] = str(Path(val).resolve())
    return out


def config_from(options: dict[str, Any]) -> BackendConfig:
    cfg = load_config(options.get(OPT_CONFIG))
    if options.get(OPT_CACHE):
        cfg.backend.cache = str(options[OPT_CACHE])
    return cfg


class OpenAIBackend(Backend):
    name = "openai"

    def __init__(self, config: dict[str, Any] | None = None, *, backend_config: BackendConfig | None = None,
                 client: ModelClient | None = None):
        super().__init__(config)
        self.bc = backend_config or config_from(self.config)
        self.client = client or ModelClient(self.bc)
        self._config_saved: set[int] = set()

    # ---- helpers ----
    def has_model(self, role: str) -> bool:
        return bool(self.bc.role(role).model)

    @property
    def has_deep_visual(self) -> bool:
        return self.has_model("deep_visual")

    def _call(self, ctx: RunContext, role: str, messages: list[dict], reply_model):
        self._save_config(ctx)
        res = self.client.complete(role, messages, reply_model, CallContext(ctx.db, ctx.run_id, ctx.step))
        if not res.ok:
            ctx.error(f"model:{role}", res.error or "failed", calls=len(res.calls))
        return res

    def _save_config(self, ctx: RunContext) -> None:
        """Keep the settings that shape requests in the run DB, so a replay can rebuild them."""
        if id(ctx.db) in self._config_saved:
            return
        self._config_saved.add(id(ctx.db))
        body = dumps(self.bc.masked())
        import hashlib

        from db.store import now

        key = "config:" + hashlib.sha256(body.encode()).hexdigest()
        ctx.db.execute("INSERT OR IGNORE INTO cache (key, kind, name, output, created_at) VALUES (?, 'config', ?, ?, ?)",
                       [key, ctx.run_id, body, now()])

    def _vision(self, role: str) -> bool:
        return self.bc.role(role).vision

    def _images(self, ctx: RunContext, files: list[str]) -> list[str]:
        urls = []
        for f in files[:MAX_IMAGES_PER_POST]:
            try:
                url, _ = image_data_url(ctx.user.image_path(f), self.bc.backend.max_image_side)
            except Exception as e:  # missing/corrupt image: the post is still read
                ctx.error("model:perceiver", f"image not sent: {type(e).__name__}", file=f)
                continue
            urls.append(url)
        return urls

    # ---- roles ----
    def perceive(self, ctx: RunContext) -> list[EvidenceNode]:
        drafts = super().perceive(ctx)
        if not self.has_model("perceiver"):
            return drafts
        post_nodes = {n.post_id: n.node_id for n in ctx.graph.of_kind("post") if n.post_id}
        for post in ctx.user.posts:
            fields = post.text_fields()
            ocr = [d.content for d in drafts if d.post_id == post.post_id and d.carrier != "caption"]
            meta = {"time": post.timestamp, "ip_region": post.ip_region, "location_tag": post.location_tag}
            files = [im.file for im in post.images or []]
            if not fields and not files:
                continue
            images = self._images(ctx, files) if self._vision("perceiver") else []
            block = post_block(post.post_id, fields, meta)
            if ocr:
                block += "\n" + wrap_untrusted(f"metadata and text read from the images of post {post.post_id}",
                                                "\n".join(ocr), 1500)
            res = self._call(ctx, "perceiver", messages_for("perceiver", post=block, images=images), PerceptionReply)
            if not res.ok:
                continue
            # injected text in a post never becomes evidence (the offline rules flag it the same way)
            from core.engine.rules import hostile_spans

            clean = [t for _, t in fields if not hostile_spans(t)]
            source = "\n".join(clean) + "\n" + "\n".join(ocr)
            cues, _dropped = grounded_cues(res.value, source)
            cite = post_nodes.get(post.post_id, f"post:{post.post_id}")
            for c in cues:
                in_caption = any(normalize(c["quote"]) in normalize(t) for _, t in fields)
                spec = load_schema().get(c["attribute"])
                # the rule hypothesizer aggregates level-tagged cues; a model cue has no level, so
                # only flat attributes feed it (the model hypothesizer reads every model evidence)
                cues_data = [] if spec is None or spec.kind == "hierarchy" else [Cue(
                    attribute=c["attribute"], value=c["value"], confidence=c["confidence"], span=c["quote"],
                    cue="model:perceiver").model_dump()]
                drafts.append(EvidenceNode(
                    node_id="", kind="evidence", post_id=post.post_id, modality="text" if in_caption else "image",
                    carrier="caption" if in_caption else "ocr_text", content=c["quote"],
                    attribute=c["attribute"], value=c["value"], confidence=c["confidence"], status="raw",
                    provenance=["model:perceiver"],
                    data={"cites": [cite], "cues": cues_data, "field": "model:perceiver", "source": "model:perceiver",
                          "model": self.bc.role("perceiver").model}))
        return drafts

    def _evidence_items(self, ctx: RunContext) -> list[dict[str, Any]]:
        items = []
        for n in ctx.graph.evidence():
            if n.status == "removed":
                continue
            items.append({"id": n.node_id, "post_id": n.post_id, "carrier": n.carrier, "text": n.content,
                          "attribute": n.attribute, "value": n.value})
        return items

    def hypothesize(self, ctx: RunContext) -> list[Hypothesis]:
        base = super().hypothesize(ctx)
        if not self.has_model("hypothesizer"):
            return base
        items = self._evidence_items(ctx)
        if not items:
            return base
        res = self._call(ctx, "hypothesizer", messages_for("hypothesizer", evidence=evidence_block(items)),
                         HypothesesReply)
        if not res.ok:
            return base
        kept, _ = usable_hypotheses(res.value, {i["id"] for i in items})
        seen = {(h.attribute, normalize(h.value)) for h in base}
        out = list(base)
        for h in kept:
            key = (h["attribute"], normalize(h["value"]))
            if key in seen:
                continue
            seen.add(key)
            out.append(Hypothesis(attribute=h["attribute"], value=h["value"], confidence=h["confidence"],
                                  evidence=h["evidence"], rationale=h["rationale"] or "model hypothesizer",
                                  granularity=1.0, data={"source": "model:hypothesizer"}))
        return out

    def _hyp_text(self, hypothesis: EvidenceNode) -> str:
        return f"{hypothesis.attribute} = {hypothesis.value}"

    def _support(self, ctx: RunContext, hypothesis: EvidenceNode) -> list[dict[str, Any]]:
        out = []
        for sid in ctx.graph.supporters(hypothesis.node_id):
            n = ctx.graph.nodes.get(sid)
            if n is not None:
                out.append({"id": sid, "post_id": n.post_id, "carrier": n.carrier, "text": n.content})
        return out

    def route_fallback(self, ctx: RunContext, hypothesis: EvidenceNode, tried: set[str]) -> RouteProposal | None:
        if not self.has_model("router"):
            return super().route_fallback(ctx, hypothesis, tried)
        images = self._images_of(ctx, hypothesis)
        families = [f for f in ROUTER_FAMILIES
                    if (ctx.flag("network") or f not in NETWORK_FAMILIES)
                    and (f != "deep_visual" or self.has_deep_visual)
                    and (f not in IMAGE_FAMILIES or images)
                    and ctx.budget.affordable(route_cost(f))]
        if not families:
            return None
        support = self._support(ctx, hypothesis)
        msgs = messages_for("router", families=", ".join(families + ["stop"]), budget=f"{ctx.budget.remaining:g}",
                            hypothesis=self._hyp_text(hypothesis), evidence=evidence_block(support))
        res = self._call(ctx, "router", msgs, RouteReply)
        if not res.ok or res.value.family == "stop" or res.value.family not in families:
            return None
        r = res.value
        params: dict[str, Any]
        if r.family in IMAGE_FAMILIES:
            image_id, file = next(((i, f) for i, f in images if r.target and (r.target in (i, f))), images[0])
            params = {"image_id": image_id, "file": file}
            if r.family == "deep_visual":
                params["question"] = self._hyp_text(hypothesis)
        elif r.family in ("gazetteer", "map_search"):
            params = {"name": r.target or (hypothesis.value or ""), "hint": ""}
        elif r.family == "page_fetch":
            if not r.target.startswith(("http://", "https://")):
                return None
            params = {"url": r.target}
        else:
            params = {"query": r.target or (hypothesis.value or "")}
        from core.engine.router import source_of

        if f"{r.family}:{source_of(r.family, params)}" in tried:
            return None
        return RouteProposal(hypothesis_id=hypothesis.node_id, family=r.family, tool=r.family, params=params,
                             cost=route_cost(r.family), expected=r.expected, reason=f"model router: {r.reason}")

    def _images_of(self, ctx: RunContext, hypothesis: EvidenceNode) -> list[tuple[str, str]]:
        """(image_id, file) of the images in the posts that support the hypothesis."""
        posts = {s["post_id"] for s in self._support(ctx, hypothesis) if s.get("post_id")}
        seen: dict[str, str] = {}
        for n in ctx.graph.evidence():
            iid, f = n.data.get("image_id"), n.data.get("file")
            if iid and f and n.post_id in posts and not n.data.get("error"):
                seen.setdefault(iid, f)
        return sorted(seen.items())

    def verify(self, ctx: RunContext, hypothesis: EvidenceNode) -> Verdict:
        if not self.has_model("verifier"):
            return super().verify(ctx, hypothesis)
        support = self._support(ctx, hypothesis)
        if not support:
            return super().verify(ctx, hypothesis)
        msgs = messages_for("verifier", hypothesis=self._hyp_text(hypothesis), evidence=evidence_block(support))
        res = self._call(ctx, "verifier", msgs, VerdictReply)
        if not res.ok:
            return super().verify(ctx, hypothesis)
        g = ground_verdict(res.value, {s["id"]: s["text"] for s in support})
        return Verdict(status=g.status, reason=f"model verifier: {g.reason}", confidence=g.confidence,
                       evidence=g.evidence if g.status == "admitted" else None)

    def deep_visual(self, ctx: RunContext, image_path: str, question: str) -> list[dict[str, Any]] | None:
        if not self.has_model("deep_visual"):
            return None
        try:
            url, _ = image_data_url(image_path, self.bc.backend.max_image_side)
        except Exception as e:
            ctx.error("model:deep_visual", f"image not readable: {type(e).__name__}", file=str(image_path))
            return []
        images = [url] if self._vision("deep_visual") else []
        msgs = messages_for("deep_visual", hypothesis=wrap_untrusted("hypothesis", question, 300), caption="",
                            images=images)
        res = self._call(ctx, "deep_visual", msgs, VisualReply)
        if not res.ok:
            return []
        return visual_findings(res.value)
