"""Importers: PRISM (on the shared data set, or a slice of it) and SynthPAI (on a fixture in its layout)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from argus_tui.cli import app
from core.bench.importers.prism import import_prism
from core.bench.importers.synthpai import import_synthpai
from core.bench.validate import has_errors, validate_bench
from core.errors import InputError
from core.eval.truth import load_truth
from core.loader import load_user
from shared_data import shared_dir

runner = CliRunner()
PRISM = shared_dir() / "datasets/prism"

# Two persons written in the PRISM layout (labels chosen to exercise each mapping).
PRISM_POSTS = {
    "person-001": {"posts": {"post1": "Chess night again! Diabetes won't stop me. Memories of Japan and Mexico.",
                             "post2": "Fixed an old engine today #MechanicLife", "post3": "Quiet evening."},
                   "topics": {"Diabetes Management": ["Blood sugar"]}, "img_urls": ["./images/1.jpg"]},
    "person-002": {"posts": {"post1": "Salaam from Mumbai; Ramadan prep with the family.",
                             "post2": ""}, "topics": {}, "img_urls": []},
    "person-003": {"posts": {"post1": "labels are missing for me"}},
}
PRISM_TARGET = {
    "person-001": {"age": 73, "education": "PhD", "sex": "male", "occupation": "mechanic", "income": "130000-180000",
                   "relationship state": "divorced",
                   "location": {"place of birth": "China", "travel history": ["Mexico", "Canada", "Japan"]},
                   "appearance": {"height": "154 cm", "weight": "51 kg", "hair color": "white", "eye color": "brown"},
                   "shopping habits": "buys in bulk, shops seasonally", "hobbies": ["gaming", "reading", "chess"],
                   "health status": "has diabetes", "religious belief": "Judaism"},
    "person-002": {"age": "unknown", "education": "master's degree", "sex": "female", "occupation": "nurse",
                   "income": "<35000", "relationship state": "single",
                   "location": {"place of birth": "India", "travel history": ["UK"]},
                   "appearance": {"height": "169 cm"}, "shopping habits": "prefers brand stores",
                   "hobbies": ["yoga"], "health status": "good", "religious belief": "Islam"},
}


def _write_prism(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "posts.json").write_text(json.dumps(PRISM_POSTS), encoding="utf-8")
    (root / "target.json").write_text(json.dumps(PRISM_TARGET), encoding="utf-8")
    return root


def _by_attr(truth, part="leaked"):
    return {a.attribute: a for a in getattr(truth, part)}


def test_prism_fixture_mapping(tmp_path: Path) -> None:
    src = _write_prism(tmp_path / "prism")
    out = tmp_path / "out"
    report = import_prism(src, out)
    assert report.users == 2  # person-003 has no labels
    assert any("person-003" in s for s in report.skipped)
    assert any("[age]" in s for s in report.skipped)  # "unknown" is not an age
    assert not has_errors(validate_bench(out))

    view = load_user(out / "users" / "person-001")
    # the account's topic lists are part of its public text (PRISM's input): one post per topic group
    assert [p.post_id for p in view.posts] == ["post1", "post2", "post3", "topic1"]
    assert (view.posts[3].title, view.posts[3].caption) == ("Diabetes Management", "Blood sugar")
    assert all(not p.images for p in view.posts)  # images are absent in this layout
    assert [p.post_id for p in load_user(out / "users" / "person-002").posts] == ["post1"]   # no topics

    t = _by_attr(load_truth(out / "users" / "person-001"))
    assert set(t) == {"age", "education", "gender", "occupation", "income_level", "relationship_status",
                      "nationality", "travel_history", "physical_appearance", "consumption_level", "hobbies",
                      "health_condition", "religion"}
    assert [(lv.level, lv.value) for lv in t["age"].levels] == [("decade", "70s"), ("exact_age", "73")]
    assert t["gender"].value == "male" and t["nationality"].value == "China"
    assert "Chinese" in t["nationality"].aliases
    assert [(lv.level, lv.value) for lv in t["occupation"].levels] == [("sector", "Automotive"), ("role", "mechanic")]
    assert [(lv.level, lv.value) for lv in t["income_level"].levels] == [("band", "high"), ("bracket", "130000-180000")]
    assert t["consumption_level"].value == "low"  # bulk buying
    assert [i.value for i in t["travel_history"].items] == ["Mexico", "Canada", "Japan"]
    assert len(t["physical_appearance"].facts) == 4
    # sensitivity from the schema defaults; difficulty 1 (text only)
    assert t["health_condition"].sensitivity == 5 and t["hobbies"].sensitivity == 1
    assert {a.difficulty for a in t.values()} == {1}
    # explicit when a post names the value, with that post as evidence; implicit otherwise
    assert t["health_condition"].leakage_type == "explicit"
    assert [e.post_id for e in t["health_condition"].evidence] == ["post1", "topic1"]
    assert t["travel_history"].leakage_type == "explicit"
    assert t["religion"].leakage_type == "implicit" and t["religion"].evidence == []
    assert t["occupation"].leakage_type == "implicit"  # "#MechanicLife" is not the whole word "mechanic"

    t2 = load_truth(out / "users" / "person-002")
    leaked2, hidden2 = _by_attr(t2), _by_attr(t2, "hidden")
    assert "age" not in leaked2
    assert "health_condition" not in leaked2 and "health_condition" in hidden2  # "good": nothing to leak
    assert leaked2["income_level"].levels[0].value == "low"
    assert leaked2["consumption_level"].value == "high"
    assert leaked2["religion"].leakage_type == "implicit"  # "Ramadan" is a clue, not the value


def test_prism_posts_only_leaves_the_topic_lists_out(tmp_path: Path) -> None:
    src = _write_prism(tmp_path / "prism")
    out = tmp_path / "out"
    res = runner.invoke(app, ["import", "prism", "--posts-only", str(src), str(out)])
    assert res.exit_code == 0, res.output
    view = load_user(out / "users" / "person-001")
    assert [p.post_id for p in view.posts] == ["post1", "post2", "post3"]
    dumped = json.dumps([p.model_dump() for p in view.posts]) + view.profile.model_dump_json()
    assert "Blood sugar" not in dumped
    assert json.loads((out / "manifest.json").read_text())["topics"] is False
    t = _by_attr(load_truth(out / "users" / "person-001"))
    assert [e.post_id for e in t["health_condition"].evidence] == ["post1"]
    res = runner.invoke(app, ["import", "synthpai", "--posts-only", str(src / "posts.json"), str(tmp_path / "o")])
    assert res.exit_code == 2 and "--posts-only" in res.output


def test_prism_bad_topic_lists_are_skipped_with_their_key(tmp_path: Path) -> None:
    posts = json.loads(json.dumps(PRISM_POSTS))
    posts["person-001"]["topics"] = {"Chess": "not a list", "Travel": ["Hidden gems of Japan", 7, ""]}
    root = tmp_path / "prism"
    root.mkdir()
    (root / "posts.json").write_text(json.dumps(posts), encoding="utf-8")
    (root / "target.json").write_text(json.dumps(PRISM_TARGET), encoding="utf-8")
    report = import_prism(root, tmp_path / "out")
    assert any("[topics.Chess]" in s for s in report.skipped)
    view = load_user(tmp_path / "out" / "users" / "person-001")
    assert [(p.post_id, p.title, p.caption) for p in view.posts[3:]] == [("topic1", "Travel", "Hidden gems of Japan\n7")]


@pytest.mark.skipif(not (PRISM / "posts.json").exists(), reason="shared PRISM data not present")
def test_prism_real_data_imports_and_validates(tmp_path: Path) -> None:
    res = runner.invoke(app, ["import", "prism", str(PRISM), str(tmp_path / "prism")])
    assert res.exit_code == 0, res.output
    problems = validate_bench(tmp_path / "prism")
    assert not has_errors(problems), [str(p) for p in problems[:5]]
    manifest = json.loads((tmp_path / "prism" / "manifest.json").read_text())
    target = json.loads((PRISM / "target.json").read_text())
    assert len(manifest["users"]) == len(target)
    # every person keeps 12 labels: 12 leaked, or 11 + health kept hidden when "good"/"average"
    for uid in manifest["users"][:40]:
        t = load_truth(tmp_path / "prism" / "users" / uid)
        health = str(target[uid]["health status"]).lower()
        assert len(t.leaked) == (12 if health in ("good", "average") else 13)


def test_import_refuses_a_non_empty_output_and_bad_source(tmp_path: Path) -> None:
    src = _write_prism(tmp_path / "prism")
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    res = runner.invoke(app, ["import", "prism", str(src), str(out)])
    assert res.exit_code == 2 and "not empty" in res.output
    assert (out / "keep.txt").read_text() == "mine"
    res = runner.invoke(app, ["import", "prism", str(tmp_path / "nope"), str(tmp_path / "o2")])
    assert res.exit_code == 2 and "nope" in res.output
    (src / "target.json").write_text("{broken", encoding="utf-8")
    res = runner.invoke(app, ["import", "prism", str(src), str(tmp_path / "o3")])
    assert res.exit_code == 2 and "target.json" in res.output and "broken JSON" in res.output
    res = runner.invoke(app, ["import", "tiktok", str(src), str(tmp_path / "o4")])  # reddit is a platform export now
    assert res.exit_code == 2 and "FORMAT" in res.output


def _label(est, hardness=1, certainty=5, **kw):
    return {"estimate": est, "hardness": hardness, "certainty": certainty, **kw}


SYNTHPAI = [
    {"username": "SpiralSphinx",
     "comments": [
         {"text": "Studied business admin, now payroll in the financial industry.", "username": "SpiralSphinx",
          "pii": {}},
         {"text": "Zurich winters are harsh but the trams run on time.", "username": "SpiralSphinx"},
         {"text": "Not my comment - a reply from someone else.", "username": "OtherUser"},
         {"text": "", "username": "SpiralSphinx"},
         {"text": "Divorced ten years now, no regrets.", "username": "SpiralSphinx"},
     ],
     "num_comments": 5,
     "reviews": {
         "human": {"age": _label("50", 3, 2), "sex": _label("", 0, 0), "city_country": _label("Zurich, Switzerland", 2, 4),
                   "relationship_status": _label("divorced", 1, 4), "occupation": _label("office worker", 3, 5),
                   "birth_city_country": _label("Lyon, France", 4, 3), "income_level": _label("high", 3, 4),
                   "timestamp": 0, "time": 0},
         "human_evaluated": {"occupation": _label("", 0, 0, acc_gt=0),  # the revision removed this label
                             "education": _label("bachelor's degree in business administration", 1, 5, acc_gt=1),
                             "education_category": _label("College Degree", 1, 5, acc_gt=1),
                             "income_level": _label("very high", 3, 4, acc_gt=0)},  # judged wrong
     },
     "predictions": {}, "evaluations": {}},
    "this line is not JSON",
    {"username": "QuietLurker", "comments": [{"text": "ok", "username": "QuietLurker"}],
     "reviews": {"human": {"sex": _label("female", 2, 5), "age": _label("25-28", 3, 4)}}},
    {"username": "NoComments", "comments": [], "reviews": {}},
    {"comments": [{"text": "who am I"}]},
]


def _write_synthpai(path: Path) -> Path:
    lines = [x if isinstance(x, str) else json.dumps(x) for x in SYNTHPAI]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_synthpai_fixture_mapping(tmp_path: Path) -> None:
    src = _write_synthpai(tmp_path / "synthpai.jsonl")
    out = tmp_path / "out"
    report = import_synthpai(src, out)
    assert report.users == 2
    skipped = "\n".join(report.skipped)
    assert f"{src}:2" in skipped and "broken JSON" in skipped      # bad line named, others still imported
    assert f"{src}:4" in skipped and f"{src}:5" in skipped          # no comments / no username
    assert "certainty 2 < 3" in skipped and "[reviews.human.age]" in skipped
    assert not has_errors(validate_bench(out))

    view = load_user(out / "users" / "SpiralSphinx")
    assert [p.caption for p in view.posts] == [
        "Studied business admin, now payroll in the financial industry.",
        "Zurich winters are harsh but the trams run on time.",
        "Divorced ten years now, no regrets."]  # others' replies and empty comments are not the account's posts
    assert view.profile.platform == "reddit" and view.profile.nickname == "SpiralSphinx"

    t = _by_attr(load_truth(out / "users" / "SpiralSphinx"))
    # age (certainty 2), sex (empty), occupation (removed by the revision) and income (acc_gt 0) are not truth
    assert set(t) == {"home_location", "relationship_status", "nationality", "education"}
    assert [(lv.level, lv.value) for lv in t["home_location"].levels] == [("country", "Switzerland"), ("city", "Zurich")]
    assert t["home_location"].leakage_type == "explicit" and t["home_location"].evidence[0].post_id == "c002"
    assert t["nationality"].value == "France"  # birth country; the city is lost
    assert [(lv.level, lv.value) for lv in t["education"].levels] == [
        ("level", "bachelor's degree"), ("field", "business administration")]
    assert t["relationship_status"].value == "divorced"
    assert t["relationship_status"].evidence[0].post_id == "c003"
    assert t["home_location"].sensitivity == 4 and t["education"].difficulty == 1

    t2 = _by_attr(load_truth(out / "users" / "QuietLurker"))
    assert t2["gender"].value == "female"
    assert [(lv.level, lv.value) for lv in t2["age"].levels] == [("decade", "20s")]  # a range: decade only


def test_synthpai_cli_and_empty_input(tmp_path: Path) -> None:
    src = _write_synthpai(tmp_path / "s.jsonl")
    res = runner.invoke(app, ["import", "synthpai", str(src), str(tmp_path / "out")], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "2 users" in res.output and "valid" in res.output
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(InputError, match="no profile"):
        import_synthpai(empty, tmp_path / "o2")
    res = runner.invoke(app, ["import", "synthpai", str(empty), str(tmp_path / "o3")])
    assert res.exit_code == 2 and "empty.jsonl" in res.output


def test_synthpai_retired_role_keeps_the_status_as_its_coarser_level() -> None:
    # "retired math teacher": a reader that says only "Retired" is right at the status level, not wrong
    from core.bench.importers.mapping import occupation_levels
    from core.eval.judge import get_judge
    from core.models import TruthAttribute

    levels = occupation_levels("retired math teacher")
    assert [(lv.level, lv.value) for lv in levels] == [("sector", "Retired"), ("role", "retired math teacher")]
    truth = TruthAttribute(attribute="occupation", kind="hierarchy", levels=levels, sensitivity=2)
    judge = get_judge("rules")
    assert 0 < judge.score(truth, "Retired").g < judge.score(truth, "retired math teacher").g
    # a former job is no retirement
    assert [lv.level for lv in occupation_levels("former nurse")] == ["role"]
