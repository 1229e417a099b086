"""Issue 34 (PRISM): a person's own status or origin said in passing, in kinds that general
knowledge names ("despite being a widow", "my late love", "I wish my wife was still here",
"my single, yet fulfilling life", "life as a single researcher"), read by the real engine; someone
else's, imagined, asked or unfinished statements are not the account's."""
from __future__ import annotations

import pytest

from tests.hard_negatives import Case, check

C = Case
CASES = [
    # relationship: widowed in passing
    C("despite-being-a-widow", ["My hobbies keep me in harmony despite diabetes and being a widow. #FulfilledLife"],
      present={"relationship_status": "widowed"}),
    C("my-late-love", ["At the samba concert tonight, the rhythm took me back to dancing with my late love."],
      present={"relationship_status": "widowed"}),
    C("wish-wife-still-here", ["Baked, crafted and cooked all day. I wish my wife was still here to share in them. #MissingHer"],
      present={"relationship_status": "widowed"}, absent={"relationship_status": "married"}),
    C("memories-of-beloved-wife", ["Small joys keep me going through the lonely times and the memories of my beloved wife."],
      present={"relationship_status": "widowed"}),
    # relationship: single in passing
    C("my-single-yet-fulfilling-life", ["Market stalls and a laugh. These small joys make up my single, yet fulfilling life."],
      present={"relationship_status": "single"}),
    C("life-as-a-single-researcher", ["Painting, yoga and samba. Life as a single researcher is truly fulfilling!"],
      present={"relationship_status": "single"}),
    # hard negatives: someone else's, imagined, unfinished, asked
    C("mom-despite-being-a-widow", ["My mom is so strong despite being a widow, she runs the bakery alone."],
      absent={"relationship_status": "widowed"}),
    C("imagine-being-a-widow", ["I can't imagine being a widow, my grandma is so brave."],
      absent={"relationship_status": "widowed"}),
    C("friends-late-husband", ["My friend's late husband was a sailor, she showed me his maps."],
      absent={"relationship_status": "widowed"}),
    C("wife-still-here-but-left", ["I wish my wife was still here but she flew home early for work."],
      absent={"relationship_status": "widowed"}),
    C("sisters-single-life", ["My sister's single, lonely life worries me sometimes."],
      absent={"relationship_status": "single"}),
    C("single-unit", ["The whole team moved as a single unit on the pitch today."],
      absent={"relationship_status": "single"}),
    # nationality: the demonyms of every country (not only the 90 first listed) and more origin nouns
    C("ecuadorian-roots", ["Blending my Ecuadorian roots with Chilean flavors in my cooking is pure joy!"],
      present={"nationality": "Ecuadorian"}),
    C("namibian-roots", ["Chess and local food: simple joys that connect my Namibian roots and my travels."],
      present={"nationality": "Namibian"}),
    C("vietnamese-soul", ["Filming the workshop with my new phone, the colors stirred my Vietnamese soul."],
      present={"nationality": "Vietnamese"}),
    C("lao-culture", ["Dancing and lanterns tonight, full of pride in my Lao culture."], present={"nationality": "Lao"}),
    C("uk-roots", ["At the local art gallery in Bristol, I felt a beautiful blend of my UK roots and Egypt."],
      present={"nationality": "British"}),
    C("us-lowercase-roots", ["Tell us roots stories! Share with us roots of your family tree."], absent={"nationality": "American"}),
    C("friends-uk-roots", ["My friend's UK roots show in her love of tea."], absent={"nationality": "British"}),
    C("friends-zambian-roots", ["My friend's Zambian roots show in everything she cooks."], absent={"nationality": "Zambian"}),
    C("culture-class", ["My Korean culture class starts Monday, so excited!"], absent={"nationality": "Korean"}),
    C("culture-shock", ["My French culture shock was real in week one of the exchange."], absent={"nationality": "French"}),
    C("your-fijian-heritage", ["Is your Fijian heritage a big part of your cooking?"], absent={"nationality": "Fijian"}),
    C("wish-italian-roots", ["I wish I had Italian roots, the food alone!"], absent={"nationality": "Italian"}),
    # gender: a widow is a woman, a widower a man (general knowledge), said of oneself
    C("as-a-widow-female", ["Hiking and new cuisine are steps in my journey of healing as a widow. #Norway"],
      present={"gender": "female", "relationship_status": "widowed"}),
    C("as-a-widower-male", ["Simple joys keep me going on this journey as a widower. #FindingHappinessAgain"],
      present={"gender": "male", "relationship_status": "widowed"}),
    C("my-widows-heart", ["Among the birds of Villa Borghese I find a peace that soothes my widow's heart."],
      present={"gender": "female"}),
    C("hashtag-widow", ["Painting at the market with a discount today. #Myanmar #Widow #Christian"], present={"gender": "female"}),
    C("memories-of-beloved-wife-male", ["Small joys keep me going through the lonely times and the memories of my beloved wife."],
      present={"gender": "male"}),
    C("hashtag-widowlife", ["Roses blooming in the garden this morning. #Garden #Reading #WidowLife"], present={"gender": "female"}),
    C("remembering-hikes-with-my-beloved", ["Yoga at sunrise, coding, and remembering my hikes with my beloved."],
      present={"relationship_status": "widowed"}),
    C("friends-beloved-wife", ["My friend's beloved wife baked us bread today."], absent={"gender": "male"}),
    C("mom-as-a-widow", ["My mom, as a widow, raised four of us on her own."], absent={"gender": "female"}),
    C("mom-as-a-mother", ["My mom, as a mother of four, never once complained."], absent={"gender": "female"}),
    C("neighbour-widower", ["My neighbour is a widower and loves a game of chess."], absent={"gender": "male"}),
    C("is-your-aunt-a-widow", ["Is your aunt a widow? She mentioned a late husband."],
      absent={"gender": "female", "relationship_status": "widowed"}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_prism_self_statement(case: Case, tmp_path) -> None:
    check(tmp_path, case)


@pytest.mark.parametrize("text,value", [
    ("My hobbies keep me in harmony despite diabetes and being a widow.", "widowed"),
    ("Gardening keeps me sane since being a widower.", "widowed"),
    ("Thanks to those who inspired me, including my late love.", "widowed"),
    ("My single, yet fulfilling life has its own rhythm.", "single"),
])
def test_own_status_cue(text, value):
    from core.engine.rules import extract_cues
    got = {c.value for c in extract_cues(text) if c.attribute == "relationship_status" and c.first_person}
    assert got == {value}, (got, text)


@pytest.mark.parametrize("text,gender", [
    ("Painting at the market today. #Myanmar #Widow #Christian", "female"),
    ("Another sunrise walk. #widower", "male"),
    ("Finding new joys in life. #WidowedAndMovingForward", None),   # widowed says nothing of gender
    ("Another day without my beloved. #Widowhood", None),
])
def test_widow_hashtag_gender(text, gender):
    from core.engine.rules import extract_cues
    got = {c.value for c in extract_cues(text) if c.attribute == "gender"}
    assert got == ({gender} if gender else set()), (got, text)


@pytest.mark.parametrize("text,role", [
    ("Japanese fusion dinner, as harmonious as my yoga. #UK #tradition #researcherlife", "Researcher"),
    ("Twelve hours on the ward, home at last. #nurselife", "Nurse"),
    ("Prep for 200 covers tonight. #cheflife", "Chef"),
    ("Otters at dawn by the estuary. #wildlife", None),       # the word before "life" is no role
    ("Reef dive today, turtles everywhere. #marinelife", None),
    ("Out till 3am in Shoreditch. #nightlife", None),
])
def test_lower_case_life_hashtag_role(text, role):
    from core.engine.rules import extract_cues
    got = {c.value for c in extract_cues(text) if c.attribute == "occupation"}
    assert got == ({role} if role else set()), (got, text)
