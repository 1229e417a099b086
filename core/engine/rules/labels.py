"""Labelled fields ("Dept: Finance", "住址：例子花园3栋", "性别：女") as found on badges, IDs,
notices, receipts and forms (usually OCR text). Names and ID numbers are read by identity.py;
this module covers the other labelled attributes."""
from __future__ import annotations

import re

from core.engine.gazetteer import COUNTRY_ALIASES, COUNTRY_ZH
from core.engine.rules.base import Ctx
from core.engine.rules.identity import _demonym_of
from core.engine.rules.lexicon import DEMONYMS
from core.engine.rules.recognizer_data import family
from core.engine.rules.workplace_labels import patterns as workplace_label_patterns
from core.engine.types import Cue

_D = family("labels")      # core/data/recognizers/labels.json (rules/recognizer_data.py)

_DOC_CARRIERS = {"badge", "document", "ticket", "receipt", "screenshot", "ocr_text", "sign"}
_ORG_LABELS, _ = workplace_label_patterns()   # a department label is no workplace, alone or as a level (issue 37 item 7)
_VALUE = r"[ \t]*[:：][ \t]*(?P<v>[^\n:：|｜;；]{1,60})"
_LABELS: list[tuple[str, re.Pattern[str]]] = [
    # employer labels are data (workplace_labels.json)
    ("organization", re.compile(r"(?i)(?:^|\n|\b)(?:" + _ORG_LABELS + ")" + _VALUE)),
    # the other labels are data too (labels.json): English then Chinese alternatives
    *((f, re.compile(r"(?i)(?:^|\n|\b)(?:" + "|".join(_D.words(f)) + ")" + _VALUE))
      for f in ("position", "address", "school", "faculty", "major", "gender", "nationality")),
]
_GENDER = _D.map("gender")
_PLAIN: dict[str, list] = _D.map("plain")      # kind -> [attribute, level, confidence offset]: the value as it stands
# a value ends at a wide gap or where the next "Label:" starts
_CUT = re.compile(r"\s{2,}|\s+(?=[^\s:：]{1,12}[ \t]*[:：])|[,，;；](?=\s*[^\s:：]{1,12}[ \t]*[:：])")


def labelled_fields(ctx: Ctx) -> list[Cue]:
    out: list[Cue] = []
    t = ctx.masked
    if ":" not in t and "：" not in t:
        return out
    doc = ctx.carrier in _DOC_CARRIERS
    conf = 0.75 if doc else 0.55
    for kind, rx in _LABELS:
        for m in rx.finditer(t):
            nl = t.find("\n", m.start("v"))
            raw = t[m.start("v"):nl if nl >= 0 else len(t)][:80]
            v = _CUT.split(raw, 1)[0].strip().strip(".,，。")
            if not v:
                continue
            s = m.start("v") + (len(raw) - len(raw.lstrip()))
            e = s + len(v)
            if ctx.text[s:e] != v:
                continue
            if kind in _PLAIN:
                attribute, level, offset = _PLAIN[kind]
                out.append(ctx.cue(attribute, v, s, e, rule=f"label:{kind}", confidence=conf + offset,
                                   levels={level: v}, first_person=True))
            elif kind == "address":
                lv: dict[str, str] = {}
                for p in ctx.places():
                    if s <= p.start < e:
                        lv.update({k: x for k, x in p.levels.items() if k in ("country", "region", "city", "district")})
                lv["address"] = v
                out.append(ctx.cue("home_location", v, s, e, rule="label:address", confidence=conf - 0.1, levels=lv,
                                   first_person=True, original=v if ctx.has_cjk else None))
            elif kind == "gender":
                g = _GENDER.get(v.lower())
                if g:
                    out.append(ctx.cue("gender", g, s, e, rule="label:gender", confidence=conf + 0.1, first_person=True))
            elif kind == "nationality":
                country = (DEMONYMS.get(v) or DEMONYMS.get(v.lower()) or COUNTRY_ZH.get(v) or COUNTRY_ZH.get(v + "国")
                           or COUNTRY_ALIASES.get(v))
                value = _demonym_of(country) if country and not DEMONYMS.get(v) else v
                out.append(ctx.cue("nationality", value, s, e, rule="label:nationality", confidence=conf, first_person=True,
                                   country=country, original=v if v != value else None))
    return out


EXTRACTORS = (labelled_fields,)
