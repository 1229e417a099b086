"""The changes a stage hands to the loop instead of writing them: the loop alone applies them,
inside the step's transaction (core/engine/step.py: apply_changes)."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from core.engine.types import EvidenceNode


class RecordImage(BaseModel):
    """The skim's record of one image (table `images`): its content hash and size, and what the
    skim read of it (signals, EXIF, OCR line count, or the error that made it unreadable)."""

    image_id: str
    post_id: str
    file: str
    sha256: str | None = None
    width: int | None = None
    height: int | None = None
    meta: dict[str, Any] = Field(default_factory=dict)     # the images row's JSON blob, as written


class RecordError(BaseModel):
    """A non-fatal input or tool error (an unreadable image, an embedder that failed): one `error`
    event of the step, {"where", "reason", **extra}."""

    where: str
    reason: str
    extra: dict[str, Any] = Field(default_factory=dict)    # line, field, file, calls ...

    def event(self) -> dict[str, Any]:
        return {"where": self.where, "reason": self.reason, **self.extra}


Change = RecordImage | RecordError


class Perception(BaseModel):
    """What perception returns: post nodes and evidence drafts (node ids assigned by the graph;
    data["cites"] lists post node ids), and the changes to store with them."""

    drafts: list[EvidenceNode] = Field(default_factory=list)
    changes: list[Change] = Field(default_factory=list)
