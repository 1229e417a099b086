"""Exposure of a projected profile: PES-like weighting from the engine's own evidence (no truth).

exposure = sum over projected attributes of sensitivity x granularity. When several values of
one attribute stand (a projected value and its fallbacks), the attribute counts once, at the
highest weight. A reduction is 1 - after/before.
"""
from __future__ import annotations

from pydantic import BaseModel

from core.schema import load_schema


class ProfileValue(BaseModel):
    attribute: str
    value: str
    granularity: float = 1.0
    sensitivity: int | None = None
    evidence: list[str] = []

    @property
    def weight(self) -> float:
        s = self.sensitivity
        if s is None:
            spec = load_schema().get(self.attribute)
            s = spec.default_sensitivity if spec else 3
        return float(s) * max(0.0, min(1.0, self.granularity))


def by_attribute(values: list[ProfileValue]) -> dict[str, float]:
    out: dict[str, float] = {}
    for v in values:
        out[v.attribute] = max(out.get(v.attribute, 0.0), v.weight)
    return out


def exposure(values: list[ProfileValue]) -> float:
    return sum(by_attribute(values).values())


def reduction(before: float, after: float) -> float:
    return 0.0 if before <= 0 else max(0.0, 1.0 - after / before)
