"""The LLM judge: the same `Judge` interface as the rules judge, scored by the `judge` role's model.

The model sees the attribute, the true value (levels / items / facts spelled out) and the
prediction (fenced as untrusted data), and answers {"score": 0..1, "reason": "..."}. Scores are
snapped to the spec's grid (d/n levels, k/n items or facts, 0/1 categories) so they are
comparable with the rules judge. A failed call never crashes an evaluation: the rules judge's
score is used and the reason says so. `judge_agreement` compares two judges on the same records.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from core.backends.client import CallContext, ModelClient
from core.backends.config import BackendConfig, load_config
from core.backends.roles import messages_for, wrap_untrusted
from core.backends.structured import JudgeReply
from core.errors import InputError
from core.eval.judge import RulesJudge, Score, register_judge
from core.models import TruthAttribute


def truth_text(truth: TruthAttribute) -> tuple[str, int]:
    """The true value spelled out for the judge, and the number of grid steps (n)."""
    if truth.kind == "hierarchy" and truth.levels:
        parts = [f"{lv.level}: {lv.value}" + (f" (also: {', '.join(lv.aliases)})" if lv.aliases else "")
                 for lv in truth.levels]
        return "levels coarse to fine: " + "; ".join(parts), len(truth.levels)
    if truth.kind == "set" and truth.items:
        return "items: " + "; ".join(i.value + (f" ({', '.join(i.aliases)})" if i.aliases else "")
                                     for i in truth.items), len(truth.items)
    if truth.kind == "facts" and truth.facts:
        return "facts: " + "; ".join(f.text for f in truth.facts), len(truth.facts)
    aliases = f" (also: {', '.join(truth.aliases)})" if truth.aliases else ""
    return (truth.value or "") + aliases, 1


def snap(score: float, n: int) -> float:
    n = max(1, n)
    return round(max(0.0, min(1.0, score)) * n) / n


class LLMJudge:
    name = "llm"

    def __init__(self, config: BackendConfig | None = None, *, client: ModelClient | None = None,
                 record: CallContext | None = None):
        self.config = config or load_config()
        if not self.config.role("judge").model:
            raise InputError("--judge llm", "no judge model configured (set ARGUS_JUDGE_MODEL or [roles.judge] "
                             "model in argus.toml)", field="roles.judge.model")
        self.client = client or ModelClient(self.config)
        self.record = record or CallContext()
        self.rules = RulesJudge()
        self.places = self.rules.places
        self.failed = 0

    def score(self, truth: TruthAttribute, predicted: str | None) -> Score:
        if predicted is None or not predicted.strip():
            return Score(g=0.0, reason="not predicted")
        text, n = truth_text(truth)
        msgs = messages_for("judge", attribute=truth.attribute, kind=truth.kind, truth=text,
                            prediction="PREDICTED value:\n" + wrap_untrusted("prediction", predicted, 600))
        res = self.client.complete("judge", msgs, JudgeReply, self.record)
        if not res.ok:
            self.failed += 1
            fallback = self.rules.score(truth, predicted)
            return Score(g=fallback.g, matched=fallback.matched,
                         reason=f"llm judge failed ({res.error}); rules: {fallback.reason}")
        g = snap(res.value.score, n)
        return Score(g=g, reason=f"llm: {res.value.reason or 'no reason given'}")


def _make() -> LLMJudge:
    return LLMJudge()


register_judge("llm", _make)


@dataclass
class Agreement:
    n: int
    exact: float          # share of records with the same g
    binary: float         # share with the same g > 0 decision
    mean_abs_diff: float
    kappa: float | None   # Cohen's kappa of the binary decisions

    def as_dict(self) -> dict:
        return {"n": self.n, "exact": self.exact, "binary": self.binary, "mean_abs_diff": self.mean_abs_diff,
                "kappa": self.kappa}


def judge_agreement(pairs: Iterable[tuple[float, float]]) -> Agreement:
    pairs = list(pairs)
    n = len(pairs)
    if n == 0:
        return Agreement(0, 0.0, 0.0, 0.0, None)
    exact = sum(abs(a - b) < 1e-9 for a, b in pairs) / n
    binary = sum((a > 0) == (b > 0) for a, b in pairs) / n
    mad = sum(abs(a - b) for a, b in pairs) / n
    pa = sum(a > 0 for a, _ in pairs) / n
    pb = sum(b > 0 for _, b in pairs) / n
    pe = pa * pb + (1 - pa) * (1 - pb)
    kappa = None if pe >= 1 else (binary - pe) / (1 - pe)
    return Agreement(n, exact, binary, mad, kappa)
