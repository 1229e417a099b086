"""Round trip (issue 35): a generated user written out as each platform's export, imported and
investigated, gives the same profile as investigating the user folder cut to what that export holds
(no comments by others, IP region, location tags or avatar; images, nickname / bio and hashtags only
where the platform's export has them). Times go through UTC and back with --tz."""
from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

import pytest

from core.bench.importers.exports import import_export

sys.path.insert(0, str(Path(__file__).parent))
import export_fixtures as fx  # noqa: E402

pytestmark = pytest.mark.slow
BUDGET = 20.0
# what each export holds beyond text and time: images, nickname and bio, hashtags as tags
HOLDS = {"instagram": (True, True, True), "threads": (True, False, False), "facebook": (True, True, False),
         "x": (True, True, True), "mastodon": (True, True, True), "bluesky": (True, True, True),
         "reddit": (False, False, False)}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    from core.bench.generate import generate

    root = tmp_path_factory.mktemp("roundtrip")
    generate(root / "gen", users=1, seed=3, workers=1)
    (udir,) = (root / "gen" / "users").iterdir()
    return {"root": root, "user": udir, "profiles": {}}


def _profile(udir: Path, db_path: Path) -> list[tuple]:
    from core.engine.loop import Investigation
    from db.store import open_db

    db = open_db(db_path)
    inv = Investigation.start(db, udir, budget=BUDGET, backend="offline", config={"network": False})
    while not inv.finished:
        inv.run(max_steps=1)
    out = sorted((a.attribute, a.value, round(a.confidence or 0, 4)) for a in inv.profile().attributes)
    db.conn.close()
    return out


def _zone(udir: Path) -> str:
    """The generated user's UTC offset as an IANA zone (Etc/GMT-8 is UTC+8)."""
    _, posts = fx.user_content(udir)
    off = datetime.fromisoformat(posts[0]["ts"]).utcoffset()
    hours = int(off.total_seconds() // 3600)
    assert hours * 3600 == off.total_seconds()
    return f"Etc/GMT{-hours:+d}" if hours else "UTC"


@pytest.mark.parametrize("platform", sorted(HOLDS))
def test_export_import_investigate_gives_the_user_folders_profile(world, platform: str) -> None:
    root, udir = world["root"], world["user"]
    images, profile, tags = HOLDS[platform]
    _, posts = fx.user_content(udir)
    tags = tags and any(fx.hashtags(p["text"]) for p in posts)
    key = (images, profile, tags)
    if key not in world["profiles"]:                   # the reference: the folder cut to what the export holds
        ref = fx.reduced_user(udir, root / f"ref-{len(world['profiles'])}", images=images, profile=profile, tags=tags)
        world["profiles"][key] = _profile(ref, root / f"ref-{len(world['profiles'])}.db")
    expected = world["profiles"][key]
    src = fx.export_user(udir, platform, root / f"exp-{platform}")
    r = import_export("auto", src, root / f"imp-{platform}", tz=_zone(udir))
    assert r.platform == platform
    assert r.posts == len(posts)
    if images:
        assert r.images == sum(len(p["images"]) for p in posts)
    got = _profile(Path(r.user_dir), root / f"imp-{platform}.db")
    assert expected, "the reference profile is empty: the test would prove nothing"
    assert got == expected
