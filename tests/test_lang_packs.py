"""Language packs (core/data/lang/<code>.json, core/engine/reading/lang.py): the reading's function
words are data, validated at load; a new language is a data pack (issue 33); the shipped packs for
the languages people post in (issue 34) each read self-disclosure, kinship and a place, and keep
someone else's facts and negated statements out."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.engine.reading import lang
from core.engine.reading.data_file import load_model
from core.engine.reading.lang import Pack, PackError

ROOT = Path(__file__).resolve().parents[1]


def _run(code: str, packs_dir: Path | None) -> str:
    """The engine in a fresh process (packs are discovered at import), ARGUS_LANG_PACKS set."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(lang.ENV, None)
    if packs_dir is not None:
        env[lang.ENV] = str(packs_dir)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


_CUES = """
import json, sys
from core.engine.rules.extract import extract_cues
from core.engine.rules.base import Ctx
out = []
for t in json.loads(sys.argv[1]) if len(sys.argv) > 1 else TEXTS:
    ctx = Ctx(t, t, carrier=None, lang=None)
    out.append({"cues": [[c.attribute, c.value, c.holder, c.cue] for c in extract_cues(t)],
                "holder_end": ctx.holder(len(t) - 2).label, "packs": [p.code for p in ctx.packs]})
print(json.dumps(out))
"""


def _read(texts: list[str], packs_dir: Path | None = None) -> list[dict]:
    return json.loads(_run(f"TEXTS = {texts!r}\n" + _CUES, packs_dir))


# ---------------------------------------------------------------- item 1: the en / zh words are the packs'
def test_shipped_packs_validate_and_the_reading_builds_from_them() -> None:
    from core.engine.reading import holder, kin
    en, zh = lang.pack("en"), lang.pack("zh")
    assert not en.generic_reader and not zh.generic_reader
    assert kin.KIN_EN == {**en.kin, **en.people} and kin.KIN_ZH == {**zh.kin, **zh.people}
    assert holder.OTHER_EN == "|".join(en.other_subjects)
    assert "|".join(en.negation) in holder._NEG_EN.pattern and "|".join(zh.negation) in holder._NEG_ZH.pattern
    assert kin.fold_zh("媽媽") == "妈妈"


def test_an_en_pack_word_changes_the_reading(tmp_path: Path) -> None:
    """The holder reads the en pack's words: a kin word added in a pack of an extra folder makes its
    clause someone else's (without it, "my stepgran" is the poster's own statement)."""
    en = json.loads((lang.PACK_DIR / "en.json").read_text(encoding="utf-8"))
    en["other_subjects"].append("stepgran")
    en["kin"]["stepgran"] = "grandmother"
    (tmp_path / "en.json").write_text(json.dumps(en), encoding="utf-8")
    text = "my stepgran is a nurse at the clinic"
    assert _read([text])[0]["holder_end"] == "self"
    assert _read([text], tmp_path)[0]["holder_end"] == "other:grandmother"


@pytest.mark.parametrize("field,value,needle", [
    ("negation", ["(unclosed"], "field negation: Value error, entry 0 '(unclosed'"),
    ("kin", {"zus": ""}, "field kin: Value error, entry 'zus'"),
    ("age_statements", ["ik ben jaar"], "field age_statements: Value error, entry 0 'ik ben jaar': needs {n}"),
    ("colour", ["x"], "field colour: Extra inputs are not permitted"),
])
def test_a_bad_pack_is_one_line_naming_file_entry_and_field(tmp_path: Path, field: str, value, needle: str) -> None:
    f = tmp_path / "nl.json"
    f.write_text(json.dumps({"code": "nl", "name": "Dutch", field: value}), encoding="utf-8")
    with pytest.raises(PackError) as e:
        load_model(f, Pack, PackError)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(str(f)) and needle in msg, msg


def test_a_pack_named_unlike_its_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "nl.json").write_text(json.dumps({"code": "it", "name": "x"}), encoding="utf-8")
    monkeypatch.setenv(lang.ENV, str(tmp_path))
    lang.reset()
    try:
        with pytest.raises(PackError, match=r"nl\.json: field code: 'it' is not the file's name 'nl'"):
            lang.packs()
    finally:
        monkeypatch.delenv(lang.ENV)
        lang.reset()


# ---------------------------------------------------------------- item 2: a new language is a data pack
DUTCH = {"code": "nl", "name": "Dutch (a test's pack)", "detect": ["ik", "het", "een", "niet", "van", "ben", "woon"],
         "self_words": ["ik"], "self_possessive": ["mijn", "m'n"], "other_possessive": ["zijn", "haar", "hun"],
         "other_pronouns": ["hij", "zij"], "negation": ["niet", "geen", "nooit"],
         "kin": {"zus": "sister", "broer": "brother", "man": "husband", "moeder": "mother"},
         "people": {"vriendin": "friend", "vriend": "friend"},
         "age_statements": ["ik ben {n} jaar"], "home_statements": ["ik woon in {place}"]}


def test_a_new_language_is_a_data_pack(tmp_path: Path) -> None:
    """A Dutch pack (the engine has none) written to a temp folder: self-disclosure (an age), kinship
    (the poster's sister, whose clause is hers) and a place (home) are read in Dutch, no Python
    changed; without the pack none of it is."""
    (tmp_path / "nl.json").write_text(json.dumps(DUTCH), encoding="utf-8")
    texts = ["Ik ben 34 jaar en ik woon in Utrecht.", "Mijn zus is verpleegkundige in Rotterdam.",
             "Ik woon niet in Utrecht en ik ben geen 34 jaar.", "De broer van mijn vriendin woont in Utrecht."]
    got = _read(texts, tmp_path)
    cues0 = {(a, v, h) for a, v, h, _ in got[0]["cues"]}
    assert ("age", "34", "self") in cues0 and ("home_location", "Utrecht", "self") in cues0
    assert got[0]["packs"] == ["nl"]
    assert [("family_and_relations", "sister", "self")] == [(a, v, h) for a, v, h, _ in got[1]["cues"]]
    assert got[1]["holder_end"] == "other:sister"           # what follows "mijn zus" is hers
    assert not [c for c in got[2]["cues"] if c[0] in ("age", "home_location")]   # negated
    assert not [c for c in got[3]["cues"] if c[0] == "family_and_relations"]    # a friend's brother
    assert got[3]["holder_end"] == "other:friend"
    without = _read(texts)
    assert not any(c[0] in ("age", "home_location", "family_and_relations") for r in without for c in r["cues"])
    assert all(r["packs"] == [] and r["holder_end"] == "self" for r in without[:2])


# ---------------------------------------------------------------- issue 34: the languages people post in
# (lang, the poster's age and home, their age, their home, a family word of theirs, its relation,
#  someone else's age or home, a friend's relative, a negated statement)
CASES = [
    ("es", "Tengo 34 años y vivo en Sevilla.", "34", "Sevilla", "Ayer cené con mi hermana en casa.", "sister",
     "Mi hermano tiene 40 años y vive en Madrid.", "La hermana de mi amiga es enfermera y vive en Madrid.",
     "No vivo en Madrid y nunca tengo 30 años de nada."),
    ("pt", "Tenho 34 anos e moro em Lisboa.", "34", "Lisboa", "Fui ao cinema com minha irmã ontem.", "sister",
     "Meu irmão tem 40 anos e mora em Lisboa.", "A irmã da minha amiga é enfermeira.", "Não moro em Lisboa."),
    ("fr", "J'ai 34 ans et j'habite à Lyon.", "34", "Lyon", "Dîner chez ma sœur ce soir, trop bien.", "sister",
     "Mon frère a 40 ans et il habite à Paris.", "La sœur de mon amie est infirmière.", "Je n'habite pas à Lyon."),
    ("de", "Ich bin 34 Jahre alt und wohne in Hamburg.", "34", "Hamburg", "Heute mit meiner Schwester im Kino, und es war toll.",
     "sister", "Meine Eltern wohnen in Rosenheim und sind 60 Jahre alt.", "Die Schwester von meiner Freundin ist Ärztin.",
     "Ich wohne nicht in Berlin."),
    ("ms", "Saya tinggal di Bandung. Umur saya 34 tahun.", "34", "Bandung", "Hari ini makan malam dengan suami saya.",
     "husband", "Adik saya tinggal di Surabaya.", "Adik kawan saya sangat baik.", "Saya tidak tinggal di Bandung."),
    ("ja", "私は34歳です。大阪に住んでいます。", "34", "Osaka", "兄の結婚式で京都へ行った。", "older brother",
     "娘が20歳になりました。", "友達の兄は医者です。", "大阪に住んでいない。"),
    ("ko", "저는 34살이에요. 서울에 살아요.", "34", "Seoul", "남편이랑 광안리 산책.", "husband",
     "친구 엄마가 서울에 살아요.", "친구의 엄마는 간호사예요.", "서울에 안 살아요."),
]


def _facts(text: str, attrs=("age", "home_location", "family_and_relations")) -> set[tuple[str, str, str]]:
    from core.engine.rules.extract import extract_cues
    return {(c.attribute, c.value, c.holder) for c in extract_cues(text) if c.attribute in attrs}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_each_pack_reads_the_poster_and_keeps_others_out(case) -> None:
    code, own, age, home, kin_text, relation, others, friends_kin, negated = case
    got = _facts(own)
    assert ("age", age, "self") in got and ("home_location", home, "self") in got, got
    assert ("family_and_relations", relation, "self") in _facts(kin_text)
    # someone else's age or home is theirs (their family word may still be the poster's relative)
    assert not {f for f in _facts(others) if f[0] in ("age", "home_location")}
    # a friend's relative is nobody of the poster's
    assert not {f for f in _facts(friends_kin) if f[0] == "family_and_relations" and f[1] == relation}
    assert not {f for f in _facts(negated) if f[0] in ("age", "home_location")}


def test_an_english_text_is_read_by_no_generic_pack() -> None:
    from core.engine.reading.lang import text_packs
    for t in ("I live in Madrid with my sister and I am 34.", "Dinner with the family, then a walk by the river.",
              "我今年34岁，住在成都。"):
        assert text_packs(t) == ()
