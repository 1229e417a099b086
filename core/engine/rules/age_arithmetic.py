"""Age by arithmetic: an exam or graduation year, or a birthday number, read with a table of
typical ages (core/data/age_milestones.json, validated at load).

  "Leaving Cert 2009"   -> at 17-19 then -> born 1990-1992 -> 34-36 in 2026 -> 30s
  "高考那年是2012"        -> at 17-19 then -> 31-33 -> 30s
  "我的三十岁生日"        -> 30 (CJK numerals through lexicon.zh_int)
  "十五岁学绣，今年整三十年了" -> 15 then + 30 years -> 45-46 -> 40s (number words: rules/number_words.py)
  "私の成人式からもう12年"   -> 成人式 at 19-20 + 12 years -> 31-32 -> 30s
  "我們83年次的"           -> ROC year 83 + 1911 = born 1994 -> 31-32 -> 30s
  "만으로는 스물일곱"        -> international age 27

"Now" is the reference year of the rules (identity.REF_YEAR, the year the engine reads in; the
rules see one text, not its post's date): the cue carries the exam year and the age at the exam so
the arithmetic stands in the evidence (`inference`). An age range that spans two decades gives no
cue (precision first). Whose it is: the rules' holder (Ctx.cue) - "my brother's Leaving Cert 2009"
is the brother's and is dropped, and a sentence with no first-person word says nothing of the poster.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field, ValidationError

from core.engine.reading.data_file import check_regex
from core.engine.reading.kin import fold_zh
from core.engine.reading.lang import pack
from core.engine.rules.base import Ctx
from core.engine.rules.identity import REF_YEAR
from core.engine.rules.lexicon import zh_int
from core.engine.rules.number_words import word_int
from core.engine.types import Cue

DATA = Path(__file__).resolve().parents[2] / "data" / "age_milestones.json"
_YEAR = re.compile(r"(?<![\d.,:/-])(?:19[5-9]\d|20[0-4]\d)(?![\d.,:/]\d)")


Regex = Annotated[str, AfterValidator(check_regex)]     # a pattern that compiles (checked at load)


class AgeTableError(ValueError):
    """The milestone table is malformed: the message names the file, the entry and the field."""


class Milestone(BaseModel):
    id: str = Field(min_length=1)
    label: str
    country: str
    age_min: int = Field(ge=10, le=40)
    age_max: int = Field(ge=10, le=40)
    phrases: dict[str, list[Regex]]
    # "成人式からもう12年": the milestone plus the years since it, per language (`e` the years)
    since: dict[str, list[Regex]] = Field(default_factory=dict)
    # a cohort written as its first and last year ("generación 2012-2016"): the years it must span
    span: tuple[int, int] | None = None


class Future(BaseModel):
    """Words by language of a thing still to come (Latin-script ones match whole words)."""
    about: str = ""
    words: dict[str, list[Regex]] = Field(min_length=1)

    def regex(self) -> re.Pattern[str]:
        ws = [w for lang in self.words.values() for w in lang]
        return re.compile(rf"(?i)\b(?:{'|'.join(w for w in ws if w.isascii())})\b|" + "|".join(w for w in ws if not w.isascii()))


class Today(Future):
    """Words by language for today: beside a birthday number, the post's date is the birthday."""


class Birthday(BaseModel):
    patterns: dict[str, list[Regex]]
    not_age_after: Regex
    today: Today | None = None


class Patterns(BaseModel):
    about: str = ""
    patterns: list[Regex] = Field(min_length=1)


class Era(BaseModel):
    era: str
    offset: int = Field(ge=600, le=2100)
    patterns: list[Regex] = Field(min_length=1)


class EraBirthYear(BaseModel):
    about: str = ""
    eras: list[Era] = Field(min_length=1)


class ZodiacYear(BaseModel):
    about: str = ""
    cycle: int = Field(ge=2, le=60)
    patterns: list[Regex] = Field(min_length=1)
    other_before: Regex


class Event(BaseModel):
    year: int = Field(ge=1900, le=2100)
    names: list[str] = Field(min_length=1)


class EventBirthYear(BaseModel):
    about: str = ""
    window: int = Field(ge=1, le=120)
    born: dict[str, list[Regex]]
    events: list[Event] = Field(min_length=1)


class BareAge(Patterns):
    other_wish: Regex



class AgeTable(BaseModel):
    window: int = Field(ge=1, le=40)
    future: Future
    milestones: list[Milestone]
    first_person: dict[str, Regex]
    own_experience: Patterns
    birthday: Birthday
    turned_in_year: Patterns
    years_since: Patterns
    zodiac_year: ZodiacYear
    era_birth_year: EraBirthYear
    international_age: Patterns
    bare_age: BareAge
    event_birth_year: EventBirthYear


def _located(e: dict, raw: dict) -> str:
    loc = list(e["loc"])
    if loc and loc[0] == "milestones" and len(loc) > 1 and isinstance(loc[1], int):
        entry = raw.get("milestones", [])[loc[1]]
        ident = entry.get("id", f"#{loc[1]}") if isinstance(entry, dict) else f"#{loc[1]}"
        return f"entry {ident}, field {'.'.join(map(str, loc[2:])) or '(entry)'}"
    return f"field {'.'.join(map(str, loc))}"


def load_table(path: Path = DATA) -> AgeTable:
    """The table, validated; AgeTableError names the file, entry and field of the first problem."""
    try:
        # a CJK text is read folded (traditional -> simplified, 歳 -> 岁, 時 -> 时: reading/kin.fold_zh, same
        # length), so the patterns are folded the same way: "私の30歳の誕生日" meets the folded text
        raw = json.loads(fold_zh(path.read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError) as e:
        raise AgeTableError(f"{path}: {e}") from None
    try:
        t = AgeTable.model_validate(raw)
    except ValidationError as e:
        first = e.errors()[0]
        raise AgeTableError(f"{path}: {_located(first, raw)}: {first['msg']}") from None
    for m in t.milestones:
        if m.age_min > m.age_max:
            raise AgeTableError(f"{path}: entry {m.id}, field age_min: {m.age_min} is above age_max {m.age_max}")
    return t


def _flags(p: str) -> int:
    return 0 if re.fullmatch(r"[A-Z]{2,6}", p) else re.I   # an acronym (SPM, PAU) only in capitals


@lru_cache(maxsize=1)
def _compiled() -> tuple[AgeTable, list[tuple[Milestone, re.Pattern]], re.Pattern, list[re.Pattern], re.Pattern]:
    t = load_table()        # every pattern compiles (Regex)
    ms = []
    for m in t.milestones:
        for ps in m.phrases.values():
            for p in ps:
                edge = r"(?<![\w])" if re.match(r"[A-Za-z]", p) else ""
                tail = r"(?![A-Za-z])" if re.search(r"[A-Za-z?)]$", p) else ""
                ms.append((m, re.compile(edge + f"(?:{p})" + tail, _flags(p))))
    # a first-person word, or own-experience wording where pronouns are dropped ("高考那年是2012")
    fp = re.compile("|".join(f"(?:{v})" for v in list(t.first_person.values()) + t.own_experience.patterns), re.I)
    bday = [re.compile(p, re.I) for ps in t.birthday.patterns.values() for p in ps]
    return t, ms, fp, bday, re.compile(t.birthday.not_age_after, re.I)


@lru_cache(maxsize=1)
def _future() -> re.Pattern[str]:
    return _compiled()[0].future.regex()


@lru_cache(maxsize=1)
def _today() -> re.Pattern[str] | None:
    t = _compiled()[0].birthday.today
    return t.regex() if t else None


def _said_today(ctx: Ctx, start: int, end: int) -> bool:
    """A today word in the clause of the span, near it ("35 printemps aujourd'hui", "今天是我的三十岁生日");
    not across a comma ("je fête mes 40 ans samedi, aujourd'hui je range")."""
    rx = _today()
    if rx is None:
        return False
    s, e = ctx.sentence(start)
    text = ctx.masked
    for m in rx.finditer(text, max(s, start - 24), min(e, end + 24)):
        gap = text[m.end():start] if m.end() <= start else text[end:m.start()]
        if not re.search(r"[,;:，、；：]", gap):
            return True
    return False


def _decade(n: int) -> str:
    return f"{n // 10 * 10}s"


def _age_cue(ctx: Ctx, lo: int, hi: int, start: int, end: int, rule: str, conf: float, exact: bool = False,
             **data: object) -> Cue | None:
    """The poster's age between `lo` and `hi` as its decade (`exact`: the age `lo` itself), or None when the
    span leaves 13-100 or crosses a decade (precision first), or the text is someone else's (Ctx.cue's holder)."""
    if not 13 <= lo <= hi <= 100 or lo // 10 != hi // 10:
        return None
    levels = {"decade": _decade(lo), **({"exact_age": str(lo)} if exact else {})}
    c = ctx.cue("age", str(lo) if exact else _decade(lo), start, end, rule=rule, confidence=conf, levels=levels, **data)
    return c if c.holder == "self" else None


def exam_ages(ctx: Ctx) -> list[Cue]:
    t, milestones, first_person, _, _ = _compiled()
    text = ctx.masked
    out: list[Cue] = []
    taken: list[tuple[int, int]] = []
    for m, rx in milestones:
        for hit in rx.finditer(text):
            if any(a <= hit.start() < b for a, b in taken):
                continue
            s, e = ctx.sentence(hit.start())
            sent = text[s:e]
            if not first_person.search(text, s, min(len(text), e + 60)) or _future().search(sent) or ctx.negated(hit.start()):
                continue   # nobody's own exam (no first person in it or the clause after), or one still to come
            if "y" in rx.groupindex:       # the phrase names its year ("Class of 2010", "generación 2012-2016")
                year, ys, ye = int(hit.group("y")), hit.start("y"), hit.end("y")
                if m.span and not m.span[0] <= year - int(hit.group("y0")) <= m.span[1]:
                    continue   # a 3-year cohort is a school's, not a university's
            else:
                lo, hi = max(s, hit.start() - t.window), min(e, hit.end() + t.window)
                ym = min(_YEAR.finditer(text, lo, hi), key=lambda y: abs(y.start() - hit.start()), default=None)
                if ym is None:
                    continue
                year, ys, ye = int(ym.group(0)), ym.start(), ym.end()
            a_lo, a_hi = REF_YEAR - year + m.age_min, REF_YEAR - year + m.age_max
            if year > REF_YEAR:
                continue
            a, b = min(hit.start(), ys), max(hit.end(), ye)
            born = f"{year - m.age_max}-{year - m.age_min}"
            if c := _age_cue(ctx, a_lo, a_hi, a, b, f"age:milestone:{m.id}", 0.45, graduation_year=year,
                             degree=m.label, typical_age=(m.age_min + m.age_max) / 2,
                             inference=f"{m.label} {year} at {m.age_min}-{m.age_max} -> born ~{born} -> "
                                       f"{a_lo}-{a_hi} in {REF_YEAR}"):
                out.append(c)
                taken.append((a, b))
    return out


def birthday_ages(ctx: Ctx) -> list[Cue]:
    """An age said with a birthday word in one's own words ("我的三十岁生日", "mein 40. Geburtstag")."""
    _, _, _, patterns, not_age = _compiled()
    text = ctx.masked
    out: list[Cue] = []
    for rx in patterns:
        for hit in rx.finditer(text):
            n = zh_int(hit.group("n"))
            if n is None or not_age.search(text[hit.end():hit.end() + 24]):
                continue
            if ctx.negated(hit.start()) or _future().search(text, *ctx.sentence(hit.start())):
                continue   # "明年我的30岁生日": not yet that age
            if c := _age_cue(ctx, n, n, hit.start(), hit.end(), "age:birthday_number", 0.7, exact=True,
                             first_person=True, original=None if hit.group(0).isascii() else hit.group(0)):
                out.append(c)
                if _said_today(ctx, hit.start(), hit.end()):
                    # "35 printemps aujourd'hui", "Fiz 30 anos hoje": the post's date is the birthday
                    out.append(ctx.cue("birth_date", "post date", hit.start(), hit.end(), rule="birth_date:birthday_number_today",
                                       confidence=0.7, first_person=True, is_today=True))
    return out


def turned_in_year(ctx: Ctx) -> list[Cue]:
    """"turned 30 in 2014": the age then plus the years since, as a decade (identity.py's stated-age
    rule leaves a "turned N in <past year>" to this one); and the birth year, exactly 2014 - 30."""
    t = _compiled()[0]
    out: list[Cue] = []
    for p in t.turned_in_year.patterns:
        for hit in re.finditer(p, ctx.masked, re.I):
            n, y = int(hit.group("n")), int(hit.group("y"))
            hi = n + REF_YEAR - y
            lo = hi - 1 if y < REF_YEAR else hi
            if y > REF_YEAR or ctx.negated(hit.start()):
                continue
            if c := _age_cue(ctx, lo, hi, hit.start(), hit.end(), "age:turned_in_year", 0.6,
                             inference=f"{n} in {y} -> {lo}-{hi} in {REF_YEAR}"):
                out.append(c)
                # the Nth birthday fell in that year: born exactly that year minus N
                out.append(ctx.cue("birth_date", str(y - n), hit.start(), hit.end(), rule="birth_date:turned_in_year",
                                   confidence=0.6, levels={"year": str(y - n)}, first_person=True,
                                   inference=f"turned {n} in {y} -> born {y - n}"))
    return out


def _span_cue(ctx: Ctx, a: int, e: int, start: int, end: int, rule: str, why: str, just: bool = False) -> Cue | None:
    """An age `a` then plus `e` years since: a+e, or one more (the birthday may have passed), as a decade;
    exactly a+e when the age then was just reached ("hace 12 años ... con 21 recién cumplidos")."""
    lo, hi = a + e, a + e + (0 if just else 1)     # "twenty years since I started at 19": 39 or 40, no decade
    return _age_cue(ctx, lo, hi, start, end, rule, 0.5, exact=just,
                    inference=f"{why}{' (just turned)' if just else ''} + {e} years -> {lo}-{hi}")


def years_since(ctx: Ctx) -> list[Cue]:
    """"twenty years since I started at 19", "hace 12 años ... con 21 recién cumplidos", "十五岁学绣，今年整三十年了":
    the age then plus the years (number words through rules/number_words.py), or one more, as a decade."""
    ys = _compiled()[0].years_since
    out: list[Cue] = []
    for p in ys.patterns:
        for hit in re.finditer(p, ctx.masked, re.I):
            e, a = word_int(hit.group("e")), word_int(hit.group("a"))
            if (not e or not a or not 1 <= e <= 70 or ctx.negated(hit.start()) or not ctx.holder(hit.start("a")).is_self
                    or _ko_other_subject(ctx, hit.start("a"))):
                continue   # "since my dad started at 23": the subject of the clause with the age is someone else
            just = "just" in hit.re.groupindex and bool(hit.group("just"))
            if c := _span_cue(ctx, a, e, hit.start(), hit.end(), "age:years_since", f"{a} then", just):
                out.append(c)
    return out


@lru_cache(maxsize=1)
def _since() -> list[tuple[Milestone, re.Pattern]]:
    return [(m, re.compile(p, re.I)) for m in _compiled()[0].milestones for ps in m.since.values() for p in ps]


@lru_cache(maxsize=1)
def _others_possessive() -> re.Pattern:
    """A family or people word of the Japanese and Chinese packs with a possessive right before a milestone
    ("母の成人式", "我姐的毕业"): the milestone is theirs."""
    nouns: set[str] = set()
    for code in ("ja", "zh"):
        p = pack(code)
        nouns |= set(p.kin) | set(p.people)
    alt = "|".join(map(re.escape, sorted(nouns, key=len, reverse=True)))
    return re.compile(f"(?:{alt})\\s*(?:の|的)\\s*$")


def milestone_since(ctx: Ctx) -> list[Cue]:
    """"私の成人式からもう12年": the milestone's typical age plus the years since it. The lower end is the
    milestone's youngest age plus the years, the upper its oldest plus the years plus one (a birthday since)."""
    out: list[Cue] = []
    for m, rx in _since():
        for hit in rx.finditer(ctx.masked):
            e = word_int(hit.group("e"))
            if not e or ctx.negated(hit.start()) or _future().search(ctx.masked, *ctx.sentence(hit.start())):
                continue
            if _others_possessive().search(ctx.masked, max(0, hit.start() - 8), hit.start()):
                continue   # "母の成人式から30年": the mother's
            lo, hi = m.age_min + e, m.age_max + e
            if c := _age_cue(ctx, lo, hi, hit.start(), hit.end(), f"age:milestone_since:{m.id}", 0.5, degree=m.label,
                             typical_age=(m.age_min + m.age_max) / 2,
                             inference=f"{m.label} at {m.age_min}-{m.age_max} + {e} years -> {lo}-{hi}"):
                out.append(c)
    return out


def era_birth_years(ctx: Ctx) -> list[Cue]:
    """"我們83年次的" (ROC year 83 + 1911 = born 1994), "平成6年生まれ": a birth year in an era's count, said
    in the first person (or with no subject: "83年次，腰開始痛了"); someone else's ("我妈60年次") is theirs."""
    t, _, fp, _, _ = _compiled()
    out: list[Cue] = []
    for era in t.era_birth_year.eras:
        for p in era.patterns:
            for hit in re.finditer(p, ctx.masked):
                n = 1 if hit.group("y") == "元" else int(hit.group("y"))
                born = era.offset + n
                lo, hi = REF_YEAR - born - 1, REF_YEAR - born
                if born > REF_YEAR or ctx.negated(hit.start()):
                    continue
                a, b = ctx.sentence(hit.start())
                if not (fp.search(ctx.masked, a, b) or not ctx.masked[a:hit.start()].strip()):
                    continue   # "我們83年次的" or a self-introduction opening "平成6年生まれです"; not "這件衣服83年次的款"
                if c := _age_cue(ctx, lo, hi, hit.start(), hit.end(), "age:era_birth_year", 0.6, birth_cohort=born,
                                 inference=f"{era.era} year {n} + {era.offset} = born {born} -> {lo}-{hi} in {REF_YEAR}"):
                    out.append(c)
    return out


@lru_cache(maxsize=1)
def _ko_subjects() -> tuple[re.Pattern, re.Pattern]:
    """The Korean pack's kin and people words with a subject particle ("동생은", "친구가"), and its self words."""
    k = pack("ko")
    nouns = sorted(set(k.kin) | set(k.people), key=len, reverse=True)
    other = "|".join(map(re.escape, nouns)) + ")(?:" + "|".join(map(re.escape, k.subject_suffixes))
    return (re.compile(f"(?:{other})(?![가-힣])|" + "|".join(map(re.escape, k.other_pronouns))),
            re.compile("|".join(map(re.escape, k.self_words))))


def _ko_other_subject(ctx: Ctx, pos: int) -> bool:
    """Someone else is the subject of the clause before `pos` ("동생은 만으로 스물다섯"), after the last self word."""
    other, own = _ko_subjects()
    a = ctx.sentence(pos)[0]
    before = ctx.masked[a:pos]
    last_self = max((m.end() for m in own.finditer(before)), default=0)
    return bool(other.search(before, last_self))


def event_birth_years(ctx: Ctx) -> list[Cue]:
    """"我出世嗰年澳門回歸" (the year I was born, the Macau handover: 1999): a first-person "the year I was
    born" beside a public event of a known year (the table's `events`) in one sentence."""
    ev = _compiled()[0].event_birth_year
    text = ctx.masked
    names = [(e.year, n) for e in ev.events for n in e.names]
    out: list[Cue] = []
    for p in (q for ps in ev.born.values() for q in ps):
        for hit in re.finditer(p, text, re.I):
            s, e = ctx.sentence(hit.start())
            lo_, hi_ = max(s, hit.start() - ev.window), min(e, hit.end() + ev.window)
            low = text.lower()
            near = [(y, i, n) for y, n in names if (i := low.find(n.lower(), lo_, hi_)) >= 0]
            if len({y for y, _, _ in near}) != 1 or ctx.negated(hit.start()):
                continue   # no event, or two of different years: no reading
            born, at, name = near[0]
            lo, hi = REF_YEAR - born - 1, REF_YEAR - born
            if born > REF_YEAR:
                continue
            a, b = min(hit.start(), at), max(hit.end(), at + len(name))
            if c := _age_cue(ctx, lo, hi, a, b, "age:event_birth_year", 0.55, birth_cohort=born,
                             inference=f"born the year of {text[at:at + len(name)]} ({born}) -> {lo}-{hi} in {REF_YEAR}"):
                out.append(c)
    return out


def international_age(ctx: Ctx) -> list[Cue]:
    """Korean "만으로는 스물일곱" / "만 27세": the international (document) age, as said on the post's date."""
    out: list[Cue] = []
    for p in _compiled()[0].international_age.patterns:
        for hit in re.finditer(p, ctx.masked):
            n = word_int(hit.group("n"), "ko")
            if n is None or ctx.negated(hit.start()) or _ko_other_subject(ctx, hit.start()):
                continue
            if c := _age_cue(ctx, n, n, hit.start(), hit.end(), "age:international", 0.65, exact=True,
                             original=hit.group(0), inference=f"만 (international age) {hit.group('n')} = {n}"):
                out.append(c)
    return out


def age_arithmetic(ctx: Ctx) -> list[Cue]:
    return (exam_ages(ctx) + birthday_ages(ctx) + turned_in_year(ctx) + years_since(ctx) + milestone_since(ctx)
            + era_birth_years(ctx) + event_birth_years(ctx) + international_age(ctx))


EXTRACTORS = (age_arithmetic,)


def bare_age(text: str) -> tuple[int, str] | None:
    """An age said alone at the head of a text ("Fifty. FIFTY.", "29 ho gayi yaar"): (age, span), or None.
    The birth aggregator reads it only on the account's own birthday post (a bare number says nothing alone)."""
    folded = fold_zh(text)      # the patterns are folded (load_table); the span is cut from the original
    for p in _compiled()[0].bare_age.patterns:
        if (hit := re.search(p, folded, re.I)) and (n := word_int(hit.group("n"))) is not None and 13 <= n <= 99:
            return n, text[hit.start():hit.end()].strip()
    return None


def wishes_someone_else(text: str) -> bool:
    """A birthday wish that names someone else's birthday ("happy birthday to your dad!")."""
    return bool(re.search(_compiled()[0].bare_age.other_wish, fold_zh(text), re.I))


# ---------------------------------------------------------------------------------- "now" is the post
# The rules read one text without its date, so the arithmetic above uses REF_YEAR; the birth aggregator
# re-projects each age cue with its post's own date as "now" and states the age as of the account's
# latest post (the present the data shows: a truth's age is the age at the time of the posts).
# an age said as of the post: this module's birthday number and years-since, identity.py's stated ages,
# the reading layer's "my 30th" / "the big 4-0" / "30 today" / a friend's "happy 30th!"
AT_POST = ("age:birthday_number", "age:years_since", "age:international", "age:stated", "age:birthday", "age:zh", "age:zh_bio",
           "age:my_nth", "age:big_n", "age:n_today", "age:addressed")
BORN_IN = ("age:era_birth_year", "age:event_birth_year")     # a birth year: the age as of any date
_SPAN = re.compile(r"-> (?P<lo>\d+)-(?P<hi>\d+)")


def _years_between(earlier: str, later: str) -> int:
    """Whole years from one ISO date to a later one (0 when the later is not later)."""
    y = int(later[:4]) - int(earlier[:4]) - (1 if later[5:10] < earlier[5:10] else 0)
    return max(0, y)


def _span_on(cue: Cue, years: int) -> tuple[int, int] | None:
    """The age span the cue's inference states ("... -> 34-35"), `years` later."""
    m = _SPAN.search(cue.data.inference or "")
    return (int(m["lo"]) + years, int(m["hi"]) + years) if m else None


def age_range_as_of(cue: Cue, post_date: str | None, latest: str) -> tuple[int, int] | None:
    """The age span a rule's age cue gives as of the date `latest` (ISO), with its post's date
    `post_date` as the "now" of what the post says; None when the cue is not arithmetic of this module
    or of a stated age (those stand as read)."""
    rule, lv, ly = cue.cue or "", cue.data.levels or {}, int(latest[:4])
    if rule.startswith("age:milestone_since:") and post_date:
        return _span_on(cue, _years_between(post_date, latest))    # the years since were counted to the post's date
    if rule in BORN_IN and cue.data.birth_cohort:
        return ly - cue.data.birth_cohort - 1, ly - cue.data.birth_cohort
    if rule in AT_POST and post_date:
        exact = lv.get("exact_age")
        if exact and exact.isdigit():
            n = int(exact) + _years_between(post_date, latest)
            return n, n
        return _span_on(cue, _years_between(post_date, latest)) if rule == "age:years_since" else None
    if rule.startswith("age:milestone:") and cue.data.graduation_year:
        t = _compiled()[0]
        m = next((x for x in t.milestones if rule == f"age:milestone:{x.id}"), None)
        if m is None:
            return None
        y = cue.data.graduation_year
        return ly - y + m.age_min, ly - y + m.age_max
    if rule == "age:turned_in_year":
        return _span_on(cue, ly - REF_YEAR)        # the rule counted the years to REF_YEAR
    return None


def zodiac_birth_years(text: str, post_year: int) -> list[int]:
    """The birth years a first-person zodiac-year mention allows ("2018年本命年" -> 2006, 1994, 1982, ...;
    "本命年" with no year: the post's year). Kin before the word ("我妈本命年") is someone else's."""
    z = _compiled()[0].zodiac_year
    text = fold_zh(text)        # the patterns are folded (load_table)
    out: list[int] = []
    for p in z.patterns:
        for hit in re.finditer(p, text):
            before = text[max(0, hit.start() - 6):hit.start()]
            if re.search(z.other_before, before):
                continue
            y = int(hit.group("y")) if "y" in hit.groupdict() and hit.group("y") else post_year
            if not 1950 <= y <= post_year:
                continue
            out += [y - k * z.cycle for k in range(1, 9) if y - k * z.cycle > 1900]
    return sorted(set(out), reverse=True)
