"""The route registry: one `ToolSpec` per route family, the only way a route runs.

A spec declares the family's typed input (the route's `params`, validated with
`extra="forbid"` so a mistyped edit is refused by field), its typed output, its cost in
budget units (the single place costs live), whether it needs the network or a model
backend, how it runs (through the Recorder: cached by content hash, one `tool_calls` row
per call). Tools are leaves: the adapters turning a family's output into evidence drafts live
in the engine (core/engine/tool_evidence.py), and the gazetteer's place resolver is handed in
by the engine through `ToolEnv.places`.

A family whose spec has no executor here (deep_visual without a model backend, network
families with the network off) is not offered by the router (`offered`).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from tools.base import Recorder, ToolError
from tools.exif import ExifInfo
from tools.fetch import FetchResult
from tools.mapsearch import MapResult
from tools.websearch import SearchResult

ToolFamily = Literal["ocr", "zoom_ocr", "exif", "gazetteer", "map_search", "web_search", "page_fetch", "deep_visual"]
MAX_ZOOM = 8.0


# ---------------------------------------------------------------- inputs (route params)
class RouteInput(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _check_box(v: Any) -> Any:
    """A rectangle [x0, y0, x1, y1] or a polygon [[x, y], ...] in full-image pixels."""
    if v is None:
        return v
    pts = [v[i:i + 2] for i in (0, 2)] if v and not isinstance(v[0], list) else v
    if not isinstance(v[0], list) and len(v) != 4:
        raise ValueError("a rectangle box has 4 numbers [x0, y0, x1, y1]")
    if isinstance(v[0], list) and (len(v) < 3 or any(len(p) != 2 for p in v)):
        raise ValueError("a polygon box has at least 3 [x, y] points")
    xs, ys = [float(p[0]) for p in pts], [float(p[1]) for p in pts]
    if min(xs + ys) < 0:
        raise ValueError("box coordinates must be >= 0")
    if max(xs) - min(xs) < 1 or max(ys) - min(ys) < 1:
        raise ValueError("box has no area")
    return v


class ImageInput(RouteInput):
    image_id: str = ""
    file: str = Field(min_length=1, max_length=1000)     # relative to the user folder


class OcrInput(ImageInput):
    box: list[float] | list[list[float]] | None = None   # crop first (full-image pixels)
    zoom: float | Literal["auto"] | None = Field(default=None)
    carrier: str | None = None

    _box = field_validator("box")(classmethod(lambda cls, v: _check_box(v)))

    @field_validator("zoom")
    @classmethod
    def _zoom(cls, v: Any) -> Any:
        if isinstance(v, (int, float)) and not (0 < float(v) <= MAX_ZOOM):
            raise ValueError(f"zoom must be in (0, {MAX_ZOOM:g}] or 'auto'")
        return v


class ZoomOcrInput(OcrInput):
    box: list[float] | list[list[float]]                 # required here
    zoom: float | Literal["auto"] | None = "auto"
    from_node: str | None = None                         # the OCR node whose line is re-read
    line: int | None = None
    text: str = ""                                       # that line's first reading


class ExifInput(ImageInput):
    pass


class GazetteerInput(RouteInput):
    name: str = Field(min_length=1, max_length=200)
    hint: str = Field(default="", max_length=500)         # e.g. the account's IP regions


class MapSearchInput(RouteInput):
    query: str = Field(min_length=1, max_length=400)
    k: int = Field(default=5, ge=1, le=10)


class WebSearchInput(RouteInput):
    query: str = Field(min_length=1, max_length=400)
    k: int = Field(default=5, ge=1, le=10)


class PageFetchInput(RouteInput):
    url: str = Field(pattern=r"^https?://", max_length=2000)


class DeepVisualInput(ImageInput):
    question: str = Field(default="", max_length=1000)


# ---------------------------------------------------------------- outputs
class OcrLineOut(BaseModel):
    text: str
    score: float = 0.0
    box: Any = None


class OcrOutput(BaseModel):
    lines: list[OcrLineOut]


class GazetteerOutput(BaseModel):
    name: str
    levels: dict[str, str]


class MapSearchOutput(BaseModel):
    provider: str
    results: list[MapResult]


class WebSearchOutput(BaseModel):
    provider: str
    results: list[SearchResult]


class DeepVisualOutput(BaseModel):
    items: list[dict[str, Any]]


# ---------------------------------------------------------------- running
@dataclass
class ToolEnv:
    """What a route's tool may use: the recorder, the user folder (files must stay inside),
    the run config (network flag, provider settings), the backend (what it offers), and what the
    engine hands in: the place resolver (name, hint) -> {level: name} for the gazetteer family and
    the backend's deep visual look (image path, question) -> [{"text", "carrier"}] | None."""

    recorder: Recorder
    user_dir: Path
    config: dict[str, Any]
    backend: Any = None
    look: Callable[[str, str], Any] | None = None
    places: Callable[[str, str], dict[str, str]] | None = None

    @property
    def network(self) -> bool:
        return bool(self.config.get("network"))


class ToolResult(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    family: str
    inputs: RouteInput
    output: dict[str, Any] | None = None
    error: str | None = None
    call_id: int | None = None


@dataclass(frozen=True)
class Call:
    """How one validated input is recorded: tool name, recorded inputs, content hash."""

    tool: str
    inputs: dict[str, Any]
    content_hash: str | None
    run: Callable[[], Any]


@dataclass(frozen=True)
class ToolSpec:
    family: ToolFamily
    description: str
    input_type: type[RouteInput]
    output_type: type[BaseModel]
    cost: float
    prepare: Callable[[ToolEnv, Any], Call] | None      # None: no executor here (not offered)
    needs_network: bool = False
    needs_model: bool = False                           # run by a model backend (deep_visual)
    cacheable: bool = True

    @property
    def name(self) -> str:
        return self.family


def _image(env: ToolEnv, inp: ImageInput) -> tuple[Path, str]:
    """The image named by a route, through the one user-file guard (tools/userfiles.py: inside
    the user folder, a regular file, size limit), and its content hash."""
    from tools.userfiles import user_file_digest

    return user_file_digest(env.user_dir, inp.file)


def _prep_ocr(env: ToolEnv, inp: OcrInput) -> Call:
    from tools.ocr import default_ocr

    path, digest = _image(env, inp)
    inputs: dict[str, Any] = {"file": inp.file}
    if inp.box is not None:
        inputs["box"] = inp.box
    if inp.zoom is not None:
        inputs["zoom"] = inp.zoom

    def run() -> dict[str, Any]:
        lines = default_ocr().read(path, box=inp.box, zoom=inp.zoom)
        return {"lines": [ln.model_dump() for ln in lines]}

    # same tool name and inputs as perception's OCR: one cache for both
    return Call("ocr", inputs, digest, run)


def _prep_exif(env: ToolEnv, inp: ExifInput) -> Call:
    from tools.exif import read_exif

    path, digest = _image(env, inp)
    return Call("exif", {"file": inp.file}, digest, lambda: read_exif(path))


def _prep_gazetteer(env: ToolEnv, inp: GazetteerInput) -> Call:
    resolve = env.places
    if resolve is None:
        raise ToolError("gazetteer: no place resolver in this run", tool="gazetteer")
    return Call("gazetteer", {"name": inp.name, "hint": inp.hint}, None,
                lambda: {"name": inp.name, "levels": resolve(inp.name, inp.hint)})


def _prep_map_search(env: ToolEnv, inp: MapSearchInput) -> Call:
    from tools.mapsearch import default_mapsearch

    prov = default_mapsearch(env.config)
    return Call("map_search", {"query": inp.query, "k": inp.k, "provider": prov.name}, None,
                lambda: {"provider": prov.name, "results": [r.model_dump() for r in prov.search(inp.query, k=inp.k)]})


def _prep_web_search(env: ToolEnv, inp: WebSearchInput) -> Call:
    from tools.websearch import default_websearch

    prov = default_websearch(env.config)
    return Call("web_search", {"query": inp.query, "k": inp.k, "provider": prov.name}, None,
                lambda: {"provider": prov.name, "results": [r.model_dump() for r in prov.search(inp.query, k=inp.k)]})


def _prep_page_fetch(env: ToolEnv, inp: PageFetchInput) -> Call:
    from tools.fetch import fetch_page

    return Call("page_fetch", {"url": inp.url}, None, lambda: fetch_page(inp.url, allow_network=env.network))


def _prep_deep_visual(env: ToolEnv, inp: DeepVisualInput) -> Call:
    path, digest = _image(env, inp)

    def run() -> dict[str, Any]:
        items = env.look(str(path), inp.question) if env.look is not None else None
        if not items:
            raise ToolError("deep visual look not available from this backend", tool="deep_visual")
        return {"items": list(items)}

    return Call("deep_visual", {"file": inp.file, "question": inp.question}, digest, run)


TOOLS: dict[str, ToolSpec] = {s.family: s for s in [
    ToolSpec("ocr", "full-resolution OCR of an image, or of one box of it (RapidOCR PP-OCR, offline)",
             OcrInput, OcrOutput, 2.0, _prep_ocr),
    ToolSpec("zoom_ocr", "crop one text region, upscale small text adaptively, OCR it (boxes in full-image pixels)",
             ZoomOcrInput, OcrOutput, 2.0, _prep_ocr),
    ToolSpec("exif", "EXIF time/device/GPS of one image; GPS reverse-geocoded offline",
             ExifInput, ExifInfo, 1.0, _prep_exif),
    ToolSpec("gazetteer", "ancestor levels of a place name (offline gazetteer, disambiguated by a hint)",
             GazetteerInput, GazetteerOutput, 1.0, _prep_gazetteer),
    # offline, a map search would only repeat the gazetteer: it is an online route
    ToolSpec("map_search", "place / POI search of an online map provider (Nominatim, Amap); network only",
             MapSearchInput, MapSearchOutput, 2.0, _prep_map_search, needs_network=True),
    ToolSpec("web_search", "web search (SearxNG/Brave); network only",
             WebSearchInput, WebSearchOutput, 3.0, _prep_web_search, needs_network=True),
    ToolSpec("page_fetch", "fetch one public web page as text (private/loopback addresses refused); network only",
             PageFetchInput, FetchResult, 3.0, _prep_page_fetch, needs_network=True),
    ToolSpec("deep_visual", "a strong vision-language model looks at one image (model backends only)",
             DeepVisualInput, DeepVisualOutput, 5.0, _prep_deep_visual, needs_model=True,
             cacheable=False),
]}

NETWORK_FAMILIES = frozenset(f for f, s in TOOLS.items() if s.needs_network)


def spec_for(family: str) -> ToolSpec:
    spec = TOOLS.get(family)
    if spec is None:
        from core.errors import InputError

        raise InputError("route", f"unknown route family {family!r} (known: {', '.join(TOOLS)})", field="family")
    return spec


def route_cost(family: str) -> float:
    """Budget units of one executed route of this family (stop is free)."""
    return TOOLS[family].cost if family in TOOLS else 0.0


def validate_params(family: str, params: dict[str, Any]) -> RouteInput:
    """The route's params as its family's input model; a bad value is an InputError naming
    the field and the reason (nothing has run or been charged)."""
    from core.errors import InputError

    spec = spec_for(family)
    try:
        return spec.input_type.model_validate(params)
    except ValidationError as e:
        first = e.errors()[0]
        field = ".".join(str(x) for x in first.get("loc", ())) or "params"
        raise InputError(f"route {family}", first.get("msg", "invalid"), field=f"params.{field}") from e


def offered(family: str, *, network: bool, backend: Any = None) -> bool:
    """Whether a route of this family can run in this run (executor, network, model)."""
    spec = TOOLS.get(family)
    if spec is None or spec.prepare is None:
        return False
    if spec.needs_network and not network:
        return False
    if spec.needs_model and not bool(getattr(backend, "has_deep_visual", False)):
        return False
    return True


def run_tool(env: ToolEnv, family: str, params: dict[str, Any] | RouteInput) -> ToolResult:
    """Validate (InputError on bad params), then run one route's tool through the Recorder.
    Tool failures (missing file, network off, provider error) are results with `error`,
    recorded in `tool_calls` like any call."""
    spec = spec_for(family)
    inp = params if isinstance(params, RouteInput) else validate_params(family, params)
    rec = env.recorder

    def refused(reason: str, inputs: dict[str, Any]) -> ToolResult:
        out = rec.call(family, _raise(reason), inputs, cost=0.0, cacheable=False)
        return ToolResult(family=family, inputs=inp, error=out.get("error"), call_id=_last_id(rec))

    if spec.needs_network and not env.network:
        return refused(f"{family} disabled (network tools are off)", inp.model_dump(mode="json"))
    if not offered(family, network=env.network, backend=env.backend):
        return refused(f"{family}: no executor in this run", inp.model_dump(mode="json"))
    try:
        call = spec.prepare(env, inp)              # type: ignore[misc]
    except (ToolError, OSError, ValueError) as e:
        return refused(str(e), inp.model_dump(mode="json"))
    out = rec.call(call.tool, lambda **_: call.run(), call.inputs, content_hash=call.content_hash,
                   cost=spec.cost, cacheable=spec.cacheable, check=output_check(spec))
    call_id = _last_id(rec)
    if "error" in out and len(out) == 1:
        return ToolResult(family=family, inputs=inp, error=str(out["error"]), call_id=call_id)
    return ToolResult(family=family, inputs=inp, output=out, call_id=call_id)


def output_check(spec: ToolSpec) -> Callable[[dict[str, Any]], None]:
    """The check of a family's output against its spec's output model: a ToolError naming the
    family, the model and the first bad field (the output itself is kept as the tool gave it)."""

    def check(out: dict[str, Any]) -> None:
        try:
            spec.output_type.model_validate(out)
        except ValidationError as e:
            first = e.errors()[0]
            field = ".".join(str(x) for x in first.get("loc", ())) or "output"
            raise ToolError(f"{spec.family}: output is not a {spec.output_type.__name__}"
                            f" ({field}: {first.get('msg', 'invalid')})", tool=spec.family) from e

    return check


def _last_id(rec: Recorder) -> int | None:
    return rec.records[-1].id if rec.records else None


def _raise(message: str) -> Callable[..., Any]:
    def fail(**_: Any) -> Any:
        raise ToolError(message)

    return fail
