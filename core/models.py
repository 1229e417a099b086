"""Pydantic models of the sopri/1 benchmark format (see docs/benchmark-format.md)."""
from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

FORMAT = "sopri/1"

# Caps of the input boundary (docs/limits.md). core/loader.py applies them and reports what
# exceeds them as an InputError naming file, line and field; nothing is cut silently.
MAX_POSTS = 10_000            # posts read per user
MAX_IMAGES_PER_POST = 12
MAX_TAGS = 50                 # hashtags per post
MAX_COMMENTS = 200            # comments per post
MAX_TEXT = 20_000             # characters per text field (caption, title, tag, comment, alt, bio, ...)
MAX_DEPTH = 32                # JSON values nested deeper are refused for their field
MAX_INT_DIGITS = 30           # a longer integer literal is refused for its field
RESERVED_POST_PREFIX = "@"    # "@profile" names the account profile in the evidence graph

Modality = Literal["text", "image", "metadata"]
Carrier = Literal[
    "caption", "hashtag", "metadata", "timestamp", "ip_region", "ocr_text", "screenshot",
    "document", "ticket", "receipt", "map", "sign", "badge", "background_object",
    "image_scene", "exif", "routine",
]
LeakageType = Literal["explicit", "implicit", "cross_post"]
CARRIERS: tuple[str, ...] = Carrier.__args__  # type: ignore[attr-defined]


class _Open(BaseModel):
    """Input records: unknown extra fields are kept, not rejected."""

    model_config = ConfigDict(extra="allow")


class Manifest(_Open):
    format: Literal["sopri/1"] = FORMAT
    name: str = ""
    users: list[str]


class AccountProfile(_Open):
    user_id: str
    platform: str | None = None
    nickname: str | None = None
    bio: str | None = None
    ip_region: str | None = None
    avatar: str | None = None
    language: str | None = None


class ImageRef(_Open):
    file: str
    alt: str | None = None


class Comment(_Open):
    author: str | None = None
    text: str | None = None


class Post(_Open):
    post_id: str
    timestamp: str | None = None
    title: str | None = None
    caption: str | None = None
    tags: list[str] | None = None
    ip_region: str | None = None
    location_tag: str | None = None
    images: list[ImageRef] | None = None
    comments: list[Comment] | None = None
    _line: int | None = PrivateAttr(default=None)   # its line in posts.jsonl (set by the loader)

    def text_fields(self) -> list[tuple[str, str]]:
        """(carrier, text) pairs of every textual field of the post."""
        out: list[tuple[str, str]] = []
        if self.title:
            out.append(("caption", self.title))
        if self.caption:
            out.append(("caption", self.caption))
        for t in self.tags or []:
            if t:
                out.append(("hashtag", t))
        for c in self.comments or []:
            if c.text:
                out.append(("caption", c.text))
        return out


class UserView(BaseModel):
    """The adversary's view of one account: profile, posts and image folder. No truth."""

    user_dir: Path
    profile: AccountProfile
    posts: list[Post]

    def image_path(self, ref: ImageRef | str) -> Path:
        rel = ref.file if isinstance(ref, ImageRef) else ref
        return (self.user_dir / rel).resolve()


# ---- truth (evaluation only) ----


class Level(BaseModel):
    level: str
    value: str
    aliases: list[str] = []


class Item(BaseModel):
    value: str
    aliases: list[str] = []


class Fact(BaseModel):
    text: str
    keywords: list[list[str]] = []


class EvidenceRef(BaseModel):
    post_id: str
    modality: Modality | None = None
    carrier: Carrier | None = None
    clue: str | None = None


class TruthAttribute(_Open):
    attribute: str
    kind: Literal["hierarchy", "category", "set", "facts"]
    value: str | None = None
    aliases: list[str] = []
    levels: list[Level] = []
    items: list[Item] = []
    facts: list[Fact] = []
    sensitivity: int = Field(ge=1, le=5)
    leakage_type: LeakageType | None = None
    difficulty: int | None = Field(default=None, ge=1, le=4)
    evidence: list[EvidenceRef] = []

    def display_value(self) -> str:
        if self.kind == "hierarchy":
            return ", ".join(lv.value for lv in reversed(self.levels)) or (self.value or "")
        if self.kind == "set":
            return "; ".join(i.value for i in self.items)
        if self.kind == "facts":
            return "; ".join(f.text for f in self.facts)
        return self.value or ""


class Truth(_Open):
    user_id: str
    leaked: list[TruthAttribute] = []
    hidden: list[TruthAttribute] = []


# ---- predictions (a system's output for one user) ----


class PredictedAttribute(_Open):
    attribute: str
    value: str
    confidence: float | None = None
    evidence: list[str] = []


class Predictions(_Open):
    user_id: str
    system: str | None = None
    attributes: list[PredictedAttribute] = []
