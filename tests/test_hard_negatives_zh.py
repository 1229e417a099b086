"""Hard negatives in Chinese (simplified and traditional) and mixed-language posts (EN + ZH +
Malay), issue 22 kinds 1, 2 and 6: the real engine (offline backend) on a user made of the posts."""
from __future__ import annotations

import pytest

from tests.hard_negatives import Case, check

C = Case
CASES = [
    # kind 1: another person's fact
    C("zh-brother-lawyer", ["我哥哥是律师，天天加班到半夜"], absent={"occupation": "Lawyer"},
      present={"family_and_relations": "brother"}),
    C("zh-mom-doctor", ["我妈妈是医生，今天又值夜班"], absent={"occupation": "Doctor"}),
    C("zh-her-husband-coder", ["她老公是程序员，工资挺高的"], absent={"occupation": "Software", "relationship_status": "married"}),
    C("zh-friend-husband", ["我朋友的老公是医生，人很好"], absent={"relationship_status": "married", "occupation": "Doctor"}),
    C("zh-wish-mom-60", ["祝妈妈60岁生日快乐！身体健康"], absent={"age": "60"}),
    C("zh-wish-bestie-25", ["祝我闺蜜25岁生日快乐！"], absent={"age": "25"}),
    C("zh-he-teacher", ["他是一名老师，教数学的"], absent={"occupation": "Teacher"}),
    C("zh-generic-coders", ["大家都说程序员很累，其实还好吧"], absent={"occupation": "Software"}),
    # counter-examples
    C("zh-own-nurse", ["我是一名护士，今天又是夜班"], present={"occupation": "Nurse"}),
    C("zh-own-30", ["今天是我30岁生日，感谢大家"], present={"age": "30"}),
    # kind 2: implied holders (kin terms without 我 are the poster's own)
    C("zh-husband-trip", ["老公出差第三天，想他"], present={"relationship_status": "married", "family_and_relations": "husband"}),
    C("zh-son-today", ["儿子今天会叫爸爸了，感动"], present={"family_and_relations": "son"}),
    C("zh-wife-cooked", ["今天老婆做了一桌子菜"], present={"relationship_status": "married"}),
    C("zh-daughter-school", ["女儿今天第一天上幼儿园，哭成泪人"], present={"family_and_relations": "daughter"}),
    C("zht-daughter", ["女兒今天第一次上學，好緊張"], present={"family_and_relations": "daughter"}),
    C("zht-husband", ["老公今天下廚，超好吃"], present={"relationship_status": "married"}),
    C("zht-son", ["兒子終於會走路了"], present={"family_and_relations": "son"}),
    C("zh-husband-died", ["老公去世三年了，还是很想他"], absent={"relationship_status": "married"}),
    C("zh-repeated-spouse", ["老公出差第三天", "老公带我去吃火锅", "一个人在家好无聊"],
      absent={"relationship_status": "single"}, present={"relationship_status": "married"}),
    # mixed-language posts must not break the reading
    C("mix-hubby-nasi-lemak", ["今天和hubby去吃 nasi lemak, sedap gila!"], present={"relationship_status": "married"}),
    C("mix-malay-husband", ["Baru balik kerja, 老公 already cooked dinner lah"], present={"relationship_status": "married"}),
    C("mix-friend-job", ["Kawan saya, my friend Aisyah is a doctor kat KL, so proud!"], absent={"occupation": "Doctor"}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hard_negative_zh(case: Case, tmp_path) -> None:
    check(tmp_path, case)
