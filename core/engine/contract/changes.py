"""The changes a stage hands to the loop instead of writing them: the loop alone applies them,
inside the step's transaction."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


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


Change = RecordImage
