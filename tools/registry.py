"""Tool declarations the router reads (name, family, typed input/output, default cost, network)
and `run_tool`, which validates inputs, hashes the files a tool reads, refuses network tools
when the run's network flag is off, and runs the tool through the Recorder (cached, recorded).
"""
from __future__ import annotations

from typing import Any, Callable, Literal

from pydantic import BaseModel, Field, ValidationError

from tools.base import Recorder, ToolError
from tools.exif import ExifInfo
from tools.fetch import FetchResult
from tools.mapsearch import MapResult
from tools.ocr import OcrLine
from tools.websearch import SearchResult

ToolFamily = Literal["ocr", "zoom_ocr", "exif", "gazetteer", "map_search", "web_search", "page_fetch", "deep_visual"]


# ---------------------------------------------------------------- input / output types
class OcrInput(BaseModel):
    image: str                                   # path of the image file
    box: list[float] | list[list[float]] | None = None
    zoom: float | Literal["auto"] | None = None


class OcrOutput(BaseModel):
    engine: str
    lines: list[OcrLine]
    text: str
    width: int
    height: int
    ms: float


class ZoomOcrInput(BaseModel):
    image: str
    box: list[float] | list[list[float]]         # the region to crop (rectangle or polygon)
    zoom: float | Literal["auto"] = "auto"


class ExifInput(BaseModel):
    image: str


class ExifOutput(ExifInfo):
    place: dict[str, Any] | None = None          # reverse-geocoded GPS (gazetteer), when GPS is present
    place_chain: list[str] = Field(default_factory=list)


class GazetteerInput(BaseModel):
    text: str = Field(max_length=20_000)


class GazetteerPlace(BaseModel):
    span: str
    start: int
    end: int
    place_id: str
    name: str
    kind: str
    chain: list[str]                              # country .. place
    lat: float | None = None
    lon: float | None = None
    alternatives: list[str] = Field(default_factory=list)


class GazetteerOutput(BaseModel):
    places: list[GazetteerPlace]


class MapSearchInput(BaseModel):
    query: str | None = None
    lat: float | None = None
    lon: float | None = None
    k: int = 5


class MapSearchOutput(BaseModel):
    provider: str
    results: list[MapResult]


class WebSearchInput(BaseModel):
    query: str
    k: int = 5


class WebSearchOutput(BaseModel):
    provider: str
    results: list[SearchResult]


class PageFetchInput(BaseModel):
    url: str


class DeepVisualInput(BaseModel):
    image: str
    question: str = ""


class DeepVisualOutput(BaseModel):
    answer: str
    model: str = ""


class ToolSpec(BaseModel):
    model_config = {"arbitrary_types_allowed": True}

    name: str
    family: ToolFamily
    description: str
    input_type: type[BaseModel]
    output_type: type[BaseModel]
    default_cost: float
    needs_network: bool = False
    needs_model: bool = False                    # run by a model backend, not by tools/
    file_inputs: tuple[str, ...] = ()            # input fields holding file paths (content-hashed)
    run: Callable[..., Any] | None = None


# ---------------------------------------------------------------- runners
def _run_ocr(image: str, box: Any = None, zoom: Any = None) -> dict[str, Any]:
    import time

    from tools.images import load_image
    from tools.ocr import default_ocr, lines_text

    img = load_image(image)
    eng = default_ocr()
    t0 = time.perf_counter()
    lines = eng.read(img, box=box, zoom=zoom)
    ms = (time.perf_counter() - t0) * 1000.0
    return OcrOutput(engine=eng.name, lines=lines, text=lines_text(lines), width=img.width, height=img.height,
                     ms=round(ms, 1)).model_dump(mode="json")


def _run_zoom_ocr(image: str, box: Any, zoom: Any = "auto") -> dict[str, Any]:
    return _run_ocr(image, box=box, zoom=zoom)


def _run_exif(image: str) -> dict[str, Any]:
    from tools.exif import read_exif
    from tools.gazetteer import default_gazetteer

    info = read_exif(image)
    out = ExifOutput(**info.model_dump())
    if info.has_gps:
        gz = default_gazetteer()
        p = gz.reverse(info.gps_lat, info.gps_lon)  # type: ignore[arg-type]
        if p is not None:
            out.place = {"id": p.id, "name": p.name, "kind": p.kind}
            out.place_chain = [c.name for c in gz.chain(p)]
    return out.model_dump(mode="json")


def _run_gazetteer(text: str) -> dict[str, Any]:
    from tools.gazetteer import default_gazetteer

    gz = default_gazetteer()
    places = []
    for m in gz.find_places(text):
        p = m.place
        places.append(GazetteerPlace(span=m.span, start=m.start, end=m.end, place_id=p.id, name=p.name, kind=p.kind,
                                     chain=[c.name for c in gz.chain(p)], lat=p.lat, lon=p.lon,
                                     alternatives=[a.id for a in m.alternatives]))
    return GazetteerOutput(places=places).model_dump(mode="json")


def _run_map_search(query: str | None = None, lat: float | None = None, lon: float | None = None, k: int = 5,
                    _provider: Any = None) -> dict[str, Any]:
    from tools.mapsearch import OfflineMapSearch

    prov = _provider or OfflineMapSearch()
    if query:
        results = prov.search(query, k=k)
    elif lat is not None and lon is not None:
        r = prov.reverse(lat, lon)
        results = [r] if r is not None else []
    else:
        raise ToolError("query or lat/lon: one is required", tool="map_search")
    return MapSearchOutput(provider=prov.name, results=results).model_dump(mode="json")


def _run_web_search(query: str, k: int = 5, _provider: Any = None) -> dict[str, Any]:
    from tools.websearch import DisabledWebSearch

    prov = _provider or DisabledWebSearch()
    return WebSearchOutput(provider=prov.name, results=prov.search(query, k=k)).model_dump(mode="json")


def _run_page_fetch(url: str, _allow_network: bool = False) -> dict[str, Any]:
    from tools.fetch import fetch_page

    return fetch_page(url, allow_network=_allow_network).model_dump(mode="json")


TOOLS: dict[str, ToolSpec] = {
    s.name: s
    for s in [
        ToolSpec(name="ocr", family="ocr", description="OCR of a whole image (RapidOCR PP-OCR, offline)",
                 input_type=OcrInput, output_type=OcrOutput, default_cost=2.0, file_inputs=("image",), run=_run_ocr),
        ToolSpec(name="zoom_ocr", family="zoom_ocr",
                 description="crop a region, upscale small text adaptively, OCR it (boxes in full-image pixels)",
                 input_type=ZoomOcrInput, output_type=OcrOutput, default_cost=2.0, file_inputs=("image",),
                 run=_run_zoom_ocr),
        ToolSpec(name="exif", family="exif", description="EXIF time/device/GPS; GPS reverse-geocoded offline",
                 input_type=ExifInput, output_type=ExifOutput, default_cost=1.0, file_inputs=("image",), run=_run_exif),
        ToolSpec(name="gazetteer", family="gazetteer",
                 description="places named in a text (EN/ZH/pinyin), with country..place chains",
                 input_type=GazetteerInput, output_type=GazetteerOutput, default_cost=1.0, run=_run_gazetteer),
        ToolSpec(name="map_search", family="map_search",
                 description="place search or reverse lookup (offline gazetteer; online providers when network is on)",
                 input_type=MapSearchInput, output_type=MapSearchOutput, default_cost=2.0, run=_run_map_search),
        ToolSpec(name="web_search", family="web_search", description="web search (SearxNG/Brave), off by default",
                 input_type=WebSearchInput, output_type=WebSearchOutput, default_cost=3.0, needs_network=True,
                 run=_run_web_search),
        ToolSpec(name="page_fetch", family="page_fetch",
                 description="fetch one public web page as text (private/loopback addresses refused), off by default",
                 input_type=PageFetchInput, output_type=FetchResult, default_cost=3.0, needs_network=True,
                 run=_run_page_fetch),
        ToolSpec(name="deep_visual", family="deep_visual",
                 description="a strong vision-language model looks at one image (run by the model backend)",
                 input_type=DeepVisualInput, output_type=DeepVisualOutput, default_cost=5.0, needs_model=True,
                 file_inputs=("image",), run=None),
    ]
}


def tools_for_family(family: str) -> list[ToolSpec]:
    return [s for s in TOOLS.values() if s.family == family]


def run_tool(
    recorder: Recorder,
    name: str,
    inputs: dict[str, Any],
    *,
    network: bool = False,
    provider: Any = None,
    cost: float | None = None,
) -> dict[str, Any]:
    """Validate, hash, record and run one tool. Never raises for tool failures: returns
    {"error": ...} and the failure is in `tool_calls`. `provider` is an online map/web search
    object (only used when network is on)."""
    from tools.images import sha256_file

    spec = TOOLS.get(name)
    if spec is None or spec.run is None:
        reason = f"tool {name!r} is not runnable here" + (" (model backend tool)" if spec and spec.needs_model else "")
        return recorder.call(name, _raise(reason), {"inputs": inputs}, cost=0.0, cacheable=False)
    try:
        args = spec.input_type.model_validate(inputs).model_dump()
    except ValidationError as e:
        first = e.errors()[0]
        field = ".".join(str(x) for x in first.get("loc", ())) or "inputs"
        return recorder.call(name, _raise(f"{field}: {first.get('msg')}"), {"inputs": inputs}, cost=0.0,
                             cacheable=False)
    if spec.needs_network and not network:
        return recorder.call(name, _raise(f"{name} disabled (network tools are off)"), args, cost=0.0,
                             cacheable=False)
    hashes = []
    for f in spec.file_inputs:
        if args.get(f):
            try:
                hashes.append(sha256_file(args[f]))
            except ToolError as e:
                return recorder.call(name, _raise(str(e)), args, cost=0.0, cacheable=False)
    fn: Callable[..., Any] = spec.run
    call_args = dict(args)
    extra: dict[str, Any] = {}
    if name in ("map_search", "web_search") and provider is not None and network:
        extra["_provider"] = provider
        call_args["provider"] = getattr(provider, "name", "custom")   # part of the cache key
    if name == "page_fetch":
        extra["_allow_network"] = network

    def bound(**kw: Any) -> Any:
        kw.pop("provider", None)
        return fn(**kw, **extra)

    return recorder.call(name, bound, call_args, content_hash=":".join(hashes) or None,
                         cost=spec.default_cost if cost is None else cost)


def _raise(message: str) -> Callable[..., Any]:
    def fail(**_: Any) -> Any:
        raise ToolError(message)

    return fail
