"""Kin and relation terms (EN, simplified and traditional Chinese) with their canonical names, and
the traditional -> simplified folding the Chinese patterns read through."""
from __future__ import annotations

# traditional characters of kin, pronoun, age and status words -> simplified (one to one, so a
# folded text keeps every offset: spans are still cut from the original)
_TRAD = ("兒儿 媽妈 寶宝 閨闺 對对 婦妇 爺爷 們们 歲岁 親亲 孫孙 兩两 個个 嬤嬷 姊姐 結结 離离 單单 戀恋 愛爱 師师 "
         "醫医 護护 學学 畢毕 業业 這这 裡里 歡欢 樂乐 祝祝 給给 帶带 陪陪 餵喂 們们 偉伟 媳媳 氣气 過过 還还 會会 "
         "沒没 為为 與与 來来 時时 後后 開开 週周 號号 紀纪 齡龄 級级 讀读 員员 職职 當当 總总 經经 歳岁 現现 輕轻 說说 歷历")
TRAD_TO_SIMP = str.maketrans({p[0]: p[1] for p in _TRAD.split()})


def fold_zh(text: str) -> str:
    """Traditional characters of the kin / age / status vocabulary as simplified (same length)."""
    return text.translate(TRAD_TO_SIMP)


# English kin and relation nouns -> canonical relation (the family_and_relations vocabulary)
KIN_EN: dict[str, str] = {
    "wife": "wife", "wifey": "wife", "missus": "wife", "missis": "wife", "husband": "husband", "hubby": "husband",
    "hubs": "husband", "spouse": "spouse", "partner": "partner", "boyfriend": "boyfriend", "bf": "boyfriend",
    "girlfriend": "girlfriend", "gf": "girlfriend", "fiance": "fiancé", "fiancé": "fiancé", "fiancee": "fiancée",
    "fiancée": "fiancée", "son": "son", "daughter": "daughter", "kid": "child", "kids": "children", "child": "child",
    "children": "children", "baby": "baby", "toddler": "toddler", "little one": "child", "little ones": "children",
    "mom": "mother", "mum": "mother", "mother": "mother", "mama": "mother", "dad": "father", "father": "father",
    "papa": "father", "parents": "parents", "sister": "sister", "sis": "sister", "brother": "brother", "bro": "brother",
    "grandma": "grandmother", "grandmother": "grandmother", "granny": "grandmother", "grandpa": "grandfather",
    "grandfather": "grandfather", "aunt": "aunt", "auntie": "aunt", "uncle": "uncle", "cousin": "cousin",
    "niece": "niece", "nephew": "nephew", "friend": "friend", "bestie": "friend", "bff": "friend", "buddy": "friend",
    "colleague": "colleague", "coworker": "colleague", "co-worker": "colleague", "boss": "boss", "manager": "boss",
    "roommate": "roommate", "flatmate": "roommate", "neighbor": "neighbour", "neighbour": "neighbour",
    "classmate": "classmate", "teacher": "teacher", "doctor": "doctor", "in-laws": "in-laws",
    "mother-in-law": "mother-in-law", "father-in-law": "father-in-law", "sister-in-law": "sister-in-law",
    "brother-in-law": "brother-in-law", "stepson": "stepson", "stepdaughter": "stepdaughter", "ex": "ex-partner",
    "twin": "twin", "grandparents": "grandparents", "family": "family", "relatives": "relatives",
}
SPOUSE = {"wife", "husband", "spouse"}
CHILDREN = {"son", "daughter", "child", "children", "baby", "toddler", "first child", "second child", "twins"}

# Chinese kin terms -> canonical relation (simplified; read through fold_zh)
KIN_ZH: dict[str, str] = {
    "老公": "husband", "丈夫": "husband", "先生": "husband", "老婆": "wife", "妻子": "wife", "媳妇": "wife", "太太": "wife",
    "爱人": "spouse", "男朋友": "boyfriend", "男友": "boyfriend", "女朋友": "girlfriend", "女友": "girlfriend",
    "对象": "partner", "儿子": "son", "女儿": "daughter", "闺女": "daughter", "孩子": "child", "娃": "child",
    "宝宝": "baby", "大宝": "first child", "二宝": "second child", "小孩": "child", "妈妈": "mother", "老妈": "mother",
    "母亲": "mother", "爸爸": "father", "老爸": "father", "父亲": "father", "爸妈": "parents", "父母": "parents",
    "姐姐": "older sister", "妹妹": "younger sister", "哥哥": "older brother", "弟弟": "younger brother",
    "奶奶": "grandmother", "外婆": "grandmother", "姥姥": "grandmother", "爷爷": "grandfather", "外公": "grandfather",
    "姥爷": "grandfather", "婆婆": "mother-in-law", "公公": "father-in-law", "岳父": "father-in-law",
    "岳母": "mother-in-law", "朋友": "friend", "闺蜜": "friend", "好友": "friend", "同事": "colleague",
    "领导": "boss", "老板": "boss", "室友": "roommate", "邻居": "neighbour", "同学": "classmate",
    "舅舅": "uncle", "叔叔": "uncle", "阿姨": "aunt", "姑姑": "aunt", "表姐": "cousin", "表妹": "cousin",
    "表哥": "cousin", "表弟": "cousin", "堂哥": "cousin", "堂姐": "cousin", "侄子": "nephew", "侄女": "niece",
    "外甥": "nephew", "外甥女": "niece", "孙子": "grandson", "孙女": "granddaughter", "女婿": "son-in-law",
    "儿媳": "daughter-in-law", "老伴": "spouse",
    # the rest of the family a post names without 我 ("姨妈是护士", "舅妈住在成都"): their facts are theirs
    "姨妈": "aunt", "大姨": "aunt", "小姨": "aunt", "二姨": "aunt", "姑妈": "aunt", "舅妈": "aunt", "婶婶": "aunt",
    "伯母": "aunt", "伯伯": "uncle", "大伯": "uncle", "伯父": "uncle", "姨父": "uncle", "姑父": "uncle", "表舅": "uncle",
    "姐夫": "brother-in-law", "妹夫": "brother-in-law", "嫂子": "sister-in-law", "弟媳": "sister-in-law",
    "堂弟": "cousin", "堂妹": "cousin", "继父": "stepfather", "继母": "stepmother", "后妈": "stepmother",
    "干妈": "godmother", "干爹": "godfather", "小宝": "child", "崽崽": "child", "宝贝儿子": "son", "宝贝女儿": "daughter",
}
# the kin terms that, opening a Chinese clause without a possessor, are the poster's own (老公出差,
# 儿子今天): spouse and children are named that way only by the family's own members
IMPLIED_OWN_ZH = ("老公", "老婆", "媳妇", "儿子", "女儿", "闺女", "大宝", "二宝", "宝宝")


def canon_en(word: str) -> str | None:
    w = word.lower().strip()
    if w in KIN_EN:
        return KIN_EN[w]
    if w.endswith("s") and w[:-1] in KIN_EN:
        return KIN_EN[w[:-1]]
    return None


def canon_zh(word: str) -> str | None:
    return KIN_ZH.get(fold_zh(word))
