"""Occupation statements the rules missed (issue 34), measured on SynthPAI dev and PRISM: a stated
retirement ("since I retired", "my retirement", 退休以后), a field of work named with a word of working
("my software engineering work", "working in education", "retail life chose me", "after a long day of
teaching"), and the ways people call themselves by their job in passing ("proud to be a nurse", "this old
professor", "for a chef like me", "me, a mechanic by day"). Each has hard negatives: a plan, a wish,
someone else's job or retirement, a past field, a pastime title. Real rules (extract_cues), no mocks."""
from __future__ import annotations

import pytest

from core.engine.rules import extract_cues


def _roles(text: str) -> set[str]:
    """The poster's occupation values read by rules (not by similarity), as the hypothesizer keeps them."""
    return {c.value for c in extract_cues(text, carrier="caption")
            if c.attribute == "occupation" and c.holder == "self" and c.data.stance is None
            and not c.cue.startswith("semantic:")}


# ------------------------------------------------------------------------------ stated retirement
@pytest.mark.parametrize("lang, text", [
    ("en", "Navigating retirement alone – suddenly all life's lessons crystallized."),
    ("en", "Had sorta inverse experience - retirement made me rethink independence completely"),
    ("en", "Even after retirement, witnessing these dynamics makes you wonder which lessons stick"),
    ("en", "retired now - no commute chess anymore"),
    ("en", "Since I retired I garden every day."),
    ("en", "I retired last year after 30 years at the plant."),
    ("en", "I'm retired and loving it."),
    ("zh", "我退休以后天天去公园下棋。"),
    ("zh", "退休生活比想象中忙。"),
])
def test_a_stated_retirement_is_retired(lang: str, text: str) -> None:
    assert _roles(text) == {"Retired"}, (lang, _roles(text))


@pytest.mark.parametrize("lang, text", [
    ("en", "I just retired my old running shoes."),                     # retire = stop using a thing
    ("en", "My dad is retired now and bored."),                         # someone else's
    ("en", "retirement planning's basically rocket science rn lol"),    # a plan
    ("en", "My retirement plans keep changing."),
    ("en", "wait till you see retired nonnas' unofficial cooking classes"),
    ("en", "I'm hoping to retire early."),                              # a wish
    ("en", "Found tranquility amidst bustling skylines; retirement changes perspectives."),   # people in general
    ("zh", "我爸退休以后天天钓鱼。"),                                      # 爸's retirement
])
def test_a_plan_or_someone_elses_retirement_is_not(lang: str, text: str) -> None:
    assert "Retired" not in _roles(text), (lang, _roles(text))


def test_a_retired_nurse_stays_the_role_tables() -> None:
    assert _roles("I'm a retired nurse.") == {"Nurse"}


# ------------------------------------------------------------------------------ a field of work
@pytest.mark.parametrize("text, value", [
    ("The tranquility there is a far cry from the debugging in my software engineering work.", "Software Engineer"),
    ("studying commerce but retail life chose me for now", "Retail"),
    ("especially while working in education, i've seen attitudes shift quite a bit", "Education"),
    ("In Kyoto I found harmony between calligraphy, yoga, and my tech career.", "Technology"),
    ("Just had an amazing dance session after a long day of teaching", "Teacher"),
    ("Nature calms my mind, especially after a busy week in marketing", "Marketing"),
    ("Research may be my job, but these adventures feed my soul", "Researcher"),
])
def test_a_field_of_work_is_the_posters_occupation(text: str, value: str) -> None:
    assert _roles(text) == {value}, _roles(text)


@pytest.mark.parametrize("text", [
    "Finance life isn't just 'Wolf of Wall Street' flair!",      # said of anyone in finance
    "reminiscing about my nursing days while enjoying a taste of Italy",   # a past field
    "I used to work in retail.",
    "My sister is working in finance.",
    "I don't work in tech anymore.",
    "I'd love a career in nursing.",                             # a wish
    "this is the perfect blend of my travel, wellness, and tech life",     # a gadget lover's too
    "My husband had a long day of teaching.",
])
def test_a_field_said_of_others_in_the_past_or_wished_is_not(text: str) -> None:
    assert not _roles(text), _roles(text)


# ------------------------------------------------------------------- a job named in passing
@pytest.mark.parametrize("text, value", [
    ("a truly enriching experience for this old professor.", "Professor"),
    ("Pure delight for a chef like me", "Chef"),
    ("it's all part of what makes me, a mechanic by day and an art loving traveler by night", "Mechanic"),
    ("I'm so proud to be a nurse.", "Nurse"),
])
def test_a_job_named_in_passing_is_the_posters(text: str, value: str) -> None:
    assert _roles(text) == {value}, _roles(text)


@pytest.mark.parametrize("text", [
    "My daughter is proud to be a nurse.",          # someone else's
    "She said she's proud to be a teacher.",
    "I'd be proud to be a nurse one day.",          # a wish
    "life is truly fulfilling for this old artist.",   # a pastime title (guard hobby_titles), even before a full stop
    "Being a nurse is hard.",                       # people in general
])
def test_a_job_in_passing_of_others_wished_or_a_pastime_is_not(text: str) -> None:
    assert not _roles(text), _roles(text)


@pytest.mark.parametrize("text", ["I'm a beekeeper.", "I'm a potter.", "I'm a beekeeper"])
def test_a_pastime_title_before_a_full_stop_is_still_a_pastime(text: str) -> None:
    # the title's last word carried the full stop ("beekeeper."), which slipped past guard hobby_titles
    assert not _roles(text), _roles(text)


# ---------------------------------------------------- a field of work labelling the account's content
def _label_roles(text: str, carrier: str) -> set[str]:
    return {c.value for c in extract_cues(text, carrier=carrier)
            if c.attribute == "occupation" and c.cue == "occupation:field_label" and c.holder == "self"}


@pytest.mark.parametrize("text, carrier, value", [
    ("Software Engineering", "caption", "Software Engineer"),          # a topic title (PRISM's topic lists)
    ("Nursing and Patient Care", "caption", "Nurse"),
    ("Teaching and Education", "caption", "Teacher"),
    ("Mechanics and Auto Repair", "caption", "Mechanic"),
    ("Loved the day #Teaching #Buddhism", "caption", "Teacher"),       # a tag in a post
    ("radiography", "hashtag", "Radiographer"),                        # a tags[] entry (role from the open taxonomy)
    ("Work - Nursing", "caption", "Nurse"),
    ("Software Development", "caption", "Software Engineer"),
])
def test_a_field_of_work_labelling_the_content_is_a_weak_occupation(text: str, carrier: str, value: str) -> None:
    assert _label_roles(text, carrier) == {value}, _label_roles(text, carrier)


@pytest.mark.parametrize("text, carrier", [
    ("r/AusFinance", "hashtag"),                      # personal finance: anyone's money, not a job
    ("Finance and Investment", "caption"),
    ("Coding and Programming", "caption"),            # a pastime as often as a job
    ("Travel and Food Culture", "caption"),
    ("Hobbies (Hiking, Reading, Painting)", "caption"),
    ("Today was great. Teaching is fun.", "caption"),  # a sentence, not a label
    ("I love research papers about teaching", "caption"),
    ("Research Work", "caption"),                     # students and hobbyists label their work research too
    ("Cooking and Culinary Arts", "caption"),         # home cooks
    ("#marketing #smallbusiness", "caption"),         # a shop owner's tags
    ("Mechanics", "caption"),                         # physics as often as cars
])
def test_a_pastime_a_money_topic_or_a_sentence_is_no_field_label(text: str, carrier: str) -> None:
    assert not _label_roles(text, carrier), _label_roles(text, carrier)
