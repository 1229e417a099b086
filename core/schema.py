"""The 28-attribute privacy schema, loaded once from the copy shipped in the package."""
from __future__ import annotations

import json
import os
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ValidationError

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


#: data folders added to the shipped ones (os.pathsep-separated): an `attributes.json` there declares extra
#: attributes (after the 28; same fields), its recognizer files join the registry (core/engine/rules/registry.py)
ENV_EXTRA = "ARGUS_DATA_EXTRA"


def extra_dirs() -> list[Path]:
    return [Path(p) for p in os.environ.get(ENV_EXTRA, "").split(os.pathsep) if p.strip()]


def _extra_attributes(dimensions: list[str], known: set[str]) -> list[AttributeSpec]:
    """The attributes declared in the extra folders' attributes.json: a name of the 28 or a dimension
    the schema lacks is an error naming the file and the field (the 28 and their scoring never change)."""
    out: list[AttributeSpec] = []
    for d in extra_dirs():
        path = d / "attributes.json"
        if not path.is_file():
            continue
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            items = raw["attributes"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{path}: field attributes: not a JSON object with an attributes list ({e})") from None
        for i, item in enumerate(items):
            try:
                spec = AttributeSpec.model_validate(item)
            except ValidationError as e:
                err = e.errors()[0]
                raise ValueError(f"{path}: field attributes[{i}].{'.'.join(map(str, err['loc']))}: {err['msg']}") from None
            if spec.name in known:
                raise ValueError(f"{path}: field attributes[{i}].name: {spec.name!r} is already an attribute")
            if spec.dimension not in dimensions:
                raise ValueError(f"{path}: field attributes[{i}].dimension: {spec.dimension!r} is not one of {dimensions}")
            known.add(spec.name)
            out.append(spec)
    return out


@lru_cache(maxsize=1)
def load_schema() -> Schema:
    """The 28 attributes shipped, then any declared in ARGUS_DATA_EXTRA folders (read once per process)."""
    raw = resources.files("core").joinpath("data/attributes.json").read_text(encoding="utf-8")
    data = json.loads(raw)
    base = [AttributeSpec.model_validate(a) for a in data["attributes"]]
    extra = _extra_attributes(data["dimensions"], {a.name for a in base})
    return Schema(dimensions=data["dimensions"], attributes=base + extra)


ATTRIBUTE_NAMES: tuple[str, ...] = tuple(load_schema().names)
