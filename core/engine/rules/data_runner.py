"""The generic runner of a recognizer declared by data alone (its block says `"runner": "patterns"`):
patterns with scores, lexicons by language, context words that raise or lower a score, as Presidio's
PatternRecognizer does. A new recognizer (or a toy attribute's, tests/test_toy_attribute.py) needs no
Python: its file is validated at load (one error naming file, entry and field) and every cue goes
through the shared reading (Ctx.cue: holder, quote, hypothetical) like the Python rules' cues.

    {"recognizer": {"name": ..., "attributes": [...], "languages": [...], "reads": [...], "runner": "patterns",
                    "scores": {"base": 0.6}},
     "patterns": [{"id": "my-pet", "lang": "en", "regex": "\\bmy (?P<value>dog|cat)\\b", "score": 0.6}],
     "lexicons": [{"id": "breeds", "lang": "en", "terms": ["golden retriever"], "value": "dog"}],
     "context": [{"words": {"en": ["vet", "walkies"]}, "delta": 0.1, "why": "..."}]}

A pattern's value is its `value`, else its named group `value`, else the text matched; `attribute`
defaults to the recognizer's only attribute; `"hint": true` marks its readings as hints (held as a
guess, never projected alone, as a weak similarity reading is). Context words within `window` characters of a hit move its
score by `delta` (kept in (0, 1]).

A Python family's file may declare `rules` too (class Rules below, docs/rules.md "Declared rules"): each a
loop `for m in rx.finditer(t): if <guard>: continue; out.append(ctx.cue(...))` of its module as one entry
-- a pattern or pattern list, value / levels / original / data as templates of the match's groups (with
map lookups), guards of declared tests each with its why, cases -- run in file order by step; what data
cannot say is a named Python check the module registers (`@rules.check("subjectless_degree")`).
"""
from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from core.engine.reading.data_file import check_regex
from core.engine.rules.base import FIRST_PERSON, Ctx, Lexicon
from core.engine.rules.data_file import Recognizer
from core.engine.rules.family_patterns import compiled
from core.engine.types import Cue


class DataRunnerError(ValueError):
    """A data recognizer's file that does not follow its schema: file, entry and field in one line."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Pattern(_Strict):
    id: str = Field(min_length=1)
    lang: str
    regex: str
    attribute: str | None = None
    value: str | None = None
    level: str | None = None
    score: float | None = Field(default=None, gt=0, le=1)
    ignore_case: bool = True
    hint: bool = False          # a reading that is held, never projected alone (aggregators.generic.is_hint)

    @field_validator("regex")
    @classmethod
    def _compiles(cls, v: str) -> str:
        return check_regex(v)


class LexiconEntry(_Strict):
    id: str = Field(min_length=1)
    lang: str
    terms: list[str] = Field(min_length=1)
    value: str | None = None                    # default: the term as listed
    attribute: str | None = None
    level: str | None = None
    score: float | None = Field(default=None, gt=0, le=1)


class Context(_Strict):
    words: dict[str, list[str]]
    delta: float = Field(ge=-1, le=1)
    window: int = Field(default=60, ge=1)
    why: str = ""


class PatternFile(_Strict):
    recognizer: Recognizer
    about: str = ""
    patterns: list[Pattern] = []
    lexicons: list[LexiconEntry] = []
    context: list[Context] = []

    @model_validator(mode="after")
    def _declared(self) -> "PatternFile":
        r = self.recognizer
        if "base" not in r.scores:
            raise ValueError("recognizer.scores: a data recognizer needs a 'base' score")
        for kind, items in (("patterns", self.patterns), ("lexicons", self.lexicons)):
            for i, p in enumerate(items):
                if p.lang not in r.languages:
                    raise ValueError(f"{kind}[{i}] ({p.id}): field lang: {p.lang!r} is not declared by the recognizer")
                attr = p.attribute or (r.attributes[0] if len(r.attributes) == 1 else None)
                if attr not in r.attributes:
                    raise ValueError(f"{kind}[{i}] ({p.id}): field attribute: {attr!r} is not declared by the recognizer")
        if not self.patterns and not self.lexicons:
            raise ValueError("patterns / lexicons: a data recognizer needs at least one")
        # what the runner reads of a Document: the masked text (patterns, context words), the lexicon hits
        for field, needed in (("masked", True), ("lexicon", bool(self.lexicons))):
            if needed and field not in r.reads:
                raise ValueError(f"recognizer.reads: the runner reads {field!r} of this file's Document: declare it")
        return self


def load(raw: dict[str, Any], source: str) -> PatternFile:
    try:
        return PatternFile.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(x) for x in err["loc"]) or "file"
        raise DataRunnerError(f"{source}: field {loc}: {err['msg'].removeprefix('Value error, ')}") from None


def runner(raw: dict[str, Any], source: str) -> Any:
    """The extractor of one data recognizer (its `recognizer` attribute is the registry name)."""
    f = load(raw, source)
    r = f.recognizer
    only = r.attributes[0] if len(r.attributes) == 1 else None
    pats = [(p, re.compile(p.regex, re.I if p.ignore_case else 0)) for p in f.patterns]
    lexs = [(x, Lexicon(x.terms)) for x in f.lexicons]
    ctx_words = [(c, re.compile("|".join(rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w)
                                         for ws in c.words.values() for w in ws), re.I)) for c in f.context]

    def score(ctx: Ctx, base: float, s: int, e: int) -> float:
        for c, rx in ctx_words:
            if rx.search(ctx.masked, max(0, s - c.window), min(len(ctx.masked), e + c.window)):
                base += c.delta
        return min(1.0, max(0.01, base))

    def run(ctx: Ctx) -> list[Cue]:
        out: list[Cue] = []
        for p, rx in pats:
            for m in rx.finditer(ctx.masked):
                grp = m.groupdict().get("value")
                value = p.value or (grp if grp else m.group(0))
                s, e = m.span()
                out.append(ctx.cue(p.attribute or only or "", value.strip(), s, e, rule=f"{r.name}:{p.id}",
                                   confidence=score(ctx, p.score or r.scores["base"], s, e), level=p.level, entry=p.id,
                                   hint=p.hint or None))
        for x, lex in lexs:
            for s, e, term in ctx.lexicon_hits(lex):
                out.append(ctx.cue(x.attribute or only or "", x.value or term, s, e, rule=f"{r.name}:{x.id}",
                                   confidence=score(ctx, x.score or r.scores["base"], s, e), level=x.level, entry=x.id))
        return out

    run.__name__ = r.name
    run.recognizer = r.name  # type: ignore[attr-defined]
    return run


# ---------------------------------------------------------------- a family's declared rules
_GROUP = re.compile(r"\{([^{}]+)\}")
_SPACES = re.compile(r"\s+")
_WHERE = "^(hit|clause|sentence|prefix|before|after|window|text)$"


class Test(_Strict):
    """One test of a hit: a built-in (`is`: negated, first_person, is_self, match, says_i, in_words,
    has -- the template `of` is not empty --, item, carrier, cjk, by_other) or a check the family module
    registers; `not` inverts it."""
    is_: str = Field(alias="is", min_length=1)
    not_: bool = Field(default=False, alias="not")
    pattern: str | None = None       # match: a pattern key of the file (or one the module gives)
    in_: str = Field(default="hit", alias="in", pattern=_WHERE)    # match / says_i: the text searched (sentence: ctx.sentence)
    chars: tuple[int, int] = (0, 0)  # before / after / window: characters before the hit, after its end
    anchored: bool = False           # match: re.match (at the start of the text searched), not re.search
    words: str | None = None         # in_words: a word list of the file, holding the template `of`; carrier: the carriers
    of: str = "{0}"
    lower: bool = False
    values: list[str] = []           # item / carrier: the pattern-list values or carriers tested


class Guard(_Strict):
    """Drop the hit when every test holds (`drop_if`), with the why."""
    drop_if: list[Test] = Field(min_length=1)
    why: str = Field(min_length=1)


class Case(_Strict):
    id: str = Field(pattern=r"^[a-z_]+:[a-z_{}@]+$")    # the cue's rule id ("{@item}": the list item's value)
    score: str | float | None = None   # a key of the file's scores, a number; default: the list item's
    guards: list[Guard] = []
    first_person: bool | Literal["hit"] | None = None     # "hit": the holder's reading at the hit, passed on


class Rule(Case):
    """One declared rule: a pattern (a key, or a pattern list whose items give value and score), the
    value, levels, `original` and the cue's other data as templates of its named groups ("{b|zb}": the
    first group that matched, stripped; "{0}": the whole match; "{s>names}": the group looked up in the
    map `names`, "{s>>names}" lower-cased with its spaces squeezed ("{s>>}": no map); "{=x}": the text x; "{@item}": the
    list item's value, "{@value}": the cue's; a map's number inside a longer template is written as text:
    "{w>decades}s" -> "30s"), its span, and `cases` (the first case whose guards pass
    names the rule id and score of a hit that passed the rule's own guards). No cue has an empty value
    (a group absent from its map)."""
    step: str = Field(min_length=1)
    attribute: str = Field(min_length=1)
    pattern: str | None = None
    pattern_list: str | None = None
    value: str = "{0}"
    trim: str | None = None            # a pattern whose matches are cut from the value ("the words before a name")
    levels: dict[str, str] = {}
    original: str | None = None
    original_if: Literal["non_ascii", "cjk"] | None = None   # a non-Latin original, or any in a text with CJK
    data: dict[str, str | bool | dict[str, str]] = {}   # {"in_words": key}: True when the value is in it
    start: str | None = None           # a group whose start / end is the cue's (default: the match's; "a|b": the
    end: str | None = None             # first that matched; "@value": the value's length before the end)
    at: str | None = None              # the group whose start the guards read (default: the match's)
    first_only: bool = False           # one cue per pattern at most
    cases: list[Case] = []
    why: str = Field(min_length=1)

    @model_validator(mode="after")
    def _one(self) -> "Rule":
        if (self.pattern is None) == (self.pattern_list is None):
            raise ValueError("a rule reads a pattern or a pattern_list (one of them)")
        return self


def _template(src: str, maps: Any) -> Any:
    """A compiled template: a function of (match, item, value) -> str; `maps(key)` is a map by key."""
    parts = _GROUP.split(src)

    def field(name: str) -> Any:
        if name in ("@item", "@value"):
            return (lambda m, item, value: item or "") if name == "@item" else (lambda m, item, value: value or "")
        name, _, key = name.partition(">")
        gs = [0 if g == "0" else g for g in name.split("|")]

        def group(m: re.Match[str], item: Any, value: Any) -> str:
            return next((x.strip() for g in gs if (x := g[1:] if str(g)[:1] == "=" else m.group(g))), "")
        if not key:
            return group
        if key == ">":          # "{g>>}": the group lower-cased, its spaces squeezed, no map
            return lambda m, item, value: _SPACES.sub(" ", group(m, item, value).lower())
        mp, fold = maps(key.lstrip(">")), key.startswith(">")
        return lambda m, item, value: mp.get(_SPACES.sub(" ", group(m, item, value).lower()) if fold
                                             else group(m, item, value)) or ""
    fns = [(lambda m, item, value, s=p: s) if i % 2 == 0 else field(p) for i, p in enumerate(parts)]
    if len(fns) == 3 and not parts[0] and not parts[2]:
        return fns[1]
    return lambda m, item, value: "".join(str(f(m, item, value)) for f in fns).strip()


# the Document attribute each built-in test reads (Rules.reads)
_READS = {"negated": ("negated",), "first_person": ("first_person",), "is_self": ("is_self",), "cjk": ("has_cjk",),
          "by_other": ("by_other",), "carrier": ("carrier",)}


class Rules(dict[str, Any]):
    """A family's declared rules (its file's `rules`): validated when built at the module's import,
    compiled at first run, after the module registered its checks (`@rules.check(name)`). The dict holds
    what the module gives by key -- patterns, pattern lists [(value, score, regex)] and maps of its Python
    -- so the regex-linearity corpus (tests/regex_corpus.py) walks the given patterns too."""

    def __init__(self, fam: Any, **given: Any) -> None:
        super().__init__(given)
        self.fam, self.checks = fam, {}
        self._steps: dict[str, list[Any]] | None = None
        self.rules = [self._fail(i, lambda: Rule.model_validate(e)) for i, e in enumerate(fam.data.rules)]

    def _fail(self, i: int, build: Any) -> Any:
        try:
            return build()
        except (ValidationError, KeyError) as e:
            where = f"field {'.'.join(map(str, e.errors()[0]['loc']))}: {e.errors()[0]['msg']}" \
                if isinstance(e, ValidationError) else f"unknown name {e.args[0]!r} (a pattern, map, list or check)"
            entry = self.fam.data.rules[i].get("id")
            raise DataRunnerError(f"{self.fam.path}: rules[{i}] ({entry}): {where}") from None

    def check(self, name: str) -> Any:
        """Register `fn(ctx, text, match, pos) -> bool` as the test `name`."""
        def deco(fn: Any) -> Any:
            self.checks[name] = fn
            return fn
        return deco

    def run(self, ctx: Ctx, step: str, out: list[Cue] | None = None, text: str | None = None) -> list[Cue]:
        """The cues of the step's rules, in file order, added to `out`; `text` is the text scanned when it
        is not the masked text (a copy with more blanked, of the same length)."""
        if self._steps is None:
            pats = compiled(self.fam) | {k: v for k, v in self.items() if isinstance(v, re.Pattern)}
            self._steps = {}
            for i, r in enumerate(self.rules):
                self._steps.setdefault(r.step, []).append(self._fail(i, lambda: self._rule(r, pats)))
        out = [] if out is None else out
        for run in self._steps.get(step, ()):
            run(ctx, ctx.masked if text is None else text, out)
        return out

    def reads(self, step: str) -> tuple[set[str], list[Any]]:
        """The Document attributes the step's rules read and the checks they call: what their recognizer
        must declare (tests/test_recognizer_registry.py follows them as it follows the Python rules)."""
        attrs, checks = {"masked", "cue"}, []
        for r in (r for r in self.rules if r.step == step):
            for t in (t for g in [*r.guards, *(g for c in r.cases for g in c.guards)] for t in g.drop_if):
                attrs |= set(_READS.get(t.is_, ()))
                if t.is_ in ("match", "says_i") and t.in_ in ("clause", "sentence", "prefix"):
                    attrs |= {"clause_start", "clause_end", "prefix", "sentence"}
                if t.is_ in self.checks:
                    checks.append(self.checks[t.is_])
            if r.original_if == "cjk":
                attrs.add("has_cjk")
            if "hit" in (r.first_person, *(c.first_person for c in r.cases)):
                attrs.add("first_person")
        return attrs, checks

    def _map(self, key: str) -> dict[str, Any]:
        return self[key] if isinstance(self.get(key), dict) else self.fam.map(key)

    def _test(self, test: Test, pats: dict[str, Any]) -> tuple[Any, bool]:
        """(fn(ctx, t, m, pos, item) -> bool, whether it reads the text alone, not the hit)."""
        n, (b, a) = test.is_, test.chars
        if n in self.checks:
            fn = self.checks[n]
            return (lambda ctx, t, m, pos, item: fn(ctx, t, m, pos)), False
        if n in ("cjk", "by_other", "carrier"):
            vals = frozenset(test.values or (self.fam.words(test.words) if test.words else ()))
            return {"cjk": lambda ctx, t, m, pos, item: ctx.has_cjk,
                    "by_other": lambda ctx, t, m, pos, item: ctx.by_other,
                    "carrier": lambda ctx, t, m, pos, item: ctx.carrier in vals}[n], True
        if n in ("negated", "first_person", "is_self"):
            return (lambda ctx, t, m, pos, item: getattr(ctx, n)(pos)), False
        if n == "item":
            return (lambda ctx, t, m, pos, item: item in test.values), False
        if n == "has":
            of = _template(test.of, self._map)
            return (lambda ctx, t, m, pos, item: bool(of(m, item, None))), False
        if n == "in_words":
            ws, of, low = frozenset(self.fam.words(test.words or "")), _template(test.of, self._map), test.lower
            return (lambda ctx, t, m, pos, item: (of(m, item, None).lower() if low else of(m, item, None)) in ws), False
        if n not in ("match", "says_i"):
            raise KeyError(n)
        rx = FIRST_PERSON if n == "says_i" else pats[test.pattern or ""]
        find = rx.match if test.anchored else rx.search
        where = {"hit": lambda ctx, t, m, pos: m.group(0), "text": lambda ctx, t, m, pos: t,
                 "prefix": lambda ctx, t, m, pos: ctx.prefix(pos),
                 "clause": lambda ctx, t, m, pos: t[ctx.clause_start(pos):ctx.clause_end(pos)],
                 "sentence": lambda ctx, t, m, pos: t[slice(*ctx.sentence(pos))],
                 "before": lambda ctx, t, m, pos: t[max(0, pos - b):pos],
                 "after": lambda ctx, t, m, pos: t[m.end():m.end() + a],
                 "window": lambda ctx, t, m, pos: t[max(0, pos - b):m.end() + a]}[test.in_]
        return (lambda ctx, t, m, pos, item: bool(find(where(ctx, t, m, pos)))), test.in_ == "text"

    def _guards(self, gs: list[Guard], pats: dict[str, Any]) -> tuple[list[Any], list[Any]]:
        """(guards of the text alone, run once before the scan; guards of each hit): each [(test, not)]."""
        out: tuple[list[Any], list[Any]] = ([], [])
        for g in gs:
            tests = [(self._test(t, pats), t.not_) for t in g.drop_if]
            out[0 if all(whole for (_, whole), _ in tests) else 1].append([(fn, neg) for (fn, _), neg in tests])
        return out

    def _rule(self, r: Rule, pats: dict[str, Any]) -> Any:
        """The rule's run(ctx, text, out): its own guards, then its cases, then one cue per hit kept."""
        fam, scores = self.fam, self.fam.scores()
        items = self.get(r.pattern_list) if r.pattern_list else [(None, None, pats[r.pattern])]
        items = items or [(p.value, p.confidence, rx) for p, rx in fam.patterns(r.pattern_list)]
        value, trim = _template(r.value, self._map), pats[r.trim] if r.trim else None
        levels = [(k, _template(v, self._map)) for k, v in r.levels.items()]
        data = [(k, _datum(v, fam, self._map)) for k, v in r.data.items()]
        original = _template(r.original, self._map) if r.original else None
        whole, hits = self._guards(r.guards, pats)
        start, end = (_group_of(g) for g in (r.start, r.end))

        def score(c: Case) -> float | None:
            k = r.score if c.score is None else c.score
            return scores[k] if isinstance(k, str) else k
        cases = [(c.id, score(c), self._guards(c.guards, pats)[1], r.first_person if c.first_person is None
                  else c.first_person) for c in r.cases] or [(r.id, score(r), [], r.first_person)]

        def run(ctx: Ctx, t: str, out: list[Cue]) -> None:
            if whole and _drop(whole, ctx, t, None, 0, None):
                return
            for item, conf, rx in items:
                for m in rx.finditer(t):
                    pos = m.start(r.at) if r.at else m.start()
                    v = value(m, item, None)
                    if (hits and _drop(hits, ctx, t, m, pos, item)) or not (v := trim.sub("", v).strip() if trim else v):
                        continue
                    case = next((c for c in cases if not (c[2] and _drop(c[2], ctx, t, m, pos, item))), None)
                    if case is None:
                        continue
                    rid, score, _, fp = case
                    orig = original(m, item, v) if original else None
                    if orig and r.original_if and not (ctx.has_cjk if r.original_if == "cjk" else not orig.isascii()):
                        orig = None
                    e = m.end(end(m))
                    out.append(ctx.cue(r.attribute, v, e - len(v) if r.start == "@value" else m.start(start(m)), e,
                                       rule=rid.replace("{@item}", item or ""), confidence=conf if score is None else score,
                                       levels={k: x for k, f in levels if (x := f(m, item, v))} or None,
                                       first_person=ctx.first_person(pos) if fp == "hit" else fp,
                                       original=orig, **{k: f(m, item, v) or None for k, f in data}))
                    if r.first_only:
                        break
        return run


def _group_of(spec: str | None) -> Any:
    """fn(match) -> the group a span reads: the whole match (0), the one named, or the first of "a|b" that matched."""
    gs = spec.split("|") if spec and spec != "@value" else [0]
    if len(gs) == 1:
        return lambda m, g=gs[0]: g
    return lambda m: next((g for g in gs if m.group(g)), gs[-1])


def _drop(guards: list[Any], ctx: Ctx, t: str, m: Any, pos: int, item: Any) -> bool:
    """Whether a guard drops the hit: all of its tests hold (loops, not generators: this runs per hit)."""
    for g in guards:
        for fn, neg in g:
            if fn(ctx, t, m, pos, item) == neg:
                break
        else:
            return True
    return False


def _datum(v: Any, fam: Any, maps: Any) -> Any:
    """A cue datum: a constant, a template, or True when the value is in a word list (else none)."""
    if isinstance(v, bool):
        return lambda m, item, value: v
    if isinstance(v, dict):
        ws = frozenset(fam.words(v["in_words"]))
        return lambda m, item, value: value in ws
    return _template(v, maps)
