"""The typed parts of a post's and an evidence node's data, grouped by what carries them: where
it comes from (every evidence), what the rules read in its text (post fields, OCR, alt text,
web pages), the image it is about (skim, OCR), the metadata it holds (timestamp, EXIF), the
tool call that produced it (routes) and the model that read it (model backends). The values
inside (OCR lines, time and text features, a form, EXIF, a place) are typed here too."""
from __future__ import annotations

from typing import Literal

from core.nodes.base import Box, Num, Part
from core.nodes.cue import Cue, Entity, SemanticMatch

# ---------------------------------------------------------------- values inside the parts


class TimeFeatures(Part):
    """A timestamp read in its own time zone (core/engine/rules/timefeat.py)."""

    local_time: str                   # "08:15"
    hour: int
    weekday: str                      # "Mon"
    is_weekday: bool
    date: str                         # "2024-03-02"
    part: str                         # early_morning | morning | midday | afternoon | evening | night


class DocPlace(Part):
    """A place printed on a home document (a fee notice, a parcel label)."""

    text: str
    name: str
    levels: dict[str, str]


class TextFeatures(Part):
    """What the aggregators read of a text instead of the text (core/engine/rules/features.py):
    set only when it says something."""

    travel: bool | None = None
    home: bool | None = None
    work: bool | None = None
    commute: bool | None = None
    transit_lines: list[str] | None = None
    sentences: list[tuple[int, int, str]] | None = None     # (start, end, flags h/p/d/c) of every sentence
    birthday_self: bool | None = None
    birthday_other: bool | None = None
    not_today: bool | None = None
    age_in: int | None = None
    birth_years: list[tuple[int, str]] | None = None         # (year, span)
    capitalised: bool | None = None
    recipient: bool | None = None
    resident: bool | None = None
    queer: bool | None = None
    parcel_surnames: list[tuple[str, str]] | None = None     # (initial, surname)
    callnames: list[str] | None = None
    compounds: list[str] | None = None
    doc_places: list[DocPlace] | None = None
    destinations: list[str] | None = None
    route_ends: dict[str, str] | None = None                 # place -> home | work
    stations_ok: list[str] | None = None
    line_marks: list[list[str]] | None = None                # per OCR line: dept, venue, not_venue, ...


class OcrLine(Part):
    """One OCR line of an image: its text, the reader's confidence, its box in image pixels."""

    text: str = ""
    score: float | None = None        # None: not given (each reader says what it assumes)
    box: Box | None = None


Layout = Literal["colon", "inline", "same_row", "below"]
DocType = Literal["health", "locality", "employment", "invitation", "id", "other"]


class FormField(Part):
    key: str                 # canonical key ("" for a label not in the table)
    label: str
    value: str
    layout: Layout
    line: int                # index of the value's OCR line
    start: int               # value offsets in the node text
    end: int


class Form(Part):
    """OCR lines read as a form: key-value fields and a document type (core/engine/forms.py)."""

    doc_type: DocType | None = None
    fields: list[FormField] = []

    def get(self, *keys: str) -> list[FormField]:
        return [f for f in self.fields if f.key in keys]


class ImageSignals(Part):
    """The skim's cheap signals of one image (tools/images.py image_signals)."""

    width: int
    height: int
    aspect: float
    format: str | None = None
    mean_brightness: float
    flat_share: float
    edge_density: float
    screenshot_like: bool
    text_bearing: bool
    text_method: str
    text_tiles: int | None = None
    text_tile_boxes: list[list[Num]] | None = None
    text_regions: list[Box] | None = None


class ExifInfo(Part):
    """An image's EXIF time, device and GPS (tools/exif.py read_exif, the exif route's output)."""

    datetime_original: str | None = None   # "YYYY-MM-DD HH:MM:SS" as written by the camera (local time)
    offset: str | None = None              # OffsetTimeOriginal, e.g. "+08:00", when present
    make: str | None = None
    model: str | None = None
    software: str | None = None
    gps_lat: float | None = None
    gps_lon: float | None = None
    has_exif: bool = False

    @property
    def has_gps(self) -> bool:
        return self.gps_lat is not None and self.gps_lon is not None


class GpsPlace(Part):
    """The gazetteer's place at an image's GPS position."""

    name: str
    kind: str
    levels: dict[str, str]


class GazetteerHit(Part):
    """A place name and its ancestor levels (the gazetteer route)."""

    name: str
    levels: dict[str, str]


class MapResult(Part):
    """One place of a map search (tools/mapsearch.py providers, the map_search route)."""

    name: str
    kind: str = ""                    # country|region|city|district|station|poi|...
    lat: float | None = None
    lon: float | None = None
    address: str = ""                 # coarse-to-fine chain or provider display name
    chain: list[str] = []             # country .. place names where known
    source: str = ""
    place_id: str | None = None


class MapSearchHits(Part):
    query: str
    results: list[MapResult]


class ModelCue(Part):
    """A cue a model backend read, grounded on a quote of the node's text."""

    attribute: str
    value: str
    span: str
    confidence: float


# ---------------------------------------------------------------- the parts


class PostParts(Part):
    """A post node: its place in posts.jsonl and its timestamp as written."""

    idx: int | None = None
    timestamp: str | None = None


class SourceParts(Part):
    """Where an evidence node comes from and what the verifier found (every evidence node)."""

    field: str | None = None          # the post field ("caption", "comments[0].text", "ocr:p1/img0", "exif:...")
    cites: list[str] | None = None    # a draft's cite targets (post node ids), turned into cite edges when stored
    grounding: str | None = None      # why it is grounded / rejected
    error: str | None = None          # why it is unusable (an unreadable image)


class TextParts(Part):
    """What the rules read in the node's text (core/engine/rules), and whether the text is hostile."""

    cues: list[Cue] | None = None
    entities: list[Entity] | None = None
    features: TextFeatures | None = None
    form: Form | None = None                      # OCR lines read as a form (core/engine/forms.py)
    hostile: list[str] | None = None              # spans addressed to an AI / an auditor
    hostile_scope: Literal["all", "sentences"] | None = None   # the whole text, or the sentences around them
    hostile_post: bool | None = None              # it governs the rest of its post
    hostile_semantic: SemanticMatch | None = None     # flagged by meaning (rules/hostile_semantic.py)
    not_used: str | None = None                   # "addressed to automated readers: not used (why)": taint by provenance
    withheld: list[Cue] | None = None             # what the text claimed before it was tainted (shown, never used)
    by_other: bool | None = None                  # written by someone else (a comment)
    author: str | None = None                     # a comment's author
    location_tag: bool | None = None              # the post's location tag
    url: str | None = None                        # a web page's address


class ImageParts(Part):
    """The image an evidence node is about: the skim's signals, the OCR lines read from it."""

    image_id: str | None = None
    file: str | None = None
    signals: ImageSignals | None = None
    ocr_done: bool | None = None                  # OCR already ran during the skim
    lines: list[OcrLine] | None = None
    ocr_source: str | None = None                 # perception | ocr | zoom_ocr | deep_visual | a baseline's name
    box: Box | None = None                        # the region a zoom read


class MetaParts(Part):
    """Metadata: a timestamp's features (post or EXIF), the raw value, the EXIF block and its place."""

    time: TimeFeatures | None = None
    raw: str | None = None
    exif: ExifInfo | None = None
    gps_place: GpsPlace | None = None


class ToolParts(Part):
    """The route and tool call that produced the node, and the tool's place answers."""

    route_id: str | None = None
    tool_call_id: int | None = None
    gazetteer: GazetteerHit | None = None
    map_search: MapSearchHits | None = None


class ModelParts(Part):
    """Evidence a model backend read (core/backends): the model and its cue."""

    source: str | None = None                     # "model:perceiver"
    model: str | None = None
    model_cue: ModelCue | None = None
