"""One Document per text (issue 33): a caption, title, comment, alt text, OCR block or fetched page
is read once per run, and every reader (the rule extractors, the mention reader, the semantic
layer's sentence picker, the entity holders, the text features, the form reader) reads the same
object instead of re-masking and re-reading the text.

A Document is the text's reading (reading/holder.TextReading: the original, its hostile-masked copy,
clause bounds, quotations, holders, stance, negation, the language packs it is written in) plus what
the extractors look up: its sentences, its words (tokens, hashtags split CamelCase), lexicon hits and
the places in it (filled by rules/base.Ctx, whose place gate is still a word list of the rules).

The hostile mask itself is the rules' (rules/hostile.hostile_mask: this floor may not import it), so
a Document is built from (text, masked) by rules/documents.document(), which masks once and keeps
the Documents in a bounded cache here (DocumentCache) keyed by content: (text, carrier, by_other, lang).
Everything a Document computes is a pure function of that key, so sharing one object is safe.
"""
from __future__ import annotations

import re
from collections import OrderedDict
from typing import Any, Generic, Hashable, TypeVar

from core.engine.reading.holder import TextReading
from core.engine.reading.language_id import identify
from core.engine.reading.lang import sentence_packs
from core.engine.reading.sentences import sentence_spans

# how many Documents have been built in this process (the test counts one per text per skim), and
# how many fragment readings: a piece of a text read on its own (the semantic anchors read one sentence,
# pastime words blanked, as a text of its own: reading it inside its Document would change its clauses)
BUILT = 0
FRAGMENTS = 0

_WORD = re.compile(r"[^\W_](?:[\w&+']*[^\W_])?")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|[^\W\d_a-zA-Z]+")
_HASHTAG = re.compile(r"#(\w+)")
_GAP = re.compile(r"[\s\-./]{1,3}")


class Document(TextReading):
    """One text as every reader reads it (see the module docstring). `hostile_masked` is the text
    with hostile ranges blanked as rules/hostile.hostile_mask made it (before the traditional-kin
    folding TextReading applies to `masked`): a reader of the unmasked text reuses this Document
    only when the two are equal (rules/documents.reading)."""

    __slots__ = ("hostile_masked", "_sentences", "_languages", "_tokens", "_places", "_token_keys", "_impersonal")

    def __init__(self, text: str, masked: str, *, carrier: str | None, lang: str | None, by_other: bool = False,
                 fragment: bool = False):
        global BUILT, FRAGMENTS
        if fragment:
            FRAGMENTS += 1
        else:
            BUILT += 1
        TextReading.__init__(self, text, masked, carrier=carrier, lang=lang, by_other=by_other)
        self.hostile_masked = masked
        self._sentences: list[tuple[int, int]] | None = None
        self._languages: list[tuple[int, int, str, float]] | None = None
        self._tokens: list[tuple[int, int, str]] | None = None
        self._token_keys: frozenset[str] | None = None     # each token, less -s and -es (lexicon_hits' first look)
        self._places: list | None = None       # the gazetteer's places (rules/base.Ctx.places fills it)
        self._impersonal: bool | None = None   # no first-person word anywhere (rules/base.Ctx._general reads it once)
        # the language packs: where the pack-word rule found one, each sentence's identified language
        # decides where it is confident (reading/lang.sentence_packs: a confident English sentence takes
        # no pack from two loan words). Not asked of the texts the word rule finds no pack in: that would
        # put every English sentence through the model, for no changed prediction on any set
        if self.packs:
            self.packs = sentence_packs(self.masked, self.languages())

    def sentences(self) -> list[tuple[int, int]]:
        """(start, end) of each sentence of the masked text with its closing punctuation (reading/sentences.py)."""
        if self._sentences is None:
            self._sentences = sentence_spans(self.masked)
        return self._sentences

    def languages(self) -> list[tuple[int, int, str, float]]:
        """(start, end, language code, confidence) of each sentence (reading/language_id.py: py3langid,
        read on first use); code "" and confidence 0 for a sentence too short to tell."""
        if self._languages is None:
            self._languages = [(s, e, *identify(self.masked[s:e])) for s, e in self.sentences()]
        return self._languages

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

    def lexicon_hits(self, lex: Any) -> list[tuple[int, int, str]]:
        """Whole-word matches of a rules.base.Lexicon's Latin terms (longest first, plural -s/-es too)
        and substring matches of its CJK terms: (start, end, term as listed)."""
        out: list[tuple[int, int, str]] = []
        toks = self.tokens()
        if self._token_keys is None:
            self._token_keys = frozenset(k for t in toks for k in (t[2], t[2][:-1], t[2][:-2]))
        i = 0
        # no token starts a term: the loop below would step over every token (a text is asked of ~10
        # lexicons, most of which it shares no word with)
        n_tok = len(toks) if not lex.first.isdisjoint(self._token_keys) else 0
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


# The fields of a Document a recognizer declares it reads (its data file's `reads`), and the attributes of
# a Document (rules.base.Ctx included) that belong to each: rules/registry.DocumentView refuses a recognizer
# an attribute of a field it did not declare. "lines", "entities" and "embedding" are cut from the text by
# the recognizer itself (no attribute of their own: such a recognizer declares the text it reads too).
FIELDS: dict[str, tuple[str, ...]] = {
    "text": ("text",),
    "masked": ("masked", "lower", "hostile_masked"),
    "clauses": ("clause_start", "clause_end", "prefix", "sentence", "phrase"),
    "sentences": ("sentences",),
    "lang": ("lang", "has_cjk", "packs", "languages"),
    "carrier": ("carrier",),
    "by_other": ("by_other",),
    "holder": ("holder", "first_person", "is_self", "speaker", "quotes", "repost"),
    "stance": ("stance",),
    "negation": ("negated",),
    "tokens": ("tokens",),
    "hashtags": ("hashtags",),
    "lexicon": ("lexicon_hits",),
    "places": ("places",),
    "lines": (), "entities": (), "embedding": (),
}
FIELD_OF: dict[str, str] = {a: f for f, attrs in FIELDS.items() for a in attrs}


D = TypeVar("D", bound=Document)


class DocumentCache(Generic[D]):
    """A bounded cache of Documents by content (least recently used out first): a long run reads
    each text once without keeping every text of every account it has read."""

    def __init__(self, size: int = 4096):
        self.size = size
        self._docs: OrderedDict[Hashable, D] = OrderedDict()

    def get(self, key: Hashable) -> D | None:
        doc = self._docs.get(key)
        if doc is not None:
            self._docs.move_to_end(key)
        return doc

    def put(self, key: Hashable, doc: D) -> D:
        self._docs[key] = doc
        if len(self._docs) > self.size:
            self._docs.popitem(last=False)
        return doc

    def clear(self) -> None:
        self._docs.clear()

    def __len__(self) -> int:
        return len(self._docs)
