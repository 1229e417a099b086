"""Hard negatives of weak claims (issue 22, precision): a sentence that only sounds like an occupation
(or a faith) is a guess, not a claim. A semantic occupation reading is projected when a word of the role or its
field is held by the poster ("another nurse shift done") or two posts agree; a pastime ("Yoga Poses
for Stress Relief", 周末在家烤面包), someone else's role ("my sister the dentist", "male nurses",
我姐是护士) and one sentence tied to a job only by an activity word ("Three meetings that could have
been emails") stay unresolved hypotheses (still SynthPAI guesses, never projected). Each case runs
the real engine (offline backend, the shipped embedder); counter-examples keep the right conclusion."""
from __future__ import annotations

import pytest

from tests.hard_negatives import Case, check

C = Case
CASES = [
    # a pastime named is no job: its lexicon word does not anchor an occupation
    C("yoga-headlines", ["Yoga Poses for Stress Relief\nThe Mental Benefits of Daily Yoga Practice"],
      absent={"occupation": "Fitness"}, present={"hobbies": "yoga"}),
    C("baking-headline", ["Mastering the Art of Baking the Perfect Cake"], absent={"occupation": "Baker"}),
    C("coding-journey", ["Challenges and Triumphs in My Coding Journey"], absent={"occupation": "Software"}),
    C("zh-weekend-baking", ["周末在家烤面包，超治愈。"], absent={"occupation": "Baker"}, present={"hobbies": "baking"}),
    # someone else's role: a determiner before the role noun, a plural role, a relative's clause
    C("sister-the-dentist", ["My sister the dentist says I need to floss more."], absent={"occupation": "Dentist"}),
    C("male-nurses", ["Seeing more male nurses and female surgeons lately, love that."], absent={"occupation": "Nurse"}),
    C("zh-my-sister-nurse", ["我姐是护士，天天上夜班。"], absent={"occupation": "Nurse"}),
    C("overhear-electricians", ["Sometimes overhear electricians debate wiring flaws, free lessons but no sleep!"],
      absent={"occupation": "Electrician"}),
    # plating is what home cooks do too; plating up for service is a kitchen's work
    C("plating-description", ["That plating description's poetic – respect!"], absent={"occupation": "Chef"}),
    C("plating-my-pasta", ["Plating my homemade pasta like a pro tonight."], absent={"occupation": "Chef"}),
    # the academic calendar is a teacher's, a parent's and a librarian's too
    C("library-packed-during-finals", ["UCL library is packed during finals."], absent={"occupation": "Student"}),
    C("group-project-survival", ["Group project survival mode. That's it, that's the post"], absent={"occupation": "Student"}),
    # a star sign is no illness; a partner beside Pride says nothing of the poster's sex; schooling
    # attained is an education, not an age now
    C("im-a-cancer", ["Born August 5, 1978, so yes, I'm a Cancer. It explains a lot ✨"],
      absent={"health_condition": "cancer"}),
    C("cancer-season", ["Cancer season is here, moody week ahead"], absent={"health_condition": "cancer"}),
    C("pride-with-boyfriend", ["Weekend market finds. Pride with my boyfriend 🏳️‍🌈"], absent={"gender": "female"}),
    C("zh-pride-girlfriend", ["和我女朋友去了彩虹游行🏳️‍🌈 热身比正式练还久"], absent={"gender": "male"}),
    C("zh-pride-then-wife", ["和我女朋友去了彩虹游行🏳️‍🌈", "我老婆订了周末的民宿"], absent={"gender": "male"}),
    C("zh-only-high-school", ["只有高中学历，但一直在努力。"], absent={"age": "10s"}, present={"education": "High school"}),
    C("zh-worked-after-high-school", ["浑身酸痛但值得。又是坚持的一天。高中毕业就出来工作了"], absent={"age": "10s"}),
    # one film watched is a night in, not a pastime; a liked one is
    C("zh-movie-night-in", ["记录一下：窝在家看电影的夜晚"], absent={"hobbies": "movies"}),
    C("movie-night-once", ["movie night with the flatmates, pizza everywhere"], absent={"hobbies": "movies"}),
    # one friend's birthday wish in a comment dates no birthday (wishes come late); two on one day do
    C("one-late-wish", [{"caption": "专程跑到兰贝斯吃老街面馆，一次就够了", "timestamp": "2025-07-05T14:55:00+00:00",
                         "comments": [{"author": "小鱼干", "text": "思雨生日快乐呀！"}]}],
      absent={"birth_date": "July"}),
    # a role after a modal or a wish is a plan, not a fact
    C("traditions-should-retire", ['some "traditions" should just retire already'], absent={"occupation": "Retired"}),
    C("hoping-to-retire", ["hoping to retire early, fingers crossed"], absent={"occupation": "Retired"}),
    C("love-to-become-a-nurse", ["I'd love to become a nurse one day."], absent={"occupation": "Nurse"}),
    # one sentence tied to a job by an activity word only (the same sentence twice is still one)
    C("three-meetings", ["Three meetings that could have been emails."], absent={"occupation": "Manager"}),
    C("three-meetings-repeated", ["Three meetings that could have been emails.", "Three meetings that could have been emails."],
      absent={"occupation": "Manager"}),
    C("road-to-station", ["Walked along London Road to the station."], absent={"occupation": "Firefighter"}),
    C("video-call", ["Video call with home, everyone talking at once."], absent={"occupation": "Firefighter"}),
    C("library-is-free", ["Library's free for music & art books – underrated treasure troves!"], absent={"occupation": "Librarian"}),
    C("zh-left-school-to-work", ["高中毕业就出来工作了。"], absent={"occupation": "Unemployed"}),
    # a place of worship visited, a pastime, a preposition: no faith (religion, same rule)
    C("temples-of-india", ["Exploring the Ancient Temples of India"], absent={"religion": "Buddhism"}),
    C("church-then-roast", ["church this morning, then the best roast dinner"], absent={"religion": "Islam"}),
    C("meditative-calligraphy", ["The Meditative Benefits of Calligraphy Practice"], absent={"religion": "Buddhism"}),
    C("asthma-during-hikes", ["Tips for Managing Asthma During Hiking Adventures"], absent={"religion": "Islam"}),
    C("zh-mum-mosque", ["我妈每天都去清真寺做礼拜。"], absent={"religion": "Islam"}),
    C("zh-temple-photos", ["去寺庙拍了好多照片，建筑太美了。"], absent={"religion": "Buddhism"}),
    # counter-examples: a role word held by the poster, work wording, or two posts that agree
    C("own-nurse-shift", ["Another nurse shift done, my patients were lovely today."], present={"occupation": "Nurse"}),
    C("retired-now", ["retired now - no commute chess anymore!"], present={"occupation": "Retired"}),
    C("zh-wife-twice", ["我老婆订了周末的民宿", "我老婆做的红烧肉最好吃"], present={"gender": "male"}),
    C("two-wishes-one-day", [{"caption": "cake and candles tonight", "timestamp": "2025-07-05T20:00:00+00:00",
                              "comments": [{"author": "amy", "text": "Happy birthday!!"},
                                           {"author": "ben", "text": "happy bday, have a great one"}]}],
      present={"birth_date": "July"}),
    C("zh-loves-movies", ["最喜欢周末看电影，一个人也能看三场"], present={"hobbies": "movies"}),
    C("own-cancer-chemo", ["I have cancer, chemo starts Monday."], present={"health_condition": "cancer"}),
    C("my-group-project", ["Up all night on my group project, finals next week."], present={"occupation": "Student"}),
    C("plating-up-for-service", ["Plating up for service all night, my feet are done."], present={"occupation": "Chef"}),
    C("as-a-nurse-i-would", ["As a nurse I would say rest more, my patients never do."], present={"occupation": "Nurse"}),
    C("zh-own-nurse", ["我是护士，今天又上夜班。"], present={"occupation": "Nurse"}),
    C("zh-bakery-shift", ["我在面包店上早班，凌晨四点起来烤面包。"], present={"occupation": "Baker"}),
    C("librarian-shift", ["Library shift again: cataloguing, shelving and helping patrons find books all day."],
      present={"occupation": "Librarian"}),
    C("manager-staff", ["Budget meeting with my staff, then performance reviews for the team I manage."],
      present={"occupation": "Manager"}),
    C("zh-own-incense", ["每月初一去寺里上香。"], present={"religion": "Buddhism"}),
    C("own-friday-prayers", ["Praying at the mosque every Friday with my brothers."], present={"religion": "Islam"}),
    C("coder-two-posts", ["Shipped the new backend service today after a week of debugging.",
                          "Code review marathon, then fixed two production bugs before lunch."],
      present={"occupation": "Software Engineer"}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_weak_claim_hard_negative(case: Case, tmp_path) -> None:
    check(tmp_path, case)


def test_held_guess_stays_an_unresolved_hypothesis(tmp_path) -> None:
    """A held one-sentence guess is kept in the graph as an unresolved hypothesis with its reason
    (what SynthPAI's guesses read: benchmarks/synthpai_pred.py), not removed."""
    inv = check(tmp_path, next(c for c in CASES if c.id == "three-meetings"))
    held = [h for h in inv.graph.hypotheses(("unresolved", "suspended")) if h.attribute == "occupation"]
    assert any(h.value.startswith("Manager") for h in held), [(h.value, h.status) for h in held]
    h = next(h for h in held if h.value.startswith("Manager"))
    assert "one sentence" in str(h.data.hold), h.data


# hobbies: a trip's hashtag, an idiom, a place's sign are no pastime (issue 22, "hobbies from trip hashtags")
HOBBY_CASES = [
    C("wanderlust-tag", [{"caption": "Holiday mode on. Trying every street snack in sight", "tags": ["wanderlust"]}],
      absent={"hobbies": "travel"}),
    C("zh-travel-tag", [{"caption": "第一次来这边，街边小吃太好吃了", "tags": ["旅行"]}], absent={"hobbies": "travel"}),
    C("collecting-moments", ["collecting moments"], absent={"hobbies": "collecting"}),
    C("running-out", ["Podcast recommendations for the ride? Running out."], absent={"hobbies": "running"}),
    C("zh-reading-comprehension", ["给初中生讲英语阅读理解，讲到嗓子冒烟"], absent={"hobbies": "reading"}),
    # counter-examples: a stated love of travel, a collection, a run, a ticket for the pool
    C("loves-travel", ["I love traveling, thirty countries and counting"], present={"hobbies": "travel"}),
    C("collecting-vinyl", ["I love collecting vinyl, two new records this week"], present={"hobbies": "collecting"}),
    C("running-half", ["Running a half marathon on Sunday, legs already nervous"], present={"hobbies": "running"}),
]


@pytest.mark.parametrize("case", HOBBY_CASES, ids=[c.id for c in HOBBY_CASES])
def test_hobby_hard_negative(case: Case, tmp_path) -> None:
    check(tmp_path, case)


@pytest.mark.parametrize("lines,absent,present", [
    (["Swimming Pool"], "swimming", None),            # a place's sign
    (["小满健身"], "fitness", None),                    # a gym's name
    (["游泳馆单次票", "28/04"], None, "swimming"),       # a ticket: the poster swims
    (["桌游馆3小时", "27/12"], None, "board games"),     # a timed session paid for
], ids=["pool-sign", "zh-gym-name", "zh-pool-ticket", "zh-board-game-session"])
def test_hobby_from_image_text(lines, absent, present, tmp_path) -> None:
    """Image text (real OCR): a hobby word that is part of a place's name is a sign; a ticket, class or
    purchase line still says the poster does it."""
    from PIL import Image, ImageDraw, ImageFont

    from core.fonts import cjk_font
    from tests.hard_negatives import write_user

    font = cjk_font()             # DejaVu has no CJK glyphs: the sign must be read, or the case proves nothing
    if font is None:
        pytest.skip("no CJK font installed (make fonts)")
    case = Case("img", [{"caption": "today", "images": [{"file": "images/sign.png"}]}],
                absent={"hobbies": absent} if absent else {}, present={"hobbies": present} if present else {})
    udir = write_user(tmp_path, case)
    img = Image.new("RGB", (700, 300), "white")
    d = ImageDraw.Draw(img)
    for i, ln in enumerate(lines):
        d.text((30, 30 + i * 90), ln, fill="black", font=ImageFont.truetype(str(font), 60))
    img.save(udir / "images" / "sign.png")
    inv = check(tmp_path, case)
    read = " ".join(n.content or "" for n in inv.graph.evidence() if n.modality == "image")
    assert lines[0].replace(" ", "") in read.replace(" ", ""), read     # the OCR read the line the case is about
