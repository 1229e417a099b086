"""A small generated benchmark end to end: it validates, its truth points at real posts, cross-post
attributes are not given away by any single post, decoys and injections are planted, and the
OCR engine reads the key text that the plan put into images; for both generator styles."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from argus_tui.cli import app
from core.bench.validate import has_errors, validate_bench
from core.loader import load_manifest, load_user
from core.models import Truth
from core.textmatch import contains, normalize

N_USERS = 4


@pytest.fixture(scope="module", params=["a", "b"])
def bench(request, tmp_path_factory) -> Path:
    """Every check below holds for both generator styles (b: other phrasings and document formats)."""
    out = tmp_path_factory.mktemp("gen") / "bench"
    res = CliRunner().invoke(app, ["bench", "generate", str(out), "--users", str(N_USERS), "--seed", "7", "--style", request.param])
    assert res.exit_code == 0, res.output
    return out


def _users(bench: Path):
    for uid in load_manifest(bench).users:
        udir = bench / "users" / uid
        truth = Truth.model_validate(json.loads((udir / "truth.json").read_text(encoding="utf-8")))
        yield uid, load_user(udir, strict=True), truth


def _post_text(post) -> str:
    return "\n".join(t for _, t in post.text_fields())


def _ocr_keys(truth: Truth, post_id: str) -> str:
    return "\n".join(t for k in (truth.model_extra or {}).get("ocr_keys", []) if k["post_id"] == post_id for t in k["texts"])


def test_generated_benchmark_validates(bench):
    problems = validate_bench(bench)
    assert not has_errors(problems), [p.model_dump() for p in problems if p.severity == "error"][:5]
    res = CliRunner().invoke(app, ["bench", "validate", str(bench)])
    assert res.exit_code == 0, res.output


def test_scale_and_shape(bench):
    users = list(_users(bench))
    assert len(users) == N_USERS
    langs = {v.profile.language for _, v, _ in users}
    assert {"zh", "en"} <= {lang.split(",")[0] for lang in langs}  # Chinese and English users from 6 users on
    for uid, view, truth in users:
        assert 8 <= len(view.posts) <= 16
        for post in view.posts:
            assert post.images and 1 <= len(post.images) <= 4
            for ref in post.images:
                path = view.image_path(ref)
                assert path.is_file() and path.stat().st_size > 2000
                assert path.suffix in (".jpg", ".png")
        names = [a.attribute for a in truth.leaked + truth.hidden]
        assert sorted(names) == sorted(set(names)) and len(names) == 28


def test_every_leaked_attribute_has_evidence_in_existing_posts(bench):
    for uid, view, truth in _users(bench):
        posts = {p.post_id: p for p in view.posts}
        for ta in truth.leaked:
            assert ta.evidence, (uid, ta.attribute)
            assert ta.difficulty in (1, 2, 3, 4) and ta.leakage_type
            for ev in ta.evidence:
                assert ev.post_id in posts, (uid, ta.attribute, ev.post_id)
                if ev.modality == "image":
                    assert posts[ev.post_id].images, (uid, ta.attribute, ev.post_id)
            ev_posts = {ev.post_id for ev in ta.evidence}
            if ta.leakage_type == "cross_post":
                assert ta.difficulty == 4 and len(ev_posts) >= 2
            else:
                # single-post: D1 text (and metadata), D2 an image, D3 an image plus text or metadata
                assert ta.difficulty in (1, 2, 3)
                mods = {ev.modality for ev in ta.evidence}
                if ta.difficulty == 1:
                    assert "image" not in mods, (uid, ta.attribute)
                else:
                    assert "image" in mods, (uid, ta.attribute)
                if ta.difficulty == 3:
                    assert mods - {"image"}, (uid, ta.attribute)


def _names(level) -> list[str]:
    return [level.value, *level.aliases]


def test_no_cross_post_attribute_is_fully_stated_in_one_post(bench):
    checked = 0
    for uid, view, truth in _users(bench):
        for ta in truth.leaked:
            if ta.leakage_type != "cross_post":
                continue
            for post in view.posts:
                text = _post_text(post)
                full = text + "\n" + _ocr_keys(truth, post.post_id)
                if ta.kind == "hierarchy":
                    # the finest level never appears in any post's text ...
                    assert not any(contains(text, n) for n in _names(ta.levels[-1])), (uid, ta.attribute, post.post_id)
                    # ... and no single post (text + image key text) names every level
                    assert not all(any(contains(full, n) for n in _names(lv)) for lv in ta.levels), (uid, ta.attribute, post.post_id)
                elif ta.kind == "set":
                    assert not all(any(contains(full, n) for n in [it.value, *it.aliases]) for it in ta.items), (uid, ta.attribute, post.post_id)
                elif ta.kind == "facts":
                    nfull = normalize(full)
                    assert not all(all(any(normalize(k) in nfull for k in grp) for grp in f.keywords) for f in ta.facts), \
                        (uid, ta.attribute, post.post_id)
                checked += 1
    assert checked > 0, "no cross-post attributes generated"


def test_decoys_and_injections_are_planted(bench):
    n_decoys = n_inj = 0
    for uid, view, truth in _users(bench):
        extra = truth.model_extra or {}
        posts = {p.post_id: p for p in view.posts}
        by_attr = {a.attribute: a for a in truth.leaked + truth.hidden}
        for d in extra.get("decoys", []):
            n_decoys += 1
            assert d["post_id"] in posts and d["kind"] in ("friend_birthday", "relative_job", "far_shop", "trip_abroad")
            true = by_attr[d["attribute"]]
            # a decoy value is never the user's own value
            assert normalize(d["value"]) != normalize(true.display_value())
            if true.kind == "hierarchy":
                assert normalize(d["value"]) != normalize(true.levels[-1].value)
            # and it is recorded on the attribute it imitates
            assert any(x["post_id"] == d["post_id"] for x in (true.model_extra or {}).get("decoys", []))
        for inj in extra.get("injections", []):
            n_inj += 1
            post = posts[inj["post_id"]]
            where = _post_text(post) if inj["carrier"] == "caption" else _ocr_keys(truth, post.post_id)
            assert inj["text"] in where
            for claim in inj["claims"]:
                true = by_attr[claim["attribute"]]
                values = [n for lv in true.levels for n in _names(lv)] if true.levels else [true.value or ""]
                assert not any(normalize(claim["value"]) == normalize(v) for v in values), (uid, claim)
    assert n_decoys >= N_USERS      # every user gets at least one decoy
    assert n_inj >= 1


def test_hidden_identifiers_do_not_leak(bench):
    """Values the plan keeps hidden (name, ID numbers, compound, employer) appear in no post or image text."""
    for uid, view, truth in _users(bench):
        everything = "\n".join(_post_text(p) + "\n" + _ocr_keys(truth, p.post_id) for p in view.posts)
        for ta in truth.hidden:
            if ta.attribute == "real_name":
                assert not contains(everything, ta.value or ""), uid
            if ta.attribute == "contact_or_id_number":
                for it in ta.items:
                    assert not contains(everything, it.value), (uid, it.value)
            if ta.attribute == "home_location":
                assert not contains(everything, ta.levels[-1].value), uid
            if ta.attribute == "workplace":
                assert not contains(everything, ta.levels[1].value), uid


@pytest.mark.slow
def test_ocr_reads_the_planned_key_text(bench):
    from core.bench.stats import key_recovered
    from tools.ocr import default_ocr, lines_text

    items = []
    for uid, view, truth in _users(bench):
        for k in (truth.model_extra or {}).get("ocr_keys", []):
            items.append((bench / "users" / uid / k["file"], k["texts"]))
    sample = items[:: max(1, len(items) // 10)][:10]
    assert len(sample) >= 8
    engine = default_ocr()
    checked = recovered = 0
    for path, texts in sample:
        text = lines_text(engine.read(path))
        for key in texts:
            checked += 1
            recovered += key_recovered(key, text)
    assert recovered / checked >= 0.8, (recovered, checked)


def test_stats_command_counts(bench, tmp_path):
    out = tmp_path / "stats.json"
    res = CliRunner().invoke(app, ["bench", "stats", str(bench), "--no-ocr", "--json", str(out)])
    assert res.exit_code == 0, res.output
    st = json.loads(out.read_text(encoding="utf-8"))
    assert st["users"] == N_USERS
    assert sum(st["by_difficulty"].values()) == st["leaked"]
    assert sum(st["by_dimension"].values()) == st["leaked"]
    assert set(st["by_leakage_type"]) <= {"explicit", "implicit", "cross_post"}
    assert st["leaked"] + st["hidden"] == 28 * N_USERS
    assert "D4" in st["by_difficulty"]


def test_generate_refuses_bad_input(tmp_path):
    r = CliRunner().invoke(app, ["bench", "generate", str(tmp_path / "x"), "--users", "0"])
    assert r.exit_code == 2
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine", encoding="utf-8")
    r = CliRunner().invoke(app, ["bench", "generate", str(busy), "--users", "1"])
    assert r.exit_code == 2
    assert (busy / "notes.txt").read_text(encoding="utf-8") == "mine"
    r = CliRunner().invoke(app, ["bench", "stats", str(tmp_path / "nothing")])
    assert r.exit_code == 2


def _exif(path: Path):
    from PIL import Image

    with Image.open(path) as im:
        ex = im.getexif()
        return ex.get_ifd(0x8769).get(0x9003), dict(ex.get_ifd(0x8825))


def test_timestamps_exif_and_ip_labels_agree_with_the_plan(bench):
    from datetime import datetime, timedelta

    for uid, view, truth in _users(bench):
        posts = {p.post_id: p for p in view.posts}
        by_attr = {a.attribute: a for a in truth.leaked}
        ts = {pid: datetime.fromisoformat(p.timestamp) for pid, p in posts.items()}
        assert list(ts.values()) == sorted(ts.values()), "posts are in posting order"
        bd = by_attr.get("birth_date")
        if bd and len(bd.levels) == 3:
            day = datetime.fromisoformat(bd.levels[-1].value)
            for ev in bd.evidence:
                if ev.carrier == "timestamp":
                    assert (ts[ev.post_id].month, ts[ev.post_id].day) == (day.month, day.day), uid
        cm = by_attr.get("commute")
        if cm and cm.leakage_type == "cross_post":
            for ev in cm.evidence:
                t = ts[ev.post_id]
                assert t.weekday() < 5 and 6 <= t.hour <= 9, (uid, ev.post_id, t)
        gps_ok = {ev.post_id for a in ("home_location", "travel_history") if a in by_attr for ev in by_attr[a].evidence}
        for pid, post in posts.items():
            for ref in post.images or []:
                path = view.image_path(ref)
                if path.suffix != ".jpg":
                    continue
                taken, gps = _exif(path)
                if taken:
                    shot = datetime.strptime(taken, "%Y:%m:%d %H:%M:%S")
                    local = ts[pid].replace(tzinfo=None)
                    assert timedelta(0) <= local - shot <= timedelta(hours=2), (uid, pid, taken)
                if gps:
                    assert pid in gps_ok, (uid, pid, "GPS on a photo that no leaked attribute cites")
        home_ip = view.profile.ip_region
        travel = by_attr.get("travel_history")
        trip_posts = {ev.post_id for ev in (travel.evidence if travel else []) if ev.carrier == "ip_region"}
        for pid, post in posts.items():
            if pid in trip_posts:
                assert post.ip_region != home_ip
