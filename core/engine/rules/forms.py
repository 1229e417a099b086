"""Rules that read a document's fields (core/engine/forms.py) instead of its lines.

    form_cues(text, form, carrier) -> list[Cue]

- names: "Name: LEE, JORDAN" (surname first, comma) -> "Jordan Lee"; all-caps "JORDAN LEE" ->
  "Jordan Lee"; "LEE Jordan" (surname in capitals) -> "Jordan Lee"; separate surname / given-name
  fields are joined; "姓名：王小明" -> 王小明. Masked values ("***", "[redacted]") give nothing.
  The names printed on an invitation are its hosts', not the poster's: no name from one.
- dates keep their field's meaning: a date-of-birth field gives birth_date; an issue, visit, pay or
  expiry date gives nothing (it is not a birthday).
- by document type: health (clinic letter, pharmacy label) -> the diagnosis / "for" field (else the
  medicine, weaker) as health_condition; locality (council or building-management notice) -> the
  district / address field's place as home_location; employment (payslip, offer letter) -> employer
  (workplace), position (occupation role) and salary (income_level); also age and sex fields.
Every cue's span is the field value, an exact substring of the OCR text.
"""
from __future__ import annotations

import re

from core.engine.forms import Form, FormField
from core.engine.gazetteer import find_places
from core.engine.rules.base import Ctx
from core.engine.rules.documents import reading
from core.engine.rules.entities import MONTHS, money_entities
from core.engine.rules.recognizer_data import family
from core.engine.rules.socio import income_band
from core.engine.types import Cue

_D = family("forms")      # core/data/recognizers/forms.json (rules/recognizer_data.py)

_HONORIFIC = _D.pattern("honorific")
_MASKED = _D.pattern("masked")
_SURNAMES_ZH = "".join(_D.words("surnames_zh", "zh"))     # core/data/recognizers/forms.json
_CJK_NAME = re.compile(r"^[\u4e00-\u9fff]{2,4}$")
_LATIN_TOKEN = re.compile(r"^[A-Za-z][A-Za-z'\-]*$")
_NOT_NAME_WORDS = set(_D.words("not_name", "en"))


def _cap(tok: str) -> str:
    return "-".join("'".join(p[:1].upper() + p[1:].lower() for p in part.split("'")) for part in tok.split("-"))


def person_name(value: str) -> str | None:
    """A person's name in the order people write it ("LEE, JORDAN" -> "Jordan Lee"), None when the
    value is no name (masked, digits, a label word, one Latin word)."""
    v = value.strip().strip(",;")
    if not v or _MASKED.search(v) or re.search(r"\d", v):
        return None
    v = _HONORIFIC.sub("", v).strip()
    v = _HONORIFIC.sub("", v).strip()
    zh = v.replace(" ", "").replace("\u3000", "")
    if _CJK_NAME.match(zh):
        return zh if zh[0] in _SURNAMES_ZH else None
    if "," in v:
        sur, given = (p.strip() for p in v.split(",", 1))
        toks = given.split() + sur.split()
    else:
        toks = v.split()
        caps = [t for t in toks if t.isupper() and len(t) > 1]
        if caps and len(caps) < len(toks) and toks[0] in caps:
            # "LEE Jordan": the surname is the capitalised word(s) at the front
            k = len(caps) if toks[:len(caps)] == caps else 1
            toks = toks[k:] + toks[:k]
    if not 2 <= len(toks) <= 4 or not all(_LATIN_TOKEN.match(t) for t in toks):
        return None
    if any(t.lower() in _NOT_NAME_WORDS for t in toks):
        return None
    if len(toks[0]) == 1:
        return None     # "C Reid": an initial for the given name says too little to claim (precision first)
    return " ".join(_cap(t) for t in toks)


_MONTH_NAMES = [m.title() for m in family("entities").words("months")]     # in calendar order (entities.json)
_D_ISO = re.compile(r"(?P<y>(?:19|20)\d{2})\s*[-/.年]\s*(?P<m>[01]?\d)\s*[-/.月]\s*(?P<d>[0-3]?\d)\s*日?")
_D_NUM = re.compile(r"(?P<a>[0-3]?\d)\s*[-/.]\s*(?P<b>[0-3]?\d)\s*[-/.]\s*(?P<y>(?:19|20)\d{2})")
_D_TEXT = re.compile(r"(?P<d>[0-3]?\d)(?:st|nd|rd|th)?\s+(?P<mon>[A-Za-z]{3,9})\.?,?\s+(?P<y>(?:19|20)\d{2})"
                     r"|(?P<mon2>[A-Za-z]{3,9})\.?\s+(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?,?\s+(?P<y2>(?:19|20)\d{2})")


def parse_date(value: str) -> tuple[int, int, int] | None:
    """(year, month, day) of a printed date; numeric D/M/Y unless the first number cannot be a day
    of a D/M reading (then M/D/Y)."""
    if m := _D_ISO.search(value):
        y, mo, d = int(m["y"]), int(m["m"]), int(m["d"])
    elif m := _D_NUM.search(value):
        a, b, y = int(m["a"]), int(m["b"]), int(m["y"])
        d, mo = (a, b) if b <= 12 else (b, a)
    elif m := _D_TEXT.search(value):
        mon = (m["mon"] or m["mon2"]).lower()[:3]
        if mon not in MONTHS:
            return None
        mo, d, y = MONTHS[mon], int(m["d"] or m["d2"]), int(m["y"] or m["y2"])
    else:
        return None
    return (y, mo, d) if 1 <= mo <= 12 and 1 <= d <= 31 else None


def _names(form: Form) -> list[tuple[str, FormField]]:
    out = []
    for f in form.get("name"):
        if (n := person_name(f.value)) is not None:
            out.append((n, f))
    sur, given = form.get("surname"), form.get("given_name")
    if sur and given:
        s, g = sur[0].value.strip(), given[0].value.strip()
        zh = _CJK_NAME.match(s + g)
        n = (s + g) if zh else person_name(f"{s}, {g}")
        if n:
            out.append((n, sur[0]))
    return out


_DOLLAR_CUR = _D.map("dollar_prefixes")
_DOLLARS = _D.pattern("dollar_prefix", prefixes="|".join(_DOLLAR_CUR))
_SEX = _D.map("sex")
_ANNUAL = _D.pattern("annual")
_AGE = _D.pattern("age_value")


def form_cues(text: str, form: Form, carrier: str | None = None) -> list[Cue]:
    """Cues from the fields of one document (see the module docstring)."""
    if not form.fields:
        return []
    ctx = reading(text, text, carrier=carrier)     # the text's Document (rules/documents.py)
    dt = form.doc_type
    out: list[Cue] = []

    def cue(attr: str, value: str, f: FormField, conf: float, **kw) -> None:
        out.append(ctx.cue(attr, value, f.start, f.end, rule=f"form:{dt or 'other'}:{f.key}", confidence=conf,
                           first_person=True, doc_type=dt, field=f.label, **kw))

    if dt != "invitation":
        for name, f in _names(form):
            cue("real_name", name, f, 0.65 if " " in name or _CJK_NAME.match(name) else 0.5,
                original=f.value if f.value != name else None)
    for f in form.get("dob"):
        if (ymd := parse_date(f.value)) is not None:
            y, mo, d = ymd
            lv = {"year": str(y), "month": _MONTH_NAMES[mo - 1], "day": f"{_MONTH_NAMES[mo - 1]} {d}"}
            cue("birth_date", f"{lv['day']}, {y}", f, 0.7, levels=lv, iso=f"{y:04d}-{mo:02d}-{d:02d}")
    for f in form.get("age"):
        if (m := _AGE.fullmatch(f.value)) and 10 <= int(m[1]) <= 99:
            n = int(m[1])
            cue("age", str(n), f, 0.6, levels={"decade": f"{n // 10 * 10}s", "exact_age": str(n)})
    for f in form.get("sex"):
        if (g := _SEX.get(f.value.strip().casefold())) is not None:
            cue("gender", g, f, 0.55)
    if dt == "health":
        diag = [f for f in form.get("diagnosis") if len(f.value) >= 3 and not re.fullmatch(r"[\d\s/.-]+", f.value)]
        for f in diag[:2]:
            cue("health_condition", f.value, f, 0.55)
        if not diag:
            for f in form.get("medication")[:1]:
                cue("health_condition", f"prescribed {f.value}", f, 0.4)
    if dt == "locality":
        for f in form.get("district", "address"):
            for p in find_places(f.value)[:1]:
                if p.levels:
                    cue("home_location", p.name, f, 0.5, levels=dict(p.levels))
    if dt == "employment":
        for f in form.get("employer")[:1]:
            if len(f.value) >= 2 and not re.fullmatch(r"[\d\s]+", f.value):
                cue("workplace", f.value, f, 0.55, levels={"organization": f.value})
        for f in form.get("position")[:1]:
            if 2 <= len(f.value) <= 40 and not re.search(r"\d", f.value):
                cue("occupation", f.value, f, 0.45, level="role")
        for f in form.get("salary")[:1]:
            _salary(ctx, f, text, out, dt)
    return out


def _salary(ctx: Ctx, f: FormField, text: str, out: list[Cue], dt: str | None) -> None:
    money = money_entities(f.value)
    pre = _DOLLARS.search(f.value)
    if money:
        amount, cur = float(money[0].data.amount or 0), money[0].data.currency or "USD"
        if pre and cur == "USD":
            cur = _DOLLAR_CUR.get(pre.group(1).upper(), cur)    # "C$8,200" is Canadian, not US dollars
    elif pre and (m := re.search(r"\d[\d,]*(?:\.\d{2})?", f.value[pre.end():])) is not None:
        amount, cur = float(m.group(0).replace(",", "")), _DOLLAR_CUR.get(pre.group(1).upper(), "USD")
    elif (m := re.search(r"\d[\d,]*(?:\.\d{2})?", f.value)) is not None:
        amount, cur = float(m.group(0).replace(",", "")), ("CNY" if re.search(r"[\u4e00-\u9fff]", text) else "USD")
    else:
        return
    if amount < 100:
        return
    annual_label = bool(_ANNUAL.search(f.label) or _ANNUAL.search(f.value))
    annual = amount if annual_label or amount >= 100_000 and cur != "JPY" else amount * 12
    band, bracket = income_band(annual, cur)
    out.append(ctx.cue("income_level", bracket, f.start, f.end, rule=f"form:{dt}:salary", confidence=0.6,
                       levels={"band": band, "bracket": bracket}, first_person=True, amount=amount, currency=cur,
                       period="year" if annual == amount else "month", annual=annual, doc_type=dt, field=f.label))
