"""The one base of every typed part of a run-graph node: unknown keys are an error, so nothing
the engine stores stays untyped; a run store written by an older engine is read tolerantly.

Reading old JSON: `validate_stored(model, raw)` validates with the context {"tolerant": ...},
under which every part drops the keys it does not know (an older engine wrote them; the engine
of today reads nothing from them) and counts them, instead of failing the whole run.
"""
from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationInfo, model_validator

Num = int | float          # a number as written (an int stays an int: 10 is not 10.0 in JSON or in a cache key)
Box = list[Num] | list[list[Num]]    # a rectangle [x0, y0, x1, y1] or a polygon [[x, y], ...] (image pixels)


class Part(BaseModel):
    """A typed part of node data: extra keys refused, assignments validated; None means "not
    there" (never stored)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    @model_validator(mode="before")
    @classmethod
    def _drop_legacy(cls, value: Any, info: ValidationInfo) -> Any:
        ctx = info.context
        if isinstance(value, dict) and isinstance(ctx, dict) and "tolerant" in ctx:
            unknown = [k for k in value if k not in cls.model_fields]
            if unknown:
                for k in unknown:
                    ctx["tolerant"][f"{cls.__name__}.{k}"] = ctx["tolerant"].get(f"{cls.__name__}.{k}", 0) + 1
                value = {k: v for k, v in value.items() if k in cls.model_fields}
        return value

    def stored(self) -> dict[str, Any]:
        """The JSON form kept in the run store: what is there (no None), keys as named."""
        return self.model_dump(mode="json", exclude_none=True)


P = TypeVar("P", bound=BaseModel)


def validate_stored(model: type[P], raw: Any, dropped: dict[str, int] | None = None) -> P:
    """A part read back from the run store: keys an older engine wrote and this one does not know
    are dropped (counted in `dropped`, "Part.key" -> how many), everything else is validated."""
    return model.model_validate(raw, context={"tolerant": dropped if dropped is not None else {}})
