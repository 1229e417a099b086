"""Hard negatives in English (issue 22, kinds 1, 2, 3 and 6): another person's fact is not the
account's, an implied holder is read, names and ages come from what is addressed to the account.
Each case runs the real engine (offline backend) on a user made of its posts; each asserts the
wrong conclusion is absent and, where the text supports one, the right one present."""
from __future__ import annotations

import pytest

from tests.hard_negatives import Case, check

C = Case
CASES = [
    # kind 1: another person's fact becomes the user's
    C("brother-lawyer", ["My brother is a lawyer at a big firm downtown, so proud of him."],
      absent={"occupation": "Lawyer"}, present={"family_and_relations": "brother"}),
    C("sister-nurse", ["My sister is a nurse and works nights all week."],
      absent={"occupation": "Nurse"}, present={"family_and_relations": "sister"}),
    C("wife-teacher", ["My wife is a teacher at the local primary school."],
      absent={"occupation": "Teacher"}, present={"relationship_status": "married"}),
    C("her-husband-pilot", ["Her husband works as a pilot for a regional airline."], absent={"occupation": "Pilot"}),
    C("son-chickenpox", ["My son has chickenpox again, poor kid."],
      absent={"health_condition": "chickenpox"}, present={"family_and_relations": "son"}),
    C("mom-diabetes", ["My mom has diabetes so we cook low sugar at home now."], absent={"health_condition": "diabetes"}),
    C("coworker-pregnant", ["My coworker is pregnant with twins!"], absent={"health_condition": "pregnan"}),
    C("friend-birthday-age", ["Happy 30th birthday to my best friend Sarah!"], absent={"age": "30"}),
    C("brother-birthday-age", ["Happy 45th birthday to my big brother, love you"], absent={"age": "45"}),
    C("dad-65-today", ["My dad is 65 today! Cake and card all sorted."], absent={"age": "65"}),
    C("son-turning-30-today", ["My son is turning 30 today, how did that happen"],
      absent={"age": "30", "birth_date": "1995"}),
    C("mom-turned-70-today", ["Mom turned 70 today! So proud of her"], absent={"age": "70", "birth_date": "1955"}),
    C("own-turning-30-today", ["Turning 30 today! Cake with my husband, best birthday ever."],
      present={"age": "30", "birth_date": "March 1"}),
    C("daughter-turns-16", ["My daughter turns 16 today, where did the time go"], absent={"age": "16"}),
    C("quoted-nurse", ['"I\'m a nurse and I work nights" - my sister, every single day'],
      absent={"occupation": "Nurse"}, present={"family_and_relations": "sister"}),
    C("quoted-engineer", ['My uncle always says "I am a software engineer, not your IT help desk" at dinner'],
      absent={"occupation": "Software"}),
    C("repost-surgeon", ["RT @healthdesk: I'm a surgeon and I have seen what fireworks do to hands"],
      absent={"occupation": "Surgeon"}),
    C("friend-moved-berlin", ["My friend just moved to Berlin for work, jealous!"], absent={"home_location": "Berlin"}),
    C("his-job-chef", ["He works as a chef in a busy hotel kitchen."], absent={"occupation": "Chef"}),
    C("generic-nurses", ["Nurses are so underpaid, honestly criminal"], absent={"occupation": "Nurse"}),
    C("generic-women-kitchens", ["Women lead culinary teams now; men rock guest relations!"], absent={"occupation": "Chef"}),
    C("own-and-generic", ["I'm a nurse and nurses are underpaid"], present={"occupation": "Nurse"}),
    # counter-examples: the poster's own facts still count
    C("own-lawyer", ["I'm a lawyer, long day in court."], present={"occupation": "Lawyer"}),
    C("own-nurse", ["I work as a nurse in the ICU, night shifts again this week."], present={"occupation": "Nurse"}),
    C("own-diabetes", ["I have diabetes, so no cake for me at the party."], present={"health_condition": "diabetes"}),
    C("own-and-husband", ["My husband and I run a bakery on the high street."], present={"relationship_status": "married"}),
    # kind 2: implied holders
    C("the-wife-and-i", ["The wife and I finally went to Lisbon."], present={"relationship_status": "married"}),
    C("hubby-cooked", ["hubby cooked dinner tonight, best risotto ever"],
      absent={"occupation": "Chef"}, present={"relationship_status": "married", "family_and_relations": "husband"}),
    C("date-night-husband", ["date night with the husband, first one in months"], present={"relationship_status": "married"}),
    C("our-little-one", ["our little one starts nursery tomorrow, not ready"], present={"family_and_relations": "child"}),
    C("wifey-bakes", ["Wifey baked sourdough again, the kitchen smells amazing"], present={"relationship_status": "married"},
      absent={"occupation": "Baker"}),
    C("repeated-spouse", ["Sunday walk with my husband by the river", "My husband fixed the sink, finally",
                          "Anniversary dinner with my husband tonight", "Feeling a bit alone tonight, long week"],
      absent={"relationship_status": "single"}, present={"relationship_status": "married"}),
    C("repeated-spouse-not-widowed", ["My wife made the best curry", "Road trip with my wife next week",
                                      "Missing the old days, time flies"],
      absent={"relationship_status": "widowed"}, present={"relationship_status": "married"}),
    C("losing-my-spouse", ["Life got real quick after losing my spouse, facing bills alone now"],
      absent={"relationship_status": "married"}, present={"relationship_status": "widowed"}),
    C("husband-works-late", ["my husband is working late tonight again"], present={"relationship_status": "married"}),
    # a marriage the sentence says ended is no living one; an own wedding told in the past is one
    C("married-then-solo", ["got married early only to realize solo was more my jam later down the road"],
      absent={"relationship_status": "married"}, present={"relationship_status": "divorced"}),
    C("married-then-split-up", ["We got married at 22 and split up at 30, no regrets."],
      absent={"relationship_status": "married"}, present={"relationship_status": "divorced"}),
    C("wedding-vows-were", ['Wedding vows were my ultimate "this is real" moment.'],
      absent={"relationship_status": "engaged"}, present={"relationship_status": "married"}),
    C("her-wedding-was", ["Her wedding was beautiful, cried the whole time."], absent={"relationship_status": "married"}),
    C("my-wedding-is-in-june", ["My wedding day is in June, so much to plan!"], absent={"relationship_status": "married"}),
    C("got-married-last-year", ["Got married last year and the party ended at 2am."],
      present={"relationship_status": "married"}, absent={"relationship_status": "divorced"}),
    C("her-husband-not-mine", ["Her husband is lovely, met him at the party"], absent={"relationship_status": "married"}),
    C("the-wife-of-boss", ["The wife of my boss is a chef, dinner was incredible"],
      absent={"relationship_status": "married", "occupation": "Chef"}),
    # kind 3: names addressed to the account
    C("congrats-priya", [{"caption": "Got the job!!", "comments": [
        {"author": "amy_k", "text": "Congrats Priya!!"}, {"author": "dev88", "text": "So proud of you, Priya!"}]}],
      present={"real_name": "Priya"}),
    C("happy-birthday-marco", [{"caption": "Another year older", "comments": [
        {"author": "lu", "text": "Happy birthday Marco! 🎉"}]},
        {"caption": "cake for breakfast", "comments": [{"author": "sam_p", "text": "Marco, you legend"}]}],
      present={"real_name": "Marco"}),
    C("one-commenter-nickname", [{"caption": "Slow Saturday at home", "comments": [
        {"author": "jess.k", "text": "Happy birthday Owen!!"}]}], absent={"real_name": "Owen"}),
    C("reply-to-commenter", [{"caption": "Sunset at the pier", "comments": [
        {"author": "maya_lee", "text": "Where is this?"}, {"author": "sam", "text": "Hey Maya, it's the old harbour"}]}],
      absent={"real_name": "Maya"}),
    C("own-caption-congrats", ["Congrats Priya on the new job, you deserve it!"], absent={"real_name": "Priya"}),
    C("congrats-girl", [{"caption": "Promotion day", "comments": [{"author": "x", "text": "Congrats girl!!"}]}],
      absent={"real_name": "Girl"}),
    # kind 6: age from context
    C("big-3-0", ["Celebrating the big 3-0 this weekend with everyone!"], present={"age": "30"}),
    C("big-4-0-next-month", ["Can't believe I'm hitting the big 4-0 next month"], present={"age": "39"}),
    C("my-40th-next-month", ["can't wait for my 40th next month, party planning mode"], present={"age": "39"}),
    C("my-own-30-today", ["my own birthday, 30 today and feeling it"], present={"age": "30"}),
    C("comment-youre-29", [{"caption": "birthday dinner with the crew", "comments": [
        {"author": "jo", "text": "can't believe you're 29!"}]}], present={"age": "29"}),
    C("comment-happy-29th", [{"caption": "cake time", "comments": [{"author": "jo", "text": "Happy 29th!!"}]}],
      present={"age": "29"}),
    # the degree itself is one sentence read by similarity: held (tests/test_one_sentence_levels.py)
    C("class-year-degree", ["Class of 2015, BSc Computer Science, still miss campus"],
      absent={"birth_date": "2015"}),
    C("asked-big-3-0", ["hitting the big 3-0? add 'find a stable career' to the list lol"], absent={"age": "30"}),
    C("class-of-99-babies", ["class of '99 babies unite, our knees are done"],
      absent={"age": "40s"}, present={"birth_date": "1999"}),
    C("40th-marathon", ["my 40th marathon done, legs are jelly"], absent={"age": "40"}),
    C("my-25th-next-week", ["my 25th birthday is next week, any ideas?"], present={"age": "24"}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hard_negative_en(case: Case, tmp_path) -> None:
    check(tmp_path, case)


def test_another_persons_fact_is_removed_with_its_holder(tmp_path) -> None:
    """The verifier keeps the reason in history: 'holder: brother', never projected."""
    inv = check(tmp_path, CASES[0])
    removed = [h for h in inv.graph.hypotheses(("removed",)) if h.attribute == "occupation"]
    assert removed and removed[0].data.holder == "other:brother"
    rows = inv.ctx.db.execute("SELECT reason FROM hypothesis_history WHERE run_id=? AND node_id=?",
                              [inv.run_id, removed[0].node_id]).fetchall()
    assert any("holder: brother" in r[0] for r in rows), rows


def test_runs_show_all_gives_the_holder_reason(tmp_path) -> None:
    """`argus runs show --all` lists the removed claim with why: another person's fact."""
    import os
    import subprocess
    import sys

    inv = check(tmp_path, CASES[0])
    r = subprocess.run([sys.executable, "-m", "argus_tui.cli", "runs", "show", str(tmp_path / "runs.db"), inv.run_id,
                        "--all"], capture_output=True, text=True, env={**os.environ, "COLUMNS": "80"}, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if "Lawyer" in ln)
    assert "removed" in line and "holder: brother" in line


def test_number_on_a_birthday_cake_is_the_age(tmp_path) -> None:
    """Kind 6: a lone number on a cake or balloon beside the poster's own birthday post (real OCR)."""
    from tests.engine_user import render_text_image
    from tests.hard_negatives import write_user

    case = Case("cake-number", [{"caption": "my birthday today, thank you all for coming",
                                 "images": [{"file": "images/cake.png"}]}], present={"age": "34"})
    udir = write_user(tmp_path, case)
    render_text_image(udir / "images" / "cake.png", ["34"], size=(500, 400), font_size=120)
    check(tmp_path, case)


def test_console_detail_gives_the_holder_reason(tmp_path) -> None:
    """The console's hypothesis detail (argus_tui.widgets.cpeg.node_detail) on the run the engine wrote."""
    from argus_tui.state import build_snapshot
    from argus_tui.widgets.cpeg import node_detail
    from db.store import open_db

    inv = check(tmp_path, CASES[0])
    removed = next(h for h in inv.graph.hypotheses(("removed",)) if h.attribute == "occupation")
    snap = build_snapshot(open_db(tmp_path / "runs.db"), inv.run_id)
    text = node_detail(snap, removed.node_id).plain
    assert "removed because: holder: brother" in text, text
