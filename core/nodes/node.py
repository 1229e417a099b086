"""THE node of a run's graph (a post, an evidence or a hypothesis), one type for the engine, the
run store and the console. Its `data` is one typed model, `NodeData`, made of parts grouped by
what carries them (core/nodes/evidence.py, core/nodes/hypothesis.py); a part of another kind of
node is never set (KIND_FIELDS, checked when the graph writes a node)."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from core.nodes.base import validate_stored
from core.nodes.evidence import ImageParts, MetaParts, ModelParts, PostParts, SourceParts, TextParts, ToolParts
from core.nodes.hypothesis import HypothesisParts

NodeKind = Literal["post", "evidence", "hypothesis"]


class NodeData(PostParts, SourceParts, TextParts, ImageParts, MetaParts, ToolParts, ModelParts, HypothesisParts):
    """A node's data: every field optional (None: not there, never stored)."""


# the parts by what carries them, with a title (the console shows a node's data part by part)
PARTS: dict[str, tuple[tuple[str, type[BaseModel]], ...]] = {
    "post": (("post", PostParts),),
    "evidence": (("source", SourceParts), ("text read", TextParts), ("image", ImageParts),
                 ("metadata", MetaParts), ("tool", ToolParts), ("model", ModelParts)),
    "hypothesis": (("hypothesis", HypothesisParts),),
}
KIND_FIELDS: dict[str, frozenset[str]] = {kind: frozenset(k for _, p in parts for k in p.model_fields)
                                          for kind, parts in PARTS.items()}


class EvidenceNode(BaseModel):
    """One node of a run's graph, as the engine holds it, the run store rebuilds it as of a step
    (db/queries.state_at) and the console shows it."""

    node_id: str
    kind: NodeKind = "evidence"
    post_id: str | None = None
    modality: str | None = None       # text|image|metadata
    carrier: str | None = None        # sopri/1 carrier names
    content: str = ""                 # the evidence text (quote, OCR line, metadata summary)
    attribute: str | None = None
    value: str | None = None
    level: str | None = None
    confidence: float | None = None
    status: str = "raw"
    derived: bool = False
    provenance: list[str] = Field(default_factory=list)
    data: NodeData = Field(default_factory=NodeData)
    created_step: int | None = None   # the step it was added (set when the graph stores it)

    @property
    def reason(self) -> str | None:
        """Why it has its status: the verifier's, hypothesizer's or a person's reason for a
        hypothesis; the grounding verdict or the error for evidence."""
        if self.kind == "hypothesis":
            return self.data.status_reason
        return self.data.grounding or self.data.error

    @property
    def granularity(self) -> float | None:
        """A hypothesis's depth in its attribute's levels (1.0 when flat); None for other nodes."""
        return self.data.granularity if self.kind == "hypothesis" else None

    def stored_data(self) -> dict[str, Any]:
        """The data as the run store keeps it (JSON-ready, no None); refuses a part of another kind."""
        out = self.data.stored()
        if not KIND_FIELDS[self.kind].issuperset(out):
            raise ValueError(f"{self.kind} node {self.node_id}: data fields of another kind of node:"
                             f" {sorted(set(out) - KIND_FIELDS[self.kind])}")
        return out


def node_data(raw: dict[str, Any], dropped: dict[str, int] | None = None) -> NodeData:
    """A node's data read back from the run store; keys an older engine wrote and this one does not
    know are dropped (counted in `dropped`)."""
    return validate_stored(NodeData, raw, dropped)
