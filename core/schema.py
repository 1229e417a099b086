"""The 28-attribute privacy schema, loaded once from the copy shipped in the package."""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel

Kind = Literal["hierarchy", "category", "set", "facts"]


class AttributeSpec(BaseModel):
    name: str
    dimension: str
    kind: Kind
    default_sensitivity: int
    aliases: list[str] = []
    levels: list[str] = []


class Schema(BaseModel):
    dimensions: list[str]
    attributes: list[AttributeSpec]

    def get(self, name: str) -> AttributeSpec | None:
        return _index(self).get(name)

    @property
    def names(self) -> list[str]:
        return [a.name for a in self.attributes]

    def resolve(self, name: str) -> AttributeSpec | None:
        """A schema name or a natural-language name (through aliases)."""
        from core.textmatch import normalize

        key = normalize(name)
        for spec in self.attributes:
            if key == normalize(spec.name) or key == normalize(spec.name.replace("_", " ")):
                return spec
        for spec in self.attributes:
            if any(key == normalize(a) for a in spec.aliases):
                return spec
        return None


_INDEX: dict[int, dict[str, AttributeSpec]] = {}


def _index(schema: Schema) -> dict[str, AttributeSpec]:
    idx = _INDEX.get(id(schema))
    if idx is None:
        idx = _INDEX[id(schema)] = {a.name: a for a in schema.attributes}
    return idx


@lru_cache(maxsize=1)
def load_schema() -> Schema:
    raw = resources.files("core").joinpath("data/attributes.json").read_text(encoding="utf-8")
    data = json.loads(raw)
    return Schema(dimensions=data["dimensions"], attributes=data["attributes"])


ATTRIBUTE_NAMES: tuple[str, ...] = tuple(load_schema().names)
