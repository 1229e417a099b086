"""Person names on forms and documents read from OCR'd lines (issue 34, Names), declared as data in
core/data/recognizers/names.json (field labels per language, titles, words that make a value an
organisation) and validated at load: a bad file errors in one line naming the file and field.

    document_names(ctx) -> list[Cue]        (an extractor: rules/extract.py runs it with the others)

What it reads, on document-like carriers only (a document, OCR'd text, a badge, a ticket, a receipt,
a screenshot):
- a holder field, "LABEL: VALUE" on one line, in any language of the file ("Rx for: OKAFOR, JESSICA",
  "Passenger: KOWALCZYK/ANNA MS", "收件人：周思宁", "氏名：山口 美咲", "이름: 김하은", "Nombre: Elena Vidal");
- a boarding pass's "SURNAME/GIVEN TITLE" ("DUNLOP/MORAG MRS"), with a title or both parts of 4+ letters
  (so "LHR/JFK" is no name).
A value is parsed with python-nameparser ("Last, First", titles, middle initials) and written the way
people write it ("OSEI, DANIEL" -> "Daniel Osei"); CJK names keep their family-name-first order.
Never claimed (precision first): a field naming someone else (doctor, pharmacist, sender, cashier), a
masked value ("周*宁"), an organisation ("NORTHWEST SIDE PHARMACY", "ACME TRADING LTD"), a given name
that is only an initial ("Mr D. Osei" says too little), one Latin word.
Whose document it is comes from the shared reading (Ctx.cue -> reading/holder.py) and the aggregators;
a holder field is the person the document is made out to.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from nameparser import HumanName
from nameparser.config import Constants

from core.engine.rules.base import Ctx
from core.engine.rules.recognizer_data import DIR, Family, RecognizerDataError
from core.engine.types import Cue

DATA = DIR / "names.json"
# the lists no reading can do without, and the genders a gender map may state (rules/recognizer_data.py's
# schema checks the rest)
_NONEMPTY = ("carriers", "holder_labels", "greetings", "surnames", "honorifics", "certificate_words", "roster_words",
             "staff_number_labels")
_GENDERS = {"female", "male", "none"}


def load(path: Path = DATA) -> Family:
    """names.json, validated; any fault is one RecognizerDataError naming the file and the field."""
    f = Family(path)
    for key in _NONEMPTY:
        if not f.words(key):
            raise RecognizerDataError(f"{path}: field words.{key}: empty")
    for key in ("gender_honorifics", "sex_marks"):
        if bad := next((g for g in f.map(key).values() if g not in _GENDERS), None):
            raise RecognizerDataError(f"{path}: field maps.{key}: {bad!r} is no gender (female, male or none)")
    return f


@lru_cache(maxsize=1)
def data() -> Family:
    """names.json, read once per process (rules/name_candidates.py and aggregators/name_gender.py read it too)."""
    return load()


class _Reader:
    def __init__(self, f: Family) -> None:
        self.carriers = set(f.words("carriers"))
        norm = lambda key: {w.casefold() for w in f.words(key)}  # noqa: E731
        self.holder, self.other = norm("holder_labels"), norm("other_labels")
        titles = norm("titles")
        self.latin_titles = {t for t in titles if t.isascii()}
        self.cjk_titles = sorted((t for t in titles if not t.isascii()), key=len, reverse=True)
        self.not_name = norm("not_name_words")
        self.field_words = norm("field_words")
        self.surnames_zh = set(f.words("holder_surnames"))
        labels = sorted(self.holder | self.other, key=len, reverse=True)
        alt = "|".join(re.escape(w) for w in labels)
        # a label at the line start, then a colon (or "Rx for" without one), then the value
        self.field = re.compile(rf"^\s*(?P<label>{alt})\s*(?:[:：]|(?<=for)\s)\s*(?P<value>\S.*?)\s*$", re.I)
        # the next field on the same OCR line ends the value ("姓名：周杰 工号：...", "Name: X  DOB: ...")
        # a line that is only a holder label: its value is the next line ("This certifies that" / "HOLLOWAY, SAMANTHA R.")
        self.label_only = re.compile(rf"^\s*(?P<label>{alt})\s*[:：]?\s*$", re.I)
        self.next_field = re.compile(r"\s{2,}|\s+\S{1,20}\s*[:：]|(?<=[\u4e00-\u9fff\uac00-\ud7af])\S{1,6}[:：]")
        self.consts = Constants()
        self.consts.titles.add(*self.latin_titles)
        tt = "|".join(re.escape(t) for t in sorted(self.latin_titles, key=len, reverse=True))
        self.boarding = re.compile(rf"(?<![A-Z/])(?P<sur>[A-Z][A-Z'\-]+(?: [A-Z][A-Z'\-]+)?)/(?P<given>[A-Z][A-Z'\-]+"
                                   rf"(?: [A-Z][A-Z'\-]+)??)(?:\s+(?P<title>{tt.upper()}))?(?![A-Za-z/])")

    def latin(self, value: str) -> str | None:
        v = re.sub(r"\s+", " ", value.strip(" ,;")).strip()
        if not re.search(r"(?:^|\s)[A-Za-z]\.$", v):
            v = v.rstrip(".")          # a sentence's full stop; an initial keeps its own ("HOLLOWAY, SAMANTHA R.")
        if not v or re.search(r"[\d@#*＊_]|\[|redact", v, re.I):
            return None
        hn = HumanName(v, constants=self.consts)
        toks = [t for t in (hn.first, hn.middle, hn.last) if t]
        words = " ".join(toks).split()
        if len(words) < 2 or len(words) > 5 or not hn.first or not hn.last:
            return None
        if len(hn.first.strip(".")) < 2 or any(w.strip(".").casefold() in self.not_name or w.casefold() in self.latin_titles
                                              and w is words[0] for w in words):
            return None
        if not all(re.fullmatch(r"[^\W\d_][^\W\d_'\-.]*\.?", w) for w in words):
            return None
        if v.isupper() or v.islower() or "," in v:
            hn.capitalize(force=True)
        return " ".join(" ".join(t for t in (hn.first, hn.middle, hn.last) if t).split())

    def cjk(self, value: str) -> str | None:
        v = value.strip()
        for t in self.cjk_titles:
            if v.endswith(t):
                v = v[: -len(t)].strip()
        if re.search(r"[*＊xX×]", v):
            return None
        parts = v.split()
        if re.fullmatch(r"[\uac00-\ud7af]{2,4}", v):
            return v
        if len(parts) == 2 and all(re.fullmatch(r"[\u4e00-\u9fff]{1,3}", p) for p in parts):
            return v.replace(" ", "")                # a family name and a given name set apart (山口 美咲)
        if re.fullmatch(r"[\u4e00-\u9fff]{2,4}", v) and v[0] in self.surnames_zh:
            return v
        return None

    def name(self, value: str) -> str | None:
        if re.search(r"[\u4e00-\u9fff\uac00-\ud7af]", value):
            return self.cjk(value)
        return self.latin(value)


@lru_cache(maxsize=1)
def reader() -> _Reader:
    return _Reader(data())


def document_carriers() -> set[str]:
    """The carriers whose names this module reads (the line rules leave their capitals to it)."""
    return reader().carriers


def document_names(ctx: Ctx) -> list[Cue]:
    r = reader()
    if ctx.carrier not in r.carriers:
        return []
    out: list[Cue] = []
    pos = 0
    lines = ctx.masked.split("\n")
    for k, line in enumerate(lines):
        base, pos = pos, pos + len(line) + 1
        if (lo := r.label_only.match(line)) and k + 1 < len(lines) and lo["label"].casefold() in r.holder:
            nxt = lines[k + 1]
            raw = nxt.strip()
            if (b := r.boarding.fullmatch(raw)) is not None:
                raw = f"{b['sur']}, {b['given']}"
            if name := r.name(raw):
                s = pos + nxt.find(nxt.strip())
                out.append(ctx.cue("real_name", name, s, s + len(nxt.strip()), rule="name:document_field",
                                   confidence=0.7, first_person=True, original=nxt.strip() if nxt.strip() != name else None,
                                   field=lo["label"]))
            continue
        if m := r.field.match(line):
            if m["label"].casefold() not in r.holder:
                continue                                 # a doctor, a pharmacist, a sender: someone else
            raw = m["value"]
            if cut := r.next_field.search(raw):
                raw = raw[: cut.start()]
            words = raw.split(" ")
            while len(words) > 1 and words[-1].casefold().strip(".") in r.field_words:
                words.pop()             # the next field's label: "Zhou Jie Staff" of "Zhou Jie Staff ID: 88231"
            raw = " ".join(words).rstrip()
            width = len(raw)
            # a boarding pass's "SURNAME/GIVEN TITLE" after a label reads as one
            if (b := r.boarding.fullmatch(raw.strip())) is not None:
                raw = f"{b['sur']}, {b['given']}"
            name = r.name(raw)
            if name:
                s = base + m.start("value")
                out.append(ctx.cue("real_name", name, s, s + width, rule="name:document_field",
                                   confidence=0.7, first_person=True, original=raw if raw != name else None,
                                   field=m["label"]))
            continue
        for b in r.boarding.finditer(line):
            if not b["title"] and (len(b["sur"]) < 4 or len(b["given"]) < 4):
                continue
            name = r.latin(f"{b['sur']}, {b['given']}")
            if name:
                out.append(ctx.cue("real_name", name, base + b.start(), base + b.end(), rule="name:boarding_pass",
                                   confidence=0.7, first_person=True, original=b.group(0)))
    return out


# ------------------------------------------------------------------ names a greeting calls a person by
_LATIN_NAME = r"[A-Z][a-z'\-]+|[A-Z]{2,}(?![a-z])"
_HAN2 = r"[\u4e00-\u9fff]{2}"


@lru_cache(maxsize=1)
def _greeting_rx() -> tuple[re.Pattern[str], re.Pattern[str], frozenset[str], re.Pattern[str]]:
    d = data()
    latin = sorted({g for g in d.words("greetings") if re.match(r"[\x00-\u024f]", g)}, key=len, reverse=True)
    cjk = sorted({g for g in d.words("greetings") if not re.match(r"[\x00-\u024f]", g)}, key=len, reverse=True)
    # a name in Latin letters may follow any greeting ("生日快樂 Wing Yan!!")
    alt = "|".join(g if "\\" in g else re.escape(g) for g in latin + cjk)
    calt = "|".join(re.escape(g) for g in cjk)
    follow = "|".join(d.words("greeting_followers"))
    # "congrats Aoife!!", "Happy 40th Priya", "ENHORABUENA Elena", "parabéns Bia!!!"
    en = re.compile(rf"(?i:\b(?:{alt}))[,!\s]+(?P<n>{_LATIN_NAME})(?:\s+(?P<n2>{_LATIN_NAME}))?(?=\s*(?:[!.,?~🎉🎂❤♥💕✨🥳]|$|\s+(?:[!x]|{follow})\b))")
    # "生日快乐 小明", "思宁生日快乐", "恭喜佳妮"
    zh = re.compile(rf"(?:{calt})[\s,，!！]*(?P<a>{_HAN2})(?![\u4e00-\u9fff])|(?<![\u4e00-\u9fff])(?P<b>{_HAN2})[\s,，]*(?:{calt})")
    # "Happy 40th Priya" on a cake is read the same way; "Wing Yan" after a greeting is two words
    not_name_chars = re.compile("[" + "".join(d.words("greeting_not_name_chars")) + "]")
    return en, zh, frozenset(w.casefold() for w in d.words("greeting_not_names")), not_name_chars


def greeting_names(text: str) -> list[str]:
    """The names a greeting in this text calls someone by ("congrats Aoife!!" -> Aoife, "生日快乐 小明" ->
    小明, "生日快樂 Wing Yan!!" -> Wing Yan); kin and endearments (Mum, bro, everyone) are no names."""
    return list(_greeting_names(text))


@lru_cache(maxsize=4096)
def _greeting_names(text: str) -> tuple[str, ...]:
    # cached by text: the aggregator (aggregators/document_holder.py) asks it of every comment on every
    # refresh of the board (issue 33: time per user)
    en, zh, not_names, not_name_chars = _greeting_rx()
    out: list[str] = []
    for m in en.finditer(text):
        words = [w for w in (m["n"], m["n2"]) if w]
        if words[0].casefold() in not_names or words[0].isupper() and len(words[0]) < 3:
            continue
        if len(words) == 2 and words[1].casefold() in not_names:
            words = words[:1]
        out.append(" ".join(w if not w.isupper() else w.capitalize() for w in words))
    for m in zh.finditer(text):
        n = m["a"] or m["b"]
        if n and not not_name_chars.search(n):
            out.append(n)
    return tuple(out)


@lru_cache(maxsize=4096)     # asked for every greeted name and document line on every board refresh (issue 33)
def full_name_for(given: str, text: str) -> str | None:
    """The full name `given` begins in a line of the account's own text ("Tama Walker" for Tama,
    "MEHRA KAVYA" / "REID, CALLUM" for Kavya / Callum, 周思宁 for 思宁), written as people write it; None
    when the text holds no such name."""
    r = reader()
    if re.fullmatch(_HAN2, given):
        m = re.search(rf"(?<![\u4e00-\u9fff])([\u4e00-\u9fff]){re.escape(given)}", text)
        return m.group(1) + given if m and m.group(1) in r.surnames_zh else None
    g = re.escape(given).replace(r"\ ", r"\s+")
    gu = re.escape(given.upper()).replace(r"\ ", r"\s+")
    sur = r"[A-Z][A-Za-z'\-]+"
    pats = [
        (rf"(?<![\w.])(?:[A-Z][a-z]{{0,4}}\.?\s+)?(?P<g>{g})(?:\s+[A-Z]\.)?(?P<s>(?:\s+{sur}){{1,2}})(?![\w@])", "given_first"),
        (rf"(?<![\w.])(?P<s>[A-Z][A-Z'\-]+(?:\s+[A-Z][A-Z'\-]+)?),?\s+(?P<g>{gu})(?:\s+[A-Z][A-Z]+)?(?![\w])", "caps"),
    ]
    for line in text.split("\n"):
        for rx, kind in pats:
            for m in re.finditer(rx, line):
                if kind == "caps" and not (m["s"].isupper() and line[m.start("g"):m.end("g")].isupper()):
                    continue
                sur = " ".join(m["s"].split())
                if not r.latin(f"{given} {sur.title()}"):
                    continue         # an organisation or a street ("Morag Street"), a label word
                return f"{given} {sur.title() if kind == 'caps' or sur.isupper() else sur}"
    return None


EXTRACTORS = (document_names,)
