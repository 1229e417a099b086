"""Projection: the profile (one value per attribute) from admitted hypotheses only (derived
evidence; a hypothesis a person confirmed is admitted and ranks first, one a person rejected
is removed and never projected).

hierarchy / category: the best admitted hypothesis (confidence, then granularity); its
levels come from evidence (and routed gazetteer lookups), so the value is never more
specific than what supports it. Education's two levels are two readings side by side, not a
chain (a degree and a field, often said in different posts): the best admitted reading of the
level the chosen one lacks is written beside it ("Software, Bachelor's degree").
set / facts: the admitted items joined with "; ", each said once (`said_once`); commute and routine
items arrive as short sentences built from parts (aggregators/value_text.py), never quotes.
Unresolved and removed hypotheses are never projected. The loop writes the rows to the
`profile` table (db/profile.py) with the evidence ids, so each value's support chain stays
queryable (nodes + edges).
"""
from __future__ import annotations

import re

from core.engine.aggregators.base import display, finest
from core.engine.contract.config import EngineConfig
from core.engine.contract.support import support_ids
from core.engine.contract.view import GraphView
from core.engine.graph import Graph
from core.engine.types import EvidenceNode
from core.models import PredictedAttribute
from core.schema import load_schema

MAX_ITEMS = {"set": 8, "facts": 6}
# hierarchies whose levels are independent readings (no level implies another)
SIDE_BY_SIDE = {"education"}
# values written "activity, when" (aggregators/value_text.py): one item per activity, the best-ranked
ONE_ITEM_PER_ACTIVITY = {"daily_routine"}


def project(view: GraphView, config: EngineConfig) -> list[PredictedAttribute]:
    """The profile rows of the admitted hypotheses (the config changes nothing here today)."""
    g = view.graph
    schema = load_schema()
    admitted = [h for h in g.hypotheses(("admitted",))]
    out: list[PredictedAttribute] = []
    for spec in schema.attributes:
        hs = [h for h in admitted if h.attribute == spec.name]
        if not hs:
            continue
        # a value a person confirmed comes first; then confidence, then granularity
        hs.sort(key=lambda h: (not h.data.confirmed_by, -(h.confidence or 0),
                               -(h.data.granularity or 0), h.node_id))
        if spec.kind in ("hierarchy", "category"):
            picked, levels = _side_by_side(spec.name, hs)
            best = picked[0]
            if len(picked) == 1:
                value, conf, level = best.value, best.confidence, best.level
            else:
                value, level = display(spec.name, levels), finest(spec.name, levels)
                conf = min(h.confidence or 0 for h in picked)
            out.append(PredictedAttribute(attribute=spec.name, value=value, confidence=conf,
                                          evidence=_support(g, picked)[:12], level=level,
                                          hypotheses=[h.node_id for h in picked]))
        else:
            items = said_once(hs, by_head=spec.name in ONE_ITEM_PER_ACTIVITY)[: MAX_ITEMS[spec.kind]]
            conf = max(h.confidence or 0 for h in items)
            out.append(PredictedAttribute(attribute=spec.name, value="; ".join(h.value for h in items),
                                          confidence=conf, evidence=_support(g, items)[:16],
                                          hypotheses=[h.node_id for h in items]))
    return out


def said_once(hs: list[EvidenceNode], by_head: bool = False) -> list[EvidenceNode]:
    """The items of a set or facts value, each said once: an item whose words another item already
    holds ("gym before work" beside "gym before work, weekday mornings") is left out, the fuller one
    kept in its place (its words are a superset, so nothing the value said is lost); `by_head`: a
    second item about the same activity (the words before its first comma) is left out too."""
    from core.textmatch import normalize

    norm = [normalize(h.value or "") for h in hs]
    out: list[EvidenceNode] = []
    kept: set[str] = set()
    heads: set[str] = set()
    for i, h in enumerate(hs):
        n = norm[i]
        head = normalize(re.split(r"[,，]", h.value or "", maxsplit=1)[0])
        if not n or n in kept or any(n != m and _holds(m, n) for m in norm) or (by_head and head in heads):
            continue
        kept.add(n)
        heads.add(head)
        out.append(h)
    return out


def _holds(longer: str, shorter: str) -> bool:
    """The longer text holds the shorter one as whole words (or as written, for CJK)."""
    if shorter.isascii():
        return re.search(rf"(?<![\w]){re.escape(shorter)}(?![\w])", longer) is not None
    return shorter in longer


def _side_by_side(attr: str, hs: list[EvidenceNode]) -> tuple[list[EvidenceNode], dict[str, str]]:
    """The best hypothesis, and for a SIDE_BY_SIDE attribute the best of each level it lacks."""
    picked, levels = [hs[0]], dict(hs[0].data.levels or {})
    if attr in SIDE_BY_SIDE:
        for h in hs[1:]:
            lv = h.data.levels or {}
            if lv and not set(lv) & set(levels):
                picked.append(h)
                levels |= lv
    return picked, levels


def _support(g: Graph, hs: list[EvidenceNode]) -> list[str]:
    """The evidence ids behind these hypotheses, in order, each once."""
    ev: list[str] = []
    for h in hs:
        ev += [e for e in support_ids(g, h.node_id) if e not in ev]
    return ev


# ---------------------------------------------------------------- values written for people
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")


def for_people(attribute: str, value: str) -> str:
    """A projected value as printed for a person (CLI tables, `runs show`): one form, the finest
    level, nothing said twice. The stored value keeps every written form (a birth date in ISO,
    English and Chinese; an age with its decade), since the judge matches the names in it.
    birth_date -> ISO (1996-09-14, 1996-09, 1996; "September 14" without a year); age -> its finest
    level ("29, 20s" -> "29"); a set or facts value -> its items without repeats or quotes."""
    if not value:
        return value
    if attribute == "birth_date":
        return _one_date(value)
    if attribute == "age":
        return value.split(", ")[0].strip()
    spec = load_schema().get(attribute)
    if spec is not None and spec.kind in ("set", "facts"):
        return "; ".join(_distinct(_items(value), facts=spec.kind == "facts")) or value
    return value


def _one_date(value: str) -> str:
    import re

    forms = [x.strip() for x in value.split(" / ") if x.strip()]
    if forms and re.fullmatch(r"\d{4}-\d{2}-\d{2}", forms[0]):
        return forms[0]
    for f in forms:
        words = re.findall(r"[A-Za-z]+|\d+", f)
        month = next((i + 1 for w in words for i, m in enumerate(_MONTHS) if w.lower() == m), None)
        nums = [int(w) for w in words if w.isdigit()]
        year = next((n for n in nums if n > 31), None)
        day = next((n for n in nums if n <= 31), None)
        if year and month and day:
            return f"{year}-{month:02d}-{day:02d}"
        if year and month:
            return f"{year}-{month:02d}"
        if month and day:
            return f"{_MONTHS[month - 1].capitalize()} {day}"
        if year and not month and not day:
            return str(year)
    return forms[0] if forms else value


def _items(value: str) -> list[str]:
    """The "; "-separated items of a value, not splitting inside (…) or “…”."""
    items, depth, cur = [], 0, ""
    i = 0
    while i < len(value):
        ch = value[i]
        depth += 1 if ch in "(“" else -1 if ch in ")”" and depth > 0 else 0
        if depth == 0 and value.startswith("; ", i):
            items.append(cur)
            cur, i = "", i + 2
            continue
        cur += ch
        i += 1
    return [x.strip() for x in [*items, cur] if x.strip()]


def _distinct(items: list[str], facts: bool) -> list[str]:
    """Items as a person reads them: a quoted post (evidence, printed with its id elsewhere) left
    out; an item saying what an earlier one said (the same words before its "(…)", or names all
    written before, in a facts value: "lines Line 1" after "metro Line 1 …") left out, counted on
    the first."""
    from core.textmatch import normalize

    kept: list[str] = []
    heads: dict[str, int] = {}
    extra: dict[int, int] = {}
    for it in items:
        if it.startswith("“") and it.endswith("”"):
            continue
        head = normalize(it.split(" (")[0])
        if head in heads:
            extra[heads[head]] = extra.get(heads[head], 0) + 1
            continue
        said = normalize(" ".join(kept))
        label, _, rest = it.partition(" ")
        listed = facts and label.isalpha() and label.islower() and rest and "(" not in it
        names = [normalize(x) for x in rest.split(", ")] if listed else []
        if names and all(n and n in said for n in names):
            continue
        heads[head] = len(kept)
        kept.append(it)
    return [k + (f" (+{extra[i]} like it)" if i in extra else "") for i, k in enumerate(kept)]
