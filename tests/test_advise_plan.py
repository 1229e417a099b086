"""The greedy planner on hand-built support graphs where the best edit is known."""
from core.advise.exposure import ProfileValue, exposure, reduction
from core.advise.planner import Leaf, SupportGraph, candidate_edits, greedy_plan


def _graph() -> SupportGraph:
    # home_location (s=4) is derived from a parcel label in p1 AND a fee notice in p2 (needs both);
    # commute (s=3) from stations in p3, p4, p5 (needs 2 of 3); hobbies (s=1) from a p1 caption.
    g = SupportGraph()
    g.leaves = {
        "e_label": Leaf("e_label", "p1", carrier="ocr_text", modality="image", image="images/p1_1.jpg", box=[10, 10, 90, 40]),
        "e_hobby": Leaf("e_hobby", "p1", carrier="caption", modality="text", span="love bouldering"),
        "e_fee": Leaf("e_fee", "p2", carrier="ocr_text", modality="image", image="images/p2_1.jpg", box=[0, 0, 50, 20]),
        "e_s3": Leaf("e_s3", "p3", carrier="caption", modality="text", span="Keyuan station"),
        "e_s4": Leaf("e_s4", "p4", carrier="caption", modality="text", span="Keyuan station"),
        "e_s5": Leaf("e_s5", "p5", carrier="exif", modality="metadata", image="images/p5_1.jpg"),
    }
    g.supporters = {"h_home": ["e_label", "e_fee"], "h_commute": ["e_s3", "e_s4", "e_s5"]}
    g.min_support = {"h_home": 2, "h_commute": 2}
    g.profile = [
        ProfileValue(attribute="home_location", value="Example Garden, Nanshan", granularity=1.0, sensitivity=4, evidence=["h_home"]),
        ProfileValue(attribute="commute", value="Keyuan station weekday mornings", granularity=1.0, sensitivity=3, evidence=["h_commute"]),
        ProfileValue(attribute="hobbies", value="bouldering", granularity=1.0, sensitivity=1, evidence=["e_hobby"]),
    ]
    return g


def test_exposure_weights_sensitivity_and_granularity():
    vals = [ProfileValue(attribute="home_location", value="x", granularity=0.5, sensitivity=4),
            ProfileValue(attribute="hobbies", value="y", granularity=1.0, sensitivity=1)]
    assert exposure(vals) == 3.0
    assert reduction(3.0, 1.5) == 0.5


def test_cross_post_value_falls_with_one_gentle_edit():
    plan = greedy_plan(_graph(), target=0.5, max_edits=5)
    first = plan.steps[0].edit
    # Blurring either document breaks home (needs both) and is gentler than deleting p1.
    assert first.kind == "blur_region"
    assert plan.steps[0].removed == ["home_location"]
    assert plan.exposure_before == 8.0
    assert plan.steps[0].exposure_after == 4.0
    assert len(plan.steps) == 1  # 50 % reached


def test_higher_target_takes_biggest_gain_then_a_pair_for_cross_post_commute():
    plan = greedy_plan(_graph(), target=0.9, max_edits=5)
    # No single edit reaches 90 %: deleting p1 removes home (4) and hobby (1), the biggest gain.
    assert plan.steps[0].edit.kind == "delete_post" and plan.steps[0].edit.post_id == "p1"
    assert plan.steps[0].exposure_after == 3.0
    # Commute needs 2 of 3 stations: no single edit helps, so a pair of gentle edits follows.
    assert len(plan.steps) == 3
    assert plan.exposure_after == 0.0
    assert {s.edit.post_id for s in plan.steps[1:]} <= {"p3", "p4", "p5"}
    assert all(s.edit.kind != "delete_post" for s in plan.steps[1:])


def test_max_edits_bounds_the_plan():
    plan = greedy_plan(_graph(), target=0.9, max_edits=2)
    assert len(plan.steps) == 1  # a pair would exceed the bound


def test_candidates_cover_every_source_kind():
    kinds = {e.kind for e in candidate_edits(_graph())}
    assert {"delete_post", "remove_image", "blur_region", "strip_exif", "cut_phrase"} <= kinds
    delete_p1 = next(e for e in candidate_edits(_graph()) if e.kind == "delete_post" and e.post_id == "p1")
    assert set(delete_p1.breaks) == {"e_label", "e_hobby"}


def test_account_wide_ip_hiding_is_one_edit_for_a_cross_post_value():
    # home (s=4, country level) from the IP label on the profile and on three posts: one setting removes it,
    # while deleting posts one by one would never get there within two edits.
    g = SupportGraph()
    g.leaves = {f"ip{i}": Leaf(f"ip{i}", pid, carrier="ip_region", modality="metadata")
                for i, pid in enumerate(["@profile", "p1", "p2", "p3"])}
    g.supporters = {"h_home": list(g.leaves)}
    g.profile = [ProfileValue(attribute="home_location", value="Guangdong, China", granularity=0.4, sensitivity=4,
                              evidence=["h_home"])]
    plan = greedy_plan(g, target=0.5, max_edits=2)
    assert [s.edit.kind for s in plan.steps] == ["hide_ip_region"]
    assert plan.steps[0].edit.post_id == "*" and plan.exposure_after == 0.0
    assert not any(e.kind == "delete_post" and e.post_id == "@profile" for e in candidate_edits(g))


def test_fallback_value_of_the_same_attribute_counts_once_and_keeps_exposure():
    g = _graph()
    # a coarser runner-up reading of home, backed by the hobby caption, survives blurring a document
    g.profile.append(ProfileValue(attribute="home_location", value="Nanshan", granularity=0.5, sensitivity=4,
                                  evidence=["e_hobby"]))
    assert exposure(g.profile) == 8.0
    plan = greedy_plan(g, target=0.5, max_edits=1)
    assert plan.steps[0].edit.kind == "delete_post" and plan.steps[0].edit.post_id == "p1"
