"""Advice covers the worst first: without a target the plan does not stop (at the target or at
max_edits) while a sensitivity-5 value (an ID number, a health fact) is still inferable; a target
the person asks for is followed as given. A phrase to cut is shown whole, or cut with an ellipsis."""
from __future__ import annotations

from core.advise.edits import Edit, shown
from core.advise.exposure import ProfileValue
from core.advise.planner import Leaf, SupportGraph, greedy_plan, worst_exposure


def _graph() -> SupportGraph:
    # home (s4) from a parcel label in p1, commute (s3) from a caption in p2, and a health fact (s5,
    # read coarsely: weight 2) from a caption in p3: the 50 % target is reached without touching p3
    g = SupportGraph()
    g.leaves = {
        "e_label": Leaf("e_label", "p1", carrier="ocr_text", modality="image", image="images/p1_1.jpg", box=[1, 1, 9, 9]),
        "e_line": Leaf("e_line", "p2", carrier="caption", modality="text", span="on the Red Line again"),
        "e_ill": Leaf("e_ill", "p3", carrier="caption", modality="text", span="my insulin pump beeped"),
    }
    g.profile = [
        ProfileValue(attribute="home_location", value="Example Garden", sensitivity=4, evidence=["e_label"]),
        ProfileValue(attribute="commute", value="Red Line", sensitivity=3, evidence=["e_line"]),
        ProfileValue(attribute="health_condition", value="diabetes", granularity=0.4, sensitivity=5,
                     evidence=["e_ill"]),
    ]
    return g


def test_without_a_target_the_health_fact_is_covered_first() -> None:
    old = greedy_plan(_graph(), target=0.5, max_edits=5)
    assert all("health_condition" not in s.removed for s in old.steps)        # the old plan stopped before it
    plan = greedy_plan(_graph(), target=0.5, max_edits=5, worst_first=True)
    assert plan.steps[0].removed == ["health_condition"]
    assert plan.steps[0].edit.kind == "cut_phrase" and plan.steps[0].edit.post_id == "p3"
    assert plan.exposure_after <= 4.5                                           # and the target is still reached
    assert worst_exposure(_graph().standing({lid for s in plan.steps for lid in s.edit.breaks})) == 0


def test_max_edits_does_not_stop_the_plan_before_the_worst_is_covered() -> None:
    g = _graph()
    g.profile[2] = g.profile[2].model_copy(update={"granularity": 1.0})
    g.leaves["e_id"] = Leaf("e_id", "p4", carrier="caption", modality="text", span="my passport no. E1234567")
    g.profile.append(ProfileValue(attribute="contact_or_id_number", value="E1234567", sensitivity=5,
                                  evidence=["e_id"]))
    plan = greedy_plan(g, target=0.5, max_edits=1, worst_first=True)
    gone = {a for s in plan.steps for a in s.removed}
    assert {"health_condition", "contact_or_id_number"} <= gone and len(plan.steps) >= 2


def test_a_target_the_person_asks_for_is_followed() -> None:
    from core.advise.advisor import plan_from_graph

    steps, _, _ = plan_from_graph(_graph(), target=0.5, max_edits=5)            # an explicit --target
    assert all("health_condition" not in s.removed for s in steps)
    steps, _, _ = plan_from_graph(_graph(), target=0.5, max_edits=5, worst_first=True)
    assert steps[0].removed == ["health_condition"]


def test_the_phrase_is_shown_whole_or_with_an_ellipsis_where_cut() -> None:
    short = "My wife and I live near the Red Line, it's fine"
    assert Edit(kind="cut_phrase", post_id="p1", phrase=short).describe() == f"p1: cut \u201c{short}\u201d"
    long = "Back at the clinic again today because my insulin pump keeps beeping at night and the nurse says"
    d = Edit(kind="cut_phrase", post_id="p1", phrase=long).describe()
    assert d.endswith("\u2026\u201d") and "beeping" in d
    inner = d.split("\u201c", 1)[1][:-2]
    assert long.startswith(inner) and long[len(inner)] == " "                  # cut between words, not mid-word
    assert shown("a " * 5) == "a a a a a"
