"""Regional vocabulary as a weak home-country cue (issue 34, places): "konbini", "arvo", "matric",
"jandals", "lakh" (core/data/recognizers/regionalisms.json, rules/regionalisms.py, aggregators/regional.py).
One word is held (an unresolved hypothesis: a SynthPAI guess, never projected); two different words
from two posts that agree are claimed; a named home, a trip there, someone else's words or a quotation
never move the home. Each account case runs the real engine (offline backend)."""
from __future__ import annotations

import json

import pytest

from core.engine.rules import regionalisms
from core.engine.rules.extract import extract_cues
from tests.hard_negatives import Case, check

C = Case


def _home_cues(text: str) -> list[str]:
    return [c.value for c in extract_cues(text) if c.attribute == "home_location" and c.data.kind == "regionalism"]


@pytest.mark.parametrize("text,country", [
    ("grabbed onigiri at the konbini before my shift", "Japan"),
    ("see you this arvo, filling up at the servo", "Australia"),
    ("Every student plots their own post-matric course.", "South Africa"),
    ("forgot my jandals at the beach again", "New Zealand"),
    ("the flat costs 40 lakh now, crazy", "India"),
    ("queued for my HDB flat keys today", "Singapore"),
    ("nothing beats the smell of the local buka stalls", "Nigeria"),
    ("sat in the shade of the old ghaf trees", "United Arab Emirates"),
])
def test_regional_word_is_a_home_country_cue(text: str, country: str) -> None:
    assert country in _home_cues(text)


@pytest.mark.parametrize("text", [
    "I won the raffle and ate a yen-shaped cookie",       # words shared with ordinary English are left out
    "going down the tubes at work this week",
    "paid in pesos and rupees on my travels",             # currencies of several countries are no cue
    "we had a sausage sizzle at the footy, mate",         # Australian and New Zealand alike
    "recreating Canadian poutine and a Brazilian feijoada at home",   # dishes cooked anywhere
    "nah drop bears are pure fiction mate",               # a joke told to the whole internet
])
def test_shared_or_ordinary_words_are_no_cue(text: str) -> None:
    assert _home_cues(text) == []


ONE_WORD = C("one-konbini", ["grabbed onigiri at the konbini before my shift", "long day, early night"],
             absent={"home_location": "Japan"})
TWO_POSTS = C("konbini-and-suica", ["grabbed onigiri at the konbini before my shift",
                                    "topped up my Suica card again, the commute eats it"],
              present={"home_location": "Japan"})
SA_TWO = C("matric-tokoloshe", ["Heard stories of the Tokoloshe as a kid, still creepy",
                                "Every student plots their own post-matric course."],
           present={"home_location": "South Africa"})
HARD = [
    # a trip: the post's trip wording makes the words a tourist's
    C("trip-konbini", ["Back from our holiday in Japan! konbini snacks every single night",
                       "vacation in Japan was amazing, loved the onsen and the Suica card"],
      absent={"home_location": "Japan"}),
    # someone else's words and a quotation
    C("friend-konbini", ["my sister in Osaka says her konbini has the best egg sandwiches",
                         "my sister keeps topping up her Suica card"], absent={"home_location": "Japan"}),
    C("quoted-arvo", ['my aussie coworker always says "see you this arvo" lol',
                      'and then he says "off to the servo, mate"'], absent={"home_location": "Australia"}),
    # a named home elsewhere wins
    C("named-home-wins", ["I live in Toronto and I love it", "grabbed onigiri at the konbini before my shift",
                          "topped up my Suica card again"], absent={"home_location": "Japan"}),
    # words of two countries: held at most
    C("two-countries", ["grabbed onigiri at the konbini before my shift", "see you this arvo at the servo"],
      absent={"home_location": "Japan"}),
]


def _held(inv, value: str) -> list:
    return [h for h in inv.graph.hypotheses(("unresolved", "suspended"))
            if h.attribute == "home_location" and value in h.value]


def test_one_regional_word_is_held_not_claimed(tmp_path) -> None:
    inv = check(tmp_path, ONE_WORD)
    held = _held(inv, "Japan")
    assert held and "regional words" in str(held[0].data.hold), [(h.value, h.data.hold) for h in held]


@pytest.mark.parametrize("case", [TWO_POSTS, SA_TWO], ids=[TWO_POSTS.id, SA_TWO.id])
def test_two_words_from_two_posts_are_claimed(case: Case, tmp_path) -> None:
    check(tmp_path, case)


@pytest.mark.parametrize("case", HARD, ids=[c.id for c in HARD])
def test_trip_holder_quote_and_named_home_do_not_move_home(case: Case, tmp_path) -> None:
    inv = check(tmp_path, case)
    if case.id in ("trip-konbini", "friend-konbini", "quoted-arvo", "named-home-wins"):
        assert not _held(inv, case.absent["home_location"]), "not even a held guess"


def test_bad_entry_names_file_entry_and_field(tmp_path) -> None:
    raw = json.loads(regionalisms.PATH.read_text(encoding="utf-8"))
    raw["entries"][3] = {**raw["entries"][3], "strength": 1.5}
    with pytest.raises(regionalisms.RegionalismError, match=r"x\.json: entries\[3\] \(.+\): field strength"):
        regionalisms.load(raw, "x.json")
    raw = json.loads(regionalisms.PATH.read_text(encoding="utf-8"))
    raw["entries"].append(dict(raw["entries"][0], country="Elsewhere"))
    with pytest.raises(regionalisms.RegionalismError, match=r"field term: already listed as entries\[0\]"):
        regionalisms.load(raw, "x.json")


def test_data_file_is_large_and_noted() -> None:
    f = regionalisms.load(json.loads(regionalisms.PATH.read_text(encoding="utf-8")), "regionalisms.json")
    assert len(f.entries) >= 150
    assert len({e.country for e in f.entries}) >= 20
    assert all(e.note for e in f.entries)
