"""The recognizer registry: the whole list of what reads a text for attribute cues, discovered from data.

Every recognizer is declared by a `recognizer` block (rules/data_file.Recognizer: name, attributes,
levels, languages, reads, scores) in a data file:
- a data-declared recognizer carries the block in its own file: any core/data/recognizers/*.json with a
  `recognizer` block joins (occupations.json, names.json, ...), and core/data/age_milestones.json;
- the recognizers written in Python are declared in core/data/recognizers/registry.json (`recognizers`:
  a list of blocks), one per extractor of rules/extract.py, by the extractor function's name;
- a folder named in ARGUS_DATA_EXTRA (os.pathsep-separated) adds recognizer files the same way (a
  recognizer without Python: its block's `patterns` are run by rules/data_runner.py).

`bind` pairs the extractors with their declarations as the aggregator registry pairs aggregators with
their consumes / produces (aggregators/registry.py): an extractor nobody declared, a declared attribute
missing from the schema, two declarations of one name, a `part_of` naming no recognizer are a
RecognizerError when the registry is built; a cue for an attribute its recognizer did not declare is a
RecognizerError when it is emitted (`Registry.check`, run by extract_cues on every cue); a read of a
Document field its recognizer did not declare in `reads` is a RecognizerError when it is read (each
extractor is handed a DocumentView of the text, `Registry.view`, as the aggregators are handed a Board).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from pydantic import ValidationError

from core.engine.reading.document import FIELD_OF, FIELDS
from core.engine.rules.data_file import Recognizer
from core.schema import ATTRIBUTE_NAMES, extra_dirs

DATA = Path(__file__).resolve().parents[2] / "data"
ROOT = DATA.parents[1]
RECOGNIZERS_DIR = DATA / "recognizers"
EXTRA_FILES = (DATA / "age_milestones.json",)      # a recognizer's data file kept outside the folder


class RecognizerError(ValueError):
    """A recognizer declaration that does not hold, or a cue its recognizer did not declare."""


@dataclass(frozen=True)
class Declared:
    spec: Recognizer
    source: Path                     # the data file declaring it
    raw: dict[str, Any]              # the whole file (a data runner's patterns, lexicons, context beside the block)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def where(self) -> str:
        """The source file, relative to the checkout where it lies inside it."""
        try:
            return str(self.source.relative_to(ROOT))
        except ValueError:
            return str(self.source)


def _files(dirs: Sequence[Path]) -> list[Path]:
    out: list[Path] = []
    for d in dirs:
        if d.is_file():
            out.append(d)
        elif d.is_dir():
            out.extend(sorted(d.glob("*.json")))
            out.extend(sorted((d / "recognizers").glob("*.json")) if (d / "recognizers").is_dir() else [])
    return out


def _block(path: Path, raw: dict[str, Any], where: str, block: Any) -> Declared:
    if not isinstance(block, dict):
        raise RecognizerError(f"{path}: field {where}: a recognizer block must be an object")
    try:
        spec = Recognizer.model_validate(block)
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        raise RecognizerError(f"{path}: entry {block.get('name', where)!s}: field {loc}: "
                              f"{err['msg'].removeprefix('Value error, ')}") from None
    return Declared(spec=spec, source=path, raw=raw)


def declarations(dirs: Sequence[Path] | None = None) -> list[Declared]:
    """Every declared recognizer of the data folders (default: core/data/recognizers, the files of
    EXTRA_FILES and the folders of ARGUS_DATA_EXTRA), in file order."""
    paths = _files([RECOGNIZERS_DIR, *EXTRA_FILES] if dirs is None else list(dirs))
    if dirs is None:
        paths += _files(extra_dirs())
    out: list[Declared] = []
    for path in paths:
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise RecognizerError(f"{path}: not readable JSON: {e}") from None
        if not isinstance(raw, dict):
            continue
        if "recognizer" in raw:
            out.append(_block(path, raw, "recognizer", raw["recognizer"]))
        for i, b in enumerate(raw.get("recognizers") or []):
            out.append(_block(path, b, f"recognizers[{i}]", b))
    return out


Extractor = Callable[..., list]
OPEN = frozenset({"cue"})        # the cue builder: a recognizer's output, not a reading of the text


class DocumentView:
    """One recognizer's view of a text's Document: the attributes of the fields it declares in `reads`
    (reading/document.FIELDS), anything else a RecognizerError naming the recognizer and the field. Each
    recognizer has a subclass of its own (`view_class`, built once when the registry is bound) whose
    declared attributes are properties reading through to the Document (an operator.attrgetter: no Python
    frame per read), so handing a recognizer its view of a text is one small object with one slot
    (benchmarks/recognizer_views.py)."""

    __slots__ = ("_doc",)
    _recognizer = ""     # set by view_class
    _where = ""

    def __init__(self, doc: Any):
        _DOC.__set__(self, doc)

    def __getattr__(self, attr: str) -> Any:      # only reached for what the view may not read
        if attr == "_doc":                        # a view not bound to a Document (never built so)
            raise AttributeError(attr)
        field = FIELD_OF.get(attr)
        if field is not None:
            raise RecognizerError(f"recognizer {self._recognizer!r} reads the Document field {field!r} ({attr}), "
                                  f"which it does not declare in reads ({self._where})")
        if attr.startswith("__") or not hasattr(self._doc, attr):
            raise AttributeError(attr)
        raise RecognizerError(f"recognizer {self._recognizer!r} reads {attr!r}, which is no Document field "
                              f"(a recognizer reads {', '.join(FIELDS)})")

    def __setattr__(self, attr: str, value: Any) -> None:
        raise RecognizerError(f"recognizer {self._recognizer!r} writes {attr!r}: a Document is read, not written")


_DOC = DocumentView._doc     # the slot's descriptor: binds a view to its Document past the refusing __setattr__


def view_class(d: Declared) -> type[DocumentView]:
    """The view of recognizer `d`: the attributes of the fields it declares, and the cue builder, each a
    read-only property of the Document it is bound to (a method comes back bound to the Document, whose
    lazy readings stay shared)."""
    names = {a for f in d.spec.reads for a in FIELDS[f]} - OPEN
    name = d.name

    def cue(self: DocumentView, *args: Any, **kwargs: Any) -> Any:
        # the cue builder names the recognizer as it builds the cue (one validation, not a second one
        # when extract_cues would assign it)
        return _DOC.__get__(self).cue(*args, recognizer=name, **kwargs)

    return type(f"{d.name}_view", (DocumentView,),
                {"__slots__": (), "_recognizer": d.name, "_where": d.where, "cue": cue,
                 **{a: property(attrgetter(f"_doc.{a}")) for a in sorted(names)}})


@dataclass(frozen=True)
class Registry:
    """Declared recognizers by name; `runners` pairs each extractor (rules/extract.py) with its name."""

    declared: dict[str, Declared]
    runners: tuple[tuple[str, Extractor], ...]
    attributes: frozenset[str]       # the schema's attributes plus declared extra ones
    views: dict[str, type[DocumentView]]   # by name: its view of a Document (what it may read)

    def view(self, name: str, doc: Any) -> DocumentView:
        """What recognizer `name` reads of `doc`: the fields it declares (anything else raises)."""
        return self.views[name](doc)

    def check(self, name: str, attribute: str) -> None:
        """Refuse a cue of an attribute recognizer `name` did not declare (a bug in the recognizer)."""
        d = self.declared.get(name)
        if d is None:
            raise RecognizerError(f"recognizer {name!r} is not declared (core/data/recognizers)")
        if attribute not in d.spec.attributes:
            raise RecognizerError(f"recognizer {name!r} emitted a {attribute!r} cue, which it does not declare "
                                  f"in {d.where} (attributes: {', '.join(d.spec.attributes)})")

    def select(self, attribute: str | None = None, lang: str | None = None) -> list[Declared]:
        return [d for d in self.declared.values()
                if (attribute is None or attribute in d.spec.attributes) and (lang is None or lang in d.spec.languages)]


def bind(extractors: Iterable[Extractor], *, also: Iterable[str] = (), decls: Sequence[Declared] | None = None,
         extra_attributes: Iterable[str] = ()) -> Registry:
    """The registry of these extractors (each declared under its function's name) and the declared
    recognizers run elsewhere (`also`: the occupation taxonomy's merge, the semantic banks)."""
    decls = declarations() if decls is None else decls
    attributes = frozenset(ATTRIBUTE_NAMES) | frozenset(extra_attributes)
    by_name: dict[str, Declared] = {}
    for d in decls:
        if d.name in by_name:
            raise RecognizerError(f"{d.source}: recognizer {d.name!r} is already declared in {by_name[d.name].source}")
        missing = [a for a in d.spec.attributes if a not in attributes]
        if missing:
            raise RecognizerError(f"{d.source}: entry {d.name}: field attributes: {missing} not in the attribute schema")
        by_name[d.name] = d
    for d in by_name.values():
        if d.spec.part_of is not None and d.spec.part_of not in by_name:
            raise RecognizerError(f"{d.source}: entry {d.name}: field part_of: no recognizer {d.spec.part_of!r}")
    runners: list[tuple[str, Extractor]] = []
    for ex in extractors:
        name = getattr(ex, "recognizer", None) or ex.__name__
        if name not in by_name:
            raise RecognizerError(f"extractor {ex.__module__}.{ex.__name__} is not declared: add a recognizer "
                                  f"block named {name!r} to core/data/recognizers/registry.json")
        runners.append((name, ex))
    for name in also:
        if name not in by_name:
            raise RecognizerError(f"recognizer {name!r} is run but not declared in core/data/recognizers")
    return Registry(declared=by_name, runners=tuple(runners), attributes=attributes,
                    views={n: view_class(d) for n, d in by_name.items()})
