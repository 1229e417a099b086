"""Candidate person names on the lines of one OCR'd image (issue 34, Names): every form a name takes on
documents, badges, certificates, name tags, rosters and signatures, whether or not it says whose it is.
A candidate alone claims nothing: aggregators/name_agreement.py claims a name when two independent
carriers of the account agree on it (or when one document says it is made out to the holder).

    name_candidates(text) -> tuple[Candidate, ...]     (cached by text)

Kinds (`Candidate.kind`), the first four "primary" (they can carry a claim), the rest support only:
- `holder`    a holder field's value, the label anywhere after a separator ("标注平台·当前用户：许佳妮
              xujn_0412", "Contribuyente: ORTEGA LARA XIMENA");
- `honorific` a CJK name with a known surname before an honorific on a certificate (周思宁同志, 沈月华同志：);
              elsewhere (a chat's "田中さん", a notice's "王女士") it is `addressed`, support only;
- `titled`    a line that is an addressee's title and a name ("Frau Katharina Brandl", "Ms Jane Doe"; never
              Dr / Prof / Rev: a professional title is often someone else's, a doctor's letterhead);
- `line`      a whole line that is a name: CJK with a known surname (林怡君, 김하은, "山口 美咲"), Latin
              of 2-5 name words ("REID, CALLUM JAMES", "Beatriz M. Salgueiro", "ANGELICA M. DELA" + "CRUZ"
              joined across a badge's wrapped line) in a short text (a badge, a letter's address block);
- `role`      "ROLE: NAME" under a label that is no holder label ("調劑藥師：林怡君", "驾驶员：吴建军",
              "Restauradora responsable: Ximena Ortega Lara"): may be anyone on a roster; a performer's,
              author's or speaker's label (`public_labels`: "Artist:", "主讲：") gives none;
- `initial`   an initial and a surname ("C Reid", "K. Brandl", "revisto por B. Salgueiro");
- `masked`    a masked CJK name (周*宁, 许*妮, 沈**) of a parcel label;
- `mention`   an @mention of a CJK name in a chat (@孙晓峰);
- `plain`     a whole-line Latin name in a long text (an email's signature "Beatriz Salgueiro").
The knowledge is data (core/data/recognizers/names.json: labels, titles, CJK surname lists
of zh / ko / ja, honorifics, certificate words, role and kin endings that make no given name
(王老师, 孙管家), professional titles); the parsing of Latin names is
rules/document_names.py's reader (python-nameparser).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from core.engine.rules.document_names import data, reader

PRIMARY = ("holder", "honorific", "titled", "line")
_CJK = r"\u4e00-\u9fff\u3400-\u4dbf"
_HANGUL = r"\uac00-\ud7af"
_SHORT_TEXT = 8          # lines: a badge, a name plate, a bill's address block (not an email, a chat, a page)


@dataclass(frozen=True)
class Candidate:
    name: str            # as it is written out ("Callum James Reid", 周思宁); for masked / initial the raw form
    kind: str
    raw: str             # the substring of the text it was read from (the verifier grounds the span)
    script: str          # "latin" | "cjk"
    certificate: bool = False    # the text is a certificate / licence / award (names.json certificate_words)
    plate: bool = False          # a CJK name line followed by the same name in Latin letters (a name plate)
    roster: bool = False         # the one name of a schedule screen, its staff number on its line ("驾驶员：吴建军 工号 0387")

    @property
    def tokens(self) -> frozenset[str]:
        """The name's words that are no initials, case-folded ({ximena, ortega, lara})."""
        return frozenset(w.casefold() for w in re.findall(r"[^\W\d_]+", self.name) if len(w) > 1)


class _Data:
    def __init__(self) -> None:
        a = data()
        self.zh, self.ko, self.ja = (set(a.words("surnames", lang)) for lang in ("zh", "ko", "ja"))
        hon = sorted(set(a.words("honorifics")), key=len, reverse=True)
        self.honorific = re.compile(rf"(?<![{_CJK}{_HANGUL}])(?P<n>[{_CJK}]{{2,4}}?|[{_HANGUL}]{{3,4}}?)\s?"
                                    rf"(?:{'|'.join(map(re.escape, hon))})"
                                    rf"(?=[\s:：,，（(]|$)")
        self.cert = tuple(w.casefold() for w in a.words("certificate_words"))
        self.pro_titles = {t.casefold() for t in a.words("not_holder_titles")}
        self.not_endings = tuple(a.words("not_given_endings"))
        self.public = {w.casefold() for w in a.words("public_labels") + a.words("not_person_labels")}
        self.place_words = {w.casefold() for w in a.words("place_words")}
        self.place_endings = tuple(a.words("place_endings"))
        self.roster_words = tuple(w.casefold() for w in a.words("roster_words"))
        self.signed_by = re.compile(rf"\b(?:{'|'.join(a.words('signed_by'))})\s+$", re.I)
        staff = "|".join(re.escape(w) for w in sorted(a.words("staff_number_labels"), key=len, reverse=True))
        self.staff_no = re.compile(rf"(?i)(?<![^\W\d_])(?:{staff})\.?\s*[:：#]?\s*[A-Z]{{0,3}}[-\s]?\d{{3,}}")
        r = reader()
        self.address_titles = {t for t in r.latin_titles if t not in self.pro_titles}
        # a field: a label after the line start or a separator, a colon, the value
        self.field = re.compile(rf"(?:^|[·•|｜/]\s*)(?P<label>[^:：·•|｜/\n]{{1,30}}?)\s*[:：]\s*(?P<value>[^\n]+)")


@lru_cache(maxsize=1)
def _data() -> _Data:
    return _Data()


def cjk_name(v: str) -> str | None:
    """A CJK person name with a known surname (林怡君, 김하은, 山口 美咲 -> 山口美咲), else None."""
    d = _data()
    v = v.strip()
    if v.endswith(d.not_endings) or v.endswith(d.place_endings):
        return None            # 王老师, 孙管家, 李姐: a surname and a role or a kin word; 李村, 王府井站: a place
    if re.fullmatch(rf"[{_HANGUL}]{{3,4}}", v):
        # a surname and a two-syllable given name (김하은), or a two-syllable surname (남궁민수); two
        # syllables alone are as often a word as a name
        return v if len(v) == 3 and v[:1] in d.ko or len(v) == 4 and v[:2] in d.ko else None
    parts = v.split()
    if len(parts) == 2 and all(re.fullmatch(rf"[{_CJK}]{{1,3}}", p) for p in parts):
        return v.replace(" ", "") if parts[0] in d.ja or parts[0] in d.zh else None
    if re.fullmatch(rf"[{_CJK}]{{2,4}}", v):
        if v[:2] in d.zh and len(v) >= 3 or v[0] in d.zh and len(v) <= 3:
            return v
        if any(v.startswith(s) and len(v) > len(s) for s in d.ja) and len(v) == 4:
            return v
    return None


def _latin(v: str) -> str | None:
    name = reader().latin(v)
    if name and any(w.casefold() in _data().place_words for w in name.split()):
        return None            # "Glasgow Central", "Linha Verde": a station or a line, not a person
    return name


def _title_of(line: str) -> tuple[str, str] | None:
    """("frau", "Katharina Brandl") for "Frau Katharina Brandl"."""
    m = re.match(r"\s*(?P<t>[A-Za-zÀ-ÿ]{1,12})\.?\s+(?P<rest>\S.*)$", line)
    return (m["t"].casefold(), m["rest"]) if m else None


_INITIAL = re.compile(r"(?<![\w.])(?P<i>[A-Z])\.?\s+(?P<s>[A-Z][a-zà-ÿ'\-]+(?:\s+[A-Z][a-zà-ÿ'\-]+)?)(?![\w])")
_MASKED = re.compile(rf"(?<![{_CJK}])(?P<m>[{_CJK}][*＊xX×]{{1,2}}[{_CJK}]?|[{_CJK}][{_CJK}][*＊]|[{_CJK}][*＊][{_CJK}])(?![{_CJK}])")
_MENTION = re.compile(rf"@(?P<n>[{_CJK}]{{2,4}})")


@lru_cache(maxsize=4096)
def name_candidates(text: str) -> tuple[Candidate, ...]:
    d = _data()
    r = reader()
    lines = [ln.strip() for ln in text.split("\n")]
    low = text.casefold()
    cert = any(w in low for w in d.cert)
    short = len([ln for ln in lines if ln]) <= _SHORT_TEXT
    out: list[Candidate] = []

    def add(name: str | None, kind: str, raw: str, script: str, **kw) -> None:
        if name and raw and raw in text:
            out.append(Candidate(name, kind, raw, script, certificate=cert, **kw))

    for k, line in enumerate(lines):
        if not line:
            continue
        # fields: "LABEL: VALUE" at the start or after a separator
        for m in d.field.finditer(line):
            label = m["label"].strip().casefold()
            value = m["value"].strip()
            if label in d.public:
                continue        # "Artist: Taylor Swift" on a ticket: whom the account went to see
            first = value.split("  ")[0]
            if re.search(rf"[{_CJK}{_HANGUL}]", first[:1]):
                tok = re.match(rf"[{_CJK}{_HANGUL}*＊]+", first)
                raw = tok.group(0) if tok else ""
                if re.search(r"[*＊]", raw):
                    if raw[0] in d.zh:
                        add(raw, "masked", raw, "cjk")
                    continue
                name = cjk_name(raw)
                kind = "holder" if label in r.holder else "role"
                add(name, kind, raw, "cjk")
                continue
            raw = re.split(r"\s{2,}|\s+\S{1,20}\s*[:：]|[·•|｜]", value)[0].strip(" ,;")
            words = raw.split()
            while len(words) > 1 and words[-1].casefold().strip(".") in r.field_words:
                words.pop()
            raw = " ".join(words)
            if (im := _INITIAL.fullmatch(raw)) is not None:
                add(raw, "initial", raw, "latin")
                continue
            if label in r.other and label not in r.holder or label in r.holder:
                kind = "holder" if label in r.holder else "role"
            else:
                kind = "role"
            add(_latin(raw), kind, raw, "latin")
        # CJK names before an honorific: 周思宁同志（女，...）, 沈月华同志：
        for m in d.honorific.finditer(line):
            n = m["n"]
            for cut in range(len(n), 1, -1):      # the shortest surname-led tail: 证书：沈月华同志
                if (name := cjk_name(n[-cut:])) is not None:
                    # on a certificate the honorific names its holder; in a chat or a notice ("田中さん",
                    # "王女士") it speaks to someone else: support only
                    add(name, "honorific" if cert else "addressed", n[-cut:], "cjk")
                    break
        # masked names and @mentions anywhere
        for m in _MASKED.finditer(line):
            if not d.field.search(line) and m["m"][0] in d.zh:
                add(m["m"], "masked", m["m"], "cjk")
        for m in _MENTION.finditer(line):
            # a chat runs the message on after the name ("@孙晓峰地库B2的灯坏了"): every surname-led prefix
            # is a candidate; only the one another image agrees with counts
            for n in dict.fromkeys(m["n"][:k] for k in (2, 3, 4) if len(m["n"]) >= k):
                if (name := cjk_name(n)) is not None:
                    add(name, "mention", n, "cjk")
        # a whole line that is a name
        if (name := cjk_name(line)) is not None:
            nxt = lines[k + 1] if k + 1 < len(lines) else ""
            # a name plate: 山口 美咲 / YAMAGUCHI Misaki (the same number of words, the family name in capitals)
            plate = bool(" " in line and re.fullmatch(r"[A-Z]{2,}\s+[A-Z][a-z]+", nxt))
            add(name, "line" if short else "plain", line, "cjk", plate=plate)
            continue
        for im in _INITIAL.finditer(line):
            # "revisto por B. Salgueiro", "checked by K. Brandl": an initial and a surname inside a line
            if line != im.group(0) and d.signed_by.search(line[: im.start()]):
                add(im.group(0), "initial", im.group(0), "latin")
        if re.search(rf"[{_CJK}{_HANGUL}:：@\d]", line):
            continue
        if _INITIAL.fullmatch(line) is not None:
            add(line, "initial", line, "latin")
            continue
        t = _title_of(line)
        if t and t[0] in d.address_titles and (name := _latin(t[1])):
            add(name, "titled", line, "latin")
            continue
        if t and t[0] in d.pro_titles:
            continue
        joined = line
        if line.isupper() and k + 1 < len(lines) and re.fullmatch(r"[A-Z][A-Z'\-]+", lines[k + 1]):
            joined = f"{line} {lines[k + 1]}"   # a badge's name wrapped onto a second line: "ANGELICA M. DELA" / "CRUZ"
            if (name := _latin(joined)) is not None and short:
                add(name, "line", line, "latin")
                continue
        if (name := _latin(line)) is not None:
            add(name, "line" if short or "," in line else "plain", line, "latin")
    if any(w in low for w in d.roster_words):
        # a schedule screen naming one person, their staff number beside the name, is that person's own
        names = {c.name for c in out if c.kind in ("holder", "role", "line")}
        if len(names) == 1:
            out = [Candidate(c.name, c.kind, c.raw, c.script, c.certificate, c.plate,
                             roster=any(c.raw in ln and d.staff_no.search(ln) for ln in lines)) for c in out]
    return tuple(out)
