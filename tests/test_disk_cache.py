"""The disk cache of the built gazetteer index and the rules' fallback place list (tools.disk_cache,
issue 34's time per user): the same lookups with and without it, a key that follows the data
files, and a corrupt, truncated or unusable cache that is rebuilt without an error."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import tools.gazetteer as gazetteer_mod
from core.engine import gazetteer as adapter
from tools import disk_cache
from tools.gazetteer import Gazetteer

TEXTS = [
    "Moved from Springfield to Perth last year, now in Subiaco near Leederville",
    "周末去了上海静安区，然后回北京", "Took the Luas into town, then a flight to München",
    "Reading in Victoria, Cambridge next week; NYC in May",
]


@pytest.fixture(scope="module")
def built() -> Gazetteer:
    return Gazetteer(cache=False)


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "argus-cache"
    monkeypatch.setenv("ARGUS_CACHE_DIR", str(d))
    return d


def _matches(gz: Gazetteer) -> list:
    return [[(m.span, m.start, m.end, m.place.id, [a.id for a in m.alternatives]) for m in gz.find_places(t)]
            for t in TEXTS]


def test_a_cached_gazetteer_gives_the_same_lookups(built: Gazetteer, cache: Path, monkeypatch) -> None:
    first = Gazetteer()                                    # builds and writes the cache
    files = list(cache.glob("gazetteer-*.marshal"))
    assert len(files) == 1 and oct(cache.stat().st_mode & 0o777) == "0o700"
    assert oct(files[0].stat().st_mode & 0o777) == "0o600"

    def no_build(self: Gazetteer) -> None:
        raise AssertionError("built although the cache holds the index")

    monkeypatch.setattr(Gazetteer, "_build", no_build)
    loaded = Gazetteer()                                   # reads it
    assert loaded._state() == built._state() == first._state()
    assert _matches(loaded) == _matches(built)
    assert [p.id for p in loaded.lookup("Perth")] == [p.id for p in built.lookup("Perth")]
    assert loaded.reverse(-31.95, 115.86) == built.reverse(-31.95, 115.86)


def test_a_changed_data_file_changes_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    shutil.copytree(gazetteer_mod.DATA, data)
    monkeypatch.setattr(gazetteer_mod, "DATA", data)
    before = Gazetteer.cache_key()
    assert Gazetteer.cache_key() == before                 # stable
    stop = data / "stopwords.json"
    stop.write_text(stop.read_text(encoding="utf-8").replace('"en": [', '"en": ["Zzyzx", ', 1), encoding="utf-8")
    assert Gazetteer.cache_key() != before
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text("[1]")
    b.write_text("[1]")
    assert disk_cache.key_of("v", [a]) != disk_cache.key_of("v", [a, b]) != disk_cache.key_of("w", [a, b])


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "garbage"])
def test_a_corrupt_cache_file_is_rebuilt(built: Gazetteer, cache: Path, damage: str) -> None:
    Gazetteer()
    (f,) = cache.glob("gazetteer-*.marshal")
    raw = f.read_bytes()
    bad = {"truncate": raw[: len(raw) // 2], "flip": raw[:-10] + bytes([raw[-10] ^ 0xFF]) + raw[-9:],
           "empty": b"", "garbage": b"argus-cache/1\n" + os.urandom(64)}[damage]
    f.write_bytes(bad)
    assert disk_cache.load("gazetteer", Gazetteer.cache_key()) is None
    again = Gazetteer()
    assert again._state() == built._state()
    assert disk_cache.load("gazetteer", Gazetteer.cache_key()) is not None   # written anew


def test_an_unusable_cache_folder_builds_without_error(built: Gazetteer, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("ARGUS_CACHE_DIR", str(blocker / "argus"))      # cannot be created
    assert Gazetteer()._state() == built._state()
    open_dir = tmp_path / "shared"
    open_dir.mkdir()
    open_dir.chmod(0o777)                                             # others could write it: not used
    monkeypatch.setenv("ARGUS_CACHE_DIR", str(open_dir))
    assert not disk_cache.save("x", "k", {"a": 1}) and disk_cache.load("x", "k") is None
    assert Gazetteer()._state() == built._state()
    assert not list(open_dir.iterdir())


def test_the_cache_folder_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARGUS_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert disk_cache.cache_dir() == tmp_path / "argus"
    monkeypatch.setenv("ARGUS_CACHE_DIR", str(tmp_path / "own"))
    assert disk_cache.cache_dir() == tmp_path / "own"


def test_the_cached_fallback_place_list_is_the_built_one(cache: Path) -> None:
    adapter._fallback_index.cache_clear()
    try:
        built = adapter._fallback_index()
        assert list(cache.glob("places-fallback-*.marshal"))
        adapter._fallback_index.cache_clear()
        loaded = adapter._fallback_index()
        assert loaded[2] == built[2] == adapter._fallback_info()
        assert list(loaded[2]) == list(built[2])                     # same order: same regex
        assert (loaded[0].pattern, loaded[1].pattern) == (built[0].pattern, built[1].pattern)
        assert [p.name for p in adapter._fallback_find("Flew from Lagos to 上海 via Ohio")] == ["Lagos", "Ohio", "Shanghai"]
    finally:
        adapter._fallback_index.cache_clear()
