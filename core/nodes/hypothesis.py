"""A hypothesis's typed parts: the routes it asks for (`Need`), what the hypothesizer adds to it
(`HypothesisExtras`) and what its node keeps in the graph (`HypothesisParts`)."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, model_serializer, model_validator

from core.nodes.base import Part

NeedFamily = Literal["gazetteer", "web_search", "ocr", "zoom_ocr"]


class Need(BaseModel):
    """A route a hypothesis asks the router for: the ancestor levels of a place (`gazetteer`), public
    pages (`web_search`), the text of an image node (`ocr`), a clearer reading of one line of an
    OCR node (`zoom_ocr`). Stored as its short form, e.g. "gazetteer:Camden", "zoom_ocr:e12:3"."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    family: NeedFamily
    target: str                       # a place name, a query, or an evidence node id (ocr, zoom_ocr)
    line: int | None = None           # zoom_ocr: the line of that node

    @model_validator(mode="before")
    @classmethod
    def _parse(cls, v: Any) -> Any:
        if isinstance(v, str):
            family, _, arg = v.partition(":")
            if family == "zoom_ocr":
                nid, _, line = arg.rpartition(":")
                if not line.isdigit():
                    raise ValueError(f"a zoom_ocr need is 'zoom_ocr:<node>:<line>', not {v!r}")
                return {"family": family, "target": nid, "line": int(line)}
            return {"family": family, "target": arg}
        return v

    @model_serializer
    def _short(self) -> str:
        return str(self)

    def __str__(self) -> str:
        return f"{self.family}:{self.target}" + (f":{self.line}" if self.line is not None else "")


class PersonNote(Part):
    """A researcher's note on a hypothesis (Investigation.hypothesis_action 'note')."""

    by: str
    step: int
    text: str


class HypothesisExtras(Part):
    """What an aggregator (or a model backend) adds to the hypothesis it proposes; merged into its
    node's data. A field set to None here clears the node's earlier value (a stale hold)."""

    posts: list[str] | None = None          # the posts the value recurs in
    score: float | None = None              # the cluster score of a category / place value
    ambiguous: bool | None = None           # a runner-up too close to tell
    runner_up: bool | None = None           # the second value of its attribute
    alternative: bool | None = None         # a further reading, held below the attribute's readings
    semantic_only: bool | None = None       # only semantic cues support it
    hold: str | None = None                 # why it is not projected yet (the verifier leaves it unresolved)
    source: str | None = None               # "rules" | "model:perceiver" | "model:hypothesizer"
    proposed_confidence: float | None = None
    votes: float | None = None              # baselines: the vote that chose it


class HypothesisParts(HypothesisExtras):
    """What a hypothesis node keeps besides: its identity and proposal (Graph.put_hypothesis), then
    what the verifier, the router and a person decided about it."""

    key: str | None = None                  # attribute::normalized value (one node per key)
    levels: dict[str, str] | None = None    # hierarchies: {level: value} coarse to fine
    needs: list[Need] | None = None
    rationale: str | None = None
    granularity: float | None = None
    holder: str | None = None               # whose fact its support states ("self", "other:<who>")
    # decisions
    status_reason: str | None = None
    removed_by: str | None = None           # hypothesizer | verifier | router | person:<name>
    contradicted_by: list[str] | None = None    # the rival, then the grounded evidence against it
    dropped: dict[str, str] | None = None   # supporter id -> why the verifier stopped using it
    confirmed_by: str | None = None
    rejected_by: str | None = None
    person_reason: str | None = None
    notes: list[PersonNote] | None = None
