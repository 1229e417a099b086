"""Structured outputs: each role's reply is a pydantic model.

The request asks for JSON (OpenAI `json_schema`, llama.cpp's `json_object`+`schema`, or plain
`json_object` with the schema in the prompt); the reply is parsed leniently (code fences and
prose around the object are tolerated, control characters inside strings are accepted with
`strict=False`) and then validated. A reply that fails validation yields a ParseFailure whose
message is fed back to the model on the next attempt.
"""
from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

T = TypeVar("T", bound=BaseModel)


class ParseFailure(Exception):
    """A reply that is not valid JSON or does not validate against the role's model."""


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S | re.I)


def extract_json(text: str) -> Any:
    """The first JSON object in `text` (fences and surrounding prose tolerated)."""
    if text is None or not text.strip():
        raise ParseFailure("empty reply")
    candidates = [text.strip()]
    candidates += [m.group(1).strip() for m in _FENCE.finditer(text)]
    dec = json.JSONDecoder(strict=False)
    for cand in candidates:
        try:
            return json.loads(cand, strict=False)
        except json.JSONDecodeError:
            pass
        # scan for the first decodable object
        for i, ch in enumerate(cand):
            if ch == "{":
                try:
                    obj, _ = dec.raw_decode(cand, i)
                    return obj
                except json.JSONDecodeError:
                    continue
    raise ParseFailure(f"no JSON object in reply (starts {text.strip()[:60]!r})")


def parse_reply(text: str, model: type[T]) -> T:
    data = extract_json(text)
    if not isinstance(data, dict):
        raise ParseFailure(f"expected a JSON object, got {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as e:
        parts = []
        for err in e.errors()[:5]:
            loc = ".".join(str(x) for x in err["loc"]) or "(root)"
            parts.append(f"{loc}: {err['msg']}")
        raise ParseFailure("; ".join(parts)) from None


def schema_of(model: type[BaseModel]) -> dict:
    """A compact JSON schema (refs inlined) that small servers' grammar compilers accept."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                name = node["$ref"].split("/")[-1]
                return inline(dict(defs[name]))
            return {k: inline(v) for k, v in node.items() if k not in ("title", "default")}
        if isinstance(node, list):
            return [inline(x) for x in node]
        return node

    return inline(schema)


def response_format(model: type[BaseModel], mode: str) -> dict:
    """The `response_format` request field for one of the JSON modes."""
    schema = schema_of(model)
    if mode == "json_schema":
        return {"type": "json_schema",
                "json_schema": {"name": model.__name__, "schema": schema, "strict": False}}
    if mode == "json_object_schema":   # llama.cpp server: grammar-constrained to the schema
        return {"type": "json_object", "schema": schema}
    return {"type": "json_object"}


# ---- the role replies ----


def _clamp01(v: Any) -> Any:
    """Lenient confidences: small models answer 5 or 85 for "confident"; grammars do not bound numbers."""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if v > 1 and v <= 100:
            v = v / 100 if v > 10 else v / 10
        return min(1.0, max(0.0, float(v)))
    return v


Confidence = Annotated[float, Field(ge=0, le=1), BeforeValidator(_clamp01)]

class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")




class CueOut(_Reply):
    attribute: str = Field(max_length=40)
    value: str = Field(max_length=120)
    quote: str = Field(default="", max_length=160)   # the exact words in the post that support it
    confidence: Confidence = 0.5


class PerceptionReply(_Reply):
    """Perceiver: attribute cues in one post (text and images)."""

    cues: list[CueOut] = Field(default_factory=list, max_length=12)


class PostCueOut(CueOut):
    post: str = Field(default="", max_length=40)      # id of the post the cue comes from


class PerceptionBatchReply(_Reply):
    """Perceiver over a batch of posts (text-only models get several posts per call)."""

    cues: list[PostCueOut] = Field(default_factory=list, max_length=16)


class HypothesisOut(_Reply):
    attribute: str = Field(max_length=40)
    value: str = Field(max_length=120)
    confidence: Confidence = 0.5
    evidence: list[str] = Field(default_factory=list, max_length=8)   # evidence node ids
    rationale: str = Field(default="", max_length=200)


class HypothesesReply(_Reply):
    """Hypothesizer: candidate attribute values supported by listed evidence."""

    hypotheses: list[HypothesisOut] = Field(default_factory=list, max_length=12)


RouteFamilyOut = Literal["ocr", "zoom_ocr", "exif", "gazetteer", "map_search", "web_search",
                         "page_fetch", "deep_visual", "stop"]


class RouteReply(_Reply):
    """Router fallback: the next investigation route for a hypothesis."""

    family: RouteFamilyOut
    target: str = Field(default="", max_length=120)   # image id, query or place name
    expected: str = Field(default="", max_length=160)
    reason: str = Field(default="", max_length=200)


class QuoteOut(_Reply):
    node_id: str = Field(max_length=40)
    quote: str = Field(max_length=160)


class VerdictReply(_Reply):
    """Verifier: admit or reject a hypothesis, quoting the evidence that supports it."""

    verdict: Literal["admit", "reject", "unresolved"]
    confidence: Confidence = 0.5
    quotes: list[QuoteOut] = Field(default_factory=list, max_length=6)
    reason: str = Field(default="", max_length=200)


class ObservationOut(_Reply):
    attribute: str = Field(max_length=40)
    value: str = Field(max_length=120)
    seen: str = Field(default="", max_length=160)    # what in the image shows it (text read, object)
    confidence: Confidence = 0.5


class VisualReply(_Reply):
    """Deep visual: a closer look at one image for a hypothesis."""

    observations: list[ObservationOut] = Field(default_factory=list, max_length=8)


class JudgeReply(_Reply):
    """LLM judge: how much of the true value the prediction gets right (0..1)."""

    score: float = Field(ge=0, le=1)
    reason: str = Field(default="", max_length=200)


REPLY_MODELS: dict[str, type[BaseModel]] = {
    "perceiver": PerceptionReply,
    "hypothesizer": HypothesesReply,
    "router": RouteReply,
    "verifier": VerdictReply,
    "deep_visual": VisualReply,
    "judge": JudgeReply,
    "perceiver_batch": PerceptionBatchReply,   # prompt of the perceiver role for post batches
}
