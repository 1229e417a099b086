"""Names two independent carriers of the account agree on (issue 34, Names): candidates per OCR'd image
(rules/name_candidates.py: holder fields, honorifics, addressee titles, whole-line names, role fields,
initials, masked names, @mentions; CJK surname lists of zh / ko / ja as data in names.json) and the
claim when two images agree, or one certificate / name plate gives its holder
(aggregators/name_agreement.py). Positive and hard-negative cases per language; the real rules on the
real graph structure the engine aggregates (GraphFacts of evidence nodes with OCR lines)."""
from __future__ import annotations

import pytest

from core.engine.aggregators.base import GraphFacts
from core.engine.aggregators.name_agreement import agreeing_names
from core.engine.rules.name_candidates import cjk_name, name_candidates
from core.nodes.evidence import OcrLine
from core.nodes.node import EvidenceNode, NodeData


def _graph(posts: list[tuple[str, list[str]]]) -> GraphFacts:
    """Posts of the account: (caption, [OCR'd text of each image])."""
    nodes: list[EvidenceNode] = []
    for k, (caption, images) in enumerate(posts):
        pid = f"p{k:02d}"
        nodes.append(EvidenceNode(node_id=f"{pid}-post", kind="post", post_id=pid))
        nodes.append(EvidenceNode(node_id=f"{pid}-c", post_id=pid, modality="text", carrier="caption", content=caption))
        for j, text in enumerate(images):
            lines = [OcrLine(text=t, score=0.9) for t in text.split("\n")]
            nodes.append(EvidenceNode(node_id=f"{pid}-i{j}", post_id=pid, modality="image", carrier="ocr_text",
                                      content=text, data=NodeData(lines=lines)))
    return GraphFacts(nodes)


def _claimed(posts: list[tuple[str, list[str]]]) -> set[str]:
    return {r.cue.value for r in agreeing_names(_graph(posts)) if r.cue.confidence >= 0.6}


@pytest.mark.parametrize("posts, name", [
    # en: a licence's comma form and a council letter's initial and surname
    ([("new ticket", ["HIGH RISK WORK LICENCE\nWorkSafe\nREID, CALLUM JAMES\nExpiry: 03/02/2031"]),
      ("verge collection", ["City of Joondalup\nResident: C Reid\nSuburb: CURRAMBINE 6028"])], "Callum James Reid"),
    # de: an addressee's title on a utility letter and an initial on a badge
    ([("Strom", ["Stadtwerke München\nFrau Katharina Brandl\nTegernseer Landstraße 1xx\n81539 München"]),
      ("neuer Ausweis", ["Isarklinik Süd\nInstitut für Radiologie\nK. Brandl\nMTR Radiologie"])], "Katharina Brandl"),
    # pt: a bill's name line and "revisto por B. Salgueiro"
    ([("luz", ["Fatura de eletricidade\nBeatriz M. Salgueiro\nRua Pascoal de Melo, ***\nTotal a pagar: 71,38 €"]),
      ("glossário", ["Glossario v7\n412 termos· revisto por B. Salgueiro. 12/01/2026"])], "Beatriz M. Salgueiro"),
    # tl / en: a badge whose name wraps onto a second line, and a bill in capitals (middle initials)
    ([("first day", ["St. Raphael Medical Center\nMakati City\nANGELICA M. DELA\nCRUZ\nMedical Technologist"]),
      ("bills", ["ELECTRIC BILL\nANGELICA M DELA CRUZ\nBlk 7 Lot 12, Marikina City"])], "Angelica M. dela Cruz"),
    # es: two surnames, a role field and a tax bill's capitals in another order
    ([("taller", ["TALLER ÁBSIDE\nRestauradora responsable: Ximena Ortega Lara\nCoyoacán, CDMX· 12/02/2026"]),
      ("predial", ["Boleta de Impuesto Predial 2026\nContribuyente: ORTEGA LARA XIMENA\nCuenta predial: 027-***"])],
     "Ximena Ortega Lara"),
    # zh: a name tag and a drug bag's dispensing pharmacist
    ([("上班", ["康橙社區藥局\n林怡君\n藥師"]), ("藥袋", ["康橙社區藥局\n藥袋\n調劑藥師：林怡君\n用法：一日三次"])], "林怡君"),
    # zh: a badge and an @mention in a chat, the message run on after the name
    ([("新工牌", ["海岸名邸物业服务中心\n孙晓峰\n物业管家\nNO. HA-0219"]),
      ("群里", ["管家服务群(412)\n7栋-王\n@孙晓峰地库B2的灯坏了三天了\n孙管家\n已报修"])], "孙晓峰"),
    # zh: a holder field after a separator, and a masked parcel label that fits it
    ([("加班", ["标注平台v3.2·当前用户：许佳妮 xujn_0412\n任务：点云框选"]),
      ("快递", ["韵达快递\n收：许*妮177****5831\n福建省 厦门市"])], "许佳妮"),
    # zh: a certificate's name before 同志 (one carrier: the document names its holder)
    ([("结业了", ["结业证书\n周思宁同志（女，1994年5月生）于2024年9月参加培训，准予结业。"])], "周思宁"),
    ([("荣誉", ["荣誉证书\n沈月华同志：\n被认定为代表性传承人。"])], "沈月华"),
    ([("修了しました", ["修了証\n山口美咲 様\n令和8年3月"])], "山口美咲"),            # ja: 様 on a certificate
    ([("수료!", ["수료증\n김하은 님\n2026년 3월"])], "김하은"),                   # ko: 님 on a certificate
    # ja: a name plate in two scripts
    ([("新しい名札", ["さくら通り歯科クリニック\n山口 美咲\nYAMAGUCHI Misaki"])], "山口美咲"),
    # zh / en: a schedule screen naming one person, the staff number beside the name
    ([("四月的班", ["排班查询\n重庆两江巴士第四车队\n驾驶员：吴建军 工号 0387\n04/01 周三 早班 05:40 出场"])], "吴建军"),
    ([("next month", ["My Roster - April\nPharmacist: Grace Nakamura  Staff ID 40712\nMon 07:00-15:00"])], "Grace Nakamura"),
    # ko: a badge and a name field
    ([("출근", ["서울동물병원\n김하은\n수의테크니션"]), ("진료 접수", ["이름: 김하은"])], "김하은"),
])
def test_a_name_two_carriers_agree_on_is_claimed(posts, name) -> None:
    assert name in _claimed(posts), agreeing_names(_graph(posts))


@pytest.mark.parametrize("posts", [
    # two station signs with the same two words are a place, not a person seen twice
    [("commute", ["Mt Albert\nPlatform 2"]), ("home", ["Mt Albert\nto Britomart"])],
    [("通勤", ["李村\nLicun\n3号线往青岛站方向"]), ("回家", ["李村\nLicun"])],
    # a ticket's origin and a station sign agree on a place
    [("off to work", ["ScotRail\nFrom: Glasgow Central\nTo: Edinburgh"]), ("platform", ["Glasgow Central\nPlatform 12"])],
    [("地铁卡", ["起点：李村\n终点：五四广场"]), ("通勤", ["李村\nLicun"])],
    # the same doctor on two prescriptions: two role fields never agree on their own
    [("meds", ["Prescriber: Amy Chen\nRx 0042"]), ("refill", ["Prescriber: Amy Chen\nRx 0043"])],
    # a doctor's letterhead and a prescriber field: a professional title marks no holder
    [("appt", ["Dr Amy Chen\nFamily Practice\nAppointment 10:30"]), ("meds", ["Prescriber: A. Chen"])],
    # the certificate is the daughter's (the post says so)
    [("女儿的奖状，骄傲", ["荣誉证书\n周小雨同志：\n被评为优秀学生。"])],
    # a name before 同志 / さん / 님 on a text that is no certificate, alone
    [("ランチ", ["佐藤美咲さん\nおすすめランチ"])],
    [("카톡", ["김하은 님\n내일 봬요"])],
    # a chat speaks to someone else, twice: no claim
    [("仕事", ["田中さん\n了解です"]), ("仕事2", ["田中さん\nお疲れ様です"])],
    [("群", ["王女士 您好\n快递到了"]), ("群2", ["王女士 您好\n明天送"])],
    [("开会", ["会议通知\n王建国同志：\n请于周三参加会议。"])],
    # a surname and a role word are no name (王老师), even twice
    [("家长群", ["二年级3班家长群\n王老师\n收到"]), ("通知", ["@王老师 收到"])],
    # a masked surname alone does not confirm a whole-line name of another image
    [("badge", ["某某物业\n沈月华\n管家"]), ("parcel", ["寄件人：沈**139****6620"])],
    [("复查", ["门诊病历\n姓名：陈桂芳 性别：女\n诊断：2型糖尿病"]), ("快递", ["收件人：陈** 138****2207"])],
    # one Latin name alone, on one badge, is not claimed
    [("badge", ["Isarklinik Süd\nKatharina Brandl\nMTR Radiologie"])],
    # a concert poster and the ticket's artist field: whom the account went to see
    [("best night", ["TAYLOR SWIFT\nTHE ERAS TOUR\nWEMBLEY"]), ("ticket", ["Artist: Taylor Swift\nBlock 112 Row F"])],
    [("讲座", ["主讲：周国平\n图书馆报告厅"]), ("签名书", ["周国平\n签名本"])],
    # a taxi receipt prints its driver and the driver's number: no schedule, no claim
    [("taxi home", ["出租汽车发票\n驾驶员：吴建军 工号 0387\n金额 23.00"])],
    # a roster of several people is theirs
    [("team rota", ["排班表\n驾驶员：张伟 工号 0112\n驾驶员：李娜 工号 0113"])],
    # a name plate whose second line is no romanised name
    [("sign", ["さくら通り歯科クリニック\n山口 美咲\n診療9:30-19:00"])],
])
def test_no_name_without_agreement(posts) -> None:
    assert not _claimed(posts), agreeing_names(_graph(posts))


@pytest.mark.parametrize("text, want", [
    ("林怡君", "林怡君"), ("김하은", "김하은"), ("山口 美咲", "山口美咲"), ("欧阳娜娜", "欧阳娜娜"),
])
def test_cjk_names_need_a_known_surname(text: str, want: str) -> None:
    assert cjk_name(text) == want


@pytest.mark.parametrize("text", ["月华绣坊", "文化中心", "王老师", "孙管家", "하은", "昭和町 二丁目", "收到谢谢"])
def test_no_cjk_name_without_a_surname_or_with_a_role(text: str) -> None:
    assert cjk_name(text) is None


def test_candidate_kinds() -> None:
    kinds = {(c.kind, c.name) for c in name_candidates("City of Joondalup\nResident: C Reid\nDoctor: Amy Chen")}
    assert ("initial", "C Reid") in kinds and ("role", "Amy Chen") in kinds
    assert {c.kind for c in name_candidates("收件人：周*宁 138****2207\n寄件人：李** 159****0316")} == {"masked"}


@pytest.mark.parametrize("value, written", [
    ("HOLLOWAY, SAMANTHA R.", "Samantha R. Holloway"),      # an initial keeps its full stop, as written
    ("OSEI, DANIEL.", "Daniel Osei"),                        # a sentence's full stop does not
    ("ANGELICA M DELA CRUZ", "Angelica M dela Cruz"),
])
def test_latin_names_are_written_as_people_write_them(value: str, written: str) -> None:
    from core.engine.rules.document_names import reader
    assert reader().latin(value) == written
