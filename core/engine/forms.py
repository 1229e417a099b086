"""Documents read as forms: OCR lines grouped into key–value fields by layout, and a document type
from its fields (issue 22, kind 4).

    read_form(lines) -> Form

`lines` are the OCR lines of one image in reading order, each {"text", "score", "box"} with the
4-point box tools/ocr.py returns (original-image pixels). A field is found three ways:
- colon on one line: "Name: LEE, JORDAN", "姓名：王小明", "DOB 14/03/1992" (a known label then the value);
- same row: a label line ("Patient", "Date of birth:") and the line to its right on the same row;
- label above value: a label line and the nearest line below it that overlaps it horizontally.
Each field gets a canonical key from a small EN / ZH label table (name, surname, given_name, dob,
date, age, sex, address, district, employer, position, salary, diagnosis, medication, event, venue,
guest, ...); unknown labels are kept with key "" (they still count as form structure). The document
type comes from the keys and the document's words: health (clinic letter, pharmacy label),
locality (council / building-management notice), employment (payslip, offer letter), invitation.
Character offsets of every value are offsets in the node's text (the lines joined by "\\n"), so a
cue built from a field is grounded in the OCR text.
"""
from __future__ import annotations

import re
from typing import Any, Sequence

from core.nodes.evidence import DocType, Form, FormField, Layout, OcrLine  # noqa: F401 (stored in evidence data)

# label (normalised: lower case, no trailing colon / dots) -> key
_LABELS: dict[str, str] = {}
for _key, _words in {
    "name": ("name", "full name", "patient", "patient name", "name of patient", "patient's name", "employee",
             "employee name", "name of employee", "staff name", "applicant", "candidate", "resident", "resident name",
             "holder", "card holder", "cardholder", "member", "member name", "student name", "client", "client name",
             "姓名", "名字", "患者", "患者姓名", "病人", "病人姓名", "就诊人", "员工姓名", "员工", "住户", "业主", "业主姓名",
             "持卡人", "会员", "会员姓名", "学生姓名", "申请人", "客户", "客户姓名", "受理人"),
    "surname": ("surname", "last name", "family name", "姓"),
    "given_name": ("given name", "given names", "first name", "first names", "forename", "forenames", "名"),
    "dob": ("dob", "d.o.b", "date of birth", "birth date", "birthdate", "born", "birthday", "出生日期", "出生年月",
            "出生", "生日", "出生年月日"),
    "date": ("date", "issue date", "date of issue", "issued", "issued on", "dated", "date issued", "visit date",
             "date of visit", "appointment", "appointment date", "pay date", "payment date", "period", "pay period",
             "due date", "expiry", "expiry date", "valid until", "dispensed", "date dispensed", "日期", "签发日期",
             "开具日期", "发放日期", "就诊日期", "开单日期", "有效期", "有效期至", "缴费期限", "截止日期", "发薪日期"),
    "age": ("age", "年龄"),
    "sex": ("sex", "gender", "性别"),
    "address": ("address", "home address", "residential address", "property", "property address", "flat", "unit",
                "room", "住址", "地址", "家庭住址", "户籍地址", "房号", "房屋地址", "收货地址"),
    "district": ("council", "borough", "district", "ward", "estate", "area", "辖区", "街道", "社区", "小区", "所在区"),
    "employer": ("employer", "company", "organisation", "organization", "company name", "employer name", "单位",
                 "公司", "工作单位", "雇主", "用人单位", "公司名称"),
    "position": ("position", "job title", "title", "role", "designation", "occupation", "post", "grade", "职位", "岗位",
                 "职务", "职业", "职称"),
    "department": ("department", "dept", "科室", "部门", "就诊科室"),
    "salary": ("salary", "gross pay", "net pay", "basic pay", "base pay", "total earnings", "gross salary", "net salary",
               "annual salary", "base salary", "monthly salary", "take-home", "take home", "total pay", "gross",
               "工资", "基本工资", "实发工资", "应发工资", "月薪", "年薪", "实发", "应发合计", "实发金额", "税前工资"),
    "diagnosis": ("diagnosis", "condition", "reason for visit", "indication", "for", "complaint", "clinical diagnosis",
                  "impression", "诊断", "病情", "临床诊断", "初步诊断", "主诉", "用途", "病因", "诊断结果"),
    "medication": ("medication", "medicine", "drug", "rx", "prescription", "药品", "药名", "药品名称", "处方", "用药"),
    "dosage": ("dose", "dosage", "directions", "sig", "用法", "用量", "用法用量"),
    "doctor": ("doctor", "physician", "gp", "prescriber", "consultant", "医生", "医师", "主治医生", "主治医师"),
    "event": ("event", "occasion", "活动", "事由"),
    "venue": ("venue", "location", "place", "地点", "场地", "会场"),
    "guest": ("guest", "guests", "dear", "invitee", "to", "attn", "addressee", "宾客", "尊敬的", "致"),
    "id": ("id", "id no", "id number", "nhs number", "patient id", "member no", "staff id", "employee id", "ref",
           "reference", "account", "account no", "hospital no", "mrn", "身份证号", "证件号", "工号", "病历号", "门诊号",
           "卡号", "编号", "学号", "会员号"),
    "phone": ("tel", "phone", "telephone", "mobile", "电话", "手机", "联系电话"),
}.items():
    for _w in _words:
        _LABELS[_w] = _key

_CJK = re.compile(r"[\u4e00-\u9fff]")
_NORM = re.compile(r"[\s.:：]+$")
_COLON = re.compile(r"^\s*(?P<label>[^:：\n]{1,32}?)\s*[:：]\s*(?P<value>.*?)\s*$")
# a known label at the start of a line and the value after it ("DOB 14/03/1992", "姓名 王小明")
_LATIN_LABELS = sorted((w for w in _LABELS if not _CJK.search(w) and len(w) > 3 and w not in ("for", "post", "name")),
                       key=len, reverse=True)
_INLINE = re.compile(r"^\s*(?P<label>" + "|".join(re.escape(w) for w in _LATIN_LABELS) + r")\.?\s+(?P<value>\S.*?)\s*$",
                     re.I)
_INLINE_ZH = re.compile(r"^\s*(?P<label>" + "|".join(re.escape(w) for w in sorted(
    (w for w in _LABELS if _CJK.search(w) and len(w) >= 2), key=len, reverse=True)) + r")\s+(?P<value>\S.*?)\s*$")


def label_key(label: str) -> str | None:
    """The canonical key of a label ("Date of Birth:" -> "dob"), None when it is no known label."""
    t = _NORM.sub("", label.strip()).casefold().replace("’", "'")
    t = re.sub(r"\s+", " ", t)
    return _LABELS.get(t)


def _bbox(ln: OcrLine) -> tuple[float, float, float, float] | None:
    box = ln.box
    try:
        xs = [float(p[0]) for p in box]
        ys = [float(p[1]) for p in box]
    except (TypeError, ValueError, IndexError):
        return None
    if not xs:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def _is_label_only(text: str) -> tuple[str, str] | None:
    """A line that is only a label ("Patient", "Date of birth:", "姓名：") -> (label, key)."""
    t = text.strip()
    bare = _NORM.sub("", t)
    key = label_key(bare)
    if key is not None:
        return bare, key
    if re.search(r"[:：]\s*$", t) and 1 <= len(bare) <= 32 and not re.search(r"\d", bare):
        return bare, ""
    return None


def read_form(lines: Sequence[OcrLine | dict[str, Any]]) -> Form:
    """Fields of one image's OCR lines (see the module docstring); an empty Form when none."""
    lines = [OcrLine.model_validate(ln) for ln in lines]
    texts = [ln.text for ln in lines]
    offs, pos = [], 0
    for t in texts:
        offs.append(pos)
        pos += len(t) + 1
    boxes = [_bbox(ln) for ln in lines]
    used: set[int] = set()
    fields: list[FormField] = []

    def add(key: str, label: str, i: int, value: str, layout: Layout) -> None:
        v = value.strip()
        if not v:
            return
        s = texts[i].find(v)
        if s < 0:
            return
        fields.append(FormField(key=key, label=label.strip(), value=v, layout=layout, line=i,
                                start=offs[i] + s, end=offs[i] + s + len(v)))
        used.add(i)

    label_lines: list[tuple[int, str, str]] = []
    for i, t in enumerate(texts):
        lo = _is_label_only(t)
        if lo is not None:
            label_lines.append((i, *lo))
            continue
        m = _COLON.match(t)
        if m and m.group("value"):
            label = m.group("label")
            key = label_key(label)
            # an unknown "label" must look like one: short, no digits, few words
            if key is None and (re.search(r"\d", label) or len(label.split()) > 4 or len(label) > 24):
                continue
            add(key or "", label, i, m.group("value"), "colon")
            used.add(i)
            continue
        m = _INLINE.match(t) or _INLINE_ZH.match(t)
        if m:
            add(label_key(m.group("label")) or "", m.group("label"), i, m.group("value"), "inline")
    label_idx = {i for i, _, _ in label_lines}
    for i, label, key in label_lines:
        j, layout = _neighbour(i, boxes, texts, label_idx | used)
        if j is None:
            continue
        add(key, label, j, texts[j], layout)
    fields.sort(key=lambda f: f.start)
    form = Form(fields=fields)
    form.doc_type = doc_type(form, "\n".join(texts)) if fields or texts else None
    return form


def _neighbour(i: int, boxes: list, texts: list[str], taken: set[int]) -> tuple[int | None, Layout]:
    """The value of label line i: the line right of it on the same row, else the nearest line
    below it that overlaps it horizontally (within two line heights). Without boxes: the next line."""
    b = boxes[i]
    if b is None:
        j = i + 1
        return (j, "below") if j < len(texts) and j not in taken and texts[j].strip() else (None, "below")
    x0, y0, x1, y1 = b
    h = max(1.0, y1 - y0)
    cy = (y0 + y1) / 2
    right, below = [], []
    for j, bj in enumerate(boxes):
        if j == i or j in taken or bj is None or not texts[j].strip():
            continue
        a0, b0, a1, b1 = bj
        if abs((b0 + b1) / 2 - cy) <= 0.5 * h and a0 >= x1 - 0.2 * h and a0 - x1 <= 12 * h:
            right.append((a0 - x1, j))
        elif b0 >= y1 - 0.3 * h and b0 - y1 <= 2.0 * h and min(x1, a1) - max(x0, a0) > 0:
            below.append((b0 - y1, j))
    if right:
        return min(right)[1], "same_row"
    if below:
        return min(below)[1], "below"
    return None, "below"


# ---------------------------------------------------------------- document type

_TYPE_WORDS: dict[str, re.Pattern[str]] = {
    "health": re.compile(r"\b(?:clinic|hospital|surgery|medical|pharmacy|chemist|prescription|dispensed|tablets?|capsules?|"
                         r"\d+\s?mg|patient|diagnosis|gp|nhs|physician|appointment|referral|discharge|take\s+\w+\s+(?:daily|"
                         r"twice)|outpatient)\b|医院|诊所|门诊|药房|药店|处方|病历|诊断|就诊|患者|复诊|片/次|每日\d次|卫生院|社区卫生",
                         re.I),
    "locality": re.compile(r"\b(?:council|borough|parish|building\s+management|property\s+management|management\s+office|"
                           r"residents?|homeowners?|tenants?|estate\s+office|hoa|strata|service\s+charge|council\s+tax|"
                           r"bin\s+collection|refuse\s+collection|water\s+(?:supply|shut)|notice\s+to)\b|物业|业主|住户|"
                           r"居委会|街道办|社区居委|业委会|停水|停电|小区|楼栋|物业费|催缴", re.I),
    "employment": re.compile(r"\b(?:payslip|pay\s+slip|pay\s+stub|payroll|earnings|gross\s+pay|net\s+pay|deductions|"
                             r"offer\s+letter|offer\s+of\s+employment|employment|start\s+date|annual\s+salary|"
                             r"we\s+are\s+pleased\s+to\s+offer|probation)\b|工资条|工资单|薪资|录用通知|聘用|入职|"
                             r"劳动合同|社保|公积金|实发|应发", re.I),
    "invitation": re.compile(r"\b(?:invit(?:e|es|ed|ation)|rsvp|request\s+the\s+(?:pleasure|honou?r)|wedding|"
                             r"celebrate|reception\s+to\s+follow|save\s+the\s+date|join\s+us)\b|请柬|邀请|诚邀|婚礼|喜宴|"
                             r"敬请光临|恭候|谢师宴|满月酒|寿宴", re.I),
}
_TYPE_KEYS = {"health": {"diagnosis", "medication", "dosage", "doctor"},
              "locality": {"district"},
              "employment": {"employer", "salary", "position"},
              "invitation": {"event", "venue", "guest"}}


def doc_type(form: Form, text: str) -> DocType | None:
    """The type with most evidence: each distinct type word and each field of the type's keys
    counts 1; a type needs 2, at least one of them a word of the type (a "District:" field on a
    shop flyer is no council notice). A form with a name and a date of birth but nothing else is
    an ID-like card."""
    keys = [f.key for f in form.fields]
    score: dict[str, int] = {}
    for t, rx in _TYPE_WORDS.items():
        words = len({m.group(0).casefold() for m in rx.finditer(text)})
        score[t] = words + sum(1 for k in keys if k in _TYPE_KEYS[t]) if words else 0
    best = max(score, key=lambda t: score[t])
    if score[best] >= 2:
        return best  # type: ignore[return-value]
    if {"name", "dob"} <= set(keys) or ("id" in keys and "name" in keys):
        return "id"
    return "other" if form.fields else None
