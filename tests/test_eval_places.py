"""Gazetteer implication for place levels: the strictness rules on a small hand-written
gazetteer, then the real tools.gazetteer (the one `argus eval` uses)."""
from __future__ import annotations

import pytest

from core.eval.judge import RulesJudge
from core.eval.places import PlaceMatcher, candidate_spans
from core.models import TruthAttribute

# a tiny gazetteer with the agreed API: names_for / ancestors_of
PLACES = {
    "china": ({"China", "中国", "Zhongguo"}, []),
    "guangdong": ({"Guangdong", "广东", "广东省"}, ["china"]),
    "shenzhen": ({"Shenzhen", "深圳", "深圳市"}, ["guangdong", "china"]),
    "nanshan": ({"Nanshan District", "Nanshan", "南山区"}, ["shenzhen", "guangdong", "china"]),
    "futian": ({"Futian District", "Futian", "福田区"}, ["shenzhen", "guangdong", "china"]),
    "guangzhou": ({"Guangzhou", "广州"}, ["guangdong", "china"]),
}


class TableGazetteer:
    def _find(self, text: str) -> list[str]:
        t = text.casefold().strip()
        return [k for k, (names, _) in PLACES.items() if t in {n.casefold() for n in names}]

    def names_for(self, text: str) -> set[str]:
        out: set[str] = set()
        for k in self._find(text):
            out |= PLACES[k][0]
        return out

    def ancestors_of(self, text: str) -> list[set[str]]:
        return [PLACES[a][0] for k in self._find(text) for a in PLACES[k][1]]


HOME = TruthAttribute(
    attribute="home_location", kind="hierarchy", sensitivity=4,
    levels=[
        {"level": "country", "value": "China"},
        {"level": "region", "value": "Guangdong"},
        {"level": "city", "value": "Shenzhen"},
        {"level": "district", "value": "Nanshan District"},
        {"level": "address", "value": "Example Garden"},
    ],
)


@pytest.fixture(scope="module")
def table_judge() -> RulesJudge:
    return RulesJudge(places=PlaceMatcher(TableGazetteer(), name="table"))


@pytest.mark.parametrize("pred,g", [
    ("福田区", 3 / 5),          # Futian lies in Shenzhen: city depth (district wrong)
    ("深圳市", 3 / 5),          # a gazetteer name of the city itself
    ("南山区", 4 / 5),          # other name of the district (not an alias in this truth)
    ("Guangzhou", 2 / 5),      # a sibling city implies only its region and country
    ("广东", 2 / 5),            # never a descendant: the region does not imply Shenzhen
    ("Zhongguo", 1 / 5),
    ("Example Garden, Guangzhou", 1.0),  # deepest right level wins, wrong city ignored
    ("Atlantis", 0.0),
])
def test_implication_rules(table_judge, pred, g):
    assert table_judge.score(HOME, pred).g == pytest.approx(g)


def test_non_place_levels_get_no_gazetteer_help(table_judge):
    t = TruthAttribute(attribute="occupation", kind="hierarchy", sensitivity=2,
                       levels=[{"level": "sector", "value": "China"}])
    assert table_judge.score(t, "中国").g == 0.0


def test_travel_history_items_use_other_names(table_judge):
    t = TruthAttribute(attribute="travel_history", kind="set", sensitivity=2,
                       items=[{"value": "Guangzhou"}, {"value": "Shenzhen"}])
    assert table_judge.score(t, "去过广州").g == 0.5
    # containment is not the item: Futian is in Shenzhen but is not 'Shenzhen'
    assert table_judge.score(t, "Futian District").g == 0.0


def test_candidate_spans():
    spans = candidate_spans("lives in new york city 住在深圳南山区")
    assert "new york city" in spans and "new york" in spans and "york" in spans
    assert "深圳" in spans and "南山区" in spans and "住在深圳南山区" in spans
    assert spans.index("new york city") < spans.index("york")
    assert len(candidate_spans("字" * 10000)) <= 400


# -- the real gazetteer (tools.gazetteer.default_gazetteer), as used by `argus eval` --------------


@pytest.fixture(scope="module")
def real_judge() -> RulesJudge:
    from core.eval.places import default_place_matcher

    pm = default_place_matcher()
    assert pm.gz is not None and pm.name == "tools.gazetteer"
    return RulesJudge(places=pm)


def place(*levels: tuple[str, str]) -> TruthAttribute:
    return TruthAttribute(attribute="home_location", kind="hierarchy", sensitivity=4,
                          levels=[{"level": lv, "value": v} for lv, v in levels])


NYC = place(("country", "United States"), ("region", "New York State"), ("city", "New York City"),
            ("district", "Manhattan"))
SZ = place(("country", "China"), ("region", "Guangdong"), ("city", "Shenzhen"), ("district", "Nanshan District"),
           ("address", "Example Garden"))
SZ_ZH = place(("country", "中国"), ("region", "广东"), ("city", "深圳"))
TORONTO = place(("country", "Canada"), ("region", "Ontario"), ("city", "Toronto"))


@pytest.mark.parametrize("truth,pred,g", [
    (NYC, "NYC", 3 / 4),                 # abbreviation = the city (truth lists no alias)
    (NYC, "Brooklyn", 3 / 4),            # a borough implies its city, state and country
    (NYC, "Manhattan", 1.0),
    (SZ, "深圳", 3 / 5),                  # Chinese name of a city written in English in the truth
    (SZ, "Futian District", 3 / 5),      # wrong district inside the right city
    (SZ, "住在福田区", 3 / 5),
    (SZ, "南山区", 4 / 5),                # Chinese name of the district
    (SZ, "Guangzhou", 2 / 5),            # sibling city: only its region and country
    (SZ_ZH, "Shenzhen", 1.0),            # English name of a city written in Chinese in the truth
    (SZ_ZH, "Guangzhou", 2 / 3),
    (TORONTO, "York, England", 0.0),     # the York meant here is in England, not Toronto's York
    (TORONTO, "lives in Toronto", 1.0),
])
def test_real_gazetteer(real_judge, truth, pred, g):
    assert real_judge.score(truth, pred).g == pytest.approx(g)


@pytest.mark.parametrize("country,pred", [
    ("Netherlands", "my best friend"),   # 'Best' is a Dutch town: not in ordinary lower-case text
    ("Turkey", "the city of lights"),    # 'Of' is a Turkish town
    ("Maldives", "male"),                # 'Male' is the Maldives' capital
])
def test_real_gazetteer_common_words_imply_nothing(real_judge, country, pred):
    assert real_judge.score(place(("country", country)), pred).g == 0.0


def test_real_gazetteer_travel_history(real_judge):
    t = TruthAttribute(attribute="travel_history", kind="set", sensitivity=2,
                       items=[{"value": "Tokyo"}, {"value": "Paris"}])
    assert real_judge.score(t, "去过东京和巴黎").g == 1.0
    assert real_judge.score(t, "Shibuya").g == 0.0
