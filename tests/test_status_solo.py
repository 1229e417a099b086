"""Single said as "solo" (issue 34, SynthPAI kinds): "life's good solo", "happily solo", "I'm solo
these days" is the poster's single status, as "single life" already is (general English usage, one
more line of core/data/recognizers/lifestyle.json). A solo trip, show, album or career is no status;
someone else's solo life is theirs; a wished-for or hypothetical one is none. Each case runs the real
engine (offline backend, real SQLite); every `present` case claimed nothing on main f940522."""
from __future__ import annotations

import pytest

from tests.hard_negatives import Case, check

C = Case
CASES = [
    C("lifes-good-solo", ["settled into dealing with nosy questions; life\u2019s good solo"],
      present={"relationship_status": "single"}),
    C("happily-solo", ["Honestly I'm happily solo these days, more time for my plants."],
      present={"relationship_status": "single"}),
    # hard negatives: not a status, someone else's, wished-for, hypothetical, quoted
    C("solo-trip", ["I'm solo travelling through Portugal next month, any tips?"], absent={"relationship_status": "single"}),
    C("solo-tonight", ["I'm solo this weekend while my partner visits her parents, pizza time."],
      absent={"relationship_status": "single"}),
    C("solo-show", ["Still solo show prep all weekend, the gallery opens Friday."], absent={"relationship_status": "single"}),
    C("sister-solo", ["My sister says life's good solo since her breakup."], absent={"relationship_status": "single"}),
    C("wish-solo", ["Some days I wish I was happily solo instead of arguing about dishes."],
      absent={"relationship_status": "single"}),
    C("if-solo", ["If I were solo I'd travel way more."], absent={"relationship_status": "single"}),
    C("quoted-solo", ['She told me "I am happily solo now" and laughed.'], absent={"relationship_status": "single"}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_solo_status(case: Case, tmp_path) -> None:
    check(tmp_path, case)
