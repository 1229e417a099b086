"""`OpenAIBackend`: the engine's roles answered by OpenAI-compatible models, one per role, on
top of the offline backend (hybrid by default).

- The offline perception (rules, OCR, semantic cues) always runs; model cues are added as
  evidence only when their quote occurs exactly in an offline evidence text of that post.
- The offline rule hypothesizer runs on the graph without model evidence, so its hypotheses
  are the offline ones; model hypotheses are added (core/backends/hybrid.py gates them).
- The offline verifier judges every hypothesis; the model verdict goes on top (hybrid.py).
- Capabilities of each role's endpoint are probed once (core/backends/capabilities.py): a
  text-only model gets the post text, OCR lines and the image skim instead of images, and
  every prompt is fitted to the model's context window by whole evidence lines.
- A role that fails `fallback_after` calls in a row falls back to its offline counterpart for
  the rest of the run, with one event (core/backends/health.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import hashlib

from core.backends.capabilities import content_budget, window_from_error
from core.backends.client import CallContext, ModelClient, image_data_url
from core.backends.config import BackendConfig, load_config
from core.backends.health import RoleHealth
from core.backends.hybrid import combine, is_model_claim, is_model_evidence, model_verdict_can_matter
from core.backends.roles import (
    evidence_block,
    ground_verdict,
    messages_for,
    resolve_attribute,
    usable_hypotheses,
    visual_findings,
    wrap_untrusted,
)
from core.backends.structured import (
    HypothesesReply,
    PerceptionBatchReply,
    RouteReply,
    VerdictReply,
    VisualReply,
)
from core.engine.backend import Backend, Verdict
from core.engine.budget import NETWORK_FAMILIES, route_cost
from core.engine.contract import GraphView, Perception
from core.engine.contract.config import EngineConfig
from core.engine.graph import hypothesis_key
from core.engine.types import EvidenceNode, Hypothesis, RouteProposal
from core.nodes.evidence import ModelCue
from core.models import UserView
from core.textmatch import normalize
from db.store import dumps
from tools.base import Recorder

IMAGE_FAMILIES = frozenset({"ocr", "exif", "deep_visual"})
# zoom_ocr needs a text box the model cannot give; the routing table proposes it
ROUTER_FAMILIES = ("ocr", "exif", "gazetteer", "map_search", "web_search", "page_fetch", "deep_visual")
MAX_IMAGES_PER_POST = 4
MAX_EVIDENCE_ITEMS = 200
TEXT_SOURCE_MODALITIES = ("text", "image")


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



def _sample(items: list[dict[str, Any]]) -> str:
    return "\n".join(str(i.get("text") or "") for i in items[:MAX_EVIDENCE_ITEMS])


def _too_long(error: str | None) -> bool:
    e = (error or "").lower()
    return e.startswith("http 400") and (window_from_error(e) is not None or "context" in e)


class OpenAIBackend(Backend):
    name = "openai"

    def __init__(self, config: dict[str, Any] | None = None, *, backend_config: BackendConfig | None = None,
                 client: ModelClient | None = None, replay_from: list | None = None):
        super().__init__(config)
        self.bc = backend_config or config_from(self.config)
        self.client = client or ModelClient(self.bc)
        self.health = RoleHealth(self.bc, self.client, replay_from=replay_from)
        self._config_saved: set[int] = set()
        self._current: CallContext | None = None     # the recorder of the run last served

    # ---- helpers ----
    def has_model(self, role: str) -> bool:
        return bool(self.bc.role(role).model)

    def _use(self, calls: CallContext, role: str) -> bool:
        """The role has a model, a usable endpoint and has not fallen back in this run."""
        self._current = calls
        return self.health.usable(calls, role)

    @property
    def has_deep_visual(self) -> bool:
        if not self.has_model("deep_visual"):
            return False
        calls = self._current
        return calls is None or "deep_visual" not in self.health.state(calls).disabled

    def _call(self, calls: CallContext, role: str, messages: list[dict], reply_model, count: bool = True):
        self._save_config(calls)
        res = self.client.complete(role, messages, reply_model, calls)
        if not res.ok:
            calls.error(f"model:{role}", res.error or "failed", calls=len(res.calls))
        if count:
            self.health.outcome(calls, role, res.ok, res.error)
        return res

    def _save_config(self, calls: CallContext) -> None:
        """Keep the settings that shape requests in the run DB, so a replay can rebuild them."""
        if calls.key in self._config_saved:
            return
        self._config_saved.add(calls.key)
        body = dumps(self.bc.masked())
        calls.save_config("config:" + hashlib.sha256(body.encode()).hexdigest(), body)

    def _budget(self, calls: CallContext, role: str, prompt: str, sample: str = "", **empty: str) -> int:
        """Characters of content (like `sample`) the role's prompt can carry in its model's window."""
        fixed = "\n".join(m["content"] if isinstance(m["content"], str) else ""
                          for m in messages_for(prompt, **empty))
        return content_budget(self.health.capabilities(calls, role), self.bc.role(role).max_tokens, fixed, sample)

    def _fitted_call(self, calls: CallContext, role: str, build, budget: int, reply_model):
        """Call with messages `build(budget)`; a reply saying the prompt exceeds the window gets
        one more try with half the content (cut by whole evidence lines, never mid-JSON)."""
        res = self._call(calls, role, build(budget), reply_model, count=False)
        # a replay does not know why a recorded request failed: it tries the halved one too
        replay_miss = self.health.replay_from is not None and (res.error or "").startswith("replay:")
        if not res.ok and (_too_long(res.error) or replay_miss):
            res = self._call(calls, role, build(budget // 2), reply_model, count=False)
        self.health.outcome(calls, role, res.ok, res.error)
        return res

    def _images(self, calls: CallContext, user: UserView, files: list[str]) -> list[str]:
        urls = []
        for f in files[:MAX_IMAGES_PER_POST]:
            try:
                url, _ = image_data_url(user.image_path(f), self.bc.backend.max_image_side)
            except Exception as e:  # missing/corrupt image: the post is still read
                calls.error("model:perceiver", f"image not sent: {type(e).__name__}", file=f)
                continue
            urls.append(url)
        return urls

    # ---- perception ----
    @staticmethod
    def _sources(drafts: list[EvidenceNode], post_id: str) -> list[EvidenceNode]:
        """Offline evidence texts of a post a model quote may come from (no hostile text, no metadata)."""
        return [d for d in drafts if d.kind == "evidence" and d.post_id == post_id and d.status != "removed"
                and d.content and not d.data.hostile and not is_model_evidence(d)
                and (d.modality in TEXT_SOURCE_MODALITIES or d.carrier == "location_tag")
                and (d.data.field or d.data.lines)]

    @staticmethod
    def _post_text(post, drafts: list[EvidenceNode], with_images: bool) -> str:
        """The post as a text-only model reads it: text fields, metadata, and what the offline
        perception saw in its images (skim + OCR lines) when the images themselves are not sent."""
        lines = [f"{name}: {text}" for name, text in post.text_fields() if text]
        for k, v in (("time", post.timestamp), ("ip_region", post.ip_region), ("location_tag", post.location_tag)):
            if v:
                lines.append(f"{k}: {v}")
        if not with_images:
            mine = [d for d in drafts if d.post_id == post.post_id and d.modality == "image" and d.content]
            for d in mine:
                if d.data.lines:
                    lines.append(f"text read from image {d.data.file or ''}: " + " / ".join(
                        ln.text for ln in d.data.lines))
                elif d.data.signals or d.carrier in ("image_scene", "screenshot"):
                    lines.append(f"image {d.data.file or ''}: {d.content}")
        else:
            ocr = [d.content for d in drafts if d.post_id == post.post_id and d.data.lines]
            if ocr:
                lines.append("text read from the images: " + " / ".join(ocr))
        return "\n".join(lines)

    def perceive(self, view: GraphView, config: EngineConfig, user: UserView, rec: Recorder,
                 calls: CallContext) -> Perception:
        p = super().perceive(view, config, user, rec, calls)
        drafts = p.drafts
        if not self._use(calls, "perceiver"):
            return p
        vision = self.health.vision(calls, "perceiver")
        per_call = 1 if vision else self.bc.backend.perceiver_batch
        texts = []
        for post in user.posts:
            files = [im.file for im in post.images or []]
            text = self._post_text(post, drafts, with_images=vision and bool(files))
            if text.strip() or files:
                texts.append((post, text, files))
        budget = self._budget(calls, "perceiver", "perceiver_batch", sample="\n".join(t for _, t, _ in texts), posts="")
        batch: list[tuple[Any, str, list[str]]] = []
        size = 0
        for post, text, files in texts:
            block = wrap_untrusted(f"post {post.post_id}", text, max(300, budget // max(1, per_call)))
            if batch and (len(batch) >= per_call or size + len(block) > budget):
                self._perceive_batch(calls, user, drafts, batch, vision, budget)
                batch, size = [], 0
                if not self._use(calls, "perceiver"):
                    return p
            batch.append((post, block, files))
            size += len(block) + 1
        if batch and self._use(calls, "perceiver"):
            self._perceive_batch(calls, user, drafts, batch, vision, budget)
        return p

    def _perceive_batch(self, calls: CallContext, user: UserView, drafts: list[EvidenceNode], batch, vision: bool,
                        budget: int) -> None:
        images = self._images(calls, user, batch[0][2]) if vision and len(batch) == 1 and batch[0][2] else []

        def build(limit: int) -> list[dict]:
            blocks, size = [], 0
            for _, b, _ in batch:      # whole post blocks only (the first one cut if it alone is too long)
                if blocks and size + len(b) > limit:
                    break
                blocks.append(b if blocks or len(b) <= limit else b[:limit])
                size += len(b) + 1
            return messages_for("perceiver_batch", posts="\n".join(blocks), images=images)

        res = self._fitted_call(calls, "perceiver", build, budget, PerceptionBatchReply)
        if not res.ok:
            return
        ids = [p.post_id for p, _, _ in batch]
        seen: set[tuple[str, str, str]] = set()
        for c in res.value.cues:
            attr = resolve_attribute(c.attribute)
            value = c.value.strip()
            quote = c.quote.strip()
            if not attr or not value or not quote:
                continue
            # the cue's post, else the first post of the batch whose text holds the quote
            order = [c.post] + [i for i in ids if i != c.post] if c.post in ids else ids
            for pid in order:
                hit = self._find_quote(self._sources(drafts, pid), quote)
                if hit is None:
                    continue
                src, span = hit
                key = (attr, normalize(value), src.content)
                if key in seen:
                    break
                seen.add(key)
                data = src.data.model_copy(update=dict(
                    hostile=None, hostile_scope=None, cues=[], entities=[], source="model:perceiver",
                    model=self.bc.role("perceiver").model, cites=list(src.data.cites or [f"post:{pid}"]),
                    model_cue=ModelCue(attribute=attr, value=value, span=span, confidence=c.confidence)))
                drafts.append(EvidenceNode(
                    node_id="", kind="evidence", post_id=pid, modality=src.modality, carrier=src.carrier,
                    content=src.content, attribute=attr, value=value, confidence=c.confidence, status="raw",
                    provenance=["model:perceiver"], data=data))
                break

    @staticmethod
    def _find_quote(sources: list[EvidenceNode], quote: str) -> tuple[EvidenceNode, str] | None:
        """(source node, the exact span of its text) for a quote found verbatim (case aside)."""
        for src in sources:
            i = src.content.find(quote)
            if i < 0:
                i = src.content.lower().find(quote.lower())
            if i >= 0:
                return src, src.content[i:i + len(quote)]
        return None

    # ---- hypotheses ----
    @staticmethod
    def _offline_view(view: GraphView) -> GraphView:
        """The run's view with model evidence and model claims hidden (what the offline rules see)."""
        g = view.graph
        keep = [n for n in g.nodes.values() if not is_model_evidence(n)
                and not (n.kind == "hypothesis" and is_model_claim(n))]
        return view.restricted(g.view(keep))      # read-only: the rule hypothesizer never writes to the graph

    def _evidence_items(self, view: GraphView) -> list[dict[str, Any]]:
        items = []
        for n in view.graph.evidence():
            if n.status == "removed" or n.data.hostile:
                continue
            text = n.data.model_cue.span if is_model_evidence(n) and n.data.model_cue else n.content
            items.append({"id": n.node_id, "post_id": n.post_id, "carrier": n.carrier, "text": text,
                          "attribute": n.attribute, "value": n.value})
        return items

    def _model_cue_hypotheses(self, view: GraphView) -> list[Hypothesis]:
        """One hypothesis per (attribute, value) of the model perceiver's grounded cues."""
        by_key: dict[str, Hypothesis] = {}
        for n in view.graph.evidence():
            cue = n.data.model_cue if is_model_evidence(n) and n.status != "removed" else None
            if not cue:
                continue
            k = hypothesis_key(cue.attribute, cue.value)
            h = by_key.get(k)
            if h is None:
                by_key[k] = Hypothesis(attribute=cue.attribute, value=cue.value, confidence=cue.confidence,
                                       evidence=[n.node_id], granularity=1.0, rationale=f"model cue: {cue.span}",
                                       data={"source": "model:perceiver"})
            else:
                h.evidence.append(n.node_id)
                h.confidence = max(h.confidence, cue.confidence)
        return list(by_key.values())

    def _previous_model_hypotheses(self, view: GraphView) -> list[Hypothesis]:
        """The model hypothesizer's live claims, re-proposed unchanged when no new reply comes."""
        out = []
        for n in view.graph.hypotheses(("candidate", "admitted", "unresolved", "suspended")):
            if n.data.source == "model:hypothesizer":
                out.append(Hypothesis(attribute=n.attribute or "", value=n.value or "",
                                      confidence=n.data.proposed_confidence or n.confidence or 0.5,
                                      evidence=view.graph.supporters(n.node_id), granularity=1.0,
                                      rationale=n.content, data={"source": "model:hypothesizer",
                                                                 "proposed_confidence": n.data.proposed_confidence}))
        return out

    def hypothesize(self, view: GraphView, config: EngineConfig, calls: CallContext) -> list[Hypothesis]:
        base = super().hypothesize(self._offline_view(view), config, calls)
        for h in base:
            h.data = h.data.model_copy(update={"source": "rules"})
        out = list(base)
        seen = {hypothesis_key(h.attribute, h.value) for h in base}
        model: list[Hypothesis] = self._model_cue_hypotheses(view)
        items = self._evidence_items(view)
        if self._use(calls, "hypothesizer") and items:
            budget = self._budget(calls, "hypothesizer", "hypothesizer", sample=_sample(items), evidence="")
            res = self._fitted_call(calls, "hypothesizer", lambda b: messages_for("hypothesizer", evidence=evidence_block(
                items, limit=MAX_EVIDENCE_ITEMS, total_limit=b)), budget, HypothesesReply)
            if res.ok:
                kept, _ = usable_hypotheses(res.value, {i["id"] for i in items})
                for h in kept:
                    model.append(Hypothesis(attribute=h["attribute"], value=h["value"], confidence=h["confidence"],
                                            evidence=h["evidence"], rationale=h["rationale"] or "model hypothesizer",
                                            granularity=1.0, data={"source": "model:hypothesizer",
                                                                   "proposed_confidence": h["confidence"]}))
            else:
                model += self._previous_model_hypotheses(view)
        elif self.has_model("hypothesizer"):
            model += self._previous_model_hypotheses(view)
        for h in model:
            key = hypothesis_key(h.attribute, h.value)
            if key in seen:
                continue
            seen.add(key)
            out.append(h)
        return out

    # ---- evidence neighbourhood of one hypothesis ----
    def _neighbourhood(self, view: GraphView, hypothesis: EvidenceNode, only: list[str] | None = None
                       ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """(support items, support + other evidence of the same posts): what a prompt about this
        hypothesis carries, nearest first, so cutting to the context window keeps the support."""
        support = []
        for sid in view.graph.supporters(hypothesis.node_id):
            if only is not None and sid not in only:
                continue
            n = view.graph.nodes.get(sid)
            if n is not None:
                text = n.data.model_cue.span if n.data.model_cue else n.content
                support.append({"id": sid, "post_id": n.post_id, "carrier": n.carrier, "text": text})
        ids = {s["id"] for s in support}
        posts = {s["post_id"] for s in support if s.get("post_id")}
        near = [it for it in self._evidence_items(view) if it["post_id"] in posts and it["id"] not in ids]
        for it in near:   # no attribute hints for neighbours: they are context, not support
            it.pop("attribute", None)
        return support, support + near

    def _hyp_text(self, hypothesis: EvidenceNode) -> str:
        return f"{hypothesis.attribute} = {hypothesis.value}"

    # ---- routes ----
    def route_fallback(self, view: GraphView, config: EngineConfig, hypothesis: EvidenceNode, tried: set[str],
                       remaining: float, calls: CallContext) -> RouteProposal | None:
        if not self._use(calls, "router"):
            return super().route_fallback(view, config, hypothesis, tried, remaining, calls)
        images = self._images_of(view, hypothesis)
        families = [f for f in ROUTER_FAMILIES
                    if (config.network or f not in NETWORK_FAMILIES)
                    and (f != "deep_visual" or self.has_deep_visual)
                    and (f not in IMAGE_FAMILIES or images)
                    and route_cost(f) <= remaining + 1e-9]
        if not families:
            return None
        _, near = self._neighbourhood(view, hypothesis)
        fam = ", ".join(families + ["stop"])
        hyp = self._hyp_text(hypothesis)
        budget = self._budget(calls, "router", "router", sample=_sample(near), families=fam, budget="",
                              hypothesis=hyp, evidence="")
        res = self._fitted_call(calls, "router", lambda b: messages_for(
            "router", families=fam, budget=f"{remaining:g}", hypothesis=hyp,
            evidence=evidence_block(near, limit=MAX_EVIDENCE_ITEMS, total_limit=b)), budget, RouteReply)
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

    def _images_of(self, view: GraphView, hypothesis: EvidenceNode) -> list[tuple[str, str]]:
        """(image_id, file) of the images in the posts that support the hypothesis."""
        g = view.graph
        posts = {g.nodes[s].post_id for s in g.supporters(hypothesis.node_id) if s in g.nodes and g.nodes[s].post_id}
        seen: dict[str, str] = {}
        for n in view.graph.evidence():
            iid, f = n.data.image_id, n.data.file
            if iid and f and n.post_id in posts and not n.data.error:
                seen.setdefault(iid, f)
        return sorted(seen.items())

    # ---- verdicts ----
    def verify(self, view: GraphView, config: EngineConfig, hypothesis: EvidenceNode, calls: CallContext) -> Verdict:
        offline = super().verify(view, config, hypothesis, calls)

        def offline_verify(o: EvidenceNode) -> Verdict:
            return super(OpenAIBackend, self).verify(view, config, o, calls)

        if (not config.verifier or not model_verdict_can_matter(view, hypothesis, offline)
                or not self._use(calls, "verifier")):
            return combine(view, hypothesis, offline, None, offline_verify)
        support, _ = self._neighbourhood(view, hypothesis, only=offline.evidence)
        if not support:
            return combine(view, hypothesis, offline, None, offline_verify)
        hyp = self._hyp_text(hypothesis)
        budget = self._budget(calls, "verifier", "verifier", sample=_sample(support), hypothesis=hyp, evidence="")
        res = self._fitted_call(calls, "verifier", lambda b: messages_for("verifier", hypothesis=hyp, evidence=evidence_block(
            support, limit=MAX_EVIDENCE_ITEMS, total_limit=b)), budget, VerdictReply)
        mv = ground_verdict(res.value, {s["id"]: s["text"] for s in support}) if res.ok else None
        return combine(view, hypothesis, offline, mv, offline_verify)

    # ---- deep visual ----
    def deep_visual(self, view: GraphView, config: EngineConfig, image_path: str, question: str,
                    calls: CallContext) -> list[dict[str, Any]] | None:
        if not self._use(calls, "deep_visual"):
            return None
        seen_text = self._image_text(view, image_path)
        if self.health.vision(calls, "deep_visual"):
            try:
                url, _ = image_data_url(image_path, self.bc.backend.max_image_side)
            except Exception as e:
                calls.error("model:deep_visual", f"image not readable: {type(e).__name__}", file=str(image_path))
                return []
            images, caption = [url], ""
        else:
            # a text-only model gets what the offline perception read in the image, never the image
            if not seen_text:
                return []
            images, caption = [], wrap_untrusted("what the offline perception read in this image", seen_text, 3000)
        msgs = messages_for("deep_visual", hypothesis=wrap_untrusted("hypothesis", question, 300), caption=caption,
                            images=images)
        res = self._call(calls, "deep_visual", msgs, VisualReply)
        if not res.ok:
            return []
        return visual_findings(res.value)

    @staticmethod
    def _image_text(view: GraphView, image_path: str) -> str:
        name = Path(str(image_path)).name
        parts = []
        for n in view.graph.evidence():
            f = str(n.data.file or "")
            if f and Path(f).name == name and n.content and not n.data.hostile:
                parts.append(n.content)
        return "\n".join(dict.fromkeys(parts))
