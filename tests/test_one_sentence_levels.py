"""One sentence near a level's prototype is a guess, not a claim (issue 34, precision): education,
income and age read by similarity alone from one post ("Touring famous university campuses" ->
Bachelor's degree, "Tips for new grandparents" -> 60s) were wrong far more often than right on PRISM
and SynthPAI dev, so they stay unresolved hypotheses (still SynthPAI guesses, never projected). A
rule's reading ("I have a bachelor's degree") or two posts that agree are still claimed. Each case runs
the real engine (offline backend, the shipped embedder)."""
from __future__ import annotations

import pytest

from tests.hard_negatives import Case, check

C = Case
CASES = [
    C("campus-tour", ["Touring famous university campuses on a rainy weekend"], absent={"education": "Bachelor"}),
    C("study-spots", ["Best study spots on campus before the midterm"], absent={"education": "Bachelor"}),
    C("rent-struggle", ["Struggling to pay rent again this month"], absent={"income_level": "low"}),
    C("grandparent-tips", ["Tips for new grandparents on their first grandchild"], absent={"age": "60s"}),
    C("back-pain-fifty", ["Managing back pain after turning fifty"], absent={"age": "60s"}),
    # counter-examples: a rule's reading, or two posts that agree
    C("own-bachelor", ["I have a bachelor's degree in chemistry."], present={"education": "Bachelor"}),
    C("own-master", ["Finished my master's in economics last spring."], present={"education": "Master"}),
    # a finishing word beside the degree, subject dropped: the rule reads it (socio.json degree_held)
    C("masters-complete", ["tiny update: thesis submitted, master's complete!"], present={"education": "Master"}),
    C("campus-two-posts", ["Touring famous university campuses on a rainy weekend",
                           "My old college library still feels like home, best years of my degree"],
      present={"education": "Bachelor"}),
]

# self-disclosures read by similarity alone from one sentence (formerly claimed): held readings now,
# still SynthPAI guesses; first-person sentences were no more often right on the two outside sets
HELD = [
    (C("class-year-degree", ["Class of 2015, BSc Computer Science, still miss campus"]), "education", "Bachelor"),
    (C("back-to-college", ["Went back to college for my business degree at 30."]), "education", "Bachelor"),
    (C("studied-design", ["studied design at uni, now sketching floor plans all day"]), "education", "Bachelor"),
    (C("my-salary", ["my salary barely covers the rent this year"]), "income_level", "low"),
]


@pytest.mark.parametrize("case,attr,value", HELD, ids=[h[0].id for h in HELD])
def test_one_sentence_self_disclosure_is_held(case: Case, attr: str, value: str, tmp_path) -> None:
    case.absent = {attr: value}
    inv = check(tmp_path, case)
    held = [h for h in inv.graph.hypotheses(("unresolved", "suspended")) if h.attribute == attr]
    assert any(value in h.value and "one sentence" in str(h.data.hold) for h in held), \
        [(h.value, h.status, h.data.hold) for h in held]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_one_sentence_level(case: Case, tmp_path) -> None:
    check(tmp_path, case)


def test_one_sentence_level_stays_a_held_hypothesis(tmp_path) -> None:
    """The held reading is kept in the graph with its reason (what SynthPAI's guesses read)."""
    inv = check(tmp_path, CASES[0])
    held = [h for h in inv.graph.hypotheses(("unresolved", "suspended")) if h.attribute == "education"]
    assert any("Bachelor" in h.value and "one sentence" in str(h.data.hold) for h in held), \
        [(h.value, h.status, h.data.hold) for h in held]
