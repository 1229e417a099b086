"""Aggregator results kept between board refreshes of one investigation.

The loop re-hypothesizes after every route and every verification (about 11 times per
sopri-dev2 user), and about half of those refreshes find the evidence exactly as the last one
left it: only verdicts or hypotheses moved. An aggregator is a function of what the registry hands
it, so its last result is reused while its inputs are unchanged; the key is their version:

  - the graph's evidence version (Graph.evidence_version: every post / evidence write bumps it,
    except a verdict alone: raw / grounded / rejected; removing evidence counts), and
  - the write version of every admitted hypothesis (derived:<attribute>) it reads, itself or
    through the aggregators whose found cues it consumes.

An aggregator that reads hypotheses of the same pass (hypothesis:<attribute>) is never reused:
it may refine or withdraw them in place, an effect a stored result does not carry. Nor is one
that consumes found cues of such an aggregator.

Results are stored pickled and handed out as fresh copies (later aggregators, the hypothesizer
and the loop change hypotheses in place); a pickle round trip copies pydantic models several
times faster than copy.deepcopy. The memo lives in memory beside its Graph object (a weak key:
it goes with the graph); the state of a run stays in SQLite, so a process that dies loses only
this cache, and a graph loaded again starts with an empty one.
"""
from __future__ import annotations

import pickle
import weakref
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Hashable


@dataclass(frozen=True)
class Versions:
    """The graph's versions a memo key is made of (Graph.evidence_version, Graph.node_version)."""
    evidence: int
    node: Callable[[str], int | None]


class Memo:
    def __init__(self) -> None:
        self._last: dict[str, tuple[Hashable, bytes]] = {}   # aggregator -> (key, its result pickled)
        self.runs: Counter[str] = Counter()      # aggregator -> times it ran (result stored)
        self.reused: Counter[str] = Counter()    # aggregator -> times its stored result was reused
        self._inputs: tuple[int, frozenset[str]] | None = None   # (evidence version, input names it holds)

    def evidence_inputs(self, version: int, scan: Callable[[], frozenset[str]]) -> frozenset[str]:
        """The input names the evidence holds (Board._scan_evidence), scanned once per evidence version."""
        if self._inputs is None or self._inputs[0] != version:
            self._inputs = (version, scan())
        return self._inputs[1]

    def get(self, name: str, key: Hashable) -> list[Any] | None:
        """A copy of the aggregator's stored result if it was made from these inputs, else None."""
        last = self._last.get(name)
        if last is None or last[0] != key:
            return None
        self.reused[name] += 1
        return pickle.loads(last[1])

    def put(self, name: str, key: Hashable, out: list[Any]) -> None:
        self.runs[name] += 1
        self._last[name] = (key, pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL))


_MEMOS: "weakref.WeakKeyDictionary[Any, Memo]" = weakref.WeakKeyDictionary()


def memo_for(owner: Any) -> Memo:
    """The memo of one investigation's graph (made on first use)."""
    memo = _MEMOS.get(owner)
    if memo is None:
        memo = _MEMOS[owner] = Memo()
    return memo
