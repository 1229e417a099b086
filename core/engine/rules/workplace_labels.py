"""The field labels that name an employer or a department on a badge or form, and the words a
department line is written with, read from core/data/recognizers/workplace_labels.json (knowledge is
data). A department is never a workplace on its own (issue 37 item 7: a department alone is not an
organisation); beside an organisation named on the same badge or document it is the workplace's finer
level, the spec's `unit` (issue 34 item 1): "Northwind Hospital / Radiology" -> {organization:
Northwind Hospital, unit: Radiology}, written "Radiology, Northwind Hospital".

    patterns()                   -> (organisation label alternation, unit label alternation)
    unit_beside(lines, org)      -> the department printed beside `org` on the same document, or None
    is_unit(text)                -> the text reads as a department ("Department of X", "X Team", "放射科")
    header_organisation(lines)   -> a card's header line that names an organisation (an organisation word)
    card_organisation(lines)     -> (organisation, department or None) a work card names: its header, else a
                                    line "Org · Dept" / "重庆两江巴士第四车队" anywhere on it
    staff_marks(lines)           -> the card holds a staff number ("工号 0387", "EMP 7720415") / a job title line
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from core.engine.gazetteer import find_places
from core.engine.rules.occupation_taxonomy import index
from core.engine.rules.recognizer_data import DIR, Family, family

DATA = DIR / "workplace_labels.json"
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
# the pieces one printed line holds: "LOTUS CROWN RESORT·COTAI", "Laboratory . ID 2019-0862", "Org | Dept"
_PUNCT = " .,;:·・•|｜"
_SEGMENT = re.compile(r"\s*(?:[·•・|｜/／]|\s[.\-–—]\s)\s*")


def _words(f: Family, key: str) -> list[str]:
    """A word list of the file, case-folded, longest first."""
    return sorted({w.strip().casefold() for w in f.words(key) if w.strip()}, key=len, reverse=True)


def _alt(words: list[str]) -> str:
    """The words as one alternation, longest first, any run of spaces between a phrase's words."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(set(words), key=len, reverse=True))


def _scripts(f: Family, key: str) -> tuple[list[str], list[str]]:
    """(Latin-script words, CJK words) of a list, longest first."""
    ws = _words(f, key)
    return [w for w in ws if not _CJK.search(w)], [w for w in ws if _CJK.search(w)]


@lru_cache(maxsize=1)
def patterns() -> tuple[str, str]:
    """(organisation label alternation, unit label alternation) for a regex."""
    f = family("workplace_labels")
    return _alt(_words(f, "organization_labels")), _alt(_words(f, "unit_labels"))


class _Reader:
    def __init__(self, f: Family) -> None:
        org_labels, unit_labels = (_alt(_words(f, k)) for k in ("organization_labels", "unit_labels"))
        self.unit_field = re.compile(rf"(?i)^\s*(?:{unit_labels})\s*[:：]\s*(?P<v>[^:：]{{1,60}}?)\s*$")
        self.org_field = re.compile(rf"(?i)^\s*(?:{org_labels})\s*[:：]\s*(?P<v>[^:：]{{2,60}}?)\s*$")
        self.any_field = re.compile(r"^[^:：]{1,24}[:：]")
        latin, cjk_units = _scripts(f, "unit_words")
        self.cjk_suffix = tuple(cjk_units)
        # Romance and German department words lead the name ("Departamento Jurídico", "Service de Cardiologie")
        lead = [w for w in latin if w.endswith((" of", " für", " de"))] + _words(f, "unit_lead_words")
        tail = [w for w in latin if w not in lead]
        # "Department of Paediatrics", "Institut für Radiologie" / "Gaming Operations", "Maths Team", "Team D"
        self.lead = re.compile(rf"(?i)^(?:{_alt(lead)})\s+\S")
        self.tail = re.compile(rf"(?i)\S\s+(?:{_alt(tail)})$|^(?:{_alt(tail)})\s+[A-Z0-9]{{1,3}}$")
        self.names = set(_words(f, "department_names"))
        # Latin organisation words are whole words (or end a compound: Isarklinik); CJK ones end a name
        # written without spaces (康橙社區藥局)
        org_latin, org_cjk = _scripts(f, "organization_words")
        self.org_word = re.compile(rf"(?i)(?<![^\W\d_])(?:{_alt(org_latin)})(?![^\W\d_])|{_alt(org_cjk)}"
                                   rf"|(?i:{'|'.join(map(re.escape, f.words('organization_word_endings', 'de')))})\b")
        self.titles = set(_words(f, "card_titles"))
        # "工号 0387", "EMP 7720415", "Emp 40712", "Staff ID: TX204518", "사번 20931": a label, then a code with a digit
        self.staff_no = re.compile(rf"(?i)(?<![^\W\d_])(?:{_alt(_words(f, 'staff_number_labels'))})(?![^\W\d_])"
                                   r"\s*[:：#.]?\s*[A-Z]{0,4}[-‐]?\d[\w-]{1,14}")
        self.premises = re.compile(rf"(?i)(?<![^\W\d_])(?:{_alt(_words(f, 'own_premises'))})(?![a-zà-ÿ])")
        roster_latin, roster_cjk = _scripts(f, "roster_words")
        self.roster = re.compile(rf"(?i)(?<![^\W\d_])(?:{_alt(roster_latin)})(?![^\W\d_])|{_alt(roster_cjk)}")
        self.cjk_org = re.compile("|".join(re.escape(w) for w in org_cjk))
        self.not_staff = re.compile(rf"(?i)(?<![^\W\d_])(?:{_alt(_words(f, 'not_staff_words'))})(?![^\W\d_])")

    def is_unit(self, text: str) -> bool:
        t = re.sub(r"\s+", " ", text.strip(" .,;:·"))
        if not t or len(t) > 40 or re.search(r"\d", t) and not self.tail.search(t):
            return False
        if t.casefold() in self.names:
            return True
        if _CJK.search(t):
            return 3 <= len(t) <= 16 and t.endswith(self.cjk_suffix) and not re.search(r"[\s:：]", t)
        words = t.split()
        return len(words) <= 6 and bool(self.lead.search(t) or self.tail.search(t))

    def unit_of(self, line: str) -> str | None:
        if m := self.unit_field.match(line):
            v = m["v"].strip(" .,;")
            return v if 1 <= len(v) <= 40 and not self.org_field.match(line) else None
        for seg in _SEGMENT.split(line.strip()):
            if self.is_unit(seg):
                return seg.strip(" .,;:·")
        return None


def load(path: Path = DATA) -> _Reader:
    """The file read and compiled; a fault is one RecognizerDataError naming the file and the field."""
    return _Reader(Family(path))


@lru_cache(maxsize=1)
def _reader() -> _Reader:
    return _Reader(family("workplace_labels"))


def is_unit(text: str) -> bool:
    """The text reads as a department, team or ward (never an organisation on its own)."""
    return _reader().is_unit(text)


def unit_beside(lines: list[str], org: str) -> str | None:
    """The department printed beside `org` on the same document: the rest of the organisation's own
    line, else a line below it (a labelled "Dept: X" field, "Department of X", "X Team", a department's
    own name, 放射科). None when the document names no department."""
    r = _reader()
    at = next((i for i, ln in enumerate(lines) if org in ln), None)
    if at is None:
        return None
    rest = lines[at].split(org, 1)[1]
    for line in [rest, *lines[at + 1:]]:
        if (u := r.unit_of(line)) and u != org and org not in u:
            return u
    for line in lines[:at]:          # a labelled department field above the organisation's line
        if (m := r.unit_field.match(line)) and not r.org_field.match(line):
            return m["v"].strip(" .,;")
    return None


def header_organisation(lines: list[str]) -> str | None:
    """The organisation a card names: a labelled employer field ("Company: Acme Logistics"), else its
    header (its first line that is no generic card title) when it names an organisation by an
    organisation word ("Brightwater Eats", "Isarklinik Süd", "博宇医院"); a labelled field, a person's
    or a department's line is no header."""
    r = _reader()
    for line in lines:
        if m := r.org_field.match(line):           # "Company: Acme Logistics", "工作单位：…"
            return m["v"].strip(" .,;")
    for line in lines[:3]:
        t = line.strip()
        if not t or t.casefold() in r.titles or re.fullmatch(r"[\W\d_]*\w?[\W\d_]*", t):
            continue
        head = _SEGMENT.split(t)[0].strip()
        if (r.any_field.match(t) or r.is_unit(head) or len(head) > 48 or re.search(r"\d", head)
                or not r.org_word.search(head)):
            return None
        return head
    return None


def staff_card(lines: list[str]) -> bool:
    """The lines read as a staff card or a work document, not a letter, appointment card or bill made
    out to a patient or customer: a short document (at most 8 lines) with no `not_staff_words`."""
    r = _reader()
    return len(lines) <= 8 and not any(r.not_staff.search(t) for t in lines)


def is_organisation(text: str) -> bool:
    """The text holds an organisation word ("Seattle Police Department" is an organisation, "Radiology
    Department" a department)."""
    return bool(_reader().org_word.search(text))


def _org_name(r: _Reader, text: str) -> bool:
    """A piece of a line that can be an organisation's name: an organisation word, no field label, no
    digit, not a department alone."""
    t = text.strip(" .,;:·")
    return (2 <= len(t) <= 48 and bool(r.org_word.search(t)) and not r.any_field.match(t) and not re.search(r"\d", t)
            and not (r.is_unit(t) and not r.is_unit(t + " x")) and t.casefold() not in r.titles)


def card_organisation(lines: list[str]) -> tuple[str, str | None] | None:
    """The organisation a work card or work screen names and the department beside it: the card's header
    (header_organisation, with unit_beside), else the first line anywhere on it that joins an organisation
    and a department, by a separator ("鲸屿智能·数据标注部", "IndiSky Airways · Cabin Crew") or, in CJK,
    written together ("重庆两江巴士第四车队": the organisation ends at its organisation word, the rest is a
    department). None when the card names no organisation."""
    r = _reader()
    if org := header_organisation(lines):
        return org, unit_beside(lines, org)
    for line in lines:
        segs = [s.strip(_PUNCT) for s in _SEGMENT.split(line.strip()) if s.strip(_PUNCT)]
        for a, b in zip(segs, segs[1:]):
            if _org_name(r, a) and not r.is_unit(a) and r.is_unit(b):
                return a, b
        t = line.strip()
        if _CJK.search(t) and not re.search(r"[\s:：\d]", t) and len(t) <= 24:
            for m in r.cjk_org.finditer(t):
                org, rest = t[:m.end()], t[m.end():].strip(_PUNCT)
                if len(org) >= 3 and rest and r.is_unit(rest):
                    return org, rest
    return None


def staff_number(lines: list[str]) -> bool:
    """A staff or employee number is printed on the document ("工号 0387", "EMP 7720415", "Emp 40712"):
    it is a staff member's card, roster or pay slip."""
    r = _reader()
    return any(r.staff_no.search(t) for t in lines)


def title_line(lines: list[str]) -> str | None:
    """A line, or a piece of one, that is a job title of the occupation taxonomy and nothing else
    ("藥師", "TABLE GAMES DEALER", "物业管家", "Funeral Director"): the card names its holder's job."""
    ix = index()
    for line in lines:
        for seg in _SEGMENT.split(line.strip()):
            t = seg.strip(" .,;:·")
            if t and (t in ix.cjk or re.sub(r"\s+", " ", t.casefold()) in ix.any_latin or t in ix.abbr and len(t) >= 3):
                return t
    return None


def named_organisation(lines: list[str]) -> str | None:
    """The first line, or piece of a line, anywhere on a document that names an organisation by an
    organisation word ("IndiSky Airways · Cabin Crew Portal" -> "IndiSky Airways"): the employer on a
    work document that carries a staff number (a roster, a pay slip), where the header is the app's."""
    r = _reader()
    for line in lines:
        for seg in _SEGMENT.split(line.strip()):
            if _org_name(r, seg) and not r.is_unit(seg):
                return seg.strip(_PUNCT)
    return None


_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]++@[\w-]+(?:\.[\w-]+)+")   # from the start of a run only: linear on long runs
# language codes or pairs after a title in a signature ("Tradutora EN/FR > PT-PT", "Interpreter ASL")
_CODES = re.compile(r"[A-Z]{2,3}(?:-[A-Z]{2})?(?:\s*[/>→\-–]+\s*[A-Z]{2,3}(?:-[A-Z]{2})?)*")


def _title_piece(piece: str):
    """The occupation of a signature piece that is a job title, maybe followed by language codes
    ("Tradutora EN", "Funeral Director"), else None."""
    ix = index()
    t = piece.strip(_PUNCT)
    if t in ix.cjk:
        return ix.cjk[t]
    words = t.split()
    for k in range(len(words), 0, -1):
        rest = " ".join(words[k:])
        if (o := ix.any_latin.get(" ".join(words[:k]).casefold())) and (not rest or _CODES.fullmatch(rest)):
            return o
    return None


def _employer_piece(r: _Reader, piece: str) -> str | None:
    """A signature piece that can be an employer's name: a capitalised name of two words or more, or one
    holding an organisation word; no digit, address, job title, department or place alone."""
    t = piece.strip(_PUNCT)
    if (not 2 <= len(t) <= 48 or re.search(r"\d|@", t) or _CODES.fullmatch(t) or _title_piece(t)
            or (r.is_unit(t) and not r.org_word.search(t)) or not (t[0].isupper() or _CJK.match(t))):
        return None
    if not (r.org_word.search(t) or len(t.split()) >= 2):
        return None
    if any(p.start == 0 and p.end >= len(t) for p in find_places(t)):
        return None          # "Auckland", "New York": a place, not an employer
    return t


def signature_employer(lines: list[str]) -> tuple[str, str] | None:
    """(employer, occupation role) of an e-mail signature in a mail the user shows (a line holds an
    e-mail address): a job title followed by the employer on its line ("Tradutora EN/FR > PT-PT ·
    Entrelinhas Traduções"), or a "Name | Title" line followed by the employer's line ("Tama Walker |
    Funeral Director" / "Harbourview Funeral Services · Kingsland"). None in any other document: whose
    signature it is, the caller decides (the role must be the account's own job)."""
    if not any(_EMAIL.search(t) for t in lines):
        return None
    r = _reader()
    for i, line in enumerate(lines):
        pieces = [p for p in _SEGMENT.split(line.strip()) if p.strip(_PUNCT)]
        for k, piece in enumerate(pieces):
            if (o := _title_piece(piece)) is None:
                continue
            after = [p for p in pieces[k + 1:] if not _CODES.fullmatch(p.strip(_PUNCT))]
            if after:
                org = _employer_piece(r, after[0])
            elif i + 1 < len(lines):
                nxt = [p for p in _SEGMENT.split(lines[i + 1].strip()) if p.strip(_PUNCT)]
                org = _employer_piece(r, nxt[0]) if nxt else None
            else:
                org = None
            if org:
                return org, o.role
    return None


def own_premises(caption: str) -> bool:
    """The caption names the premises as the poster's own place of work ("this is my door", "New window
    lettering at the shop", "工作室门口的牌子", "mi taller", "meine Werkstatt")."""
    return bool(_reader().premises.search(caption or ""))


def sign_name(lines: list[str]) -> str | None:
    """The business a shop sign, door or window names: the card's organisation (card_organisation), else
    its first line when the sign is short (5 lines at most) and that line is a name of 1 to 4 words with
    no digit that is no place, job title, department or card title ("PONCE FRETWORKS")."""
    if found := card_organisation(lines):
        return found[0]
    r = _reader()
    text = [t.strip() for t in lines if t.strip()]
    if not text or len(text) > 5:
        return None
    head = _SEGMENT.split(text[0])[0].strip(_PUNCT)
    if (not 2 <= len(head) <= 40 or not 1 <= len(head.split()) <= 4 or re.search(r"\d|@|[:：]", head)
            or not re.search(r"[^\W\d_]{2}", head) or head.casefold() in r.titles or r.is_unit(head)
            or _title_piece(head) or any(p.start == 0 and p.end >= len(head) for p in find_places(head))):
        return None
    return head


def work_document(lines: list[str]) -> bool:
    """A line of the document titles it a duty roster or a pay slip ("Crew Roster·FEB 2026", "排班查询",
    "Dienstplan"): with a staff number, the account's own work document."""
    r = _reader()
    return any(r.roster.search(t) for t in lines)
