"""Hypothesizer (offline): reads the whole evidence graph and proposes hypotheses.

Per-post cues (core.engine.rules) are only the raw material; the value of this stage is
cross-post aggregation: several weak mentions of one value add up; places are scored as
home / work / trip by frequency, time of day, weekday, wording and IP region; repeated
stations on weekday mornings become a commute; a birthday post's date plus a stated age
becomes a birth date; hierarchical cues merge level by level (coarse to fine) as long as
they agree. Every hypothesis lists the evidence node ids that support it; admitted
hypotheses are derived evidence and may support later ones (age <-> birth date).

Config flags: hypothesizer=False -> one hypothesis per cue, no aggregation;
cpeg=False -> aggregation inside each post only (no cross-post reasoning).
"""
from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable

from core.engine.context import RunContext
from core.engine.graph import hypothesis_key
from core.engine.places import LEVELS as PLACE_LEVELS
from core.engine.places import find_places, resolve_levels
from core.engine.types import Cue, EvidenceNode, Hypothesis
from core.schema import load_schema
from core.textmatch import normalize

PLACE_ATTRS = ("home_location", "work_location")
OTHER_OK = {"real_name", "birth_date", "age"}        # attributes a friend's comment may reveal
DROP_STANCES = ("quote", "hypothetical")             # rules.base.Ctx.stance values that are not evidence
# semantic cues (rules/semantic.py): fitted on the development sets, see docs/semantic.md
SEMANTIC = "semantic:"
SEMANTIC_MAX_CONF = 0.6          # semantic support alone never states more than this
SEMANTIC_SHARE_POWER = 0.5       # how much a scattered semantic vote is discounted
SEMANTIC_SET_POSTS = 2           # posts needed for a set / facts item with semantic support only
SEMANTIC_PROJECT_MIN = 0.30      # projection threshold of semantic-only hypotheses (benchmarks/calibration.py claims)
MAX_SET_ITEMS = 10

_TRAVEL = re.compile(
    r"\b(?:trip|travel(?:l?ing|led)?|vacation|holiday|getaway|visit(?:ing|ed)?|tour(?:ing)?|flew|flight|"
    r"road\s*trip|backpack(?:ing)?|sightseeing|business\s+trip|weekend\s+in|abroad|overseas)\b"
    r"|旅游|旅行|出差|度假|游玩|打卡|自驾|出游|飞到|来到|玩了", re.I)
_HOME = re.compile(r"\b(?:home|back\s+home|my\s+(?:neighbou?rhood|place|flat|apartment|building|street|area)|"
                   r"downstairs|our\s+(?:place|street|building))\b|回家|到家|家附近|我家|小区|楼下|家门口", re.I)
_WORK = re.compile(r"\b(?:office|work(?:ing|place)?|shift|meeting|commute|colleagues?|overtime|desk|"
                   r"clock(?:ed)?\s+in)\b|上班|下班|公司|加班|同事|单位|工位|开会|打卡上班", re.I)
_BIRTHDAY_SELF = re.compile(
    r"\bmy\s+(?:\d{1,3}(?:st|nd|rd|th)\s+)?(?:birthday|bday|b-day)\b|\bbirthday\s+(?:girl|boy|me|treat\s+for\s+myself)\b|"
    r"\bturn(?:ed|ing)?\s+\d{1,3}\s+today\b|\bi(?:'m| am)\s+\d{1,3}\s+today\b|\banother\s+trip\s+around\s+the\s+sun\b|"
    r"我的生日|我生日|本人生日|(?<![\u4e00-\u9fff的\d])\d{1,3}岁生日|我的?\d{1,3}岁生日|生日当天|今天.{0,3}(?:我|本人).{0,3}生日|"
    r"生日.{0,6}(?:给自己|自己给|犒劳自己)|给自己.{0,8}生日|又老了一岁|(?:^|[。！!，,\s])生日(?:快乐)?(?:到了|啦|这天)", re.I)
_BIRTHDAY_OTHER = re.compile(r"\bhappy\s+(?:\d{1,3}(?:st|nd|rd|th)\s+)?(?:birthday|bday)\b|生日快乐", re.I)
_NOT_TODAY = re.compile(r"\b(?:next|last|upcoming|coming|tomorrow|yesterday|soon|ago|in\s+\d+\s+days)\b|明天|下周|下个月|昨天|上周|快到了|还有", re.I)
_AGE_IN = re.compile(r"\bmy\s+(\d{1,2})(?:st|nd|rd|th)\s+(?:birthday|bday)\b|\bturn(?:ed|ing)?\s+(\d{1,2})\b|"
                     r"\bi(?:'m| am)\s+(\d{1,2})\s+today\b|(?<![\u4e00-\u9fff的\d])(\d{1,2})岁生日|我的?(\d{1,2})岁(?:生日|了)", re.I)
_YEAR_SELF = re.compile(r"\bborn\s+in\s+((?:19|20)\d{2})\b|\b(?:i\s+was\s+)?born\s+in\s+'(\d{2})\b|"
                        r"((?:19|20)\d{2})年(?:出生|生人|生的)|(?<!\d)(\d{2})年(?:出生|生人|的我|生的我)|"
                        r"\bclass\s+of\s+((?:19|20)\d{2})\b(?!.{0,20}graduat)", re.I)
_LINE = re.compile(r"\b(?:[A-Z][a-z]+[\s-]){1,3}[Ll]ine\b|\b[Ll]ine\s*\d{1,2}\b|(?:地铁)?\d{1,2}\s*号线|"
                   r"[\u4e00-\u9fff]{1,6}线(?=[，。,\s]|$)|\b[A-Z]{1,3}\d?\s+[Ll]ine\b")
_COMMUTE_WORDS = re.compile(r"\b(?:metro|subway|tube|underground|mtr|mrt|bts|train|bus|tram|ferry|commut\w*|ride|"
                            r"station|drive|driving|cycl\w*|bike|scooter|on\s+my\s+way\s+to\s+work)\b|地铁|公交|通勤|号线|"
                            r"地铁站|车站|开车|骑车|单车|轻轨|上班路上|去上班", re.I)
_SENT = re.compile(r"[^.!?。！？\n]+")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


@dataclass
class CueRec:
    node_id: str
    post_id: str
    carrier: str
    cue: Cue
    time: dict[str, Any]
    by_other: bool = False

    @property
    def levels(self) -> dict[str, str]:
        lv = self.cue.data.get("levels") if isinstance(self.cue.data, dict) else None
        if isinstance(lv, dict) and lv:
            return {str(k): str(v) for k, v in lv.items() if v}
        return {self.cue.level or "value": self.cue.value}


@dataclass
class PlaceObs:
    node_id: str
    post_id: str
    levels: dict[str, str]
    source: str            # home_cue|work_cue|travel_cue|tag|exif|mention|ip|station
    time: dict[str, Any]
    conf: float = 0.5
    name: str = ""
    extra: dict[str, str] = field(default_factory=dict)   # finer levels (address) stated by the evidence


@dataclass
class Cluster:
    levels: dict[str, str]
    recs: list[Any] = field(default_factory=list)
    score: float = 0.0


# ---------------------------------------------------------------- collection


class GraphFacts:
    """The evidence of the graph in the shapes the aggregators need."""

    def __init__(self, ctx: RunContext, nodes: list[EvidenceNode]):
        self.ctx = ctx
        self.nodes = {n.node_id: n for n in nodes}
        self.time: dict[str, dict[str, Any]] = {}
        self.post_text: dict[str, list[str]] = defaultdict(list)      # own (non-hostile) text per post
        self.other_text: dict[str, list[tuple[str, str]]] = defaultdict(list)
        self.ip: dict[str, tuple[str, str]] = {}                     # post -> (node id, region)
        self.cues: list[CueRec] = []
        self.entities: list[tuple[EvidenceNode, dict[str, Any]]] = []
        self.gazetteer: dict[str, EvidenceNode] = {}                 # normalized name -> tool evidence
        for n in nodes:
            if n.kind != "evidence" or n.status == "removed":
                continue
            if n.carrier == "timestamp" and n.data.get("time"):
                self.time[n.post_id or ""] = n.data["time"]
        for n in nodes:
            if n.kind != "evidence" or n.status == "removed":
                continue
            pid = n.post_id or ""
            if n.carrier == "exif" and n.data.get("time") and pid not in self.time:
                self.time[pid] = n.data["time"]
            if n.data.get("gazetteer"):
                self.gazetteer[normalize(n.data["gazetteer"].get("name", ""))] = n
                continue
            if n.carrier == "ip_region" and n.content:
                self.ip[pid] = (n.node_id, n.content)
                continue
            if n.data.get("hostile") and n.data.get("hostile_scope", "all") == "all":
                continue
            by_other = bool(n.data.get("by_other"))
            if n.carrier not in ("timestamp", "exif") and n.content and n.modality != "image" or n.data.get("lines"):
                text = _masked(n)
                (self.other_text[pid].append((n.node_id, text)) if by_other
                 else self.post_text[pid].append(text))
            for c in n.data.get("cues", []) or []:
                try:
                    cue = Cue.model_validate(c)
                except Exception:
                    continue
                if by_other and cue.attribute not in OTHER_OK:
                    continue
                if cue.data.get("stance") in DROP_STANCES:
                    continue   # quoted / hypothetical: not a statement about the poster
                self.cues.append(CueRec(n.node_id, pid, n.carrier or "", cue, self.time.get(pid, {}), by_other))
            if not by_other:
                for e in n.data.get("entities", []) or []:
                    self.entities.append((n, e))

    @property
    def trip_posts(self) -> set[str]:
        """Posts whose IP region differs from the account's usual one (>= 3 labelled posts)."""
        if "_trip" not in self.__dict__:
            from collections import Counter

            regs = Counter(normalize(r) for p, (_, r) in self.ip.items() if p != "@profile")
            trip: set[str] = set()
            if sum(regs.values()) >= 3:
                usual, n = regs.most_common(1)[0]
                if n >= 0.5 * sum(regs.values()):
                    trip = {p for p, (_, r) in self.ip.items() if p != "@profile" and normalize(r) != usual}
            self.__dict__["_trip"] = trip
        return self.__dict__["_trip"]

    def text_of(self, post_id: str) -> str:
        return "\n".join(self.post_text.get(post_id, []))

    def posts(self) -> list[str]:
        return sorted({n.post_id for n in self.nodes.values() if n.post_id})


def _masked(n: EvidenceNode) -> str:
    """The node's text with the sentences around hostile spans blanked (same length)."""
    if not n.data.get("hostile"):
        return n.content
    from core.engine.perceiver import _hostile_ranges

    chars = list(n.content)
    for a, b in _hostile_ranges(n.content, list(n.data["hostile"])):
        for i in range(max(0, a), min(len(chars), b)):
            chars[i] = " "
    return "".join(chars)


def _collect(ctx: RunContext) -> list[EvidenceNode]:
    g = ctx.graph
    nodes = list(g.nodes.values())
    return nodes


# ---------------------------------------------------------------- helpers


def _noisy_or(confs: Iterable[float]) -> float:
    p = 1.0
    for c in confs:
        p *= 1.0 - max(0.0, min(0.95, c))
    return round(min(0.97, 1.0 - p), 4)


def _compatible(a: dict[str, str], b: dict[str, str]) -> bool:
    shared = [k for k in a if k in b]
    return bool(shared) and all(normalize(a[k]) == normalize(b[k]) for k in shared)


def _order_levels(attr: str, levels: dict[str, str]) -> dict[str, str]:
    spec = load_schema().get(attr)
    order = list(spec.levels) if spec and spec.levels else []
    known = [k for k in order if k in levels]
    rest = [k for k in levels if k not in order]
    return {k: levels[k] for k in known + rest}


def _display(attr: str, levels: dict[str, str]) -> str:
    """Fine-to-coarse, as a person would write it ('Nanshan District, Shenzhen, Guangdong, China')."""
    lv = _order_levels(attr, levels)
    vals: list[str] = []
    for v in reversed(list(lv.values())):
        if not any(normalize(v) == normalize(x) for x in vals):
            vals.append(v)
    return ", ".join(vals)


def _finest(attr: str, levels: dict[str, str]) -> str | None:
    lv = _order_levels(attr, levels)
    return list(lv)[-1] if lv else None


def _granularity(attr: str, levels: dict[str, str]) -> float:
    spec = load_schema().get(attr)
    if not spec or not spec.levels:
        return 1.0
    depth = max((spec.levels.index(k) + 1 for k in levels if k in spec.levels), default=0)
    return round(depth / len(spec.levels), 3)


def _cluster(recs: list[CueRec]) -> list[Cluster]:
    """Greedy clustering of hierarchical/category cues by level agreement (strongest first)."""
    clusters: list[Cluster] = []
    for r in sorted(recs, key=lambda r: (-r.cue.confidence, r.node_id)):
        lv = r.levels
        for c in clusters:
            if _compatible(c.levels, lv):
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
    clusters.sort(key=lambda c: (-c.score, -len(c.levels), _display("x", c.levels)))
    return clusters


def _support(recs: Iterable[Any]) -> list[str]:
    seen: list[str] = []
    for r in recs:
        if r.node_id not in seen:
            seen.append(r.node_id)
    return seen


def _conf(cluster: Cluster) -> float:
    per_post: dict[str, float] = {}
    for r in cluster.recs:
        c = getattr(r, "cue", None)
        v = c.confidence if c is not None else getattr(r, "conf", 0.5)
        per_post[r.post_id] = max(per_post.get(r.post_id, 0.0), v * (0.6 if getattr(r, "by_other", False) else 1))
    return _noisy_or(per_post.values())


def _hyp(attr: str, levels: dict[str, str], evidence: list[str], conf: float, rationale: str, *,
         needs: list[str] | None = None, data: dict[str, Any] | None = None) -> Hypothesis:
    spec = load_schema().get(attr)
    hier = bool(spec and spec.kind == "hierarchy")
    lv = _order_levels(attr, levels) if hier else {}
    value = _display(attr, lv) if hier else next(iter(levels.values()))
    return Hypothesis(attribute=attr, value=value, level=_finest(attr, lv) if hier else None,
                      granularity=_granularity(attr, lv) if hier else 1.0, confidence=conf, evidence=evidence,
                      rationale=rationale[:400], needs=needs or [], levels=lv, data=data or {})


# ---------------------------------------------------------------- aggregators


def _semantic(r: CueRec) -> bool:
    return r.cue.cue.startswith(SEMANTIC)


def _sem_conf(c: Cluster, clusters: list[Cluster]) -> float:
    """Confidence of a cluster supported by semantic cues only: the noisy-or of its posts, scaled
    by its share of all the semantic support of the attribute (sixty comments that each lean a
    little towards sixty different jobs are noise, not evidence). Fitted: docs/semantic.md."""
    total = sum(x.score for x in clusters if all(_semantic(r) for r in x.recs))
    share = c.score / total if total > 0 else 0.0
    return round(min(SEMANTIC_MAX_CONF, _conf(c) * share ** SEMANTIC_SHARE_POWER), 4)


def _sem_data(sem_only: bool, conf: float) -> dict[str, Any]:
    """Marks a hypothesis with semantic support only; below the projection threshold it is held
    (the verifier leaves it unresolved: grounded, kept in the graph, not projected)."""
    # both keys always written: a later update of the same hypothesis must clear a stale hold
    held = sem_only and conf < SEMANTIC_PROJECT_MIN
    return {"semantic_only": sem_only,
            "hold": f"semantic support only, confidence {conf:.2f} below {SEMANTIC_PROJECT_MIN}" if held else None}


def _hint(r: CueRec) -> bool:
    sem = r.cue.data.get("semantic") if isinstance(r.cue.data, dict) else None
    return bool(isinstance(sem, dict) and sem.get("hint"))


def _generic(attr: str, recs: list[CueRec], kind: str) -> list[Hypothesis]:
    """Hints (weak semantic matches) count only when no other cue speaks to the attribute, and
    what they give is held: a grounded reading for the record, never a projected claim."""
    firm = [r for r in recs if not _hint(r)]
    if firm or not recs:
        return _generic_firm(attr, firm, kind)
    out = _generic_firm(attr, recs, kind)
    for h in out:
        h.data["hold"] = "semantic hints only"
    return out


def _generic_firm(attr: str, recs: list[CueRec], kind: str) -> list[Hypothesis]:
    out: list[Hypothesis] = []
    if kind in ("hierarchy", "category"):
        clusters = _cluster(recs)
        if not clusters:
            return out
        sem_only = [all(_semantic(r) for r in c.recs) for c in clusters]
        top = clusters[0]
        ambiguous = False
        if len(clusters) > 1:
            second = clusters[1]
            coarse_conflict = not _compatible(top.levels, second.levels)
            # weak semantic support alone never makes a rule-supported reading ambiguous
            ambiguous = (coarse_conflict and second.score >= 0.85 * top.score and kind == "category"
                         and sem_only[1] <= sem_only[0])
        posts = len({r.post_id for r in top.recs})
        conf = _sem_conf(top, clusters) if sem_only[0] else _conf(top)
        out.append(_hyp(attr, top.levels, _support(top.recs), conf,
                        f"{len(top.recs)} cue(s) in {posts} post(s) agree: "
                        + "; ".join(sorted({r.cue.span for r in top.recs if r.cue.span})[:4]),
                        data={"ambiguous": ambiguous, "score": top.score, **_sem_data(sem_only[0], conf)}))
        if len(clusters) > 1 and (kind == "hierarchy" or sem_only[0]):
            # the competing reading (hierarchy), or the best rule-supported reading below a semantic one
            rule_i = next((k for k, so in enumerate(sem_only) if not so), 0) if sem_only[0] else 0
            i = rule_i or (1 if kind == "hierarchy" else 0)
            c = clusters[i]
            if i and (c.score >= 0.6 * top.score or rule_i):
                cc = _sem_conf(c, clusters) if sem_only[i] else _conf(c)
                out.append(_hyp(attr, c.levels, _support(c.recs), round(cc * (0.8 if not sem_only[0] else 1.0), 4),
                                "competing reading: " + "; ".join(sorted({r.cue.span for r in c.recs})[:3]),
                                data={"runner_up": True, "score": c.score, **_sem_data(sem_only[i], cc)}))
        return out
    # set / facts: one hypothesis per distinct item
    groups: dict[str, list[CueRec]] = defaultdict(list)
    for r in recs:
        groups[normalize(r.cue.value)].append(r)
    for key, grp in sorted(groups.items(), key=lambda kv: (-sum(r.cue.confidence for r in kv[1]), kv[0])):
        best = max(grp, key=lambda r: r.cue.confidence)
        posts = sorted({r.post_id for r in grp})
        conf = _noisy_or(max(r.cue.confidence for r in grp if r.post_id == p) for p in posts)
        sem = all(_semantic(r) for r in grp)
        if sem:
            if len(posts) < SEMANTIC_SET_POSTS:
                continue   # one sentence that sounds like a hobby is not yet an item
            conf = round(min(SEMANTIC_MAX_CONF, conf), 4)
        if attr == "frequent_venues" and len(posts) < 2 and best.cue.confidence < 0.5:
            continue   # one visit is not a regular venue
        value = best.cue.value
        if kind == "facts" and best.cue.span and normalize(best.cue.span) not in normalize(value):
            value = f"{value} ({best.cue.span})"
        out.append(_hyp(attr, {"value": value}, _support(grp), conf,
                        f"seen in {len(posts)} post(s): " + "; ".join(sorted({r.cue.span for r in grp})[:3]),
                        data={"posts": posts, **_sem_data(sem, conf)}))
        if len(out) >= MAX_SET_ITEMS:
            break
    return out


def _place_obs(f: GraphFacts) -> list[PlaceObs]:
    obs: list[PlaceObs] = []
    for r in f.cues:
        if r.by_other or not r.cue.first_person:
            continue
        src = {"home_location": "home_cue", "work_location": "work_cue", "travel_history": "travel_cue"}.get(
            r.cue.attribute)
        if src is None:
            continue
        lv = {k: v for k, v in r.levels.items() if k in PLACE_LEVELS}
        extra = {k: v for k, v in r.levels.items() if k == "address"}
        if not lv and not extra:
            lv = resolve_levels(r.cue.value)
        obs.append(PlaceObs(r.node_id, r.post_id, lv, src, r.time, r.cue.confidence, r.cue.value, extra))
    for n, e in f.entities:
        if e.get("type") not in ("place", "station"):
            continue
        et = str(e.get("text", ""))
        if et.isascii() and len(et.replace(".", "")) <= 3 and et.upper().replace(".", "") not in _ABBREV:
            continue   # "TO", "Of", "IN": capitalised short words are rarely places
        if et.isascii() and et[:1].islower() and re.search(r"\b[A-Z][a-z]", n.content or ""):
            continue   # the author capitalises names, so "reunion" / "nice" are words here
        lv = dict((e.get("data") or {}).get("levels") or {})
        if not lv:
            lv = resolve_levels(e.get("text", ""))
        if not lv:
            continue
        src = "tag" if n.data.get("location_tag") else ("station" if e.get("type") == "station" else "mention")
        if n.carrier == "ticket" and re.search(r"(?:→|->|\bto\b|至|到|抵达|arrive|destination)\s*\S{0,12}" + re.escape(et),
                                               n.content or "", re.I):
            src = "travel_cue"    # the destination printed on a ticket / boarding pass
        if src == "mention" and n.modality == "image" and _RECIPIENT.search(n.content or ""):
            src = "parcel"        # an address on a parcel / bill addressed to the user: home
        elif src in ("mention", "station") and n.modality == "image" and _route_end(n.content or "", et) == "home":
            src = "home_cue"      # "Kwun Tong → Work" on a navigation screenshot: the origin is home
        elif src in ("mention", "station") and n.modality == "image" and _route_end(n.content or "", et) == "work":
            src = "work_cue"
        obs.append(PlaceObs(n.node_id, n.post_id or "", {k: v for k, v in lv.items() if k in PLACE_LEVELS}, src,
                            f.time.get(n.post_id or "", {}), 0.5, e.get("text", "")))
    for n in f.nodes.values():
        gp = n.data.get("gps_place") if n.kind == "evidence" and n.carrier == "exif" else None
        if gp and gp.get("levels"):
            obs.append(PlaceObs(n.node_id, n.post_id or "", dict(gp["levels"]), "exif",
                                n.data.get("time") or f.time.get(n.post_id or "", {}), 0.6, gp.get("name", "")))
    strong_by_post: dict[str, list[dict[str, str]]] = defaultdict(list)
    for o in obs:
        if o.source in ("tag", "exif", "travel_cue", "home_cue", "work_cue") and o.levels:
            strong_by_post[o.post_id].append(_full(o.levels))
    obs = [o for o in obs if o.source not in ("mention", "station") or not strong_by_post.get(o.post_id)
           or any(_compatible(_full(o.levels), s) for s in strong_by_post[o.post_id])]
    for pid, (nid, region) in f.ip.items():
        lv = resolve_levels(region)
        if lv:
            lv = {k: v for k, v in lv.items() if k in ("country", "region")} or lv
            src = "travel_ip" if pid in f.trip_posts else "ip"
            obs.append(PlaceObs(nid, pid, lv, src, f.time.get(pid, {}), 0.45 if src == "travel_ip" else 0.3, region))
    return obs

_ABBREV = {"NYC", "LA", "SF", "HK", "SG", "KL", "BJ", "SZ", "SH", "DC", "UK", "US", "USA", "UAE", "GZ", "HCM", "NY"}
_RECIPIENT = re.compile(r"\b(?:to|ship\s+to|deliver\s+to|recipient|addressee|consignee|bill\s+to)\s*[:：]|"
                        r"收件人|收货人|收货地址|送货地址|寄至|派送至", re.I)
_ROUTE = re.compile(r"([^\n→]{2,40}?)\s*(?:→|->|⇒|➔|至|到)\s*(home|work|office|家|公司|单位|上班)\b", re.I)


def _route_end(text: str, place: str) -> str | None:
    """'A → Work' (A is home) / 'A → Home' (A is work) on a navigation screenshot."""
    for m in _ROUTE.finditer(text):
        if place and place in m.group(1):
            end = m.group(2).lower()
            return "home" if end in ("work", "office", "公司", "单位", "上班") else "work"
    return None


def _canonicalize(obs: list[PlaceObs]) -> None:
    """A 'city' that is really a district seen elsewhere in the same region ('Kwun Tong' vs
    'Kwun Tong District' of Hong Kong) takes that district's levels, so both vote together."""
    districts: dict[tuple[str, str], dict[str, str]] = {}
    for o in obs:
        if "district" in o.levels:
            key = (normalize(o.levels.get("region", "")), _strip_admin(o.levels["district"]))
            districts.setdefault(key, o.levels)
    for o in obs:
        if "district" not in o.levels and "city" in o.levels:
            key = (normalize(o.levels.get("region", "")), _strip_admin(o.levels["city"]))
            if key in districts and normalize(districts[key].get("city", "")) != normalize(o.levels["city"]):
                o.levels = dict(districts[key])


def _strip_admin(name: str) -> str:
    n = normalize(name)
    for suf in (" district", " county", " borough", " ward", "区", "县"):
        if n.endswith(suf):
            return n[: -len(suf)].strip()
    return n



def _city_key(lv: dict[str, str]) -> str | None:
    for k in ("city", "region", "country"):
        if k in lv:
            base = normalize(lv.get("country", "")) + "/" + (normalize(lv.get("region", "")) if k != "country" else "")
            return f"{k}:{base}:{normalize(lv[k])}"
    return None


def _full(lv: dict[str, str]) -> dict[str, str]:
    """Internal: ancestors filled from the gazetteer for grouping (never shown unless routed)."""
    finest = next((lv[k] for k in reversed(PLACE_LEVELS) if k in lv), None)
    if finest is None:
        return lv
    anc = resolve_levels(finest, ", ".join(lv.values()))
    merged = dict(anc) if _compatible(anc, lv) or not anc else {}
    merged.update(lv)
    return merged


def _home_weight(o: PlaceObs, f: GraphFacts) -> tuple[float, float, float]:
    """(home, work, trip) weight of one observation."""
    text = f.text_of(o.post_id)
    travel = bool(_TRAVEL.search(text)) or o.source == "travel_cue" or o.post_id in f.trip_posts
    t = o.time or {}
    weekday = t.get("is_weekday")
    hour = t.get("hour")
    off_hours = (weekday is False) or (hour is not None and (hour >= 19 or hour < 8))
    office_hours = weekday is True and hour is not None and 9 <= hour < 18
    if o.source == "home_cue":
        return 3.0 * o.conf, 0.0, 0.0
    if o.source == "work_cue":
        return 0.0, 3.0 * o.conf, 0.0
    if o.source == "parcel":
        return 2.5, 0.0, 0.0
    if o.source == "travel_cue":
        return -1.0, 0.0, 2.0 * o.conf
    if o.source == "travel_ip":
        return -0.3, 0.0, 1.3
    if o.source == "ip":
        return 0.35, 0.0, 0.0
    base = 0.8 if o.source in ("tag", "exif") else 0.5
    if travel:
        return -0.5, 0.0, base + 0.7
    home = base * (1.3 if (off_hours or _HOME.search(text)) else 0.8)
    work = base * (1.2 if (office_hours and _WORK.search(text)) else 0.3 if office_hours else 0.0)
    return home, work, base * 0.4


def _place_hypotheses(f: GraphFacts, ctx: RunContext) -> list[Hypothesis]:
    obs = _place_obs(f)
    if not obs:
        return []
    _canonicalize(obs)
    groups: dict[str, list[PlaceObs]] = defaultdict(list)
    full_of: dict[int, dict[str, str]] = {}
    for i, o in enumerate(obs):
        full = _full(o.levels) if o.levels else {}
        full_of[i] = full
        key = _city_key(full)
        if key:
            groups[key].append(o)
    # region-level groups (ip) count for city groups in the same region
    scores: dict[str, list[float]] = {}
    for key, grp in groups.items():
        h = w = t = 0.0
        for o in grp:
            a, b, c = _home_weight(o, f)
            h, w, t = h + a, w + b, t + c
        posts = len({o.post_id for o in grp if o.source != "ip"})
        scores[key] = [h + 0.2 * max(0, posts - 1), w, t, posts]
    for key, grp in groups.items():
        if key.startswith("region:") or key.startswith("country:"):
            region = key.split(":")[-1]
            for k2 in scores:
                if k2.startswith("city:") and f"/{region}:" in k2:
                    scores[k2][0] += 0.5 * scores[key][0]
    out: list[Hypothesis] = []
    ranked = sorted(scores, key=lambda k: (-scores[k][0], k))
    home_key = ranked[0] if ranked and scores[ranked[0]][0] >= 0.3 else None
    if home_key:
        out += _place_hyp("home_location", groups[home_key], scores[home_key][0], f, "home")
    wranked = sorted(scores, key=lambda k: (-scores[k][1], k))
    if wranked and scores[wranked[0]][1] >= 1.0:
        wk = wranked[0]
        out += _place_hyp("work_location", groups[wk], scores[wk][1], f, "work")
    # trips: other cities/countries than home, with trip wording or a one-off visit
    home_full = _full(_merge_levels(groups[home_key])) if home_key else {}
    for key in sorted(groups, key=lambda k: (-scores[k][2], k)):
        if key == home_key or not key.startswith(("city:", "country:", "region:")):
            continue
        grp = groups[key]
        h, w, t, posts = scores[key]
        if all(o.source == "ip" for o in grp):
            continue
        if all(o.source == "travel_ip" for o in grp) and any(
                k2 != key and scores[k2][2] >= 0.6 and _compatible(_merge_levels(groups[k2]), _merge_levels(grp))
                for k2 in groups if k2.startswith("city:")):
            continue   # the trip's city is named elsewhere: report the city, not just the IP region
        lv = _merge_levels(grp)
        if home_full and _compatible(home_full, lv) and "city" not in lv:
            continue   # a coarser mention of the home region is not a trip
        if t < 0.6 or (h > t and posts > 2) or w > t:
            continue
        name = lv.get("city") or lv.get("region") or lv.get("country")
        if not name:
            continue
        if all(o.source in ("mention", "station") and "district" in o.levels for o in grp):
            continue   # a bare district-level name in passing (often a common word) is no trip
        if lv.get("country") and normalize(name) != normalize(lv["country"]):
            name = f"{name}, {lv['country']}"
        ev = _support(grp)
        conf = _noisy_or([0.55 if o.source in ("travel_cue", "tag", "exif", "travel_ip") else 0.4 for o in grp])
        out.append(_hyp("travel_history", {"value": name}, ev, conf,
                        f"{name}: trip wording or a one-off visit away from home ({posts} post(s))",
                        data={"posts": sorted({o.post_id for o in grp})}))
    return out


def _merge_levels(grp: list[PlaceObs]) -> dict[str, str]:
    lv: dict[str, str] = {}
    for o in sorted(grp, key=lambda o: (-o.conf, o.node_id)):
        if _compatible(lv, o.levels) or not lv:
            for k, v in o.levels.items():
                lv.setdefault(k, v)
    return lv


def _place_hyp(attr: str, grp: list[PlaceObs], score: float, f: GraphFacts, role: str) -> list[Hypothesis]:
    strong = "home_cue" if role == "home" else "work_cue"
    # evidence that may set fine levels: explicit cues, or repeated role-typical sightings
    fine_src = [o for o in grp if o.source == strong]
    lv: dict[str, str] = {}
    for o in sorted(grp, key=lambda o: (o.source != strong, -o.conf, o.node_id)):
        coarse = {k: v for k, v in o.levels.items() if k in ("country", "region", "city")}
        if _compatible(lv, coarse) or not lv:
            for k, v in coarse.items():
                lv.setdefault(k, v)
    # district: from explicit cues, else the district seen in >= 2 posts of this role
    dist_votes: dict[str, set[str]] = defaultdict(set)
    for o in grp:
        if "district" in o.levels and o.source != "ip":
            a, b, _ = _home_weight(o, f)
            explicit = o.source == strong or (role == "home" and o.source == "parcel")
            if explicit or (a if role == "home" else b) > 0.5:
                dist_votes[o.levels["district"]].add(o.post_id if not explicit else "!" + o.post_id)
    if dist_votes:
        best = max(sorted(dist_votes), key=lambda d: (any(p.startswith("!") for p in dist_votes[d]), len(dist_votes[d])))
        if any(p.startswith("!") for p in dist_votes[best]) or len(dist_votes[best]) >= 2:
            lv["district"] = best
    addr = [o.extra["address"] for o in fine_src if o.extra.get("address")]
    if not addr and role == "home":
        doc = _compound_on_document(f, lv)
        if doc:
            addr = [doc[0]]
            grp = grp + [PlaceObs(doc[1], f.nodes[doc[1]].post_id or "", {}, "document", {}, 0.6)]
    if addr:
        lv["address"] = sorted(addr, key=lambda a: (-addr.count(a), a))[0]
    ev = _support(sorted(grp, key=lambda o: (o.source == "ip", o.node_id)))
    # ancestors only via a routed gazetteer lookup (tool evidence in the graph)
    needs: list[str] = []
    finest = lv.get("district") or lv.get("city") or lv.get("region")
    if finest:
        gz = f.gazetteer.get(normalize(finest))
        if gz is not None:
            anc = gz.data["gazetteer"].get("levels", {})
            if _compatible(anc, lv):
                for k, v in anc.items():
                    lv.setdefault(k, v)
                ev.append(gz.node_id)
        else:
            depth = max(PLACE_LEVELS.index(k) for k in lv if k in PLACE_LEVELS)
            if any(k not in lv for k in PLACE_LEVELS[:depth]):
                needs.append(f"gazetteer:{finest}")
    posts = len({o.post_id for o in grp})
    conf = round(min(0.95, 1 - math.exp(-score / 2.0)), 4)
    srcs = sorted({o.source for o in grp})
    return [_hyp(attr, lv, ev[:12], conf, f"{role} area scored {score:.2f} over {posts} post(s) from {', '.join(srcs)}",
                 needs=needs, data={"score": round(score, 3)})]


_COMPOUND_ZH = re.compile(r"[\u4e00-\u9fff]{2,8}?(?:花园|小区|家园|公寓|苑|府|庭|新村|雅居|山庄|华庭|名苑|嘉园|国际|广场|湾|城|里|邨|村|居|阁|轩|大厦|公馆|雅园|新城|社区)(?=[\d\s栋幢号座单元期楼-]|$)")
_COMPOUND_EN = re.compile(r"\b(?:[A-Z][a-z']+\s+){1,3}(?:Gardens?|Estate|Residences?|Court|Apartments|Towers?|Village|Heights|"
                          r"Mansions?|Terrace|Place|Condos?|Villas?|Mews|Vista|View|Park|Square|House|Lodge|Green|Bay|"
                          r"Plaza|Grove|Walk|Point|Crescent|Quay|Wharf|Hall|Manor|Ridge)\b")
_RESIDENT = re.compile(r"\b(?:resident|residents|owner|property|tenant|management\s+fee|HOA|landlord|lease)\b|业主|住户|物业|租户|房东|小区|业委会", re.I)
_DIST_PREFIX = re.compile(r"^.*(?:区|县|街道|镇|乡|路|街|道)")


def _compound_on_document(f: GraphFacts, home: dict[str, str]) -> tuple[str, str] | None:
    """A residential compound named on a document (fee notice, lease, delivery label) that also
    names the home district or city -> the home address level (cross-evidence: the place comes
    from other posts, the compound from the document)."""
    if not home.get("district") and not home.get("city"):
        return None
    names = set()
    for k in ("district", "city"):
        if home.get(k):
            names.add(normalize(home[k]))
    for n in sorted(f.nodes.values(), key=lambda n: n.node_id):
        if n.kind != "evidence" or n.status == "removed" or n.data.get("hostile") or not n.content:
            continue
        if n.modality != "image" or not (_RESIDENT.search(n.content) or _RECIPIENT.search(n.content)):
            continue
        places = find_places(n.content)
        here = [p for p in places if any(normalize(v) in names for v in p["levels"].values())
                or normalize(p["name"]) in names]
        elsewhere = [p for p in places if p["levels"].get("city") and not here
                     and not (p["text"].isascii() and len(p["text"]) <= 3)]
        if not here and (elsewhere or not _RECIPIENT.search(n.content)):
            continue   # a document about another area, or not addressed to the user
        for rx in (_COMPOUND_EN, _COMPOUND_ZH):
            for m in rx.finditer(n.content):
                name = _DIST_PREFIX.sub("", m.group(0)) if rx is _COMPOUND_ZH else m.group(0)
                if len(name) >= 3 and not any(normalize(name) == normalize(p["text"]) for p in places):
                    return name.strip(), n.node_id
    return None


def _is_peak(t: dict[str, Any]) -> bool:
    h = t.get("hour")
    return bool(t.get("is_weekday")) and h is not None and (6 <= h < 10 or 16 <= h < 21)


def _good_station(text: str) -> bool:
    if not text or "\n" in text or _LINE.fullmatch(text.strip()):
        return False
    if re.search(r"\d\s*号线|\bline\s*\d", text, re.I):
        return False
    cjk = re.findall(r"[\u4e00-\u9fff]", text)
    return not (cjk and (len(cjk) > 7 or "的" in text))


def _commute(f: GraphFacts) -> list[Hypothesis]:
    """Stations, lines and commute wording on weekday peak-hour posts become one commute fact."""
    recs = [r for r in f.cues if r.cue.attribute == "commute" and r.cue.first_person and not r.by_other]
    stations: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for n, e in f.entities:
        if e.get("type") == "station" and _good_station(e.get("text", "")):
            stations[e.get("text", "")].append((n.node_id, n.post_id or ""))
    commute_posts: set[str] = {r.post_id for r in recs}
    for p in f.posts():
        t = f.time.get(p, {})
        if not _is_peak(t):
            continue
        text = f.text_of(p)
        if _LINE.search(text) or _COMMUTE_WORDS.search(text) or any(p == q for v in stations.values() for _, q in v):
            commute_posts.add(p)
    if not commute_posts:
        return []
    # stop names read off signs in commute posts count as stations
    for n, e in f.entities:
        if (n.post_id in commute_posts and e.get("type") == "place" and n.modality == "image"
                and n.carrier in ("sign", "ocr_text", "map", "screenshot") and len(n.content) <= 60):
            stations[e.get("text", "")].append((n.node_id, n.post_id or ""))
    lines: list[str] = []
    for p in sorted(commute_posts):
        for m in _LINE.finditer(f.text_of(p)):
            if normalize(m.group(0)) not in [normalize(x) for x in lines]:
                lines.append(m.group(0).strip())
    names = [s for s in sorted(stations, key=lambda s: (-len(stations[s]), s))
             if any(p in commute_posts for _, p in stations[s])][:4]
    if not (lines or names or recs) and len(commute_posts) < 2:
        return []
    modes = sorted({r.cue.value.split(" — ")[0] for r in recs})[:3]
    hours = sorted(f.time[p]["hour"] for p in commute_posts if f.time.get(p, {}).get("hour") is not None)
    parts = []
    if modes:
        parts.append(" / ".join(modes))
    if lines:
        parts.append("lines " + ", ".join(lines[:3]))
    if names:
        parts.append("stations " + ", ".join(names))
    if hours:
        mh = hours[len(hours) // 2]
        parts.append(("weekday mornings" if mh < 12 else "weekday evenings") + f" around {mh:02d}:00")
    quotes: list[str] = []
    for p in sorted(commute_posts):
        for m in _SENT.finditer(f.text_of(p)):
            q = m.group(0).strip()
            if q and (_COMMUTE_WORDS.search(q) or _LINE.search(q)) and len(q) <= 160 and q not in quotes:
                quotes.append(q)
    if quotes:
        parts.append("“" + " | ".join(quotes[:3]) + "”")
    ev = sorted({nid for s in names for nid, p in stations[s] if p in commute_posts} | {r.node_id for r in recs})
    if not ev:
        ev = sorted({n.node_id for n in f.nodes.values() if n.kind == "evidence" and n.post_id in commute_posts
                     and n.content and (_LINE.search(n.content) or _COMMUTE_WORDS.search(n.content))
                     and not n.data.get("by_other")})
    if not ev:
        return []
    n_posts = len(commute_posts)
    conf = _noisy_or([0.4] * n_posts + [r.cue.confidence for r in recs])
    return [_hyp("commute", {"value": "; ".join(parts)}, ev[:12], conf,
                 f"stations/lines/commute wording on {n_posts} weekday peak-hour post(s)",
                 data={"posts": sorted(commute_posts)})]


_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _routine(f: GraphFacts) -> list[Hypothesis]:
    """Activities that recur on >= 2 posts at a similar time of day become routine facts."""
    out: list[Hypothesis] = []
    by_act: dict[str, list[CueRec]] = defaultdict(list)
    for r in f.cues:
        if r.by_other or not r.cue.first_person or not r.time or _semantic(r):
            continue
        if r.cue.attribute in ("hobbies", "frequent_venues", "daily_routine"):
            by_act[normalize(r.cue.value)].append(r)
    for key, grp in sorted(by_act.items()):
        posts = {r.post_id: r for r in grp}
        if len(posts) < 2:
            continue
        times = [r.time for r in posts.values()]
        partc: dict[str, int] = defaultdict(int)
        for t in times:
            partc[str(t.get("part", "")).replace("_", " ")] += 1
        part, n = max(sorted(partc.items()), key=lambda kv: kv[1])
        if n < 2:
            continue
        days = sorted({t.get("weekday") for t in times if t.get("weekday")}, key=lambda d: _DAYS.index(d) if d in _DAYS else 9)
        hours = sorted(t["hour"] for t in times if t.get("hour") is not None)
        act = grp[0].cue.value
        when = f"{part}s" if part else ""
        day_s = ("on " + "/".join(days)) if days and len(days) <= 3 else ("most days" if len(days) >= 4 else "")
        val = f"{act} {day_s} {when}".strip() + (f" around {hours[len(hours)//2]:02d}:00" if hours else "")
        spans = sorted({r.cue.span for r in grp if r.cue.span})[:2]
        if spans:
            val += " (" + "; ".join(spans) + ")"
        out.append(_hyp("daily_routine", {"value": val}, _support(grp), _noisy_or([0.4] * len(posts)),
                        f"{act} recurs in {len(posts)} posts, mostly {part}", data={"posts": sorted(posts)}))
    return out


def _birthday(f: GraphFacts, derived: dict[str, EvidenceNode]) -> list[Hypothesis]:
    """A first-person birthday post (or friends' birthday wishes) dates the birthday; a stated
    age in it, or an admitted age hypothesis, gives the year."""
    cands: list[tuple[float, str, str, dict, int | None]] = []   # (conf, node, post, time, age)
    for pid in f.posts():
        t = f.time.get(pid)
        if not t or not t.get("date"):
            continue
        text = f.text_of(pid)
        if text and _BIRTHDAY_SELF.search(text) and not _NOT_TODAY.search(text):
            age = None
            m = _AGE_IN.search(text)
            if m:
                age = int(next(g for g in m.groups() if g))
            nid = next((n.node_id for n in f.nodes.values() if n.post_id == pid and n.kind == "evidence"
                        and n.content and _BIRTHDAY_SELF.search(n.content)), None)
            if age is None:
                for n in f.nodes.values():
                    if n.post_id == pid and n.data.get("lines") and not n.data.get("hostile"):
                        nums = [ln["text"].strip() for ln in n.data["lines"] if re.fullmatch(r"\d{1,2}", ln["text"].strip())]
                        if len(nums) == 1 and 1 < int(nums[0]) < 100:
                            age = int(nums[0])
                            f.__dict__.setdefault("age_nodes", {})[pid] = n.node_id
            if nid:
                cands.append((0.6, nid, pid, t, age))
                continue
        for nid, ctext in f.other_text.get(pid, []):
            if _BIRTHDAY_OTHER.search(ctext) and not _NOT_TODAY.search(ctext):
                m = _AGE_IN.search(ctext)
                cands.append((0.4, nid, pid, t, int(next(g for g in m.groups() if g)) if m else None))
                break
    if not cands:
        return _birth_year_only(f)
    by_day: dict[str, list] = defaultdict(list)
    for c in cands:
        by_day[c[3]["date"][5:10]].append(c)
    day, grp = max(sorted(by_day.items()), key=lambda kv: sum(c[0] for c in kv[1]))
    t = grp[0][3]
    y, mth, d = (int(x) for x in t["date"][:10].split("-"))
    levels = {"month": _MONTHS[mth - 1], "day": str(d)}
    ev = [c[1] for c in grp]
    # a stated age outside 13..100 is someone else's birthday (a child's cake) or noise
    grp = [c if (c[4] is None or 13 <= c[4] <= 100) else (c[0], c[1], c[2], c[3], None) for c in grp]
    ages = [(int(c[3]["date"][:4]) - c[4]) for c in grp if c[4]]
    ev += [f.__dict__.get("age_nodes", {}).get(c[2]) for c in grp if f.__dict__.get("age_nodes", {}).get(c[2])]
    if not ages:
        for pid in f.posts():
            for m in _YEAR_SELF.finditer(f.text_of(pid)):
                g = next(x for x in m.groups() if x)
                yr = int(g) if len(g) == 4 else (1900 + int(g) if int(g) > 30 else 2000 + int(g))
                if 1920 < yr < 2020:
                    ages.append(yr)
                    nid = next((n.node_id for n in f.nodes.values() if n.post_id == pid and n.kind == "evidence"
                                and n.content and m.group(0) in n.content), None)
                    if nid:
                        ev.append(nid)
                    break
            if ages:
                break
        ages = [a if a > 1900 else a for a in ages]
        birth_years = ages
    else:
        birth_years = ages
    ages = birth_years
    why = "birthday post(s) dated " + ", ".join(sorted({c[3]["date"] for c in grp}))
    if ages:
        levels = {"year": str(ages[0]), **levels}
        why += f"; stated age gives {ages[0]}"
    elif "age" in derived:
        age_node = derived["age"]
        exact = (age_node.data.get("levels") or {}).get("exact_age")
        if exact and exact.isdigit():
            latest = max((tt.get("date", "") for tt in f.time.values()), default=t["date"])
            ly = int(latest[:4]) if latest else y
            before = (int(latest[5:7]), int(latest[8:10])) < (mth, d) if latest else False
            levels = {"year": str(ly - int(exact) - (1 if before else 0)), **levels}
            ev.append(age_node.node_id)
            why += f"; admitted age {exact} gives the year"
    value_levels = levels
    h = _hyp("birth_date", value_levels, ev, _noisy_or(c[0] for c in grp), why)
    h.value = _date_value(levels)
    out = [h]
    stated = [c for c in grp if c[4]]
    if stated:
        c = stated[0]
        latest = max((tt.get("date", "") for tt in f.time.values()), default=c[3]["date"])
        age = c[4] + max(0, int(latest[:4]) - int(c[3]["date"][:4]) - (1 if latest[5:10] < c[3]["date"][5:10] else 0))
        src = [f.__dict__.get("age_nodes", {}).get(c[2]) or c[1]]
        out.append(_hyp("age", {"decade": f"{age // 10 * 10}s", "exact_age": str(age)}, src, 0.6,
                        f"age {c[4]} stated on the birthday post of {c[3]['date']}"))
    return out


def _birth_year_only(f: GraphFacts) -> list[Hypothesis]:
    for pid in f.posts():
        for m in _YEAR_SELF.finditer(f.text_of(pid)):
            g = next(x for x in m.groups() if x)
            yr = int(g) if len(g) == 4 else (1900 + int(g) if int(g) > 30 else 2000 + int(g))
            nid = next((n.node_id for n in f.nodes.values() if n.post_id == pid and n.kind == "evidence"
                        and n.content and m.group(0) in n.content), None)
            if 1920 < yr < 2020 and nid:
                h = _hyp("birth_date", {"year": str(yr)}, [nid], 0.55, f"stated birth year: {m.group(0)}")
                h.value = _date_value({"year": str(yr)})
                return [h]
    return []


def _normalize_birth(h: Hypothesis) -> None:
    """Rules' date levels in one canonical shape (month name, day number) and a value that
    names year, month and day in the common written forms."""
    lv = dict(h.levels)
    m = lv.get("month")
    if m:
        if m.strip().isdigit() and 1 <= int(m) <= 12:
            lv["month"] = _MONTHS[int(m) - 1]
        else:
            hit = next((x for x in _MONTHS if x.lower().startswith(m.strip().lower()[:3])), None)
            if hit:
                lv["month"] = hit
    d = lv.get("day")
    if d:
        dm = re.search(r"\d{1,2}", d)
        if dm:
            lv["day"] = str(int(dm.group(0)))
            if "month" not in lv:
                mm = next((x for x in _MONTHS if x.lower()[:3] in d.lower()), None)
                if mm:
                    lv["month"] = mm
        else:
            lv.pop("day")
    if lv.get("month") not in _MONTHS:
        lv.pop("month", None)
        lv.pop("day", None)
    h.levels = _order_levels("birth_date", lv)
    h.value = _date_value(h.levels)


def _date_value(levels: dict[str, str]) -> str:
    m = levels.get("month")
    mi = (_MONTHS.index(m) + 1) if m in _MONTHS else None
    y, d = levels.get("year"), levels.get("day")
    parts = []
    if y and mi and d:
        parts.append(f"{y}-{mi:02d}-{int(d):02d}")
    en = " ".join(x for x in (m, d) if x) + (f", {y}" if y else "")
    zh = (f"{y}年" if y else "") + (f"{mi}月" if mi else "") + (f"{d}日" if d else "")
    parts.append(en.strip(", "))
    parts.append(zh)
    return " / ".join(p for p in parts if p)


def _age_from_birth(f: GraphFacts, derived: dict[str, EvidenceNode], have_age: bool) -> list[Hypothesis]:
    bd = derived.get("birth_date")
    if have_age or bd is None:
        return []
    year = (bd.data.get("levels") or {}).get("year")
    if not year or not year.isdigit():
        return []
    latest = max((t.get("date", "") for t in f.time.values()), default="")
    if not latest:
        return []
    age = int(latest[:4]) - int(year)
    lv = bd.data.get("levels") or {}
    if lv.get("month") in _MONTHS and str(lv.get("day", "")).isdigit():
        if (int(latest[5:7]), int(latest[8:10])) < (_MONTHS.index(lv["month"]) + 1, int(lv["day"])):
            age -= 1
    if not 0 < age < 120:
        return []
    return [_hyp("age", {"decade": f"{age // 10 * 10}s", "exact_age": str(age)}, [bd.node_id], 0.6,
                 f"birth year {year} and latest post {latest}")]


def _contacts_from_entities(f: GraphFacts) -> list[CueRec]:
    """IDs/phones/emails/plates in own text or in badge/document OCR, as weak contact cues."""
    out = []
    for n, e in f.entities:
        if e.get("type") in ("phone", "email", "id", "plate"):
            strong = n.carrier in ("badge", "document", "ticket", "receipt") or n.modality == "image"
            cue = Cue(attribute="contact_or_id_number", value=e.get("text", ""), confidence=0.55 if strong else 0.4,
                      span=e.get("text", ""), cue=f"entity:{e.get('type')}")
            out.append(CueRec(n.node_id, n.post_id or "", n.carrier or "", cue, f.time.get(n.post_id or "", {})))
    return out


_NOT_VENUE = re.compile(r"^[\d\s#:：/.\-¥$€£,]+$|receipt|invoice|小票|发票|收据|订单|thank|谢谢|total|合计", re.I)


def _receipt_venues(f: GraphFacts) -> list[CueRec]:
    """The merchant printed at the top of a receipt the user photographed: a venue they use."""
    out = []
    for n in f.nodes.values():
        if n.kind != "evidence" or n.carrier != "receipt" or n.data.get("hostile") or n.status == "removed":
            continue
        for ln in (n.data.get("lines") or [])[:2]:
            t = str(ln.get("text", "")).strip()
            if 2 <= len(t) <= 40 and not _NOT_VENUE.search(t) and float(ln.get("score", 0)) >= 0.8:
                cue = Cue(attribute="frequent_venues", value=t, confidence=0.6, span=t, cue="receipt:merchant")
                out.append(CueRec(n.node_id, n.post_id or "", "receipt", cue, f.time.get(n.post_id or "", {})))
                break
    return out


_DEPT = re.compile(r"(?:部|科|室|处|中心|组|Department|Dept\.?|Unit|Team|Division|Office|Lab|Ward|Branch|Station\s+\d+)\s*$", re.I)


def _badge_workplaces(f: GraphFacts) -> list[CueRec]:
    """An organisation printed on a badge / access card / work document in a post about work:
    the workplace (organisation + the department line under it when there is one)."""
    out = []
    for n, e in f.entities:
        if e.get("type") != "org" or n.modality != "image" or not n.data.get("lines"):
            continue
        post_text = f.text_of(n.post_id or "")
        if not (n.carrier == "badge" or _WORK.search(post_text) or any(_DEPT.search(str(ln.get("text", "")))
                                                                       for ln in n.data["lines"])):
            continue
        org = str(e.get("text", "")).strip()
        if not org or "\n" in org:
            continue
        levels = {"organization": org}
        texts = [str(ln.get("text", "")).strip() for ln in n.data["lines"]]
        for t in texts:
            if t != org and _DEPT.search(t) and len(t) <= 40:
                levels["unit"] = t
                break
        cue = Cue(attribute="workplace", value=levels.get("unit") or org, level="unit" if "unit" in levels else "organization",
                  confidence=0.55, span=org, cue="badge:org", data={"levels": levels})
        out.append(CueRec(n.node_id, n.post_id or "", n.carrier or "", cue, f.time.get(n.post_id or "", {})))
    return out


_PARCEL_EN = re.compile(r"\b(?:TO|To|Recipient|Ship\s+to|Deliver\s+to|Attn)\s*[:：]\s*(?:(?:Mr|Ms|Mrs|Dr)\.?\s+)?([A-Z])\.?\s+([A-Z][a-z'\-]{1,20})\b")
_PARCEL_ZH = re.compile(r"(?:收件人|收货人)\s*[:：]?\s*([\u4e00-\u9fff])[*＊某]{1,3}")
_CALLNAME_ZH = re.compile(r"^([\u4e00-\u9fff]{2})(?:冲鸭|加油|生日快乐|好美|太美|yyds|你好|呀|啊|！|!|，|,|\s)")
_CALLNAME_EN = re.compile(r"^(?:(?:hi|hey|yay|go|congrats|happy\s+birthday|love\s+this|omg|aww+)[,!\s]+)?([A-Z][a-z]{2,14})\b"
                          r"(?=[,!]|\s+(?:you|you're|ur|this|that|looks?|is|so|!))")
_NOT_NAME = re.compile(r"^(?:This|That|These|Those|What|Wow|Love|Happy|Great|Nice|Same|Omg|Haha|Lol|Yes|Sure|Thanks|"
                       r"Thank|Need|Want|Looks|Congrats|Hey|Hi|Hello|Miss|Beautiful|Amazing|Cute|Classic|Where|When|How|Why)$")


def _name_from_parcel_and_comments(f: GraphFacts) -> list[CueRec]:
    """A parcel label gives the surname (given name masked or an initial); friends' comments
    call the user by the given name; together they give the full name (cross-post)."""
    surnames: list[tuple[str, str, str]] = []      # (initial or "", surname, node)
    for n in f.nodes.values():
        if n.kind != "evidence" or n.modality != "image" or not n.data.get("lines") or n.data.get("hostile"):
            continue
        for m in _PARCEL_EN.finditer(n.content):
            surnames.append((m.group(1), m.group(2), n.node_id))
        for m in _PARCEL_ZH.finditer(n.content):
            surnames.append(("", m.group(1), n.node_id))
    if not surnames:
        return []
    given: dict[str, list[str]] = defaultdict(list)
    for pid, items in f.other_text.items():
        for nid, text in items:
            t = text.strip()
            for rx in (_CALLNAME_ZH, _CALLNAME_EN):
                m = rx.search(t)
                if m and not _NOT_NAME.match(m.group(1)):
                    given[m.group(1)].append(nid)
    out = []
    for initial, sur, sid in surnames:
        for g, nids in sorted(given.items(), key=lambda kv: -len(kv[1])):
            cjk = bool(re.match(r"[\u4e00-\u9fff]", sur))
            if cjk != bool(re.match(r"[\u4e00-\u9fff]", g)):
                continue
            if initial and not g.startswith(initial):
                continue
            full = f"{sur}{g}" if cjk else f"{g} {sur}"
            cue = Cue(attribute="real_name", value=full, confidence=0.6, span=sur, cue="parcel+comment")
            out.append(CueRec(sid, f.nodes[sid].post_id or "", "ocr_text", cue, {}))
            for nid in nids[:2]:
                cue2 = Cue(attribute="real_name", value=full, confidence=0.4, span=g, cue="comment:callname")
                out.append(CueRec(nid, f.nodes[nid].post_id or "", "caption", cue2, {}, by_other=True))
            break
    return out


_HABIT = re.compile(r"\b(?:every|each|usual|usually|always|routine|daily|weekly|nightly|habit|as\s+always|again|"
                    r"religiously|without\s+fail|best\s+hour|ritual)\b|每天|每周|每晚|每早|每个|习惯|照例|日常|雷打不动|打卡|又是|照旧|固定", re.I)
_PARTWORDS = re.compile(r"\b(?:morning|lunch(?:time)?|noon|midday|afternoon|evening|night|late|dawn|before\s+work|after\s+work)\b|"
                        r"早上|清晨|中午|午休|午饭|下午|傍晚|晚上|深夜|凌晨|上班前|下班后", re.I)

_DAYWORDS = re.compile(r"\b(?:weekdays?|weekends?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|"
                       r"daily|every\s+day)\b|工作日|周末|每天|天天|周[一二三四五六日]|星期[一二三四五六日天]|礼拜", re.I)


def _habit_routines(f: GraphFacts) -> list[Hypothesis]:
    """A hobby or activity in a sentence that marks a habit ("every", "again", 每天, 打卡) is a routine fact;
    the part of day comes from the sentence or the post's timestamp."""
    out = []
    for r in f.cues:
        if r.by_other or not r.cue.first_person or r.cue.attribute not in ("hobbies", "daily_routine", "frequent_venues") or _semantic(r):
            continue
        text = f.text_of(r.post_id)
        sent = next((m.group(0).strip() for m in _SENT.finditer(text) if r.cue.span and r.cue.span in m.group(0)), "")
        if not sent or not _HABIT.search(sent):
            continue
        part = "" if _PARTWORDS.search(sent) else str(r.time.get("part", "")).replace("_", " ")
        # the sentence's own day words win over the one post's timestamp ("工作日五点半起床" posted on a Sunday)
        day = "" if _DAYWORDS.search(sent) else ("weekdays" if r.time.get("is_weekday") else ("weekends" if r.time else ""))
        val = f"{r.cue.value}" + (f" in the {part}" if part else "") + (f" on {day}" if day else "") + f" ({sent[:120]})"
        out.append(_hyp("daily_routine", {"value": val}, [r.node_id], 0.45, f"habit wording: {sent[:80]}"))
    return out


_VENUE_WORDS = re.compile(r"\b(?:coffee|cafe|café|gym|fitness|yoga|studio|bar|pub|bakery|restaurant|bistro|club|library|"
                          r"pool|climbing|bouldering|dojo|salon|barber|market|bookstore|bookshop|tea|noodle|dumpling)\b|"
                          r"咖啡|健身|瑜伽|工作室|酒吧|面包|餐厅|小馆|书店|图书馆|游泳|攀岩|茶|面馆|市场", re.I)


def _sign_venues(f: GraphFacts) -> list[CueRec]:
    """A shop sign the user photographed naming a venue (… Fitness, … Coffee, …咖啡)."""
    out = []
    for n in f.nodes.values():
        if (n.kind != "evidence" or n.modality != "image" or not n.data.get("lines") or n.data.get("hostile")
                or n.carrier not in ("sign", "ocr_text") or len(n.data["lines"]) > 4):
            continue
        for ln in n.data["lines"][:2]:
            t = str(ln.get("text", "")).strip()
            if 3 <= len(t) <= 40 and _VENUE_WORDS.search(t) and not _NOT_VENUE.search(t):
                cue = Cue(attribute="frequent_venues", value=t, confidence=0.5, span=t, cue="sign:venue")
                out.append(CueRec(n.node_id, n.post_id or "", n.carrier or "", cue, f.time.get(n.post_id or "", {})))
                break
    return out


def _zoom_needs(f: GraphFacts, evidence: list[str]) -> list[str]:
    needs = []
    for nid in evidence:
        n = f.nodes.get(nid)
        if n is None or not n.data.get("lines") or n.data.get("ocr_source") not in ("perception", "ocr"):
            continue
        for i, ln in enumerate(n.data["lines"]):
            if float(ln.get("score", 1)) < 0.85 and len(needs) < 2:
                needs.append(f"zoom_ocr:{nid}:{i}")
    return needs


# ---------------------------------------------------------------- entry points


def _aggregate(ctx: RunContext, f: GraphFacts, derived: dict[str, EvidenceNode]) -> list[Hypothesis]:
    schema = load_schema()
    by_attr: dict[str, list[CueRec]] = defaultdict(list)
    for r in f.cues:
        if not r.cue.first_person and r.cue.attribute != "family_and_relations":
            continue
        if schema.get(r.cue.attribute) is None:
            continue
        by_attr[r.cue.attribute].append(r)
    by_attr["contact_or_id_number"] += [r for r in _contacts_from_entities(f)
                                        if normalize(r.cue.value) not in {normalize(x.cue.value) for x in by_attr["contact_or_id_number"]}]
    by_attr["frequent_venues"] += _receipt_venues(f)
    by_attr["workplace"] += _badge_workplaces(f)
    by_attr["real_name"] += _name_from_parcel_and_comments(f)
    by_attr["frequent_venues"] += _sign_venues(f)
    out: list[Hypothesis] = []
    for spec in schema.attributes:
        a = spec.name
        if a in PLACE_ATTRS or a in ("commute",):
            continue
        recs = by_attr.get(a, [])
        if a == "travel_history":
            continue   # from places (trip cues are place observations)
        if recs:
            out += _generic(a, recs, spec.kind)
    for h in out:
        if h.attribute == "birth_date":
            _normalize_birth(h)
    places = _place_hypotheses(f, ctx)
    out += places
    city = next((h.levels.get("city") for a in ("work_location", "home_location") for h in places
                 if h.attribute == a and h.levels.get("city")), None)
    for h in out:
        if h.attribute == "workplace" and "city" not in h.levels and city and "organization" in h.levels:
            h.levels = _order_levels("workplace", {"city": city, **h.levels})
            h.value = _display("workplace", h.levels)
            h.granularity = _granularity("workplace", h.levels)
            h.rationale += f"; city from the {'work' if any(p.attribute == 'work_location' for p in places) else 'home'} area"
    out += _commute(f)
    out += _routine(f)
    out += _habit_routines(f)
    if not any(h.attribute == "birth_date" and "day" in h.levels for h in out):
        bday = _birthday(f, derived)
        years = [h for h in out if h.attribute == "birth_date" and set(h.levels) == {"year"}]
        for b in bday:
            if years and "day" in b.levels:
                y = years[0]
                if b.levels.get("year") in (None, y.levels["year"]):
                    b.levels = _order_levels("birth_date", {**b.levels, "year": y.levels["year"]})
                    b.value = _date_value(b.levels)
                    b.evidence += [e for e in y.evidence if e not in b.evidence]
                    b.confidence = max(b.confidence, y.confidence)
                    b.rationale += f"; year from {y.rationale}"
                    out.remove(y)
        if any(h.attribute == "age" and not h.data.get("hold") for h in out):
            bday = [b for b in bday if b.attribute != "age"]
        out += bday
    out += _age_from_birth(f, derived, any(h.attribute == "age" and not h.data.get("hold") for h in out))
    for h in out:
        h.needs += [n for n in _zoom_needs(f, h.evidence) if n not in h.needs]
    return out


def _naive(f: GraphFacts) -> list[Hypothesis]:
    """Ablation (hypothesizer off): every cue is its own hypothesis, projected as found."""
    out: list[Hypothesis] = []
    for r in f.cues:
        if not r.cue.first_person or r.by_other:
            continue
        spec = load_schema().get(r.cue.attribute)
        if spec is None:
            continue
        lv = r.levels if spec.kind == "hierarchy" else {"value": r.cue.value}
        out.append(_hyp(r.cue.attribute, lv, [r.node_id], r.cue.confidence, f"cue {r.cue.cue}: {r.cue.span}"))
    return out


def hypothesize(ctx: RunContext) -> list[Hypothesis]:
    nodes = _collect(ctx)
    derived = {n.attribute: n for n in nodes if n.kind == "hypothesis" and n.status == "admitted" and n.attribute}
    if not ctx.flag("hypothesizer"):
        return _dedupe(_naive(GraphFacts(ctx, nodes)))
    if not ctx.flag("cpeg"):
        # each post alone: aggregate inside one post at a time (profile nodes count as a post)
        out: list[Hypothesis] = []
        by_post: dict[str, list[EvidenceNode]] = defaultdict(list)
        for n in nodes:
            if n.kind == "evidence":
                by_post[n.post_id or ""].append(n)
        for pid in sorted(by_post):
            out += _aggregate(ctx, GraphFacts(ctx, by_post[pid]), {})
        return _dedupe(out, merge=False)
    return _dedupe(_aggregate(ctx, GraphFacts(ctx, nodes), derived))


def _dedupe(hyps: list[Hypothesis], merge: bool = True) -> list[Hypothesis]:
    """One hypothesis per (attribute, value): merge evidence, keep the higher confidence.
    merge=False (cpeg off): keep the single most confident post's reading, no pooling."""
    seen: dict[str, Hypothesis] = {}
    for h in hyps:
        if not h.value.strip():
            continue
        k = hypothesis_key(h.attribute, h.value)
        if k in seen and not merge:
            if h.confidence > seen[k].confidence:
                seen[k] = h
        elif k in seen:
            o = seen[k]
            o.evidence += [e for e in h.evidence if e not in o.evidence]
            o.confidence = max(o.confidence, h.confidence)
            o.needs += [n for n in h.needs if n not in o.needs]
        else:
            seen[k] = h
    return list(seen.values())
