"""The one reader of data files (core/data_file.py): a fault is one line naming the file, the entry
and the field; with `key` a list entry is named by that field ("entries[3] (arvo): field strength"),
which regionalisms.json reads through, as tools/data/transit.json does (the tools never import the engine)."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from pydantic import BaseModel

from core.data_file import load_model
from core.engine.rules import regionalisms


class _Item(BaseModel):
    name: str
    size: int


class _File(BaseModel):
    items: list[_Item]


def test_a_keyed_list_entry_is_named_by_its_key(tmp_path: Path) -> None:
    p = tmp_path / "things.json"
    p.write_text(json.dumps({"items": [{"name": "a", "size": 1}, {"name": "lamp", "size": "big"}]}))
    with pytest.raises(ValueError, match=r"things\.json: items\[1\] \(lamp\): field size: "):
        load_model(p, _File, ValueError, key="name")
    with pytest.raises(ValueError, match=r"things\.json: field items\.1\.size: "):
        load_model(p, _File, ValueError)


def test_regionalisms_file_reads_through_the_shared_reader(tmp_path: Path) -> None:
    raw = json.loads(regionalisms.PATH.read_text(encoding="utf-8"))
    raw["entries"][3] = {**raw["entries"][3], "strength": 1.5}
    p = tmp_path / "regionalisms.json"
    p.write_text(json.dumps(raw))
    with pytest.raises(regionalisms.RegionalismError, match=r"regionalisms\.json: entries\[3\] \(.+\): field strength"):
        load_model(p, regionalisms.RegionalFile, regionalisms.RegionalismError, key="term")
    src = regionalisms.__file__
    assert "json.loads" not in Path(src).read_text(encoding="utf-8"), "regionalisms reads through core/data_file.py"


def test_socio_imports_the_taxonomy_at_module_level() -> None:
    tree = ast.parse(Path("core/engine/rules/socio.py").read_text(encoding="utf-8"))
    inner = [n.lineno for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
             for n in ast.walk(f) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert inner == []


# -- issue 33: the word lists of rules/socio.py, occupation_taxonomy.py and workplace_labels.py are data

def test_socio_reads_its_words_patterns_and_confidences_from_socio_json() -> None:
    from core.engine.rules import socio
    from core.engine.rules.recognizer_data import family

    d = family("socio")
    assert socio._W.stated_not_name == frozenset(d.words("stated_not_name")) and "Home" in socio._W.stated_not_name
    assert socio._M.home_values["landlord"] == "rental property" and socio._M.income_multipliers["万"] == 10000
    assert socio._P.faculty_split_zh.match("复旦大学新闻学院").groups() == ("复旦大学", "新闻学院")
    assert socio._S["occupation:explicit"] == 0.85 and socio._S["school:name_no_context"] == 0.3
    src = Path(socio.__file__).read_text(encoding="utf-8")
    for inline in ('"The", "My"', '"landlord"', '"摩托"', "0.85 if", "0.7 if", "当老师", "我|本人", '"考研"', '"贷"', '"小老大阿"'):
        assert inline not in src, inline


def test_the_words_that_may_follow_a_title_and_the_honorifics_are_the_taxonomy_files(tmp_path: Path) -> None:
    from core.engine.rules import occupation_taxonomy as ot

    ix = ot.index()
    assert {"bei", "in", "for", "di"} <= ix.follow_ok and ix.name.match("Dr. Jane Doe")
    raw = json.loads(ot.DATA.read_text(encoding="utf-8"))
    raw["words"]["title_followed_by"]["entries"]["de"].remove("bei")
    raw["words"]["signature_honorifics"]["entries"] = {"en": ["Dr"]}
    p = tmp_path / "occupations.json"
    p.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    mine = ot.index(str(p))
    assert "bei" not in mine.follow_ok and not mine.name.match("Prof. Jane Doe") and ix.name.match("Prof. Jane Doe")
    assert ot._after_ok("pfleger bei x", 7, ix, True) and not ot._after_ok("pfleger bei x", 7, mine, True)


def test_a_bad_taxonomy_entry_is_named_by_its_id(tmp_path: Path) -> None:
    from core.engine.rules import occupation_taxonomy as ot

    raw = json.loads(ot.DATA.read_text(encoding="utf-8"))
    raw["occupations"][4]["isco"] = "x"
    p = tmp_path / "occupations.json"
    p.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ot.TaxonomyError, match=rf"occupations\.json: occupations\[4\] \({raw['occupations'][4]['id']}\): field isco"):
        ot.load(p)


def test_compound_organisation_endings_and_lead_unit_words_are_data(tmp_path: Path) -> None:
    from core.engine.rules import workplace_labels as wl

    r = wl.load()
    assert r.org_word.search("Isarklinik Süd") and r.lead.search("Servicio de Cardiología")
    raw = json.loads(wl.DATA.read_text(encoding="utf-8"))
    raw["words"]["organization_word_endings"]["entries"] = {"de": ["werke"]}
    raw["words"]["unit_lead_words"]["entries"] = {}
    p = tmp_path / "workplace_labels.json"
    p.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    r2 = wl.load(p)
    assert not r2.org_word.search("Isarklinik Süd") and r2.org_word.search("Stadtwerke")
    assert not r2.lead.search("Servicio de Cardiología")
