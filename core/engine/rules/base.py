"""Shared machinery of the offline rules: the per-text context (Ctx: the text's reading --
clause bounds, holders, stance, negation: reading/holder.TextReading -- plus the words, lexicon
hits and places the extractors look up) and the Cue builder.

Extractors run on a *masked* copy of the text (hostile spans blanked with spaces of equal
length) so offsets stay valid and every span is cut from the original text: a cue's span is
always an exact substring of the input (the verifier checks grounding).
"""
from __future__ import annotations

import re
from typing import Any, Callable

from core.engine.gazetteer import find_places
from core.engine.rules.generic import generic_statement
from core.engine.types import Cue

# a sentence with its closing punctuation (the unit the semantic layers embed and compare): the one splitter
from core.engine.reading.sentences import SENTENCE  # noqa: E402,F401
# the reading of one text (clauses, quotations, holders, stance, negation): core/engine/reading/holder.py
from core.engine.reading.holder import CJK, FIRST_PERSON, TextReading  # noqa: E402,F401 (CJK re-exported)

# carriers whose text was read off an image (OCR): a sign, a card, a document, a screenshot, a map
IMAGE_TEXT_CARRIERS = ("ocr_text", "sign", "screenshot", "badge", "document", "map")

_PLACE_GATE = re.compile(
    r"\b(?:live[sd]?|living|moved?|moving|relocat\w*|based|home|hometown|here\s+in|from|born|raised|grew\s+up|local|resident|"
    r"neighbou?rhood|apartment|flat|house|visit\w*|trip|travel\w*|vacation\w*|holiday|flew|fly|flying|landed|arrived|been\s+to|went\s+to|"
    r"back|days\s+in|weeks?\s+in|weekend\s+in|spent|honeymoon|explor\w*|road\s+trip|backpack\w*|memories|greetings|hello|wander\w*|"
    r"sightseeing|inspired|reminisc\w*|longing|work\w*|office|job|commut\w*|teach|company|firm|hospital|clinic|school|college|"
    r"university|campus|uni|citizen|immigra\w*|expat|passport|country|city|town|anyone|fellow|locals?|here|run|own|shop|store|"
    r"bakery|restaurant|caf[eé]|business|studio|student|studying|study|address|addr)\b",
    re.I,
)


class Ctx(TextReading):
    """The rules' context of one text: its reading (reading/holder.py: clauses, holders, stance),
    plus the words, hashtags, lexicon hits and places the extractors look up, and the Cue builder."""

    __slots__ = ("_places", "_tokens", "_impersonal")

    def __init__(self, text: str, masked: str, *, carrier: str | None, lang: str | None, by_other: bool = False):
        TextReading.__init__(self, text, masked, carrier=carrier, lang=lang, by_other=by_other)
        self._places: list | None = None
        self._tokens: list[tuple[int, int, str]] | None = None
        self._impersonal: bool | None = None     # no first-person word anywhere (read once, for _general)

    def tokens(self) -> list[tuple[int, int, str]]:
        """(start, end, lowercased word) of the Latin/digit words of the masked text."""
        if self._tokens is None:
            toks: list[tuple[int, int, str]] = []
            for m in _WORD.finditer(self.lower):
                if m.start() > 0 and self.masked[m.start() - 1] == "#":
                    # hashtags: "#DiabetesWarrior" -> diabetes, warrior (offsets stay in the tag)
                    parts = list(_CAMEL.finditer(self.masked, m.start(), m.end()))
                    if len(parts) > 1:
                        toks.extend((p.start(), p.end(), p.group(0).lower()) for p in parts)
                        continue
                toks.append((m.start(), m.end(), m.group(0)))
            self._tokens = toks
        return self._tokens

    def hashtags(self) -> list[tuple[int, int, str]]:
        """(start, end, words) of each hashtag, CamelCase split: "#NurseLife" -> "nurse life"."""
        out = []
        for m in _HASHTAG.finditer(self.masked):
            words = " ".join(p.group(0).lower() for p in _CAMEL.finditer(self.masked, m.start(1), m.end()))
            out.append((m.start(), m.end(), words))
        return out

    def lexicon_hits(self, lex: "Lexicon") -> list[tuple[int, int, str]]:
        """Whole-word matches of a Lexicon's Latin terms (longest first, plural -s/-es too) and
        substring matches of its CJK terms: (start, end, term as listed)."""
        out: list[tuple[int, int, str]] = []
        toks = self.tokens()
        i = 0
        n_tok = len(toks)
        first = lex.first
        while i < n_tok:
            w0 = toks[i][2]
            if w0 not in first and w0[:-1] not in first and w0[:-2] not in first:
                i += 1
                continue
            hit = None
            for n in range(min(lex.max_words, n_tok - i), 0, -1):
                words = [toks[i + k][2] for k in range(n)]
                # words must be adjacent (only spaces or a hyphen/apostrophe between them)
                if n > 1 and any(not _GAP.fullmatch(self.lower[toks[i + k][1]:toks[i + k + 1][0]]) for k in range(n - 1)):
                    continue
                key = " ".join(words)
                term = lex.en.get(key)
                if term is None and key.endswith("s"):
                    term = lex.en.get(key[:-1]) or (lex.en.get(key[:-2]) if key.endswith("es") else None)
                if term is not None:
                    hit = (toks[i][0], toks[i + n - 1][1], term)
                    i += n
                    break
            if hit:
                out.append(hit)
            else:
                i += 1
        if self.has_cjk and lex.zh_re is not None:
            out.extend((m.start(), m.end(), m.group(0)) for m in lex.zh_re.finditer(self.masked))
        return out

    def places(self) -> list:
        """Places in the masked text (gazetteer lookups are the costliest step: done once)."""
        if self._places is None:
            # Latin-only text without any place-related wording needs no gazetteer scan (the
            # costliest step); every place-using extractor requires one of these words nearby (a text in
            # a generic language pack's language is scanned: its place words are the pack's templates)
            if not self.has_cjk and not self.packs and not _PLACE_GATE.search(self.masked):
                self._places = []
            else:
                self._places = find_places(self.masked)
        return self._places

    def cue(
        self,
        attribute: str,
        value: str,
        start: int,
        end: int,
        *,
        rule: str,
        confidence: float = 0.6,
        level: str | None = None,
        levels: dict[str, str] | None = None,
        first_person: bool | None = None,
        original: str | None = None,
        **data: Any,
    ) -> Cue:
        span = self.text[start:end].strip() or self.text[start:end]
        d: dict[str, Any] = {k: v for k, v in data.items() if v is not None}
        if levels:
            d["levels"] = levels
            if level is None:
                level = list(levels)[-1]
        if original:
            d["original"] = original
        d["start"] = start
        d["end"] = end
        if self.carrier:
            d["carrier"] = self.carrier
        st, h, fp = self.speaker(start, rule, first_person)
        if st in ("quote", "hypothetical"):
            d["stance"] = st      # the hypothesizer drops these (shared with the semantic cues)
        elif attribute in _STATE_BANK and h.is_self and self._general(start, attribute):
            d["hint"] = d["generic"] = True   # "Dating apps make everyone feel single": held, never projected alone
        return Cue(attribute=attribute, value=value, level=level, confidence=round(confidence, 3),
                   span=span, cue=rule, first_person=fp, holder=h.label, data=d)

    def _general(self, start: int, attribute: str) -> bool:
        """The sentence at `start` is a statement about people in general (generic.generic_statement)
        in a text that never speaks in the first person: a rule's reading is precise, and beside an "I"
        elsewhere ("Reading is such an escape when single life gets lonely … my collection") the general
        sentence is still the poster's life (measured: SynthPAI and PRISM each lost a right single)."""
        if self._impersonal is None:
            self._impersonal = not FIRST_PERSON.search(self.masked)
        if not self._impersonal:
            return False
        a, b = self.sentence(start)
        return generic_statement(self.masked[a:b], _STATE_BANK[attribute], reader_is_poster=self.by_other)


# the life-state attributes a general statement says nothing about, by their semantic bank's name
_STATE_BANK = {"education": "education", "relationship_status": "relationship", "income_level": "income", "age": "age"}

Extractor = Callable[[Ctx], list[Cue]]

_WORD = re.compile(r"[^\W_](?:[\w&+']*[^\W_])?")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|[^\W\d_a-zA-Z]+")
_HASHTAG = re.compile(r"#(\w+)")
_GAP = re.compile(r"[\s\-./]{1,3}")


class Lexicon:
    """Terms -> fast lookups: Latin terms by word n-grams (dict), CJK terms by one regex."""

    def __init__(self, terms: "list[str] | tuple[str, ...] | set[str]"):
        self.en: dict[str, str] = {}
        zh: list[str] = []
        for t in terms:
            if CJK.search(t):
                zh.append(t)
            else:
                key = " ".join(w.group(0) for w in _WORD.finditer(t.lower()))
                if key:
                    self.en.setdefault(key, t)
        self.max_words = max((k.count(" ") + 1 for k in self.en), default=1)
        self.first = {k.split(" ")[0] for k in self.en}
        self.zh_re = re.compile(alt(zh)) if zh else None


def at(offset: int | None, default: int) -> int:
    """A cue's start / end offset, `default` when it has none (a cue not read by a rule)."""
    return default if offset is None else offset


def alt(words: list[str] | tuple[str, ...]) -> str:
    """A regex alternation of literal words, longest first (so 'software engineer' beats 'engineer')."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))



def zh_re(words: list[str] | tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(alt(words))
