"""Judges turn (truth attribute, predicted value) into a granularity score g in [0, 1].

`RulesJudge` is the deterministic matcher of the spec (default). Any other judge (the LLM
judge of the model-backend issue) implements the same `Judge` protocol and registers itself
with `register_judge`; metrics and reports only see `Score`s and the judge's `name`.
"""
from __future__ import annotations

from typing import Callable, Protocol, runtime_checkable

from pydantic import BaseModel

from core.eval.matching import Prediction, age_level_match, exact_number, substring_match
from core.eval.places import PLACE_LEVELS, PlaceMatcher, default_place_matcher
from core.models import Level, TruthAttribute
from core.textmatch import normalize

# set items of these attributes are places: gazetteer alternate names count as the item
PLACE_SET_ATTRIBUTES = frozenset({"travel_history"})


class Score(BaseModel):
    g: float
    reason: str
    matched: list[str] = []  # names of the right levels / matched items / matched facts


@runtime_checkable
class Judge(Protocol):
    name: str

    def score(self, truth: TruthAttribute, predicted: str | None) -> Score: ...


class RulesJudge:
    """The deterministic matcher: normalisation, aliases, gazetteer implication, age numbers."""

    name = "rules"

    def __init__(self, places: PlaceMatcher | None = None):
        self.places = places if places is not None else default_place_matcher()

    def score(self, truth: TruthAttribute, predicted: str | None) -> Score:
        if predicted is None or not predicted.strip():
            return Score(g=0.0, reason="not predicted")
        pred = Prediction(predicted)
        if truth.kind == "hierarchy":
            return self._hierarchy(truth, pred)
        if truth.kind == "category":
            hit = pred.first_named([truth.value or "", *truth.aliases])
            if hit:
                return Score(g=1.0, reason=f"names '{hit}'", matched=[truth.value or hit])
            return Score(g=0.0, reason="value and aliases not named")
        if truth.kind == "set":
            return self._set(truth, pred)
        return self._facts(truth, pred)

    # -- hierarchy --------------------------------------------------------------------------

    def _levels(self, truth: TruthAttribute) -> list[Level]:
        if truth.levels:
            return truth.levels
        # a hierarchy written without levels is scored as one level holding its value
        return [Level(level="value", value=truth.value or "", aliases=truth.aliases)] if truth.value else []

    def _level_right(self, truth: TruthAttribute, lv: Level, pred: Prediction) -> str | None:
        numeric_exact = lv.level == "exact_age" and exact_number(lv.value) is not None
        # a numeric exact age is matched by the number rule only ('30' must not match '30+')
        hit = pred.first_named(lv.aliases if numeric_exact else [lv.value, *lv.aliases])
        if hit:
            return f"names '{hit}'"
        if lv.level in ("decade", "exact_age"):
            why = age_level_match(pred, lv.level, lv.value)
            if why:
                return why
        if lv.level in PLACE_LEVELS and self.places.gz is not None:
            names = self.places.other_names([lv.value, *lv.aliases])
            hit = pred.first_named(names)
            if hit:
                return f"names '{hit}' (gazetteer name of {lv.value})"
            own = {normalize(x) for x in (lv.value, *lv.aliases)} - {""}
            inner = self.places.implied_by(pred, names | own)
            if inner:
                return f"'{inner}' lies in {lv.value} (gazetteer)"
        return None

    def _hierarchy(self, truth: TruthAttribute, pred: Prediction) -> Score:
        levels = self._levels(truth)
        if not levels:
            return Score(g=0.0, reason="truth has no levels")
        deepest = 0
        reasons: list[str] = []
        matched: list[str] = []
        for depth, lv in enumerate(levels, 1):
            why = self._level_right(truth, lv, pred)
            if why:
                deepest = depth
                matched.append(lv.level)
                reasons.append(f"{lv.level}: {why}")
        if not deepest:
            return Score(g=0.0, reason="no level right")
        n = len(levels)
        return Score(
            g=deepest / n,
            reason=f"deepest right level {levels[deepest - 1].level} ({deepest}/{n}); " + "; ".join(reasons),
            matched=matched,
        )

    # -- set / facts ------------------------------------------------------------------------

    def _set(self, truth: TruthAttribute, pred: Prediction) -> Score:
        if not truth.items:
            return Score(g=0.0, reason="truth has no items")
        matched: list[str] = []
        for item in truth.items:
            needles = [item.value, *item.aliases]
            if truth.attribute in PLACE_SET_ATTRIBUTES and self.places.gz is not None:
                needles += sorted(self.places.other_names(needles))
            if pred.first_named(needles):
                matched.append(item.value)
        n = len(truth.items)
        missed = [i.value for i in truth.items if i.value not in matched]
        reason = f"{len(matched)}/{n} items" + (f"; missed: {', '.join(missed)}" if missed else "")
        return Score(g=len(matched) / n, reason=reason, matched=matched)

    def _facts(self, truth: TruthAttribute, pred: Prediction) -> Score:
        if not truth.facts:
            return Score(g=0.0, reason="truth has no facts")
        matched: list[str] = []
        for fact in truth.facts:
            groups = [g for g in fact.keywords if g]
            if groups:
                ok = all(any(substring_match(pred, kw) for kw in group) for group in groups)
            else:
                # a fact without keyword groups must be named by its text (spec text rule)
                ok = pred.names(fact.text)
            if ok:
                matched.append(fact.text)
        n = len(truth.facts)
        missed = [f.text for f in truth.facts if f.text not in matched]
        reason = f"{len(matched)}/{n} facts" + (f"; missed: {', '.join(missed)}" if missed else "")
        return Score(g=len(matched) / n, reason=reason, matched=matched)


# -- registry -------------------------------------------------------------------------------

_JUDGES: dict[str, Callable[[], Judge]] = {"rules": RulesJudge}


def register_judge(name: str, factory: Callable[[], Judge]) -> None:
    """Adds a judge selectable by `argus eval --judge NAME` (e.g. the LLM judge)."""
    _JUDGES[name] = factory


def judge_names() -> list[str]:
    return sorted(_JUDGES)


def get_judge(name: str) -> Judge:
    factory = _JUDGES.get(name)
    if factory is None:
        raise KeyError(name)
    return factory()
