"""Chinese birth-year forms (issue 34, general knowledge of how they are written): the colloquial
"我00年的" / "我是90年的" (born 2000 / 1990), and a certificate's holder line "周思宁同志（女，1994年5月生）".
Hard negatives: a year of something else ("我00年的时候", "我是2015年的会员"), a relative's ("我妈是65年的"),
a public notice's candidate ("任前公示：张伟同志（男，1975年3月生）拟任"). Each case runs the real engine."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.hard_negatives import Case, profile_of


def _posts(text: str) -> list[dict]:
    return [{"caption": text, "timestamp": "2026-03-01T10:00:00+00:00"},
            {"caption": "周末去江边散步。", "timestamp": "2026-04-01T10:00:00+00:00"}]


POSITIVE = [
    ("colloquial-00", "我00年的，同学都开始结婚了，我还在加班。", "2000"),
    ("colloquial-shi-90", "我是90年的。腰已经开始疼了", "1990"),
    ("certificate", "结业证书\n周思宁同志（女，1994年5月生）于2024年9月至2025年8月在南京钟阜医院参加培训，准予结业。", "1994年5月"),
]


@pytest.mark.parametrize("cid,text,value", POSITIVE, ids=[p[0] for p in POSITIVE])
def test_a_chinese_birth_year_form_reads(tmp_path: Path, cid: str, text: str, value: str) -> None:
    prof, _ = profile_of(tmp_path, Case(cid, _posts(text)))
    assert prof.get("birth_date") and value in prof["birth_date"], prof.get("birth_date")


NEGATIVE = [
    ("year-then", "我00年的时候还在上小学"),
    ("member-year", "我是2015年的会员，一直续费"),
    ("mother", "我妈是65年的，今年退休了"),
    ("son", "我儿子是15年的，今年上五年级"),
    ("notice", "任前公示：张伟同志（男，1975年3月生）拟任市交通局局长"),
    ("bio-comma", "张伟，男，1975年3月生，汉族，中共党员"),
]


@pytest.mark.parametrize("cid,text", NEGATIVE, ids=[n[0] for n in NEGATIVE])
def test_no_birth_year_from_others_or_other_years(tmp_path: Path, cid: str, text: str) -> None:
    prof, _ = profile_of(tmp_path, Case(cid, _posts(text)))
    assert prof.get("birth_date") is None, prof.get("birth_date")
