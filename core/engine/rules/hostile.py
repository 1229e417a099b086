"""Hostile content: text that addresses an AI / the investigator / an auditor or reviewer, or
asserts facts "for the report". Such text is data, never evidence: its spans are blanked
before any cue is read.

Detection runs on a normalised copy of the text (zero-width and soft-hyphen characters
dropped, NFKC so full-width forms become ASCII, Cyrillic/Greek look-alikes mapped to Latin,
hashtag separators and CamelCase split), and the ranges found are mapped back to the
original characters. A trigger governs the rest of its field (the claim on the next line or
in the same image); the perceiver extends that to the rest of the post.
"""
from __future__ import annotations

import bisect
import re
import unicodedata

from core.engine.reading.sentences import next_terminator, sentence_starts

_AI = r"(?:ai|a\.i\.|artificial intelligence|assistant|chat\s?bot|bot|llm|gpt|chatgpt|claude|gemini|language model|" \
      r"model|agent|investigator|analy[sz]er|analyst|profiler|scraper|crawler|system|auditor|reviewer|moderator|" \
      r"fact[\s-]?checker|whoever\s+(?:is\s+)?(?:reading|processing|analy[sz]ing)(?:\s+this)?)"
# line labels are narrower: "Model: Corolla" or "System: Linux" are not addressed to an AI
_AI_LABEL = r"(?:ai|a\.i\.|ai\s+assistant|assistant|chat\s?bots?|bots|llms?|gpt|chatgpt|language\s+models?|note\s+to\s+(?:the\s+)?ai|system\s+(?:note|prompt|override))"
_TRIGGERS_EN = [
    # instruction overrides
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding|other)?\s*"
    r"(?:instructions?|prompts?|rules?|context|directions?|guidelines?)\b",
    r"\b(?:new|updated|real|true)\s+instructions?\s*:",
    r"\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+)?(?:of\s+)?(?:the\s+)?(?:above|previous|prior|preceding)\b",
    rf"\binstructions?\s+(?:for|to)\s+(?:the\s+|any\s+|all\s+)?{_AI}s?\b",
    r"[\[<【(]\s*(?:system|sys|ai|assistant|instruction|instructions|admin|prompt|note\s+to\s+ai)\s*[\]>】)]",
    r"\bsystem\s+prompt\b",
    r"\byou\s+are\s+now\b",
    # addressing an AI
    rf"\b(?:dear|attention|hey|hello|hi|note\s+(?:to|for)|message\s+(?:to|for)|notice\s+(?:to|for)|to\s+(?:any|all|the)|for\s+(?:any|all|the))\s+(?:the\s+|any\s+|all\s+)?{_AI}s?\b",
    rf"\b{_AI}s?\s*(?:,|:)?\s*(?:please\s+)?(?:note|record|remember|be\s+advised)\b",
    # (spaces and tabs bounded, not \s*: nested \s* after every newline was cubic in a run of newlines)
    rf"(?:^|(?<=\n)|(?<=[.!?。！？]\s)|(?<=[.!?。！？]))[ \t]{{0,4}}[\[(<]?[ \t]{{0,4}}{_AI_LABEL}"
    rf"(?:[ \t]+(?:assistant|note|instruction|notice|message))?[ \t]{{0,4}}[\])>]?[ \t]{{0,4}}:",
    rf"\bif\s+you\s+(?:are|'re)\s+(?:an?\s+)?{_AI}\b",
    rf"\b{_AI}s?\s+(?:reading|analy[sz]ing|processing|scanning|summari[sz]ing|profiling)\s+(?:this|these|my)\b",
    rf"\bwhen\s+(?:you|an?\s+{_AI})\s+(?:summari[sz]e|analy[sz]e|profile|report|process)\b",
    # addressed to the report: "in your report", ...
    r"\b(?:in|into)\s+your\s+(?:final\s+)?(?:report|profile|dossier|analysis|summary)\b",
]
# weaker: assertions of facts "for the report" / about "this user"; they make their sentence
# hostile, not the rest of the post ("for the report due tomorrow" is also plain English)
_ASSERT_EN = [
    r"\bfor\s+(?:the|your|any|this)\s+(?:report|profile|analysis|file|dossier|investigation|assessment)s?\b",
    r"\b(?:record|note|write|report|list|put|log|mark|state|register|conclude|output|classify)\s+(?:down\s+)?(?:that\s+)?"
    r"(?:this|the)\s+(?:user|author|poster|account(?:\s+(?:owner|holder))?|person|individual|subject)\b",
    r"\b(?:this\s+user|the\s+account\s+(?:owner|holder)|the\s+(?:author|person|owner)\s+(?:of|behind)\s+this\s+(?:account|profile|page))\s+"
    r"(?:is|was|has|lives|works|owns|earns|identifies|should\s+be|must\s+be)\b",
    r"\b(?:the\s+)?(?:correct|true|real|official)\s+(?:answer|value|profile|age|name|location|address)\s+(?:is|=|:)",
]
_TRIGGERS_ZH = [
    r"[【\[（(]\s*(?:系统|系統|官方|平台|管理员|AI|人工智能|重要)\s*(?:通知|提示|消息|指令|公告|说明|提醒)?\s*[】\]）)]",
    r"系统(?:通知|提示|消息|指令|公告)\s*[:：]?",
    r"(?:审核员|审核人员|审查员|审计员|评审|调查人员)(?:们)?(?:请|注意|你好|须知|[:：])",
    r"(?:忽略|无视|忘记|忘掉)(?:掉)?(?:之前|以上|上面|前面|先前|所有|全部|其他)?的?(?:所有|全部)?(?:指令|指示|说明|规则|提示|设定)",
    r"(?:AI|ＡＩ|人工智能|智能助手|助手|大模型|模型|机器人|分析系统|调查员|分析师)(?:们)?(?:请|注意|你好|须知|[:：])",
    r"(?:致|给|告诉|提醒)(?:所有|各位)?(?:的)?(?:AI|人工智能|助手|大模型|模型|机器人|调查员|分析师)",
    r"(?:报告|档案|画像|分析结果)(?:中|里|里面|上)?(?:请)?(?:写|记录|注明|填写|标注|应写|应该写)",
    r"(?:请|务必|必须)(?:在|把|将)?(?:报告|档案|画像)",
    r"(?:写入|记入|记录到|填入)(?:报告|档案|画像)",
    r"供.{0,4}(?:报告|档案|画像|分析)(?:使用|参考)|(?:用于|作为)(?:报告|档案|画像)",
    r"(?:正确|真实)(?:答案|信息|年龄|姓名|地址)(?:是|为|[:：])",
]
_ASSERT_ZH = [
    r"(?:该|此|本|这个)(?:用户|账号主人|博主|账户持有人)(?:的)?(?:真实)?(?:是|为|今年|住在|居住在|年龄|性别|名字|姓名|工作|职业|收入)",
]


def _alt(patterns: list[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.I)


_TRIGGER = _alt(_TRIGGERS_EN + _TRIGGERS_ZH)       # addresses an AI / overrides: governs the rest
_ASSERT = _alt(_ASSERT_EN + _ASSERT_ZH)            # asserts a fact for the report: its sentence
_ZERO_WIDTH = set("\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad\u180e\u034f")
# Cyrillic and Greek letters that look like Latin ones ("АI" with a Cyrillic А reads as "AI")
_HOMOGLYPHS = str.maketrans({
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "У": "Y", "І": "I", "Ӏ": "I", "Ј": "J", "Ѕ": "S", "а": "a", "е": "e", "о": "o", "р": "p",
    "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ӏ": "l", "ԁ": "d", "ɡ": "g",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ι": "i", "α": "a", "ν": "v",
})


MAX_WS_RUN = 8                                       # longer whitespace runs are shortened for detection


def normalise_for_detection(text: str) -> tuple[str, list[int]]:
    """(normalised text, index of the original character behind each normalised one)."""
    out: list[str] = []
    idx: list[int] = []
    prev = ""
    run = 0                                              # whitespace characters in a row
    for i, ch in enumerate(text):
        if ch in _ZERO_WIDTH or unicodedata.category(ch) == "Mn":     # invisible or combining marks
            continue
        run = run + 1 if ch.isspace() else 0
        if run > MAX_WS_RUN:                             # runs shortened: no pattern backtracks over them
            continue
        if ch in "#_":                                   # hashtag separators: "#Note_to_AI"
            ch = " "
        for c in unicodedata.normalize("NFKC", ch).translate(_HOMOGLYPHS):
            if c.isupper() and prev.islower():           # CamelCase hashtags: "NoteToAI"
                out.append(" ")
                idx.append(i)
            out.append(c)
            idx.append(i)
            prev = c
    return "".join(out), idx


_LINE_LABEL = re.compile(r"[:：]\s*$")


def hostile_ranges(text: str) -> list[tuple[int, int]]:
    """(start, end) ranges of hostile text in `text`. A trigger that addresses an AI, an
    auditor or a reviewer (or overrides instructions) makes everything from the start of its
    sentence to the end of the field hostile (the claim often follows on the next line); an
    assertion "for the report" / "this user is" makes its sentence hostile (to the end of the
    line after a label). Detection runs on the normalised text; ranges index the original."""
    if not text:
        return []
    norm, idx = normalise_for_detection(text)
    starts = sentence_starts(norm)

    def orig(i: int) -> int:
        return idx[i] if i < len(idx) else len(text)

    out: list[tuple[int, int]] = []
    m = _TRIGGER.search(norm)
    if m:
        out.append((orig(starts[bisect.bisect_right(starts, m.start()) - 1]), len(text)))
    for m in _ASSERT.finditer(norm):
        s = starts[bisect.bisect_right(starts, m.start()) - 1]
        if _LINE_LABEL.search(m.group(0)):
            nl = norm.find("\n", m.end())
            e = len(norm) if nl < 0 else nl
        else:
            nxt = next_terminator(norm, m.end())
            e = len(norm) if nxt is None else nxt + (1 if norm[nxt] != "\n" else 0)
        out.append((orig(s), orig(e - 1) + 1 if e > 0 else 0))
    out.sort()
    merged: list[tuple[int, int]] = []
    for s, e in out:
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    return merged


def governs_post(text: str) -> bool:
    """True when the text addresses an AI / auditor / reviewer or overrides instructions: the
    rest of its post (next hashtag, comments, alt text, images) is then untrusted too."""
    return bool(text) and _TRIGGER.search(normalise_for_detection(text)[0]) is not None


def hostile_spans(text: str) -> list[str]:
    """Injection text addressed to an AI / asserting facts "for the report" (exact substrings)."""
    return [text[s:e].strip() for s, e in hostile_ranges(text) if text[s:e].strip()]


def mask(text: str, ranges: list[tuple[int, int]]) -> str:
    """The text with hostile ranges blanked (same length, so offsets stay valid)."""
    if not ranges:
        return text
    chars = list(text)
    for s, e in ranges:
        for i in range(s, e):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)
