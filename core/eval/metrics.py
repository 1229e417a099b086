"""PES and its companions over a set of users (benchmark-format.md, "Scoring").

Every leaked truth attribute of every user is one pooled record (g, s). Headline metrics,
breakdowns, claim counts, the user bootstrap and the paired comparison are computed here;
report.py only formats them.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from pydantic import BaseModel

from core.eval.inputs import UserPredictions, load_predictions, slot_of
from core.eval.judge import Judge
from core.eval.truth import load_truth
from core.loader import load_manifest
from core.models import Truth, TruthAttribute
from core.schema import load_schema

DIFFICULTIES = ("D1", "D2", "D3", "D4")
LEAKAGE_TYPES = ("explicit", "implicit", "cross_post")
UNKNOWN = "unknown"


class Record(BaseModel):
    """One scored pair, as written to the audit file."""

    user: str
    attribute: str
    role: str  # leaked (in PES) | hidden (claim checked against the hidden profile) | unverifiable
    truth: str
    prediction: str | None
    g: float
    s: int
    difficulty: str
    dimension: str
    leakage_type: str
    reason: str


@dataclass
class UserResult:
    user_id: str
    status: str  # "ok" | "missing" (no predictions file: all leaked attributes score 0)
    leaked: list[Record] = field(default_factory=list)
    claims: list[Record] = field(default_factory=list)  # predicted slots with no leaked entry
    total_claims: int = 0
    ignored_duplicates: int = 0
    unrecognised: list[str] = field(default_factory=list)

    @property
    def sum_gs(self) -> float:
        return sum(r.g * r.s for r in self.leaked)

    @property
    def sum_s(self) -> int:
        return sum(r.s for r in self.leaked)

    @property
    def false_claims(self) -> int:
        return sum(1 for r in self.claims if r.role == "hidden" and r.g == 0)

    @property
    def hidden_hits(self) -> int:
        return sum(1 for r in self.claims if r.role == "hidden" and r.g > 0)

    @property
    def checkable(self) -> list[Record]:
        """Claims that the truth file can check: predicted leaked attributes and hidden-slot claims."""
        return checkable_records([*self.leaked, *self.claims])

    def worst_misses(self, k: int = 3) -> list[Record]:
        """Leaked attributes that lost the most sensitivity-weighted score."""
        lost = [r for r in self.leaked if r.g < 1]
        lost.sort(key=lambda r: (-(r.s * (1 - r.g)), r.attribute))
        return lost[:k]


class Summary(BaseModel):
    pes: float | None
    binary: float | None
    gran: float | None
    n: int
    sum_s: int


def summarize(records: Iterable[Record]) -> Summary:
    recs = list(records)
    sum_s = sum(r.s for r in recs)
    if not recs:
        return Summary(pes=None, binary=None, gran=None, n=0, sum_s=0)
    return Summary(
        pes=(sum(r.g * r.s for r in recs) / sum_s) if sum_s else None,
        binary=sum(1 for r in recs if r.g > 0) / len(recs),
        gran=sum(r.g for r in recs) / len(recs),
        n=len(recs),
        sum_s=sum_s,
    )


# -- precision of checkable claims --------------------------------------------------------------


def _predicted(r: Record) -> bool:
    return r.prediction is not None and bool(r.prediction.strip())


def checkable_records(records: Iterable[Record]) -> list[Record]:
    """Records whose claim the truth can check: a leaked attribute that was predicted, or a claim
    on a hidden slot. Unverifiable claims (slot in neither list) and unpredicted leaked attributes
    are not claims that can be right or wrong."""
    return [r for r in records if (r.role == "leaked" and _predicted(r)) or r.role == "hidden"]


class Precision(BaseModel):
    """Checkable claims split into right / wrong value on a leaked attribute / contradicting the
    hidden profile; precision = right / checkable (None when nothing is checkable)."""

    right: int = 0
    wrong_value: int = 0
    contradicting: int = 0

    @property
    def checkable(self) -> int:
        return self.right + self.wrong_value + self.contradicting

    @property
    def precision(self) -> float | None:
        return self.right / self.checkable if self.checkable else None


def precision_of(records: Iterable[Record]) -> Precision:
    """A claim is right when it scores g > 0 (some level, item or fact of the truth is named):
    against its leaked entry, or against the best-matching hidden entry of its slot."""
    p = Precision()
    for r in checkable_records(records):
        if r.g > 0:
            p.right += 1
        elif r.role == "leaked":
            p.wrong_value += 1
        else:
            p.contradicting += 1
    return p


def precision_by_attribute(records: Iterable[Record]) -> dict[str, Precision]:
    recs = checkable_records(records)
    return {a: precision_of(r for r in recs if r.attribute == a) for a in sorted({r.attribute for r in recs})}


def _dimension(attribute: str) -> str:
    spec = load_schema().resolve(attribute)
    return spec.dimension if spec is not None else UNKNOWN


def _record(user: str, ta: TruthAttribute, role: str, pred: str | None, judge: Judge) -> Record:
    sc = judge.score(ta, pred)
    return Record(
        user=user,
        attribute=ta.attribute,
        role=role,
        truth=ta.display_value(),
        prediction=pred,
        g=sc.g,
        s=ta.sensitivity,
        difficulty=f"D{ta.difficulty}" if ta.difficulty else UNKNOWN,
        dimension=_dimension(ta.attribute),
        leakage_type=ta.leakage_type or UNKNOWN,
        reason=sc.reason,
    )


def score_user(truth: Truth, preds: UserPredictions | None, judge: Judge) -> UserResult:
    values = preds.values if preds else {}
    res = UserResult(truth.user_id, "ok" if preds is not None else "missing")
    leaked_slots: set[str] = set()
    for ta in truth.leaked:
        slot = slot_of(ta.attribute)
        leaked_slots.add(slot)
        res.leaked.append(_record(truth.user_id, ta, "leaked", values.get(slot), judge))
    hidden: dict[str, list[TruthAttribute]] = {}
    for ta in truth.hidden:
        hidden.setdefault(slot_of(ta.attribute), []).append(ta)
    res.total_claims = len(values)
    for slot, value in values.items():
        if slot in leaked_slots:
            continue
        if slot in hidden:
            # a claim about a hidden attribute is right if it matches any hidden entry of that slot
            recs = [_record(truth.user_id, ta, "hidden", value, judge) for ta in hidden[slot]]
            res.claims.append(max(recs, key=lambda r: r.g))
        else:
            name = preds.names[slot] if preds else slot
            res.claims.append(
                Record(user=truth.user_id, attribute=name, role="unverifiable", truth="", prediction=value,
                       g=0.0, s=0, difficulty=UNKNOWN, dimension=_dimension(name), leakage_type=UNKNOWN,
                       reason="attribute absent from the truth file (not counted as false)")
            )
    if preds is not None:
        res.ignored_duplicates = preds.ignored_duplicates
        res.unrecognised = list(preds.unrecognised)
    return res


# -- bootstrap ---------------------------------------------------------------------------------


def percentile(sorted_vals: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default 'linear' method)."""
    if not sorted_vals:
        raise ValueError("no values")
    pos = q * (len(sorted_vals) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(sorted_vals) - 1)
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (pos - lo)


def resample_indices(n_users: int, resamples: int, seed: int) -> list[list[int]]:
    """Users drawn with replacement, `resamples` times; same seed -> same draws."""
    rng = random.Random(seed)
    population = range(n_users)
    return [rng.choices(population, k=n_users) for _ in range(resamples)]


def _pes_of(idx: list[int], gs: list[float], s: list[int]) -> float | None:
    tot = sum(s[i] for i in idx)
    return sum(gs[i] for i in idx) / tot if tot else None


def bootstrap_ci(users: list[UserResult], draws: list[list[int]], level: float = 0.95) -> tuple[float, float] | None:
    gs = [u.sum_gs for u in users]
    s = [u.sum_s for u in users]
    vals = sorted(v for v in (_pes_of(i, gs, s) for i in draws) if v is not None)
    if not vals:
        return None
    a = (1 - level) / 2
    return percentile(vals, a), percentile(vals, 1 - a)


def paired_delta_ci(a: list[UserResult], b: list[UserResult], draws: list[list[int]], level: float = 0.95
                    ) -> tuple[float, float] | None:
    """Interval of PES(a) - PES(b) over the same user resamples (users aligned by position)."""
    ga, sa = [u.sum_gs for u in a], [u.sum_s for u in a]
    gb, sb = [u.sum_gs for u in b], [u.sum_s for u in b]
    deltas = []
    for idx in draws:
        pa, pb = _pes_of(idx, ga, sa), _pes_of(idx, gb, sb)
        if pa is not None and pb is not None:
            deltas.append(pa - pb)
    if not deltas:
        return None
    deltas.sort()
    a_ = (1 - level) / 2
    return percentile(deltas, a_), percentile(deltas, 1 - a_)


# -- a whole evaluation ------------------------------------------------------------------------


@dataclass
class Evaluation:
    bench_dir: str
    pred_dir: str
    judge: str
    gazetteer: str
    users: list[UserResult]
    overall: Summary
    by_difficulty: dict[str, Summary]
    by_dimension: dict[str, Summary]
    by_leakage_type: dict[str, Summary]
    pes_ci95: tuple[float, float] | None
    seed: int
    resamples: int

    @property
    def leaked(self) -> list[Record]:
        return [r for u in self.users for r in u.leaked]

    @property
    def missing(self) -> list[str]:
        return [u.user_id for u in self.users if u.status == "missing"]

    @property
    def false_claims(self) -> int:
        return sum(u.false_claims for u in self.users)

    @property
    def records(self) -> list[Record]:
        """Every scored pair: leaked attributes and other claims."""
        return [r for u in self.users for r in (*u.leaked, *u.claims)]

    @property
    def precision(self) -> Precision:
        return precision_of(self.records)

    @property
    def precision_by_attribute(self) -> dict[str, Precision]:
        return precision_by_attribute(self.records)

    @property
    def total_claims(self) -> int:
        return sum(u.total_claims for u in self.users)


def _group(records: list[Record], key: str, fixed: Iterable[str]) -> dict[str, Summary]:
    keys = list(fixed) + sorted({getattr(r, key) for r in records} - set(fixed))
    return {k: summarize(r for r in records if getattr(r, key) == k) for k in keys}


def load_truths(bench_dir: Path) -> list[Truth]:
    manifest = load_manifest(bench_dir)
    return [load_truth(Path(bench_dir) / "users" / uid) for uid in manifest.users]


def evaluate(
    bench_dir: Path,
    pred_dir: Path,
    judge: Judge,
    *,
    seed: int = 0,
    resamples: int = 1000,
    truths: list[Truth] | None = None,
    draws: list[list[int]] | None = None,
) -> Evaluation:
    truths = truths if truths is not None else load_truths(bench_dir)
    read_dir, preds = load_predictions(pred_dir, [t.user_id for t in truths])
    users = [score_user(t, preds[t.user_id], judge) for t in truths]
    records = [r for u in users for r in u.leaked]
    if draws is None:
        draws = resample_indices(len(users), resamples, seed) if users else []
    places = getattr(judge, "places", None)
    return Evaluation(
        bench_dir=str(bench_dir),
        pred_dir=str(read_dir),
        judge=judge.name,
        gazetteer=getattr(places, "name", "none"),
        users=users,
        overall=summarize(records),
        by_difficulty=_group(records, "difficulty", DIFFICULTIES),
        by_dimension=_group(records, "dimension", load_schema().dimensions),
        by_leakage_type=_group(records, "leakage_type", LEAKAGE_TYPES),
        pes_ci95=bootstrap_ci(users, draws) if draws else None,
        seed=seed,
        resamples=len(draws),
    )


@dataclass
class Comparison:
    base: Evaluation
    other: Evaluation
    delta_pes: float | None
    delta_ci95: tuple[float, float] | None


def compare(bench_dir: Path, pred_dir: Path, other_dir: Path, judge: Judge, *, seed: int = 0,
            resamples: int = 1000) -> Comparison:
    """PES(pred_dir) - PES(other_dir), with its interval over the same user resamples."""
    truths = load_truths(bench_dir)
    draws = resample_indices(len(truths), resamples, seed) if truths else []
    a = evaluate(bench_dir, pred_dir, judge, seed=seed, truths=truths, draws=draws)
    b = evaluate(bench_dir, other_dir, judge, seed=seed, truths=truths, draws=draws)
    delta = a.overall.pes - b.overall.pes if a.overall.pes is not None and b.overall.pes is not None else None
    return Comparison(base=a, other=b, delta_pes=delta,
                      delta_ci95=paired_delta_ci(a.users, b.users, draws) if draws else None)
