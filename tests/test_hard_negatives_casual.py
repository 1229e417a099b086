"""Hard negatives from casual, indirect first-person writing (issue 22, SynthPAI-style readings, stop 15):
a subject-less degree, decades lived, another person's job named in passing (my barista, the driver of a
cab one took, male nurses), women and men as groups, "my line of work". Each case runs the real engine
(offline backend) on a user made of its posts and asserts the wrong conclusion absent and, where the
text supports one, the right one present. Cases written by us, EN and ZH."""
from __future__ import annotations

import pytest

from tests.hard_negatives import Case, check

C = Case
CASES = [
    # a degree without a subject is the poster's; a degree of people in general is nobody's
    C("masters-check", ["Master's? Check. Now the startup daydreams begin."], present={"education": "Master"}),
    C("post-masters", ["Switched lanes post-linguistics masters - now doing UX research!"], present={"education": "Master"}),
    C("phds-overlooked", ["Funny how PhDs get overlooked when stereotypes enter the scene."], absent={"education": "PhD"}),
    C("your-phd-gown", ["Expectations can sometimes overshadow your PhD gown!"], absent={"education": "PhD"}),
    C("old-masters", ["Old masters like Rembrandt still draw crowds after all these years."], absent={"education": "Master"}),
    # decades lived
    C("six-decades", ["Reached six decades here and still learning new lessons every day."], present={"age": "60"}),
    C("dad-six-decades", ["My dad turned six decades last week, big party at his place."], absent={"age": "60"}),
    C("decades-of-history", ["Six decades of history in this old market hall, love it."], absent={"age": "60"}),
    # someone else's job
    C("took-a-cab", ["Took a cab to the airport after the flight, the driver was lovely."], absent={"occupation": "Driver"}),
    C("took-a-cab-zh", ["打车去机场，司机人很好，一路聊天。"], absent={"occupation": "Driver"}),
    C("line-of-work", ["In my line of work I meet folks from all over, and they love our local customs."],
      absent={"occupation": "Chef"}),
    # women and men as groups are nobody's gender
    C("girls-and-boys", ["Girls excel in science and boys love art these days, stereotypes be gone."],
      absent={"gender": "male"}),
    C("girls-zh", ["现在很多女生都很独立，男生们也会做饭了。"], absent={"gender": "female"}),
    # counter-examples: the poster's own job, degree and age still count
    C("own-cab", ["Twelve fares tonight in my cab, picked up passengers till 3am."], present={"occupation": "Driver"}),
    C("own-nurse-zh", ["我是护士，今天又是夜班，病房里忙到天亮。"], present={"occupation": "Nurse"}),
    C("own-line-cook", ["Busy night on my line, tickets everywhere during dinner service."], present={"occupation": "Chef"}),
    C("own-phd", ["PhD done, job hunting next. Feels unreal."], present={"education": "PhD"}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_casual_case(tmp_path, case: Case) -> None:
    check(tmp_path, case)


CASES_2 = [
    C("thesis-in-progress", ["Whiteboard full of arrows again. Master's thesis chapter 3, send coffee"],
      absent={"education": "Master"}),                      # writing the thesis: studying for it, not holding it
    C("girls-trip", ["girls' trip planning has begun, so excited"], present={"gender": "female"}),
    C("as-the-only-guy", ["Fun evening as the only guy in the pottery class."], present={"gender": "male"}),
    C("she-the-only-woman", ["She was the only woman in the room and ran the whole meeting."], absent={"gender": "female"}),
]


@pytest.mark.parametrize("case", CASES_2, ids=[c.id for c in CASES_2])
def test_casual_case_more(tmp_path, case: Case) -> None:
    check(tmp_path, case)
