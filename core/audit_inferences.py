"""What a platform itself concluded about the person (its own inference files in the export: X's
personalization and age info, Instagram's and Facebook's ad interests, topics and "account based
in"), kept apart from the posts: `platform_inferences.json` in the imported user folder. The engine
never reads it (it is no evidence about the posts); the report shows it beside what the posts
reveal, attribute by attribute (`compare`). Nothing of it is sent anywhere."""
from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, field_validator

from core.schema import ATTRIBUTE_NAMES

FILE = "platform_inferences.json"
INTERESTS = "interests"
PLATFORM_NAMES = {"x": "X", "instagram": "Instagram", "facebook": "Facebook", "threads": "Threads"}
# the posts' attribute an "interests" row is compared with
POSTS_ATTRIBUTE = {INTERESTS: "hobbies"}
PHRASE = {"age": "you are {v}", "gender": "you are {v}", "home_location": "you are based in {v}",
          INTERESTS: "you are interested in {v}", "hobbies": "your hobbies are {v}"}


class PlatformInference(BaseModel):
    model_config = ConfigDict(extra="forbid")
    attribute: str                  # one of the 28 attribute keys, or "interests"
    value: str
    source_file: str                # the export's file it was read from

    @field_validator("attribute")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in ATTRIBUTE_NAMES and v != INTERESTS:
            raise ValueError(f"attribute {v!r} is not one of the 28 attribute keys or 'interests'")
        return v

    @field_validator("value", "source_file")
    @classmethod
    def _text(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("empty")
        return v.strip()


class PlatformInferences(BaseModel):
    model_config = ConfigDict(extra="forbid")
    platform: str
    items: list[PlatformInference] = []


class InferenceRow(BaseModel):
    attribute: str
    platform_value: str
    posts_value: str | None
    sentence: str


def load(user_dir: str | Path) -> PlatformInferences | None:
    """The user folder's platform_inferences.json, or None when the export had none."""
    p = Path(user_dir) / FILE
    if not p.is_file():
        return None
    return PlatformInferences.model_validate(json.loads(p.read_text(encoding="utf-8")))


def _profile_values(profile) -> dict[str, str]:
    """attribute -> value of a Predictions (or a list of its attributes / of dicts)."""
    attrs = getattr(profile, "attributes", profile) or []
    out: dict[str, str] = {}
    for a in attrs:
        name = a["attribute"] if isinstance(a, dict) else a.attribute
        value = a["value"] if isinstance(a, dict) else a.value
        if value and name not in out:
            out[name] = str(value)
    return out


def compare(inferences: PlatformInferences, profile) -> list[InferenceRow]:
    """One row per attribute the platform infers: its value (several joined), what the posts
    reveal of it (None: nothing), and one sentence ("X infers you are 25-34; your posts reveal 31")."""
    posts = _profile_values(profile)
    who = PLATFORM_NAMES.get(inferences.platform, inferences.platform.capitalize())
    by_attr: dict[str, list[str]] = {}
    for it in inferences.items:
        vals = by_attr.setdefault(it.attribute, [])
        if it.value not in vals:
            vals.append(it.value)
    rows = []
    for attr, vals in by_attr.items():
        pv = ", ".join(vals)
        seen = posts.get(POSTS_ATTRIBUTE.get(attr, attr))
        claim = PHRASE.get(attr, "your " + attr.replace("_", " ") + " is {v}").format(v=pv)
        tail = f"your posts reveal {seen}" if seen else "your posts do not reveal it"
        rows.append(InferenceRow(attribute=attr, platform_value=pv, posts_value=seen,
                                 sentence=f"{who} infers {claim}; {tail}."))
    return rows
