"""Edits a person can make to their own account, as typed values."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

EditKind = Literal[
    "strip_exif", "blur_region", "crop_image", "cut_phrase", "hide_ip_region", "remove_image", "delete_post",
]

# Cheaper edits first when two remove the same exposure: a person prefers blurring a label
# to deleting the whole post.
EDIT_COST: dict[str, float] = {
    "strip_exif": 0.1, "hide_ip_region": 0.2, "blur_region": 0.3, "cut_phrase": 0.4,
    "crop_image": 0.5, "remove_image": 0.7, "delete_post": 1.0,
}


SHOWN = 80      # characters of a phrase shown in a one-line description


def shown(phrase: str, limit: int = SHOWN) -> str:
    """The phrase whole, or cut at a word boundary with an ellipsis where it is cut."""
    p = " ".join(phrase.split())
    if len(p) <= limit:
        return p
    cut = p[:limit].rsplit(" ", 1)[0] if " " in p[:limit] else p[:limit]
    return cut.rstrip(" ,;:") + "…"


class Edit(BaseModel):
    kind: EditKind
    post_id: str
    image: str | None = None                 # image file relative to the user folder
    box: list[float] | None = None           # [x0, y0, x1, y1] in image pixels (blur / crop-out)
    phrase: str | None = None                # exact caption/title/tag/comment text to cut
    breaks: list[str] = Field(default_factory=list)   # evidence node ids this edit removes
    note: str = ""

    @property
    def key(self) -> tuple:
        return (self.kind, self.post_id, self.image, tuple(self.box or ()), self.phrase)

    def describe(self) -> str:
        what = {
            "strip_exif": f"strip EXIF from {self.image}",
            "blur_region": f"blur {self._box()} in {self.image}",
            "crop_image": f"crop {self._box()} out of {self.image}",
            "cut_phrase": f"cut \u201c{shown(self.phrase or '')}\u201d",
            "hide_ip_region": "hide the IP region label" + (" on the account and every post" if self.post_id == "*" else ""),
            "remove_image": f"remove image {self.image}",
            "delete_post": "delete the post",
        }[self.kind]
        return what if self.post_id == "*" else f"{self.post_id}: {what}"

    def _box(self) -> str:
        return "[" + ",".join(str(int(v)) for v in (self.box or [])) + "]"
