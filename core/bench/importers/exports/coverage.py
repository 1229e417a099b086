"""Which files of an export were read and which were not, and why not: so an import never reads
zero posts without a word, and a person sees what of their download Argus left aside."""
from __future__ import annotations

import fnmatch
from pathlib import PurePosixPath

from core.bench.importers.exports.common import HEIC_EXT, IMAGE_EXT, VIDEO_EXT, Summary
from core.bench.importers.exports.source import ExportSource

# (pattern on the member's path, lower case; why it is not read), first match wins
WHY_NOT = (
    ("*messages/*", "not public: private messages"),
    ("*direct-message*", "not public: private messages"),
    ("*message_*.json", "not public: private messages"),
    ("*archived_posts*", "not public: archived posts"),
    ("*recently_deleted*", "not public: recently deleted posts"),
    ("*login*", "not public: logins, sessions and IP addresses"),
    ("*ip_address*", "not public: logins, sessions and IP addresses"),
    ("*account-creation-ip*", "not public: logins, sessions and IP addresses"),
    ("*security*", "not public: logins, sessions and IP addresses"),
    ("*like*", "not the account's own words: likes"),
    ("*follow*", "not the account's own words: followers and follows"),
    ("*block*", "not the account's own words: blocks and mutes"),
    ("*mute*", "not the account's own words: blocks and mutes"),
    ("*search*", "not public: searches"),
    ("*ads_information/*", "not public: ads and advertisers"),
    ("*/ad-*", "not public: ads and advertisers"),
    ("*/ads_*", "not public: ads and advertisers"),
    ("*.html", "HTML pages (Argus reads the JSON export)"),
)


def why_not(name: str) -> str:
    low = name.lower()
    if PurePosixPath(low).suffix in IMAGE_EXT | HEIC_EXT | VIDEO_EXT:
        return "media that no imported post names"
    for pat, why in WHY_NOT:
        if fnmatch.fnmatch(low, pat):
            return why
    return "not a file Argus reads (only posts, comments, the profile and the platform's inferences)"


class Tracker:
    """Records every member an importer reads (wraps ExportSource.read for one import)."""

    def __init__(self, src: ExportSource):
        self.src = src
        self.names: list[str] = []
        self._read = src.read

        def read(name: str, **kw):
            if name not in self.names:
                self.names.append(name)
            return self._read(name, **kw)

        src.read = read  # type: ignore[method-assign]

    def close(self, summary: Summary) -> None:
        self.src.read = self._read  # type: ignore[method-assign]
        summary.files_read = list(self.names)
        seen = set(self.names)
        summary.files_skipped = {n: why_not(n) for n in self.src.names if n not in seen}
