"""Venues, parcel labels and route cards read by the aggregators (docs/transfer.md, "Precision,
stop 12"): a one-off errand receipt or a sign that only names a kind of place is no frequent
venue; a receipt from a café, or receipts that recur, are; a waybill without "TO:" is still
addressed to the user; both route-card layouts say which end is home."""
from __future__ import annotations

from core.engine.aggregators import REGISTRY
from core.engine.aggregators.base import GraphFacts
from core.engine.rules import features as T
from core.engine.rules.features import route_end as _route_end
from core.engine.types import EvidenceNode


def _image(nid: str, post: str, carrier: str, lines: list[str]) -> EvidenceNode:
    """An OCR node with the text features the perceiver attaches (core.engine.perceiver.attach_features)."""
    ocr = [{"text": t, "score": 0.95} for t in lines]
    text = "\n".join(lines)
    return EvidenceNode(node_id=nid, post_id=post, modality="image", carrier=carrier, content=text,
                        data={"lines": ocr, "features": T.text_features(text, modality="image", carrier=carrier, lines=ocr)})


def _venues(*nodes: EvidenceNode) -> list[str]:
    hs = REGISTRY.run(GraphFacts(list(nodes)), {})
    return sorted(h.value for h in hs if h.attribute == "frequent_venues")


PHARMACY = ["Boots", "2026-06-07 21:03", "Vitamin C", "£3.00", "TOTAL", "Thank you!"]
CAFE = ["TAX INVOICE", "Marigold Coffee", "1 x Flat white ...... £3.40", "Amount due", "£3.40"]


def test_one_errand_receipt_is_no_frequent_venue() -> None:
    assert _venues(_image("e1", "p1", "receipt", PHARMACY)) == []
    assert _venues(_image("e1", "p1", "receipt", ["电子小票", "银座和牛料理", "1 ×套餐 ......¥880.00", "实付"])) == []


def test_cafe_receipt_and_recurring_receipts_are_venues() -> None:
    assert _venues(_image("e1", "p1", "receipt", CAFE)) == ["Marigold Coffee"]
    assert _venues(_image("e1", "p1", "receipt", PHARMACY), _image("e2", "p2", "receipt", PHARMACY)) == ["Boots"]


def test_status_bar_and_item_lines_are_no_merchant() -> None:
    assert _venues(_image("e1", "p1", "receipt", ["14:43", "88%", "My Pay", "Take-home C$32,867"])) == []
    assert _venues(_image("e1", "p1", "receipt", ["1 x 贝果 .¥18.00", "实付", "¥18.00"])) == []
    for line in ("88%", "1 x 美式 …¥28.00", "1 × Set menu", "S$24.00"):
        assert T.P["not_venue"].search(line), line
    for line in ("Marigold Coffee", "野光咖啡", "Oak & Ember Fitness", "7-Eleven"):
        assert not T.P["not_venue"].search(line), line


def test_a_card_title_names_no_venue() -> None:
    """A library card's or a gym card's title ("图书馆读者证", "Library Reader Card", "健身会员卡") says what kind
    of card it is; no venue's name is left once the kind-of-place and card words are taken out."""
    for lines in (["图书馆读者证", "·卡号 9737838", "·生日 1989-08-10"], ["Library Reader Card", "No. 6943143"],
                  ["健身会员卡", "卡号 8774365"]):
        assert _venues(_image("e1", "p1", "ocr_text", lines)) == [], lines
    assert _venues(_image("e1", "p1", "sign", ["野光健身"])) == ["野光健身"]


def test_generic_sign_names_no_venue() -> None:
    assert _venues(_image("e1", "p1", "ocr_text", ["Swimming Pool"])) == []
    assert _venues(_image("e1", "p1", "ocr_text", ["ADMIT ONE", "Swimming pool entry", "08.19"])) == []
    assert _venues(_image("e1", "p1", "ocr_text", ["GYM MEMBER", "DOB 1990-01-02"])) == []
    assert _venues(_image("e1", "p1", "ocr_text", ["野光健身"])) == ["野光健身"]
    assert _venues(_image("e1", "p1", "sign", ["Oak & Ember Fitness"])) == ["Oak & Ember Fitness"]


def test_waybill_labels_with_or_without_colon_are_addressed_to_the_user() -> None:
    for text in ("SHIP TO Resident\nFlat 11 Larkspur Apartments\nQueens", "TO: Resident\nFlat 2", "收货地址上海闵行区",
                 "Deliver to: J. Smith"):
        assert T.P["recipient"].search(text), text
    for text in ("went to the market", "back to work", "headed to Queens"):
        assert not T.P["recipient"].search(text), text


def test_both_route_card_layouts_name_the_home_end() -> None:
    assert _route_end("Tampines → Work\nEast-West Line·32 min", "Tampines") == "home"
    assert _route_end("Start: Kennedy station\nTake the Line 2\n27 min to Office", "Kennedy") == "home"
    assert _route_end("从市桥站出发\n乘坐3号线\n预计40分钟到公司", "市桥") == "home"
    assert _route_end("From: Soho\n12 min to home", "Soho") == "work"
    assert _route_end("Start: Kennedy station\nTake the Line 2\n27 min to the beach", "Kennedy") is None
    assert _route_end("walked from the bakery", "bakery") is None


def test_parcel_surname_and_call_name_make_a_name() -> None:
    def names(label: list[str], comment: str) -> list[str]:
        parcel = _image("e1", "p1", "ocr_text", label)
        friend = EvidenceNode(node_id="e2", post_id="p2", modality="text", carrier="comment", content=comment,
                              data={"by_other": True, "features": T.text_features(comment, carrier="comment")})
        hs = REGISTRY.run(GraphFacts([parcel, friend]), {})
        return sorted(h.value for h in hs if h.attribute == "real_name")
    assert names(["RR9758731061", "SHIP TO L. Fischer", "[address redacted]"], "Leah call me") == ["Leah Fischer"]
    assert names(["EM4171822974", "收货人张**", "收货地址[已隐藏]"], "俊杰快回我消息") == ["张俊杰"]
    assert names(["收件人：李**"], "雨晴今天也太好看了吧") == ["李雨晴"]
    # the initial must agree; a comment that opens with an ordinary word calls nobody
    assert names(["SHIP TO H. Tsang"], "Priya!!! happy bday") == []
    assert names(["收件人：李**"], "今天也太好看了吧") == []


def test_a_repeated_catchphrase_is_one_semantic_sentence() -> None:
    from core.engine.types import Cue

    def health(*spans: str) -> list[str]:
        nodes = []
        for i, s in enumerate(spans, 1):
            c = Cue(attribute="health_condition", value="injury", confidence=0.4, span=s, cue="semantic:health:injury",
                    first_person=True, data={"semantic": {"sim": 0.8, "margin": 0.05, "prototype": ""}})
            nodes.append(EvidenceNode(node_id=f"e{i}", post_id=f"p{i}", modality="text", carrier="caption", content=s,
                                      data={"cues": [c.model_dump()]}))
        return [h.value for h in REGISTRY.run(GraphFacts(nodes), {}) if h.attribute == "health_condition"]
    assert health("腿软了但精神还在", "腿软了但精神还在") == []
    assert len(health("my knee gave out on the stairs again", "physio says the ligament needs six more weeks")) == 1


def _with_reading(n: EvidenceNode) -> EvidenceNode:
    """The node with the cues and entities the perceiver reads from its text."""
    from core.engine.rules import extract_cues
    from core.engine.rules.entities import extract_entities

    n.data.cues = extract_cues(n.content, carrier=n.carrier)
    n.data.entities = extract_entities(n.content)
    return n


def test_a_school_with_its_staff_unit_is_a_workplace_not_a_school() -> None:
    """A staff card or sign ("Lumen Primary School / Maths Teaching Group", 恒通中学 / 英语科组): the poster
    works there; the school they studied at is another one."""
    for lines, org, unit in ((["Lumen Primary School", "Maths Teaching Group"], "Lumen Primary School", "Maths Teaching Group"),
                             (["恒通中学", "英语科组"], "恒通中学", "英语科组")):
        hs = REGISTRY.run(GraphFacts([_with_reading(_image("e1", "p1", "ocr_text", lines))]), {})
        assert not [h for h in hs if h.attribute == "school"], lines
        work = [h for h in hs if h.attribute == "workplace"]
        # the staff unit beside the school on the same card is the workplace's unit level (issue 34 item 1)
        assert work and work[0].levels == {"organization": org, "unit": unit} and work[0].value == f"{unit}, {org}", work
    # a student card with its faculty stays a school
    hs = REGISTRY.run(GraphFacts([_with_reading(_image("e1", "p1", "badge", ["Zhejiang University", "Student Card",
                                                                               "School of Mathematical Sciences"]))]), {})
    assert [h for h in hs if h.attribute == "school"]
