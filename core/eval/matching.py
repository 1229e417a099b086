"""Matching rules of the sopri/1 scoring spec, on top of core.textmatch.

A predicted value is normalised once (`Prediction`), then truth needles (values, aliases,
gazetteer names) are tested against it. Age levels add the numeric rules of the spec.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property

from core.textmatch import contains, normalize

_NUMBER = re.compile(r"\d+")
_EXACT_NUMBER = re.compile(r"(?<![0-9])([0-9]+)(?![0-9])(?!\s?['’]?s(?![a-z])|\+|多|来|几|余)")


@dataclass(frozen=True)
class Prediction:
    """One predicted value, normalised once (NFKC, case-folded, punctuation as space)."""

    raw: str
    norm: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "norm", normalize(self.raw))

    @cached_property
    def numbers(self) -> tuple[int, ...]:
        """Every maximal run of ASCII digits (after NFKC, so full-width digits count)."""
        return tuple(int(m.group()) for m in _NUMBER.finditer(self.norm) if len(m.group()) <= 9)

    @cached_property
    def exact_numbers(self) -> tuple[int, ...]:
        """Numbers written as a single value: not decade/approximate forms such as '30s',
        "30's", '30+', '30多岁', '30来岁', '30几岁', '30余岁' (those name a span, not an age)."""
        text = unicodedata.normalize("NFKC", self.raw).casefold()
        return tuple(int(m.group(1)) for m in _EXACT_NUMBER.finditer(text) if len(m.group(1)) <= 9)

    def names(self, needle: str) -> bool:
        """The spec's text rule: whole words for Latin needles, substrings for other scripts."""
        return contains(self.norm, needle, normalized=True)

    def first_named(self, needles: list[str] | tuple[str, ...] | set[str]) -> str | None:
        """The first needle the prediction names (deterministic order), or None."""
        for n in sorted(needles) if isinstance(needles, set) else needles:
            if self.names(n):
                return n
        return None


def substring_match(pred: Prediction, needle: str) -> bool:
    """Facts keywords: plain substring on normalised text (`counsel` matches 'counselling')."""
    n = normalize(needle)
    return bool(n) and n in pred.norm


def decade_range(value: str) -> tuple[int, int] | None:
    """The age span a decade level stands for: '30s' / '30多岁' -> (30, 39); '30-39' -> (30, 39).

    The first number of the value starts the span; a second, larger number within ten years
    ends it (a written range), otherwise the span is the decade of the first number.
    """
    nums = [int(m.group()) for m in _NUMBER.finditer(normalize(value))]
    if not nums:
        return None
    lo = nums[0]
    if len(nums) >= 2 and lo < nums[1] <= lo + 10:
        return lo, nums[1]
    start = (lo // 10) * 10
    return start, start + 9


def exact_number(value: str) -> int | None:
    """The number an exact-age level stands for ('34', '34岁', '34 years'), if it has exactly one."""
    nums = [int(m.group()) for m in _NUMBER.finditer(normalize(value))]
    return nums[0] if len(nums) == 1 else None


def age_level_match(pred: Prediction, level: str, value: str) -> str | None:
    """Numeric rules for the two age levels; returns a short reason when the level is right."""
    if level == "exact_age":
        n = exact_number(value)
        if n is not None and n in pred.exact_numbers:
            return f"names the number {n}"
    elif level == "decade":
        span = decade_range(value)
        if span is not None:
            for n in pred.numbers:
                if span[0] <= n <= span[1]:
                    return f"{n} lies in {span[0]}-{span[1]}"
    return None
