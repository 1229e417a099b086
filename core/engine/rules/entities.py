"""Typed entities in a text: place|station|org|school|person|date|money|id|tracking|phone|email|plate|url."""
from __future__ import annotations

import re
from typing import Any, Callable

from core.engine.gazetteer import find_places
from core.engine.rules.documents import reading
from core.engine.rules.blobs import blob_spans
from core.engine.rules.recognizer_data import family
from core.nodes.cue import Entity, EntityType  # noqa: F401 (stored in evidence data)

_D = family("entities")      # core/data/recognizers/entities.json (rules/recognizer_data.py)

EMAIL = re.compile(r"(?<![\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24}(?![\w-])")
URL = re.compile(r"\b(?:https?://|www\.)[^\s<>\"'，。！？、）)]{2,300}", re.I)
# CN mobile (1[3-9]x, 11 digits, optional +86 and separators), US (xxx) xxx-xxxx, generic international
PHONE_CN = re.compile(r"(?<![\d])(?:\+?86[\s-]?)?1[3-9]\d(?:[\s-]?\d{4}){2}(?!\d)")
PHONE_US = re.compile(r"(?<![\d\w])(?:\+?1[\s.-]?)?(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}(?!\d)")
PHONE_INTL = re.compile(r"(?<![\d\w])\+\d{1,3}[\s.-]?(?:\(?\d{1,4}\)?[\s.-]?){2,4}\d{2,4}(?!\d)")
# 8-digit local numbers (HK, SG ...) only right after contact wording
PHONE_LABELED = _D.pattern("phone_label")
PHONE_CN_LANDLINE = re.compile(r"(?<!\d)0\d{2,3}-\d{7,8}(?!\d)")
# 18-digit Chinese resident ID (last may be X), passports, staff/student IDs like XC190417, SID-2023-0042
CN_ID = re.compile(r"(?<![\dA-Za-z])[1-9]\d{5}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![\dA-Za-z])")
ALNUM_ID = re.compile(r"(?<![\w-])(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z]{1,4}-?\d{4,10}(?:-\d{1,6})?(?![\w-])")
LABELED_ID = _D.pattern("labeled_id")
PLATE_CN = _D.pattern("plate_cn")
# whole label words only: "reg" inside "regrets" is no plate label
PLATE_LABELED_EN = _D.pattern("plate_label")
# A parcel's tracking / waybill number identifies the parcel, not its recipient. It is recognised by
# the carriers' own formats (UPU S10 "RR123456789CN", UPS "1Z…") or by parcel wording on the same
# label or sentence (tracking, waybill, ship to, 运单, 快递单号, 收件人, a courier's name).
TRACKING_FORMAT = re.compile(r"^(?:[A-Z]{2}\d{9}[A-Z]{2}|1Z[0-9A-Z]{16})$")
PARCEL_CONTEXT = _D.pattern("parcel_context")
_LONG_DIGITS = re.compile(r"(?<![\d\w-])\d{10,15}(?![\d\w-])")
_S10 = re.compile(r"(?<![\w-])[A-Z]{2}\d{9}[A-Z]{2}(?![\w-])")


# A membership, loyalty, library or order number names an account with a shop, gym or library, not
# the person: the schema's IDs are phones, e-mails, ID / student / staff / document numbers and plates.
_PERSON_ID_LABEL = _D.pattern("person_id_label")
_ACCOUNT_CONTEXT = _D.pattern("account_context")


def is_account_number(text: str, label: str) -> bool:
    """A labelled number (`label` its label) is a membership / loyalty / library / order number:
    its label or the card it is printed on says so, and the label is no personal-ID label."""
    if _PERSON_ID_LABEL.search(label):
        return False
    return bool(_ACCOUNT_CONTEXT.search(label) or _ACCOUNT_CONTEXT.search(text))


def is_tracking_number(text: str, value: str) -> bool:
    """`value` (an unlabelled number found in `text`) reads as a parcel's tracking number."""
    v = value.replace(" ", "").replace("-", "")
    return bool(TRACKING_FORMAT.match(v)) or bool(PARCEL_CONTEXT.search(text))
MONEY = _D.pattern("money")
MONTHS = {m: i + 1 for i, m in enumerate(_D.words("months"))}   # data: entities.json months (calendar order)
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9
DATE_ISO = re.compile(r"(?<!\d)((?:19|20)\d{2})[-/.年](0?[1-9]|1[0-2])(?:[-/.月](0?[1-9]|[12]\d|3[01])[日号]?)?(?!\d)")
DATE_EN = _D.pattern("date_en")
DATE_ZH = re.compile(r"(?:((?:19|20)\d{2})年)?(1[0-2]|0?[1-9])月([12]\d|3[01]|0?[1-9])[日号]")
STATION = _D.pattern("station")
ORG_SUFFIX_EN = _D.source("org_suffix")
ORG_EN = re.compile(rf"(?<![\w&'.-])(?:[A-Z][\w&'.-]*+\s+){{1,4}}(?:{ORG_SUFFIX_EN})\b")
ORG_ZH = _D.pattern("org_zh")
# a school's name: 'University of X (and Discipline)', 'X University Place' (a capitalised word after it is its
# place unless it names a day, month or campus word), 'X High School', an acronym (core/data/recognizers/entities.json)
SCHOOL_EN = _D.pattern("school_en")
# "高中学历" (a high-school diploma) holds 中学 but names no school: no suffix whose 学 runs into 学历 / 学位
SCHOOL_ZH = _D.pattern("school_zh")
_ZH_MOTION_END = _D.pattern("motion_end_zh")
PERSON_EN = _D.pattern("person_en")
PERSON_ZH = _D.pattern("person_zh")


def _add(out: list[Entity], taken: list[tuple[int, int]], etype: EntityType, m_start: int, m_end: int, text: str,
         **data: Any) -> None:
    if m_end <= m_start:
        return
    for s, e in taken:
        if m_start < e and s < m_end:
            return
    taken.append((m_start, m_end))
    out.append(Entity(type=etype, text=text[m_start:m_end], start=m_start, end=m_end, data=data))


# currency word or symbol -> ISO code, multiplier word -> factor: core/data/recognizers/money.json
_CUR = family("money").map("currencies")
_MUL = family("money").map("multipliers")


def money_entities(text: str) -> list[Entity]:
    out: list[Entity] = []
    for m in MONEY.finditer(text):
        num = m.group("num1") or m.group("num2")
        mul = m.group("mul1") or m.group("mul2")
        cur = (m.group("cur1") or m.group("cur2") or "").lower()
        try:
            amount = float(num.replace(",", "")) * _MUL.get((mul or "").lower(), 1)
        except ValueError:
            continue
        out.append(Entity(type="money", text=m.group(0).strip(), start=m.start(), end=m.start() + len(m.group(0).rstrip()),
                          data={"amount": amount, "currency": _CUR.get(cur, cur.upper())}))
    return out


# What a step reads of a match: the entity's type and data, or None (no entity).
_Read = Callable[[str, re.Match[str]], "tuple[EntityType, dict[str, Any]] | None"]
_Steps = tuple[tuple[re.Pattern[str], int | str, _Read], ...]


def _is(etype: EntityType, **data: Any) -> _Read:
    return lambda text, m: (etype, data)


def _labeled_id(text: str, m: re.Match[str]) -> tuple[EntityType, dict[str, Any]] | None:
    label = text[m.start():m.start(1)].strip(" :：#")
    if "车牌" in label:
        return "plate", {"kind": "labeled"}
    if is_account_number(text, label) or not any(c.isdigit() for c in m.group(1)):
        return None
    return "id", {"label": label}


def _date_en(text: str, m: re.Match[str]) -> tuple[EntityType, dict[str, Any]] | None:
    mon = (m.group("m1") or m.group("m2")).lower()
    if mon == "may" and not m.group("y") and not re.match(r"\d", m.group(0)):
        return None  # "may 5" as modal verb is rare, but bare "may" + number is ambiguous
    return "date", {"year": int(m.group("y")) if m.group("y") else None,
                    "month": MONTHS.get(mon[:4] if mon.startswith("sept") else mon[:3], MONTHS.get(mon)),
                    "day": int(m.group("d1") or m.group("d2"))}


_PARCEL = ("tracking", {"kind": "parcel"})
# The patterns in the order they claim text (earlier, more specific ones win), each with the group
# that is the entity and what it reads of a match: first contacts (before the blobs: rules/blobs.py) ...
_CONTACTS: _Steps = ((EMAIL, 0, _is("email")), (URL, 0, _is("url")))
# ... then numbers (base64 / hex blobs taken: their digits are no phone or ID) ...
_NUMBERS: _Steps = (
    (CN_ID, 0, _is("id", kind="cn_resident_id")),
    (PHONE_CN, 0, _is("phone", kind="cn_mobile")), (PHONE_INTL, 0, _is("phone", kind="intl")),
    (PHONE_US, 0, _is("phone", kind="us")), (PHONE_CN_LANDLINE, 0, _is("phone", kind="cn_landline")),
    (PHONE_LABELED, "n",
     lambda t, m: ("phone", {"kind": "labeled"}) if sum(c.isdigit() for c in m["n"]) >= 7 else None),
    (PLATE_CN, 0, _is("plate", kind="cn")),
    (PLATE_LABELED_EN, 1, lambda t, m: ("plate", {"kind": "labeled"}) if any(c.isdigit() for c in m[1]) else None),
    (LABELED_ID, 1, _labeled_id),
    (_S10, 0, _is("tracking", kind="parcel")),
    (ALNUM_ID, 0, lambda t, m: _PARCEL if is_tracking_number(t, m[0]) else ("id", {"kind": "alnum"})),
    (_LONG_DIGITS, 0, lambda t, m: _PARCEL if is_tracking_number(t, m[0]) else None),
)
# ... then (after money) dates, stations, schools, organisations and persons (places last).
_NAMES: _Steps = (
    (DATE_ISO, 0, lambda t, m: ("date", {"year": int(m[1]), "month": int(m[2]), "day": int(m[3]) if m[3] else None})),
    (DATE_ZH, 0, lambda t, m: ("date", {"year": int(m[1]) if m[1] else None, "month": int(m[2]), "day": int(m[3])})),
    (DATE_EN, 0, _date_en),
    (STATION, 0, _is("station")), (SCHOOL_ZH, 0, _is("school")), (SCHOOL_EN, 0, _is("school")),
    # "49分钟到公司", "下班回公司": a verb of motion before a bare 公司 names no company
    (ORG_ZH, 0, lambda t, m: None if _ZH_MOTION_END.search(m[0][:-2]) else ("org", {})),
    (ORG_EN, 0, _is("org")), (PERSON_ZH, "name", _is("person")), (PERSON_EN, "name", _is("person")),
)


def _claim(out: list[Entity], taken: list[tuple[int, int]], text: str, steps: _Steps) -> None:
    for rx, group, read in steps:
        for m in rx.finditer(text):
            if (got := read(text, m)) is not None:
                _add(out, taken, got[0], m.start(group), m.end(group), text, **got[1])


def extract_entities(text: str, *, carrier: str | None = None, by_other: bool = False,
                     location_tag: bool = False) -> list[Entity]:
    """All entities, non-overlapping (earlier, more specific patterns win), sorted by position.
    `carrier`, `by_other`: the text's, so the holders read the text's Document (rules/documents.py);
    `location_tag`: the text is a post's location tag (its parts that are place names are places)."""
    if not text:
        return []
    text = text[:200_000]
    out: list[Entity] = []
    taken: list[tuple[int, int]] = []
    _claim(out, taken, text, _CONTACTS)
    taken += blob_spans(text)        # base64 / hex blobs: their digits are no phone or ID (rules/blobs.py)
    _claim(out, taken, text, _NUMBERS)
    for e in money_entities(text):
        _add(out, taken, "money", e.start, e.end, text, **e.data.model_dump(exclude_none=True))
    _claim(out, taken, text, _NAMES)
    for p in find_places(text, location_tag=location_tag):
        _add(out, taken, "place", p.start, p.end, text, name=p.name, kind=p.kind, levels=p.levels,
             original=p.original)
    out.sort(key=lambda e: e.start)
    _mark_holders(text, out, carrier, by_other)
    return out


def _mark_holders(text: str, entities: list[Entity], carrier: str | None, by_other: bool) -> None:
    """Whose place a place or station mention is (the reading layer's holder of its clause): "my
    husband works in Shenzhen", "舅妈住在成都" name the relative's city, not the poster's. Marked as
    data.holder = "other:<who>" (the places aggregator drops it); the poster's own are unmarked."""
    if not any(e.type in ("place", "station") for e in entities):
        return
    # the unmasked text (with curly apostrophes straightened): the text's Document when nothing is hostile
    ctx = reading(text, text.replace("\u2019", "'"), carrier=carrier, by_other=by_other)
    for e in entities:
        if e.type in ("place", "station"):
            h = ctx.holder(e.start)
            if h.kind == "other":
                e.data.holder = h.label
