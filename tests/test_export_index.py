"""The export's member index (issue 36): find() and glob() answer exactly as a scan of every
name with PurePosixPath.match does, on many names and patterns (wildcards, classes, depths,
names shorter than the pattern), and an answer cannot be changed by its caller."""
from __future__ import annotations

import random
from pathlib import PurePosixPath

from core.bench.importers.exports.source import DEFAULT_LIMITS, ExportSource

PARTS = ["data", "content", "media", "posts", "your_instagram_activity", "a", "b.json", "posts_1.json",
         "posts_2.json", "tweets.js", "tweets-part1.js", "tweet.js", "Posts_1.json", "x y", "é", "[1]", "a*b",
         "message_1.json", "inbox", "t", "1003-Abc.jpg", "outbox.json", ".hidden"]
PATTERNS = ["posts_*.json", "content/posts_*.json", "your_instagram_activity/content/posts_*.json", "*/*",
            "media/posts/*/*", "data/tweets-part*.js", "data/tweet?.js", "*.json", "[ab]", "[!a]*", "*",
            "inbox/*/message_*.json", "x y", "*/*/*/*", "a*b", "[[]1]", "é", "*.JSON", "?", "data/*/*-*.jpg"]


def _naive_glob(names: list[str], pattern: str) -> list[str]:
    depth = pattern.count("/") + 1
    return [n for n in names if PurePosixPath("/".join(n.split("/")[-depth:])).match(pattern)]


def _naive_find(names: list[str], *suffixes: str) -> list[str]:
    out: list[str] = []
    for s in suffixes:
        s = s.strip("/")
        for n in names:
            if (n == s or n.endswith("/" + s)) and n not in out:
                out.append(n)
    return out


def _naive_resolve(names: list[str], uri: str) -> str | None:
    if uri in names:
        return uri
    suffixes: dict[str, str] = {}
    for n in names:
        ps = n.split("/")
        for k in range(len(ps)):
            suffixes.setdefault("/".join(ps[k:]), n)
    parts = [p for p in uri.split("/") if p]
    return next((suffixes["/".join(parts[k:])] for k in range(len(parts)) if "/".join(parts[k:]) in suffixes), None)


def test_index_answers_as_a_scan_of_every_name() -> None:
    rng = random.Random(36)
    names = sorted({"/".join(rng.choice(PARTS) for _ in range(rng.randint(1, 6))) for _ in range(4000)})
    src = ExportSource(PurePosixPath("/nowhere"), "folder", {n: 1 for n in names}, DEFAULT_LIMITS)
    for _ in range(2):                               # the second round answers from the index
        for pat in PATTERNS:
            assert src.glob(pat) == _naive_glob(names, pat), pat
        for suffixes in (("posts_1.json",), ("content/posts_1.json", "posts_1.json"), ("tweets.js", "/data/tweets.js"),
                         ("nothing.here",), ("a",), ("x y/é",)):
            assert src.find(*suffixes) == _naive_find(names, *suffixes), suffixes
    assert any(src.glob(p) for p in PATTERNS) and any(not src.glob(p) for p in PATTERNS)
    uris = [n for n in names[::40]] + ["/".join(n.split("/")[1:]) for n in names[::37]] + \
           ["elsewhere/" + n.rsplit("/", 1)[-1] for n in names[::53]] + ["zz/nothing.jpg", "posts_1.json"]
    for uri in uris:
        assert src.resolve(uri) == _naive_resolve(names, uri), uri


def test_an_answer_cannot_be_changed_by_its_caller() -> None:
    names = ["e/content/posts_1.json", "e/content/posts_2.json"]
    src = ExportSource(PurePosixPath("/nowhere"), "folder", {n: 1 for n in names}, DEFAULT_LIMITS)
    src.glob("content/posts_*.json").append("forged")
    assert src.glob("content/posts_*.json") == names


class _CountingNames(list):
    """The member list, counting how often something walks it."""

    walks = 0

    def __iter__(self):
        _CountingNames.walks += 1
        return super().__iter__()


def test_names_are_walked_once_per_index_not_per_lookup() -> None:
    """Every platform's detect() and reader make their lookups: the names are walked to build
    the index (once for find, once per pattern depth for glob), never once per lookup."""
    from core.bench.importers.exports import detect

    names = [f"e/your_instagram_activity/messages/inbox/t{i}/message_1.json" for i in range(500)] + \
            ["e/your_instagram_activity/content/posts_1.json", "e/media/posts/202603/a.jpg"]
    src = ExportSource(PurePosixPath("/nowhere"), "folder", {n: 1 for n in names}, DEFAULT_LIMITS)
    src.names = _CountingNames(sorted(names))
    _CountingNames.walks = 0
    for _ in range(20):
        src.glob("your_instagram_activity/messages/inbox/*/message_*.json")
        src.glob("messages/inbox/*/message_*.json")
        src.glob("content/posts_*.json")
        src.find("content/posts_1.json", "personal_information.json")
    assert _CountingNames.walks <= 4, _CountingNames.walks      # depths 5, 4, 2 and the file-name index
    before = _CountingNames.walks
    detect(src)
    detect(src)
    assert _CountingNames.walks - before <= 6, _CountingNames.walks - before    # bluesky lists .car files itself
