"""Shared machinery of the offline rules: the per-text context, clause bounds, subject
(first person or someone else) and negation checks, and the Cue builder.

Extractors run on a *masked* copy of the text (hostile spans blanked with spaces of equal
length) so offsets stay valid and every span is cut from the original text: a cue's span is
always an exact substring of the input (the verifier checks grounding).
"""
from __future__ import annotations

import bisect
import re
from typing import Any, Callable

from core.engine.types import Cue

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# a sentence with its closing punctuation (the unit the semantic layers embed and compare): the one splitter
from core.engine.reading.sentences import SENTENCE  # noqa: E402,F401
_PHRASE_STOP = set(",，、;；.。!！?？\n()（）[]【】")
_CLAUSE_END = re.compile(r"[.!?;\n。！？；…]+|\s[-–—]\s|,\s*(?:but|and|while|whereas)\s|，(?:但|可是|而)")

# the subject lexicons and the holder of a clause: the reading layer (core/engine/reading/holder.py)
from core.engine.reading.holder import REPOST, SELF, SELF_START as _SELF_START, Holder, holder_before, quotations  # noqa: E402
from core.engine.reading.kin import fold_zh  # noqa: E402

_NEG_EN = re.compile(
    r"\b(?:not(?!\s+me\b)|never|no|isn't|aren't|wasn't|weren't|don't|doesn't|didn't|won't|nor|no\s+longer|"
    r"wish\s+i\s+(?:was|were|had)|if\s+i\s+(?:was|were)|want(?:s|ed)?\s+to\s+be(?:come)?|dream(?:s|ed)?\s+of|"
    r"pretend(?:ing)?|hypothetically|imagine)\b[^.!?\n]{0,25}$",
    re.I,
)
_NEG_ZH = re.compile(r"(?:(?<!没关)(?:不是|不算|没有|并非|从来不|从没|并不|没|不|非)(?:太|怎么|再|一个|一名)?(?:是|在|做|当|有|会|打算|想|算)?"
                     r"|(?:假如|如果|要是|想当|想成为|梦想(?:是|成为)?)[^。！？\n]{0,4})$")


# sentence stance (Ctx.stance): questions, quoted / reported speech, hypotheticals, negation
_QUESTION = re.compile(r"[?？]\s*[\"'”)）]*\s*$|(?:吗|呢)\s*[。！!]*$")
_QUOTE = re.compile(
    r"\b(?:according\s+to|reportedly|(?:the\s+)?(?:article|report|news|study|survey|headline|story)\s+(?:says|said|claims|found|shows)|"
    r"(?:he|she|they|someone|people)\s+(?:said|says|told\s+me|keeps?\s+saying)|quote[sd]?)\b|据报道|新闻说|报道称|据说|听说|网上说", re.I)
_QUOTE_WRAP = re.compile(r"^\s*(?:>|[\"“«「『][^\"”»」』]{8,}[\"”»」』]\s*$)")
_HYPO = re.compile(
    r"\b(?:if\s+i\s+(?:was|were|had|could|ever)|i\s+wish\s+i|imagine\s+(?:being|if)|hypothetically|"
    r"i'?d\s+(?:love|like)\s+to\s+be(?:come)?|i\s+want\s+to\s+be(?:come)?|dream(?:s|ed)?\s+of\s+(?:being|becoming)|"
    r"someday\s+i'?ll|one\s+day\s+i'?ll|would\s+(?:be|have\s+been)\s+(?:a|an)\b|pretend(?:ing)?\s+to\s+be)\b"
    r"|如果我|假如我|要是我|我想当|我想成为|梦想(?:是|成为)|假设", re.I)
_NEG_SENT = re.compile(
    r"\b(?:i'?m|i\s+am|i\s+was|i'?ve|i\s+have)\s+(?:not(?!\s+(?:sure|gonna|going|too|that|really|quite))|never|no\s+longer)\b|\bi\s+(?:don'?t|didn'?t|never)\s+(?:have|had|work|worked|study|studied|go|went|own)\b|"
    r"\bnot\s+(?:a|an|my)\s+\w+\s*(?:myself)?$|\bnever\s+been\b|\bno\s+longer\b"
    r"|我(?:不是|没有|并不是|从没|从来没|不再|没)"
    # Chinese drops the subject: a sentence that opens with "never did X" / "am not" is the poster's
    r"|^(?:没有?|从没有?|从来没有?)[\u4e00-\u9fff]{1,2}过|^(?:不是|并不是|并非|不再)", re.I)


_PLACE_GATE = re.compile(
    r"\b(?:live[sd]?|living|moved?|moving|relocat\w*|based|home|hometown|here\s+in|from|born|raised|grew\s+up|local|resident|"
    r"neighbou?rhood|apartment|flat|house|visit\w*|trip|travel\w*|vacation\w*|holiday|flew|fly|flying|landed|arrived|been\s+to|went\s+to|"
    r"back|days\s+in|weeks?\s+in|weekend\s+in|spent|honeymoon|explor\w*|road\s+trip|backpack\w*|memories|greetings|hello|wander\w*|"
    r"sightseeing|inspired|reminisc\w*|longing|work\w*|office|job|commut\w*|teach|company|firm|hospital|clinic|school|college|"
    r"university|campus|uni|citizen|immigra\w*|expat|passport|country|city|town|anyone|fellow|locals?|here|run|own|shop|store|"
    r"bakery|restaurant|caf[eé]|business|studio|student|studying|study|address|addr)\b",
    re.I,
)


class Ctx:
    """One text being read: original + masked copies, language, carrier, clause bounds."""

    __slots__ = ("text", "masked", "lower", "carrier", "lang", "_bounds", "has_cjk", "_places", "_tokens", "_quotes",
                 "repost", "by_other")

    def __init__(self, text: str, masked: str, *, carrier: str | None, lang: str | None, by_other: bool = False):
        self.text = text
        self.has_cjk = bool(CJK.search(text))
        # traditional kin / age / status characters read as simplified (same length: offsets hold)
        self.masked = fold_zh(masked) if self.has_cjk else masked
        self.lower = self.masked.lower()
        self.carrier = carrier
        self.by_other = by_other     # a comment by someone else: "you" is the account's person
        self.lang = lang or ("zh" if self.has_cjk else "en")
        self._bounds: list[int] | None = None
        self._places: list | None = None
        self._tokens: list[tuple[int, int, str]] | None = None
        self._quotes: list[tuple[int, int, Holder]] | None = None
        self.repost = bool(REPOST.match(masked))   # a reposted text: someone else's words throughout

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
            from core.engine.rules.places import find_places

            # Latin-only text without any place-related wording needs no gazetteer scan (the
            # costliest step); every place-using extractor requires one of these words nearby
            if not self.has_cjk and not _PLACE_GATE.search(self.masked):
                self._places = []
            else:
                self._places = find_places(self.masked)
        return self._places

    # ---- clauses ----
    def _clause_starts(self) -> list[int]:
        if self._bounds is None:
            self._bounds = [0] + [m.end() for m in _CLAUSE_END.finditer(self.masked)]
        return self._bounds

    def clause_start(self, pos: int) -> int:
        starts = self._clause_starts()
        return starts[bisect.bisect_right(starts, pos) - 1]

    def clause_end(self, pos: int) -> int:
        starts = self._clause_starts()
        i = bisect.bisect_right(starts, pos)
        return starts[i] if i < len(starts) else len(self.masked)

    def prefix(self, pos: int) -> str:
        return self.masked[self.clause_start(pos):pos]

    def sentence(self, pos: int) -> tuple[int, int]:
        return self.clause_start(pos), self.clause_end(pos)

    def phrase(self, start: int, end: int) -> tuple[int, int]:
        """The comma-delimited piece of text holding [start, end) (for short facts values)."""
        s = start
        while s > 0 and self.masked[s - 1] not in _PHRASE_STOP:
            s -= 1
        e = end
        while e < len(self.masked) and self.masked[e] not in _PHRASE_STOP:
            e += 1
        while s < e and self.masked[s].isspace():
            s += 1
        while e > s and self.masked[e - 1].isspace():
            e -= 1
        return s, e

    # ---- subject / negation ----
    def holder(self, pos: int) -> Holder:
        """Whose fact the text at `pos` is: inside a quotation, the quoted person's; otherwise the
        subject of its clause (reading.holder: the nearest subject before `pos` wins)."""
        for a, b, h in self.quotes():
            if a <= pos < b:
                return h
        return holder_before(self.masked, self.clause_start(pos), pos)

    def quotes(self) -> list[tuple[int, int, Holder]]:
        if self._quotes is None:
            self._quotes = quotations(self.masked)
        return self._quotes

    def first_person(self, pos: int) -> bool:
        """False when the nearest subject before `pos` in its clause is someone else."""
        return holder_before(self.masked, self.clause_start(pos), pos).is_self

    def is_self(self, pos: int) -> bool:
        """The text at pos opens with I / 我, or its clause has no other subject before it."""
        return bool(_SELF_START.match(self.masked, pos)) or self.first_person(pos)

    def negated(self, pos: int) -> bool:
        pre = self.prefix(pos)[-40:]
        return bool(_NEG_EN.search(pre) or _NEG_ZH.search(pre))

    def stance(self, start: int, end: int) -> str:
        """How the sentence [start, end) speaks: "question", "quote" (quoted or reported
        speech, news), "hypothetical" (if / wish / would), "negated" (I'm not / never ...),
        "other" (its subject is someone else: my sister the paediatrician, a friend's 25th
        birthday) or "self". Shared by the rules (cue data["stance"]) and the semantic cues."""
        s = self.masked[start:end]
        st = s.strip()
        if not st:
            return "other"
        if _QUESTION.search(st):
            return "question"
        if self.repost or 5 * sum(max(0, min(b, end) - max(a, start)) for a, b, _ in self.quotes()) >= 2 * len(st):
            return "quote"        # reposted, or mostly a quotation ('"I'm a nurse ..." - my sister')
        if _QUOTE.search(st) or _QUOTE_WRAP.match(st):
            return "quote"
        if _HYPO.search(st):
            return "hypothetical"
        if _NEG_SENT.search(st):
            return "negated"
        # the subject of the sentence's first clause (the main clause) decides
        first_end = min(self.clause_end(start), end)
        if not self.first_person(max(start, first_end - 1)) and not _SELF_START.match(st):
            return "other"
        return "self"

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
        sa, sb = self.sentence(start)
        st = self.stance(sa, sb)
        quoted = next((h for a, b, h in self.quotes() if a <= start < b), None)
        if quoted is not None or self.repost:
            st = "quote"          # someone else's words inside this text (a quotation, a repost)
        elif st == "quote" and not (_QUOTE.search(self.masked, sa, sb) or _QUOTE_WRAP.match(self.masked[sa:sb].strip())):
            st = "self"           # the sentence quotes someone, but this cue is outside the quotation ("my uncle says")
        if st in ("quote", "hypothetical"):
            d["stance"] = st      # the hypothesizer drops these (shared with the semantic cues)
        if first_person is None and _SELF_START.match(self.masked, start):
            first_person = True   # the span itself opens with I / 我
        h = quoted or (self.holder(start) if first_person is None else (SELF if first_person else None))
        if h is None:             # the rule says someone else's; the clause names whom, if it can
            h = self.holder(start)
            h = h if not h.is_self else Holder("other", "someone", rule=rule)
        fp = h.is_self if first_person is None or quoted is not None else first_person
        return Cue(attribute=attribute, value=value, level=level, confidence=round(confidence, 3),
                   span=span, cue=rule, first_person=fp, holder=h.label, data=d)


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
