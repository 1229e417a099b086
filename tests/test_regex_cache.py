"""Large regexes compiled once per interpreter and kept on disk (tools.regex_cache, issue 33's time per
user): the Pattern loaded from the cache is the one re.compile makes (same flags, groups, matches), a
later process loads it instead of parsing the pattern again, a corrupt file is compiled again without an
error, and the occupation taxonomy's phrase alternation is the same pattern in every process (else the
cache would miss on every run)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tools import regex_cache

ROOT = Path(__file__).resolve().parents[1]
PATTERN = r"(?<![\w])(?:new york city|new york|york|kelvin|straße|(?P<year>\d{4}))(?![\w])"
TEXTS = ["Moved from New York City to YORK in 2019", "KELVIN and the Kelvin sign \u212a elvin", "STRASSE straße 1999x"]


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "argus-cache"
    monkeypatch.setenv("ARGUS_CACHE_DIR", str(d))
    return d


def _same(a: re.Pattern[str], b: re.Pattern[str]) -> None:
    assert (a.pattern, a.flags, a.groups, a.groupindex) == (b.pattern, b.flags, b.groups, b.groupindex)
    for t in TEXTS:
        assert [(m.span(), m.groups()) for m in a.finditer(t)] == [(m.span(), m.groups()) for m in b.finditer(t)]


def test_a_cached_pattern_is_the_one_re_compile_makes(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = regex_cache.compile(PATTERN, re.I, name="test-places")
    _same(first, re.compile(PATTERN, re.I))
    assert [p.name.split("-")[:3] for p in cache.glob("*.marshal")] == [["regex", "test", "places"]]
    # a later compile of the same pattern loads the program: the parser is never asked
    from re import _parser

    def refuse(*a: object, **k: object) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(_parser, "parse", refuse)
    loaded = regex_cache.compile(PATTERN, re.I, name="test-places")
    _same(loaded, re.compile(PATTERN, re.I))
    assert loaded is not first


def test_other_flags_are_another_entry_and_a_corrupt_file_is_compiled_again(cache: Path) -> None:
    regex_cache.compile(PATTERN, 0, name="test-places")
    regex_cache.compile(PATTERN, re.I, name="test-places")
    files = sorted(cache.glob("regex-test-places-*.marshal"))
    assert len(files) == 2
    for f in files:
        f.write_bytes(f.read_bytes()[:-7])            # truncated: its checksum fails
    _same(regex_cache.compile(PATTERN, 0, name="test-places"), re.compile(PATTERN))
    _same(regex_cache.compile(PATTERN, re.I, name="test-places"), re.compile(PATTERN, re.I))


def test_the_occupation_phrases_are_one_pattern_in_every_process(tmp_path: Path) -> None:
    """The phrases come from a set: before their ties were put in one order, each process (its own hash
    seed) built another alternation, so the cache key changed on every run."""
    code = ("import hashlib; from core.engine.rules import occupation_taxonomy as o; ix = o.index(); "
            "print(hashlib.sha256((ix.tasks.folded.pattern + ix.tasks.exact.pattern).encode()).hexdigest())")
    digests = {subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                              env={"PYTHONPATH": str(ROOT), "PYTHONHASHSEED": str(seed), "PATH": "/usr/bin:/bin",
                                   "ARGUS_CACHE_DIR": str(tmp_path / "c")}).stdout.strip()
               for seed in (1, 2, 3)}
    assert len(digests) == 1 and all(len(d) == 64 for d in digests)
