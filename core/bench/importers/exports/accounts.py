"""One person per import: the accounts an export holds, found by each platform's main file
(where its posts are), so a zip or folder holding two people's exports is refused naming both
instead of being read as one account; `--account NAME` picks one of them."""
from __future__ import annotations

import posixpath
from dataclasses import dataclass

from core.bench.importers.exports.meta_layouts import FACEBOOK, INSTAGRAM
from core.bench.importers.exports.source import ExportSource
from core.errors import InputError

# platform -> the files that make an account's export, relative to its top folder (a platform
# module added later can name its own as ACCOUNT_MARKERS). A member is
# matched by the deepest pattern that fits, so the older layout's shorter path does not make a
# second account inside the current layout.
# Instagram and Facebook: the posts files of every layout meta_layouts.py knows (not the loose
# top-level posts.json of the folder layout, which other tools' files share); Threads posts beside
# an Instagram account are that account's (the Instagram importer reads them).
MARKERS: dict[str, tuple[str, ...]] = {
    "instagram": tuple(p for lay in INSTAGRAM if not lay.top_only for p in lay.posts),
    "facebook": tuple(p for lay in FACEBOOK if not lay.top_only for p in lay.posts),
    "x": ("data/tweets.js", "data/tweet.js", "data/tweets-part*.js", "data/tweet-part*.js"),
    "reddit": ("posts.csv", "comments.csv"),
    "mastodon": ("outbox.json",),
    "bluesky": ("*.car",),
}
TOP = "."          # how the export's own top level is named


@dataclass(frozen=True)
class Found:
    platform: str
    root: str          # folder of the account's export inside SRC ("" = top level); a CAR: the file
    label: str         # what --account takes and errors show

    def owns(self, name: str) -> bool:
        if self.platform == "bluesky":
            folder = posixpath.dirname(self.root)
            return (not folder or name.startswith(folder + "/")) and (not name.endswith(".car") or name == self.root)
        return not self.root or name.startswith(self.root + "/")


def found_accounts(src: ExportSource, declared: dict[str, tuple[str, ...]]) -> list[Found]:
    """Every (platform, top folder) whose marker files the export holds, in path order; `declared`:
    the platform modules' own ACCOUNT_MARKERS (the package passes them: it sits above this module)."""
    seen: dict[tuple[str, str], Found] = {}
    markers = {n: MARKERS.get(n) or tuple(pats) for n, pats in declared.items()}
    for platform, patterns in markers.items():
        hits: dict[str, int] = {}                       # member -> depth of the deepest pattern it fits
        for pat in patterns:
            depth = pat.count("/") + 1
            for n in src.glob(pat):
                hits[n] = max(hits.get(n, 0), depth)
        for n, depth in hits.items():
            parts = n.split("/")
            root = n if platform == "bluesky" else "/".join(parts[:-depth])
            label = root or TOP
            seen.setdefault((platform, root), Found(platform, root, label))
    return sorted(seen.values(), key=lambda f: (f.root, f.platform))


def one_account(src: ExportSource, account: str | None, titles: dict[str, str],
                declared: dict[str, tuple[str, ...]]) -> ExportSource:
    """SRC itself when it holds one account's export, else the part of it that is `account`;
    InputError naming every account found when there are several and none (or no match) is
    chosen. Files under another account's folder are never read."""
    found = found_accounts(src, declared)
    if account is None:
        if len(found) <= 1:
            return src
        names = ", ".join(f"{f.label!r} ({titles.get(f.platform, f.platform)})" for f in found)
        raise InputError(src.path, f"holds the exports of {len(found)} accounts: {names}; an audit is of one "
                                   "person: pick one with --account NAME")
    want = account.strip().strip("/") or TOP
    pick = [f for f in found if want in (f.label, posixpath.basename(f.label))]
    if len(pick) != 1:
        names = ", ".join(repr(f.label) for f in found) or "none"
        why = "matches several" if pick else "matches none"
        raise InputError("--account", f"{account!r} {why} of the accounts in {src.path} ({names})")
    chosen = pick[0]
    deeper = [f for f in found if f is not chosen and f.platform != "bluesky" and chosen.owns(f.root + "/x")
              and f.root != chosen.root]
    keep = [n for n in src.names if chosen.owns(n) and not any(f.owns(n) for f in deeper)
            and not any(f.platform == "bluesky" and f is not chosen and n == f.root for f in found)]
    return src.subset(keep)
