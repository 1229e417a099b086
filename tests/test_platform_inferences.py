"""What the platform infers (issue 35 item 3): X personalization / age info, Instagram and Facebook
ad interests, topics and "account based in", read into platform_inferences.json beside the posts;
never evidence for the posts' profile; compared attribute by attribute with what the posts reveal."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from core.audit_inferences import FILE, PlatformInference, PlatformInferences, compare, load
from core.bench.importers.exports import import_export
from core.models import PredictedAttribute, Predictions

sys.path.insert(0, str(Path(__file__).parent))
import export_fixtures as fx  # noqa: E402


def test_x_personalization_and_ageinfo(tmp_path: Path) -> None:
    fx.x(tmp_path / "e")
    fx.x_inferences(tmp_path / "e" / "twitter-2026-03-01")
    r = import_export("x", tmp_path / "e", tmp_path / "out")
    doc = json.loads((Path(r.user_dir) / FILE).read_text())
    assert doc["platform"] == "x" and set(doc) == {"platform", "items"}
    got = {(i["attribute"], i["value"], i["source_file"].rsplit("/", 1)[-1]) for i in doc["items"]}
    assert got == {("gender", "female", "personalization.js"), ("interests", "Nursing", "personalization.js"),
                   ("interests", "Public transit", "personalization.js"), ("age", "25-34", "personalization.js"),
                   ("age", "25-34", "ageinfo.js")}                     # a disabled interest is not kept
    assert any("languages English" in n for n in r.summary.notes)
    assert oct((Path(r.user_dir) / FILE).stat().st_mode & 0o777) == "0o600"
    assert PlatformInferences.model_validate(doc) == load(r.user_dir)


@pytest.mark.parametrize("platform", ["instagram", "facebook"])
def test_meta_ad_interests_topics_and_based_in(tmp_path: Path, platform: str) -> None:
    base = (fx.instagram(tmp_path / "e", layout="2025") / "instagram-person_2026" if platform == "instagram"
            else fx.facebook(tmp_path / "e") / "facebook-person")
    fx.meta_inferences(base, platform)
    r = import_export(platform, fx.zip_dir(tmp_path / "e", tmp_path / "x.zip"), tmp_path / "out")
    inf = load(r.user_dir)
    got = {(i.attribute, i.value) for i in inf.items}
    if platform == "instagram":
        assert got == {("interests", "Coffee"), ("interests", "Hiking"), ("interests", "Cafés"),
                       ("home_location", "Paris, Île-de-France")}      # Meta's mojibake repaired
    else:
        assert got == {("interests", "Brunch"), ("interests", "Lyon"), ("home_location", "Lyon, Auvergne-Rhône-Alpes")}
    assert all(i.source_file in r.summary.files_read for i in inf.items)


def test_no_inference_file_when_the_export_has_none(tmp_path: Path) -> None:
    r = import_export("x", fx.x(tmp_path / "e"), tmp_path / "out")
    assert not (Path(r.user_dir) / FILE).exists() and load(r.user_dir) is None


def test_the_model_refuses_an_unknown_attribute() -> None:
    with pytest.raises(ValueError, match="28 attribute keys"):
        PlatformInference(attribute="language", value="English", source_file="data/personalization.js")


def test_compare_one_row_per_attribute_with_a_sentence() -> None:
    inf = PlatformInferences(platform="x", items=[
        PlatformInference(attribute="age", value="25-34", source_file="data/ageinfo.js"),
        PlatformInference(attribute="age", value="25-34", source_file="data/personalization.js"),
        PlatformInference(attribute="gender", value="female", source_file="data/personalization.js"),
        PlatformInference(attribute="interests", value="Nursing", source_file="data/personalization.js"),
        PlatformInference(attribute="interests", value="Cats", source_file="data/personalization.js")])
    prof = Predictions(user_id="u", attributes=[PredictedAttribute(attribute="age", value="31"),
                                                 PredictedAttribute(attribute="hobbies", value="running")])
    rows = {r.attribute: r for r in compare(inf, prof)}
    assert rows["age"].sentence == "X infers you are 25-34; your posts reveal 31."
    assert rows["age"].platform_value == "25-34" and rows["age"].posts_value == "31"
    assert rows["gender"].posts_value is None
    assert rows["gender"].sentence == "X infers you are female; your posts do not reveal it."
    assert rows["interests"].sentence == "X infers you are interested in Nursing, Cats; your posts reveal running."


def test_the_profile_is_identical_with_and_without_the_inference_file(tmp_path: Path) -> None:
    """The engine never reads platform_inferences.json: investigating the user folder with the
    file and a copy without it gives the same profile and the same hypotheses (the fixture's
    Saturday "#monday" commute post is refused for a weekday conclusion since the local-weekday
    rule, so the hypotheses, not only the projected profile, keep the comparison from being empty)."""
    from core.engine.loop import Investigation
    from db.store import open_db

    fx.x(tmp_path / "e")
    fx.x_inferences(tmp_path / "e" / "twitter-2026-03-01")
    r = import_export("x", tmp_path / "e", tmp_path / "out")
    with_file = Path(r.user_dir)
    without = tmp_path / "copy" / with_file.name
    shutil.copytree(with_file, without)
    (without / FILE).unlink()
    assert (with_file / FILE).exists()

    def profile(udir: Path) -> list[tuple]:
        db = open_db(tmp_path / f"{udir.parent.name}.db")
        inv = Investigation.start(db, udir, budget=20, backend="offline", config={"network": False})
        while not inv.finished:
            inv.run(max_steps=1)
        p = inv.profile()
        hyps = sorted((h.attribute, str(h.value), h.status) for h in inv.graph.hypotheses())
        db.conn.close()
        return sorted((a.attribute, a.value, a.confidence) for a in p.attributes) + hyps

    a, b = profile(with_file), profile(without)
    assert a == b and a                    # same profile, and not an empty one
