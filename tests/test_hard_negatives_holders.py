"""Hard negatives of holders in the places, commute and venue rules, of relatives named without 我
and of possessors ("her asthma", "Sophie's inhaler") (issue 22, kinds 1 and 5): every rule reads whose fact a clause states from the reading layer
(core/engine/reading/holder.py). A relative's city, a friend's commute, a mother's favourite café
and an aunt's job are theirs; a street named after a city is a street. Each case runs the real
engine (offline backend, real SQLite); counter-examples keep the poster's own places and jobs."""
from __future__ import annotations

import pytest

from tests.hard_negatives import Case, check

C = Case
CASES = [
    # a relative's or friend's city (a bare place mention in their clause, not only a "lives in" cue)
    C("husband-works-in", ["My husband works in Shenzhen and flies home on weekends."],
      absent={"home_location": "Shenzhen", "work_location": "Shenzhen"}, present={"relationship_status": "married"}),
    C("brother-lives-in", ["My brother lives in Manchester and loves it there."], absent={"home_location": "Manchester"}),
    C("daughter-moved", ["My daughter just moved to Toronto for uni, proud mum."], absent={"home_location": "Toronto"}),
    C("zh-parents-city", ["我爸妈住在成都，过年回去看他们。"], absent={"home_location": "Chengdu"}),
    C("zh-aunt-city", ["舅妈在杭州开了家小店，生意很好。"], absent={"home_location": "Hangzhou", "work_location": "Hangzhou"}),
    # a friend's / relative's commute and habits
    C("sister-northern-line", ["My sister takes the Northern line to work every morning, poor thing."],
      absent={"commute": "Northern"}),
    C("zh-sister-metro", ["我姐姐每天坐地铁2号线上班，好辛苦。"], absent={"commute": "2号线"}),
    C("mum-favourite-cafe", ["My mum's favourite café is Luna Coffee, she goes every Saturday."],
      absent={"frequent_venues": "caf"}),
    C("dad-usual-spot", ["Dad's usual spot: Luna Coffee, every Saturday."], absent={"frequent_venues": "Luna"}),
    C("zh-mum-cafe", ["我妈常去的咖啡店又涨价了。"], absent={"frequent_venues": "咖啡"}),
    C("sister-gym", ["My sister is back at Iron Gym again, third time this week."], absent={"frequent_venues": "Iron Gym"}),
    # relatives named without 我 (姨妈, 舅舅, 大伯 ...): their jobs are theirs
    C("zh-aunt-nurse", ["姨妈是护士，饭桌上给大家上了一课。"], absent={"occupation": "Nurse"}),
    C("zh-uncle-chef", ["舅舅是厨师，年夜饭全靠他。"], absent={"occupation": "Chef"}),
    C("zh-elder-uncle-lawyer", ["大伯是律师，说话特别有条理。"], absent={"occupation": "Lawyer"}),
    # a possessor before the noun holds it: a child's illness named by pronoun, name or nickname
    C("her-asthma-checkup", ["Took Mia to the paediatrician for her asthma check-up."], absent={"health_condition": "asthma"}),
    C("sophies-inhaler", ["Sophie's asthma inhaler is in my bag, just in case."], absent={"health_condition": "asthma"}),
    C("zh-little-one-eczema", ["小宝湿疹又犯了，心疼。"], absent={"health_condition": "湿疹"}),
    # a person named as the subject: "Ella's been diagnosed with …", "Sarah is a nurse"
    C("ella-diagnosed", ["Ella's been diagnosed with type 1 diabetes."], absent={"health_condition": "diabetes"}),
    C("little-max-asthma", ["Little Max has asthma, so no cats."], absent={"health_condition": "asthma"}),
    C("sarah-is-a-nurse", ["Sarah is a nurse at the hospital, she loves it."], absent={"occupation": "Nurse"}),
    # a spouse the poster wishes were still here is no living marriage; "studying them" names no field
    C("wish-wife-still-here", ["All these things I do, I wish my wife was still here to share in them."],
      absent={"relationship_status": "married"}),
    C("studying-them", ["colour-coded my notes instead of studying them (no thoughts, just vibes)"],
      absent={"education": "Them"}),
    # streets named after cities are streets
    C("manchester-road", ["Just moved into a flat on Manchester Road, loving the area."], absent={"home_location": "Manchester"}),
    C("zh-guangzhou-road", ["住在广州路附近，上班很方便。"], absent={"home_location": "Guangzhou"}),
    # counter-examples: the poster's own places, commute, venues and job
    C("own-back-home", ["Happy to be back home in Leeds after a long week."], present={"home_location": "Leeds"}),
    C("own-northern-line", ["I take the Northern line to work every morning from Angel."], present={"commute": "Northern"}),
    C("zh-own-metro", ["我每天坐地铁2号线上班。"], present={"commute": "2号线"}),
    C("own-usual-spot", ["My usual spot: Luna Coffee, every Saturday morning."], present={"frequent_venues": "Luna Coffee"}),
    C("zh-own-cafe", ["我常去的咖啡店又涨价了。"], present={"frequent_venues": "咖啡"}),
    C("visiting-parents", ["Visiting my parents in Manchester this weekend, can't wait."],
      present={"travel_history": "Manchester"}, absent={"home_location": "Manchester"}),
    C("zh-own-nurse-beside-aunt", ["我是护士，姨妈也是。"], present={"occupation": "Nurse"}),
    C("own-asthma-beside-hers", ["My asthma is acting up again, and her allergies too."], present={"health_condition": "asthma"}),
    C("own-diagnosed", ["I was diagnosed with type 1 diabetes last year."], present={"health_condition": "diabetes"}),
    C("today-rough-own-asthma", ["Today has been rough, my asthma is flaring again."], present={"health_condition": "asthma"}),
    C("zh-own-eczema", ["我湿疹又犯了，痒得睡不着。"], present={"health_condition": "湿疹"}),
    C("st-pauls-church", ["Sunday service at St Paul's Church, lovely choir."], present={"religion": "Christianity"}),
    C("im-her-nurse", ["I'm her nurse on the ward tonight, twelve hour shift."], present={"occupation": "Nurse"}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_holder_hard_negative(case: Case, tmp_path) -> None:
    check(tmp_path, case)


def test_place_mention_records_its_holder() -> None:
    """The entity layer marks a place in another person's clause with that holder (what the places
    aggregator reads); the poster's own place mention is unmarked."""
    from core.engine.rules.entities import extract_entities

    theirs = [e for e in extract_entities("My husband works in Shenzhen now.") if e.type == "place"]
    assert theirs and theirs[0].data.holder == "other:husband"
    mine = [e for e in extract_entities("I work in Shenzhen now.") if e.type == "place"]
    assert mine and mine[0].data.holder is None
    zh = [e for e in extract_entities("舅妈住在成都。") if e.type == "place"]
    assert zh and zh[0].data.holder == "other:aunt"
