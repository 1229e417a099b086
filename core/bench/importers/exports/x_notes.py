"""X's long posts: `tweets.js` keeps only the first 280 characters of a post longer than that
(ending in "…" and a link to the post); the whole text is in `data/note-tweet.js`
(`window.YTD.note_tweet.part0 = [{"noteTweet": {"noteTweetId", "createdAt", "core": {"text",
"urls": [{"shortUrl", "expandedUrl"}], "hashtags", "mentions"}}}]`). The archive does not link a
tweet to its note by id, so a note completes the tweet posted in the same second whose cut text
begins the note's text (both compared without links, spaces and the ellipsis): a tweet is never
given a text that does not start with its own words."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from core.bench.importers.exports.common import Summary, load_json
from core.bench.importers.exports.source import ExportSource

FILES = ("data/note-tweet.js", "data/note-tweet-part*.js")
_LINK = re.compile(r"https?://\S+")
_WS = re.compile(r"\s+")


@dataclass
class Note:
    note_id: str
    second: int | None
    text: str
    used: bool = False


@dataclass
class Notes:
    by_second: dict[int, list[Note]] = field(default_factory=dict)
    by_id: dict[str, Note] = field(default_factory=dict)
    all: list[Note] = field(default_factory=list)


def _plain(text: str) -> str:
    return _WS.sub(" ", _LINK.sub(" ", text)).strip().rstrip("…").rstrip(".").strip()


def _expand(core: dict[str, Any]) -> str:
    text = str(core.get("text") or "")
    for u in core.get("urls") or []:
        if isinstance(u, dict) and u.get("shortUrl") and u.get("expandedUrl"):
            text = text.replace(str(u["shortUrl"]), str(u["expandedUrl"]))
    return text


def load(src: ExportSource, summary: Summary) -> Notes:
    notes = Notes()
    names: list[str] = []
    for pat in FILES:
        names += [m for m in src.glob(pat) if m not in names]
    for name in names:
        data = load_json(src, name, prefix_js=True)
        for item in data if isinstance(data, list) else []:
            nt = item.get("noteTweet") if isinstance(item, dict) else None
            core = nt.get("core") if isinstance(nt, dict) else None
            if not isinstance(core, dict) or not core.get("text"):
                summary.skip("long-post texts (note-tweet.js)", "no text")
                continue
            try:
                second = int(datetime.fromisoformat(str(nt.get("createdAt")).replace("Z", "+00:00")).timestamp())
            except ValueError:
                second = None
            n = Note(str(nt.get("noteTweetId") or ""), second, _expand(core))
            notes.all.append(n)
            if n.note_id:
                notes.by_id[n.note_id] = n
            if second is not None:
                notes.by_second.setdefault(second, []).append(n)
    return notes


def _linked_id(tweet: dict[str, Any]) -> str | None:
    """A note id the tweet names itself (`note_tweet` as an id or {note_tweet_id}), where it does."""
    nt = tweet.get("note_tweet")
    if isinstance(nt, str | int):
        return str(nt)
    if isinstance(nt, dict):
        v = nt.get("note_tweet_id") or nt.get("noteTweetId")
        return str(v) if v else None
    return None


def complete(notes: Notes, created: str | None, text: str, tweet: dict[str, Any] | None = None) -> str | None:
    """The whole text of the long post whose cut form is `text` (posted at ISO time `created`), or None."""
    if not notes.all:
        return None
    head = _plain(text)
    linked = notes.by_id.get(_linked_id(tweet or {}) or "")
    if linked is not None and not linked.used and _plain(linked.text).startswith(head):
        linked.used = True
        return linked.text
    if not created or len(head) < 10:        # too little to be sure which note it is
        return None
    second = int(datetime.fromisoformat(created).timestamp())
    for n in notes.by_second.get(second, []):
        if not n.used and _plain(n.text).startswith(head):
            n.used = True
            return n.text
    return None


def unused(notes: Notes, summary: Summary) -> None:
    left = sum(1 for n in notes.all if not n.used)
    if left:
        summary.skip("long-post texts (note-tweet.js)", "no tweet in tweets.js that they complete (deleted, "
                     "or its text does not begin the note)", left)
