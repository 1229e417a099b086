"""What every aggregator shares: the graph's evidence in aggregation shapes (GraphFacts, CueRec)
and the arithmetic of combining cues (clusters, noisy-or, level order, the hypothesis shape)."""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable

from core.engine.rules.hostile import masked_text
from core.engine.types import Cue, EvidenceNode, Hypothesis
from core.nodes.cue import Entity
from core.nodes.evidence import TextFeatures, TimeFeatures
from core.nodes.hypothesis import HypothesisExtras, Need
from core.schema import load_schema
from core.textmatch import normalize

OTHER_OK = {"real_name", "birth_date", "age"}        # attributes a friend's comment may reveal
DROP_STANCES = ("quote", "hypothetical")             # rules.base.Ctx.stance values that are not evidence
# semantic cues (rules/semantic.py): fitted on the development sets, see docs/semantic.md
SEMANTIC = "semantic:"
SEMANTIC_MAX_CONF = 0.6          # semantic support alone never states more than this
SEMANTIC_SHARE_POWER = 0.5       # how much a scattered semantic vote is discounted
SEMANTIC_SET_POSTS = 2           # posts needed for a set / facts item with semantic support only
SEMANTIC_PROJECT_MIN = 0.30      # projection threshold of semantic-only hypotheses (benchmarks/calibration.py claims)
# one sentence tying an occupation by an activity said as work claims it only this far ahead of the best
# prototype of another occupation (similarity); nearer, the reading stays a guess (aggregators/generic.one_guess)
SEMANTIC_ONE_SENTENCE_GAP = 0.02


_NO_FEATURES = TextFeatures()


class RegistryError(ValueError):
    """An aggregator declaration the registry refuses, or a read / output outside it (names the
    aggregator and the input or attribute)."""


@dataclass
class CueRec:
    node_id: str
    post_id: str
    carrier: str
    cue: Cue
    time: TimeFeatures | None
    by_other: bool = False

    @property
    def levels(self) -> dict[str, str]:
        lv = self.cue.data.levels
        if lv:
            return {k: v for k, v in lv.items() if v}
        return {self.cue.level or "value": self.cue.value}


@dataclass
class Cluster:
    levels: dict[str, str]
    recs: list[Any] = field(default_factory=list)
    score: float = 0.0


class GraphFacts:
    """The evidence of the graph in the shapes the aggregators need."""

    def __init__(self, nodes: list[EvidenceNode]):
        self.nodes = {n.node_id: n for n in nodes}
        self.time: dict[str, TimeFeatures] = {}       # post -> when it was posted (or its photo taken)
        self.post_text: dict[str, list[tuple[str, str]]] = defaultdict(list)   # own (non-hostile) (node, text) per post
        self.other_text: dict[str, list[tuple[str, str]]] = defaultdict(list)
        self.feats: dict[str, TextFeatures] = {}                     # node -> its perception-time text features
        self.reading: frozenset[str] | None = None                   # the running aggregator's declared inputs
        self.ip: dict[str, tuple[str, str]] = {}                     # post -> (node id, region)
        self.cues: list[CueRec] = []
        self.entities: list[tuple[EvidenceNode, Entity]] = []
        self.gazetteer: dict[str, EvidenceNode] = {}                 # normalized name -> tool evidence
        for n in nodes:
            if n.kind != "evidence" or n.status == "removed":
                continue
            if n.carrier == "timestamp" and n.data.time:
                self.time[n.post_id or ""] = n.data.time
        for n in nodes:
            if n.kind != "evidence" or n.status == "removed":
                continue
            pid = n.post_id or ""
            self.feats[n.node_id] = n.data.features or _NO_FEATURES
            if n.carrier == "exif" and n.data.time and pid not in self.time:
                self.time[pid] = n.data.time
            if n.data.gazetteer:
                self.gazetteer[normalize(n.data.gazetteer.name)] = n
                continue
            if n.carrier == "ip_region" and n.content:
                self.ip[pid] = (n.node_id, n.content)
                continue
            if n.data.hostile and (n.data.hostile_scope or "all") == "all":
                continue
            by_other = bool(n.data.by_other)
            if n.carrier not in ("timestamp", "exif") and n.content and n.modality != "image" or n.data.lines:
                (self.other_text if by_other else self.post_text)[pid].append((n.node_id, _masked(n)))
            for cue in n.data.cues or []:
                if by_other and cue.attribute not in OTHER_OK:
                    continue
                if cue.data.stance in DROP_STANCES:
                    continue   # quoted / hypothetical: not a statement about the poster
                self.cues.append(CueRec(n.node_id, pid, n.carrier or "", cue, self.time.get(pid), by_other))
            if not by_other:
                for e in n.data.entities or []:
                    self.entities.append((n, e))

    @property
    def trip_posts(self) -> set[str]:
        """Posts whose IP region differs from the account's usual one (>= 3 labelled posts)."""
        if "_trip" not in self.__dict__:
            regs = Counter(normalize(r) for p, (_, r) in self.ip.items() if p != "@profile")
            trip: set[str] = set()
            if sum(regs.values()) >= 3:
                usual, n = regs.most_common(1)[0]
                if n >= 0.5 * sum(regs.values()):
                    trip = {p for p, (_, r) in self.ip.items() if p != "@profile" and normalize(r) != usual}
            self.__dict__["_trip"] = trip
        return self.__dict__["_trip"]

    def feat(self, node_id: str, key: str, default: Any = None) -> Any:
        """One text feature of a node (rules.features, attached at perception); only a declared one."""
        if self.reading is not None and f"feature:{key}" not in self.reading:
            raise RegistryError(f"an aggregator reads 'feature:{key}', which it does not declare in consumes")
        v = getattr(self.feats.get(node_id, _NO_FEATURES), key)
        return default if v is None else v

    def post_has(self, post_id: str, key: str) -> bool:
        """Does any of the post's own texts have this feature?"""
        return any(self.feat(nid, key) for nid, _ in self.post_text.get(post_id, []))

    def post_items(self, post_id: str, key: str) -> list[Any]:
        """A list feature over the post's own texts, in order."""
        return [x for nid, _ in self.post_text.get(post_id, []) for x in self.feat(nid, key, [])]

    def sentences(self, post_id: str) -> list[tuple[str, str, str]]:
        """(raw sentence, stripped sentence, flags) of the post's own texts, in order."""
        return [(text[a:b], text[a:b].strip(), fl) for nid, text in self.post_text.get(post_id, [])
                for a, b, fl in self.feat(nid, "sentences", [])]

    def of_post(self, post_id: str) -> list[EvidenceNode]:
        """The nodes of a post, in graph order (indexed once: aggregators ask per post, and a
        scan per post is quadratic in the account's size)."""
        return self._post_index().get(post_id, [])

    def posts(self) -> list[str]:
        return sorted(self._post_index())

    def _post_index(self) -> dict[str, list[EvidenceNode]]:
        if "_by_post" not in self.__dict__:
            idx: dict[str, list[EvidenceNode]] = defaultdict(list)
            for n in self.nodes.values():
                if n.post_id:
                    idx[n.post_id].append(n)
            self.__dict__["_by_post"] = dict(idx)
        return self.__dict__["_by_post"]


def _masked(n: EvidenceNode) -> str:
    """The node's text with the sentences around hostile spans blanked (what its features were read from)."""
    if not n.data.hostile:
        return n.content
    return masked_text(n.content, list(n.data.hostile))


# ---------------------------------------------------------------- combining


def noisy_or(confs: Iterable[float]) -> float:
    p = 1.0
    for c in confs:
        p *= 1.0 - max(0.0, min(0.95, c))
    return round(min(0.97, 1.0 - p), 4)


def compatible(a: dict[str, str], b: dict[str, str]) -> bool:
    shared = [k for k in a if k in b]
    return bool(shared) and all(normalize(a[k]) == normalize(b[k]) for k in shared)


def order_levels(attr: str, levels: dict[str, str]) -> dict[str, str]:
    spec = load_schema().get(attr)
    order = list(spec.levels) if spec and spec.levels else []
    known = [k for k in order if k in levels]
    rest = [k for k in levels if k not in order]
    return {k: levels[k] for k in known + rest}


def display(attr: str, levels: dict[str, str]) -> str:
    """Fine-to-coarse, as a person would write it ('Nanshan District, Shenzhen, Guangdong, China')."""
    lv = order_levels(attr, levels)
    vals: list[str] = []
    for v in reversed(list(lv.values())):
        if not any(normalize(v) == normalize(x) for x in vals):
            vals.append(v)
    return ", ".join(vals)


def finest(attr: str, levels: dict[str, str]) -> str | None:
    lv = order_levels(attr, levels)
    return list(lv)[-1] if lv else None


def granularity(attr: str, levels: dict[str, str]) -> float:
    spec = load_schema().get(attr)
    if not spec or not spec.levels:
        return 1.0
    depth = max((spec.levels.index(k) + 1 for k in levels if k in spec.levels), default=0)
    return round(depth / len(spec.levels), 3)


def relevel(h: Hypothesis, levels: dict[str, str]) -> None:
    """Give a proposed hypothesis finer levels in place: its levels in schema order, the value shown
    and the granularity follow from them."""
    h.levels = order_levels(h.attribute, levels)
    h.value = display(h.attribute, h.levels)
    h.granularity = granularity(h.attribute, h.levels)


def cluster(recs: list[CueRec]) -> list[Cluster]:
    """Greedy clustering of hierarchical/category cues by level agreement (strongest first)."""
    clusters: list[Cluster] = []
    for r in sorted(recs, key=lambda r: (-r.cue.confidence, r.node_id)):
        lv = r.levels
        for c in clusters:
            if compatible(c.levels, lv):
                for k, v in lv.items():
                    c.levels.setdefault(k, v)
                c.recs.append(r)
                break
        else:
            clusters.append(Cluster(levels=dict(lv), recs=[r]))
    for c in clusters:
        per_post: dict[str, float] = {}
        for r in c.recs:
            w = r.cue.confidence * (0.6 if r.by_other else 1.0)
            per_post[r.post_id] = max(per_post.get(r.post_id, 0.0), w)
        c.score = round(sum(per_post.values()), 4)
    clusters.sort(key=lambda c: (-c.score, -len(c.levels), display("x", c.levels)))
    return clusters


def support(recs: Iterable[Any]) -> list[str]:
    """The node ids of records, first-seen order, each once."""
    # dict keys: ordered and O(1) membership (a list's `in` made this quadratic in the group's size)
    return list(dict.fromkeys(r.node_id for r in recs))


def cluster_conf(c: Cluster) -> float:
    per_post: dict[str, float] = {}
    for r in c.recs:
        cue = getattr(r, "cue", None)
        v = cue.confidence if cue is not None else getattr(r, "conf", 0.5)
        per_post[r.post_id] = max(per_post.get(r.post_id, 0.0), v * (0.6 if getattr(r, "by_other", False) else 1))
    return noisy_or(per_post.values())


def hyp(attr: str, levels: dict[str, str], evidence: list[str], conf: float, rationale: str, *,
        needs: list[Need] | None = None, data: dict[str, Any] | None = None) -> Hypothesis:
    """THE shape of a proposed hypothesis: hierarchies get ordered levels, display value, finest
    level and granularity; other kinds take the single value."""
    spec = load_schema().get(attr)
    hier = bool(spec and spec.kind == "hierarchy")
    lv = order_levels(attr, levels) if hier else {}
    # a category value may carry a finer qualifier (religion: Christianity + denomination Catholic)
    value = display(attr, lv) if hier else display(attr, levels) if "denomination" in levels else next(iter(levels.values()))
    return Hypothesis(attribute=attr, value=value, level=finest(attr, lv) if hier else None,
                      granularity=granularity(attr, lv) if hier else 1.0, confidence=conf, evidence=evidence,
                      rationale=rationale[:400], needs=needs or [], levels=lv,
                      data=HypothesisExtras(**data) if data else HypothesisExtras())


def is_semantic(r: CueRec) -> bool:
    return r.cue.cue.startswith(SEMANTIC)
