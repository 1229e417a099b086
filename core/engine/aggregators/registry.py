"""The aggregator registry: each aggregator declares, as data, what it consumes and what it
produces (as SpiderFoot modules declare watched and produced events); the registry checks the
declarations against the attribute schema, derives the run order from them and runs each
aggregator on a board that only hands it what it declared.

Input names (`consumes`):
  cue:<attribute>         the perception cues of an attribute (core/engine/rules, at perception time)
  found:<attribute>       cues an earlier aggregator found across evidence (documents, signs)
  hypothesis:<attribute>  hypotheses an earlier aggregator proposed in this pass
  derived:<attribute>     admitted hypotheses of earlier steps (derived evidence)
  feature:<name>          a text feature the perceiver attached (core/engine/rules/features.py)
  entity:<type>           entities on the user's own evidence (place, station, org, phone, ...)
  carrier:<name>          evidence of one carrier (receipt, sign, ticket, exif, ip_region, ...)
  lines | time | gazetteer
                          OCR lines, post times, gazetteer tool evidence
Outputs (`produces`): attribute names (hypotheses) or found:<attribute> (cues for later aggregators).

Order: an aggregator runs after every other one producing an input it consumes
(found:X / hypothesis:X); among the ready ones registration order decides. A cycle, an unknown
name or a produced attribute missing from the schema is a RegistryError at registration.
An aggregator none of whose inputs is present in the graph is not run; one that reads a cue,
feature, hypothesis or derived node it did not declare raises RegistryError.

Reuse: given a Memo (memo.py) and the graph's Versions, an aggregator whose inputs have the same
version as at its last run hands back a copy of that run's result instead of running again; which
aggregators may be reused and which admitted hypotheses their key holds follows from the
declarations (`memo_deps`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from core.engine.aggregators.base import CueRec, GraphFacts, RegistryError
from core.engine.aggregators.memo import Memo, Versions
from core.engine.rules.features import FEATURES
from core.engine.types import EvidenceNode, Hypothesis
from core.nodes.evidence import TextFeatures
from core.schema import load_schema

KINDS = ("cue", "found", "hypothesis", "derived", "feature", "entity", "carrier")
PLAIN = ("lines", "time", "gazetteer")


@dataclass(frozen=True)
class Aggregator:
    name: str
    run: Callable[["Board"], list]          # -> hypotheses, or CueRecs when it produces found:<attr>
    consumes: frozenset[str]
    produces: frozenset[str]
    owns: frozenset[str] = frozenset()      # attributes only this aggregator proposes
    rest: bool = False                      # consumes/produces every schema attribute nobody owns
    doc: str = ""


def aggregator(name: str, run: Callable[["Board"], list], *, consumes: Iterable[str] = (),
               produces: Iterable[str] = (), owns: Iterable[str] = (), rest: bool = False,
               doc: str | None = None) -> Aggregator:
    return Aggregator(name=name, run=run, consumes=frozenset(consumes), produces=frozenset(produces) | frozenset(owns),
                      owns=frozenset(owns), rest=rest, doc=(doc or run.__doc__ or "").strip().split("\n")[0])


@dataclass
class Board:
    """The shared state of one aggregation pass; `view(agg)` hands an aggregator only what it declared."""

    facts: GraphFacts
    derived_nodes: dict[str, EvidenceNode]
    hyps: list[Hypothesis] = field(default_factory=list)
    found_cues: dict[str, list[CueRec]] = field(default_factory=dict)
    agg: Aggregator | None = None

    def _check(self, name: str) -> None:
        if self.agg is not None and name not in self.agg.consumes:
            raise RegistryError(f"aggregator {self.agg.name!r} reads {name!r}, which it does not declare in consumes")

    def cues(self, *attrs: str) -> list[CueRec]:
        """Perception cues of these attributes, in graph order."""
        for a in attrs:
            self._check(f"cue:{a}")
        want = set(attrs)
        return [r for r in self.facts.cues if r.cue.attribute in want]

    def found(self, attr: str) -> list[CueRec]:
        self._check(f"found:{attr}")
        return list(self.found_cues.get(attr, []))

    def proposed(self, attr: str) -> list[Hypothesis]:
        """Hypotheses of attr proposed so far in this pass (the objects themselves: a producer of
        attr may refine them in place)."""
        self._check(f"hypothesis:{attr}")
        return [h for h in self.hyps if h.attribute == attr]

    def derived(self, attr: str) -> EvidenceNode | None:
        self._check(f"derived:{attr}")
        return self.derived_nodes.get(attr)

    def withdraw(self, h: Hypothesis) -> None:
        """Take back a hypothesis of this pass (only one of an attribute the aggregator produces)."""
        if self.agg is not None and h.attribute not in self.agg.produces:
            raise RegistryError(f"aggregator {self.agg.name!r} withdraws a {h.attribute} hypothesis it does not produce")
        self.hyps.remove(h)

    def present(self) -> set[str]:
        """The input names the graph (and this pass so far) holds."""
        have = set(self._graph_inputs())
        have |= {f"found:{a}" for a, recs in self.found_cues.items() if recs}
        have |= {f"hypothesis:{h.attribute}" for h in self.hyps}
        return have

    def holds_any(self, names: frozenset[str]) -> bool:
        """Does the graph (or this pass so far) hold any of these inputs? (`names & present()`
        without building the set: asked once per aggregator per pass.)"""
        return (not names.isdisjoint(self._graph_inputs())
                or any(recs and f"found:{a}" in names for a, recs in self.found_cues.items())
                or any(f"hypothesis:{h.attribute}" in names for h in self.hyps))

    def _graph_inputs(self) -> frozenset[str]:
        if "_inputs" in self.__dict__:
            return self.__dict__["_inputs"]
        self.__dict__["_inputs"] = self.evidence_inputs | {f"derived:{a}" for a in self.derived_nodes}
        return self.__dict__["_inputs"]

    @property
    def evidence_inputs(self) -> frozenset[str]:
        """The input names the graph's evidence holds (all but derived:); kept by the memo per
        evidence version."""
        if "_evidence_inputs" not in self.__dict__:
            self.__dict__["_evidence_inputs"] = self._scan_evidence()
        return self.__dict__["_evidence_inputs"]

    def use_evidence_inputs(self, names: frozenset[str]) -> None:
        """Take the evidence's input names from an earlier scan of the same evidence version."""
        self.__dict__["_evidence_inputs"] = names

    def _scan_evidence(self) -> frozenset[str]:
        f = self.facts
        have = {f"cue:{r.cue.attribute}" for r in f.cues}
        have |= {f"entity:{e.type}" for _, e in f.entities}
        # the declared fields read by name (TextFeatures forbids extras): pydantic's per-field iterator
        # was most of this scan
        names = tuple(TextFeatures.model_fields)
        have |= {f"feature:{k}" for fs in f.feats.values() for k in names if getattr(fs, k) is not None}
        for n in f.nodes.values():
            if n.kind == "evidence" and n.status != "removed":
                have.add(f"carrier:{n.carrier}")
                if n.data.lines:
                    have.add("lines")
        if f.time:
            have.add("time")
        if f.gazetteer:
            have.add("gazetteer")
        return frozenset(have)


class Registry:
    def __init__(self, aggregators: Iterable[Aggregator]):
        self.schema = {s.name for s in load_schema().attributes}
        aggs = list(aggregators)
        owned: dict[str, str] = {}
        for a in aggs:
            for attr in a.owns:
                if attr in owned:
                    raise RegistryError(f"aggregator {a.name!r}: attribute {attr!r} is already owned by {owned[attr]!r}")
                owned[attr] = a.name
        self.owned = owned
        self.aggregators = [self._resolve(a) for a in aggs]
        names = [a.name for a in self.aggregators]
        if len(set(names)) != len(names):
            raise RegistryError(f"duplicate aggregator names: {sorted(n for n in names if names.count(n) > 1)}")
        for a in self.aggregators:
            self._validate(a)
        self.order = self._order()
        self.memo_deps = self._memo_deps()

    def _resolve(self, a: Aggregator) -> Aggregator:
        """`rest`: every schema attribute no aggregator owns (schema order kept by the aggregator)."""
        if not a.rest:
            return a
        free = [s for s in sorted(self.schema) if s not in self.owned]
        return Aggregator(name=a.name, run=a.run, consumes=a.consumes | {f"cue:{s}" for s in free}
                          | {f"found:{s}" for s in free}, produces=a.produces | set(free), owns=a.owns, rest=True,
                          doc=a.doc)

    def _validate(self, a: Aggregator) -> None:
        for name in a.consumes:
            kind, _, arg = name.partition(":")
            if name in PLAIN:
                continue
            if kind not in KINDS or not arg:
                raise RegistryError(f"aggregator {a.name!r}: consumes {name!r} is not an input name ({', '.join(KINDS)}:…"
                                    f" or {', '.join(PLAIN)})")
            if kind in ("cue", "found", "hypothesis", "derived") and arg not in self.schema:
                raise RegistryError(f"aggregator {a.name!r}: consumes {name!r}: no attribute {arg!r} in the schema")
            if kind == "feature" and arg not in FEATURES:
                raise RegistryError(f"aggregator {a.name!r}: consumes {name!r}: the rules attach no feature {arg!r}")
        for name in a.produces:
            attr = name.split(":", 1)[1] if name.startswith("found:") else name
            if attr not in self.schema:
                raise RegistryError(f"aggregator {a.name!r}: produces {name!r}: no attribute {attr!r} in the schema")
        if any(p.startswith("found:") for p in a.produces) and not all(p.startswith("found:") for p in a.produces):
            raise RegistryError(f"aggregator {a.name!r}: produces cues (found:…) and hypotheses at once")

    def _order(self) -> list[Aggregator]:
        def makes(a: Aggregator, name: str) -> bool:
            kind, _, attr = name.partition(":")
            return (kind == "found" and name in a.produces) or (kind == "hypothesis" and attr in a.produces)

        after = {a.name: {b.name for b in self.aggregators if b is not a and any(makes(b, n) for n in a.consumes)}
                 for a in self.aggregators}
        done: list[Aggregator] = []
        left = list(self.aggregators)
        while left:
            ready = next((a for a in left if after[a.name] <= {d.name for d in done}), None)
            if ready is None:
                raise RegistryError("aggregator declarations form a cycle: " + ", ".join(
                    f"{a.name} after {sorted(after[a.name] - {d.name for d in done})}" for a in left))
            done.append(ready)
            left.remove(ready)
        return done

    def _memo_deps(self) -> dict[str, frozenset[str] | None]:
        """Per aggregator, the derived attributes its result depends on (its own derived:<attr> and
        those of the producers of the found cues it consumes); None when its result may not be
        reused: it reads hypotheses of the pass (and may refine or withdraw them), or found cues of
        an aggregator that does."""
        deps: dict[str, frozenset[str] | None] = {}
        for a in self.order:        # producers come first
            need: set[str] | None = {c.split(":", 1)[1] for c in a.consumes if c.startswith("derived:")}
            if any(c.startswith("hypothesis:") for c in a.consumes):
                need = None
            for c in a.consumes:
                if need is not None and c.startswith("found:"):
                    for b in self.aggregators:
                        if c in b.produces:
                            up = deps[b.name]
                            need = None if up is None else need | up
                            if need is None:
                                break
            deps[a.name] = None if need is None else frozenset(need)
        return deps

    def _key(self, a: Aggregator, derived: dict[str, EvidenceNode], versions: Versions) -> tuple | None:
        deps = self.memo_deps[a.name]
        if deps is None:
            return None
        return (versions.evidence, tuple((attr, n.node_id, versions.node(n.node_id)) if (n := derived.get(attr))
                                         else (attr, None) for attr in sorted(deps)))

    def run(self, facts: GraphFacts, derived: dict[str, EvidenceNode], memo: Memo | None = None,
            versions: Versions | None = None) -> list[Hypothesis]:
        """One aggregation pass. With a memo and the graph's versions, an aggregator whose inputs
        did not change since its last run gives a copy of that run's result (memo.py)."""
        board = Board(facts=facts, derived_nodes=derived)
        use_memo = memo is not None and versions is not None
        if use_memo:
            board.use_evidence_inputs(memo.evidence_inputs(versions.evidence, board._scan_evidence))
        for a in self.order:
            board.agg = None
            key = self._key(a, derived, versions) if use_memo else None
            # a stored result was made from these very inputs, present then and so now
            out = memo.get(a.name, key) if use_memo and key is not None else None
            if out is None:
                if not board.holds_any(a.consumes):
                    continue
                board.agg = a
                facts.reading = a.consumes
                try:
                    out = a.run(board)
                finally:
                    board.agg = None
                    facts.reading = None
                if memo is not None and key is not None:
                    memo.put(a.name, key, out)
            cue_out = any(p.startswith("found:") for p in a.produces)
            for item in out:
                attr = item.cue.attribute if cue_out else item.attribute
                if (f"found:{attr}" if cue_out else attr) not in a.produces:
                    raise RegistryError(f"aggregator {a.name!r} produced {attr!r}, which it does not declare")
                if cue_out:
                    board.found_cues.setdefault(attr, []).append(item)
                else:
                    board.hyps.append(item)
        return board.hyps
