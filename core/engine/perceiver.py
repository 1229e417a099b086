"""Perceiver: one skim of every post (and the account profile) into raw evidence nodes.

Each text field, timestamp, IP region, location tag, image (cheap signals), OCR text and
EXIF block becomes one evidence node citing its post; cues (core.engine.rules) and
entities found in its text are kept in node.data so the hypothesizer reads the whole
graph at once. Tool calls (image signals, EXIF, OCR) go through the Recorder: cached by
content hash and recorded in tool_calls. Perception is not charged to the route budget.
A missing/corrupt/huge image becomes a recorded error on its node; nothing else is lost.
Every evidence node is built here (text_evidence, ocr_node, exif_node), for the skim and for
the tool adapters of core/engine/tool_evidence.py alike.
"""
from __future__ import annotations

import re
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

from core.engine import rules
from core.engine.contract.changes import Change, Perception, RecordError, RecordImage
from core.engine.contract.config import EngineConfig
from core.engine.contract.view import GraphView
from core.engine.forms import read_form
from core.engine.places import reverse_levels
from core.engine.rules.features import attach_features
from core.engine.rules.forms import form_cues
from core.engine.rules.hostile import governs_post, masked_text, outside, sentence_ranges, taint_after_injection  # noqa: F401
from core.engine.rules.taint import taint_by_provenance
from core.engine.types import EvidenceNode
from core.nodes.evidence import GpsPlace, OcrLine, TimeFeatures
from core.nodes.node import NodeData
from core.models import MAX_IMAGES_PER_POST, MAX_TEXT, AccountProfile, Post, UserView  # caps applied and reported by the loader
from core.timestamps import implausible_reason
from tools.base import Recorder, cache_key
from tools.exif import read_exif
from tools.images import image_signals
from tools.registry import TOOLS, ToolEnv, output_check, run_tool
from tools.userfiles import UserFileError, user_file_digest

PROFILE_POST = "@profile"
# what the user-file guard can raise: a refusal, or the OS / a file name it cannot encode
USER_FILE_ERRORS = (UserFileError, OSError, ValueError)
SIGNALS_V = 6      # version of the image_signals output (5: from the reduced skim copy, 6: flat share from a box-reduced copy); part of its cache key

_OCR_AI = re.compile(r"\b(?:Al|A1|A\|)(?=\s*[:：,]|\s+(?:assistant|model|agent|system|reading|analy))")

# OCR-text keyword families that tell a document-like image's carrier (EN + ZH)
_CARRIER_WORDS: list[tuple[str, tuple[str, ...]]] = [
    ("ticket", ("ticket", "boarding", "seat", "gate", "departure", "train no", "flight", "车票", "登机", "座位",
                "检票", "车次", "航班", "始发", "到达")),
    ("receipt", ("receipt", "total", "subtotal", "invoice", "paid", "amount", "小票", "合计", "实付", "金额",
                 "发票", "收款", "订单")),
    ("badge", ("staff", "employee", "badge", "工号", "员工", "工作证", "student id", "学号", "学生证", "id no")),
    ("document", ("notice", "dear", "resident", "property", "statement", "certificate", "report", "address",
                  "通知", "业主", "物业", "证明", "报告", "地址", "缴费", "住址", "诊断", "病历", "处方")),
    ("map", ("km", "min", "route", "navigation", "arrive", "destination", "导航", "公里", "分钟", "路线",
             "目的地", "步行", "驾车")),
    ("sign", ("station", "exit", "entrance", "street", "road", "站", "出口", "入口", "路", "街")),
]


# (?<![\d,]): only the start of a digit run tries the bare amount (else every digit of a long number rescans it)
_AMOUNT = re.compile(r"(?:[$¥￥€£]|HK\$|S\$|RM|NT\$|A\$|C\$)\s?\d[\d,]*(?:\.\d{2})?|(?<![\d,])\d[\d,]*+\.\d{2}\s?(?:元|EUR|USD|GBP)?")
_TOTAL = re.compile(r"\b(?:total|subtotal|amount|paid|thank\s+you)\b|合计|总计|实付|谢谢惠顾|小计", re.I)


def classify_text_carrier(text: str, screenshot_like: bool) -> str:
    low = text.casefold()
    if len(_AMOUNT.findall(text)) >= 2 and _TOTAL.search(text):
        return "receipt"
    for carrier, words in _CARRIER_WORDS:
        hits = sum(1 for w in words if w in low)
        if hits >= 2 or (hits == 1 and carrier in ("badge",)):
            return carrier
    return "screenshot" if screenshot_like else "ocr_text"


def text_evidence(post_id: str, carrier: str, field: str, text: str, *,
                   modality: str = "text", by_other: bool = False, extra: dict[str, Any] | None = None) -> EvidenceNode:
    text = text[:MAX_TEXT]
    hostile = rules.hostile_spans(text)
    if not hostile and modality == "image":
        # OCR reads "AI" as "Al"/"A1"; check the text as it was meant too
        fixed = _OCR_AI.sub("AI", text)
        if fixed != text and rules.hostile_spans(fixed):
            hostile = [text]
    data = NodeData(field=field, cites=[f"post:{post_id}"], **(extra or {}))
    if hostile:
        # addressed to an AI / an auditor (not a mere "for the report"): governs the rest of the post
        data.hostile_post = governs_post(text) or (modality == "image" and governs_post(_OCR_AI.sub("AI", text)))
    if by_other:
        data.by_other = True
    if hostile and (modality == "image" or len(text) < 40):
        # an image (or a short field) carrying an injection is untrusted as a whole
        data.hostile, data.hostile_scope, data.cues, data.entities = hostile[:5], "all", [], []
    elif hostile:
        # keep what the rest of the caption says; nothing from the sentences around an injection
        bad = sentence_ranges(text, hostile)
        data.hostile, data.hostile_scope = hostile[:5], "sentences"
        data.cues, data.entities = outside(text, bad, rules.extract_cues(text, carrier=carrier, by_other=by_other),
                                           rules.extract_entities(text, carrier=carrier, by_other=by_other))
    else:
        data.cues = rules.extract_cues(text, carrier=carrier, by_other=by_other)
        data.entities = rules.extract_entities(text, carrier=carrier, by_other=by_other,
                                               location_tag=bool(data.location_tag))
        if modality == "image" and data.lines:
            _read_form(text, carrier, data)
    node = EvidenceNode(node_id="", post_id=post_id, modality=modality, carrier=carrier, content=text, data=data)
    attach_features(node)
    return node


def _read_form(text: str, carrier: str, data: NodeData) -> None:
    """OCR lines grouped into key-value fields (core/engine/forms.py); the cues of the rules that
    read fields (rules/forms.py) join the line rules' cues. Kept as data.form when it has fields."""
    lines = data.lines or []
    if "\n".join(ln.text for ln in lines) != text:
        return          # offsets of the fields would not be offsets in this text (cut at MAX_TEXT)
    form = read_form(lines)
    if not form.fields:
        return
    data.form = form
    cues = form_cues(text, form, carrier)
    # a field read with its label beats the line rules on the same document (a payslip's "Gross pay"
    # is per period; the line rule assumes a year)
    read = {c.attribute for c in cues}
    data.cues = [c for c in data.cues or [] if c.attribute not in read] + cues


def ocr_node(post_id: str, image_id: str, file: str, lines: list[dict[str, Any]],
             screenshot_like: bool, *, source: str) -> EvidenceNode | None:
    """The text one OCR call read in an image, as evidence (its carrier from the words), or None
    when only detector noise was read."""
    # a lone low-confidence glyph ("O", "〇") is detector noise on a photo
    lines = [ln for ln in lines if sum(ch.isalnum() for ch in str(ln["text"])) >= 2 or float(ln.get("score", 0)) >= 0.9]
    if not lines:
        return None
    text = "\n".join(str(ln["text"]) for ln in lines)
    carrier = classify_text_carrier(text, screenshot_like)
    node = text_evidence(post_id, carrier, f"ocr:{image_id}", text, modality="image",
                          extra={"image_id": image_id, "file": file, "ocr_source": source,
                                 "lines": [OcrLine(text=ln["text"], score=round(float(ln.get("score", 0)), 3),
                                                   box=ln.get("box")) for ln in lines]})
    return node


def exif_node(pid: str, image_id: str, ex: dict[str, Any], report: Callable[[str, str], None]) -> EvidenceNode:
    """The EXIF block of one image; an implausible DateTimeOriginal is reported (where, why) and ignored."""
    parts = []
    data = NodeData(image_id=image_id, exif=ex, cites=[f"post:{pid}"], field=f"exif:{image_id}")
    if ex.get("datetime_original"):
        parts.append(f"taken {ex['datetime_original']}{ex.get('offset') or ''}")
        ts = str(ex["datetime_original"]).replace(" ", "T") + (ex.get("offset") or "")
        tf = rules.time_features(ts)
        data.time = TimeFeatures(**tf) if tf else None
        if not tf:
            if why := implausible_reason(ts):      # reported, and ignored for time inference
                report(f"posts.jsonl post {pid} {image_id} EXIF DateTimeOriginal", why)
    if ex.get("make") or ex.get("model"):
        parts.append(f"device {' '.join(x for x in (ex.get('make'), ex.get('model')) if x)}")
    if ex.get("gps_lat") is not None and ex.get("gps_lon") is not None:
        parts.append(f"GPS {ex['gps_lat']:.5f},{ex['gps_lon']:.5f}")
        place = _reverse(ex["gps_lat"], ex["gps_lon"])
        if place:
            data.gps_place = GpsPlace(**place)
            parts.append(f"near {', '.join(reversed(list(place['levels'].values())))}")
    return EvidenceNode(node_id="", post_id=pid, modality="metadata", carrier="exif",
                        content="; ".join(parts) or "EXIF present", data=data)


def _reverse(lat: float, lon: float) -> dict[str, Any] | None:
    return reverse_levels(lat, lon)    # None when the gazetteer has no place there


def _platform_says_own(comment: Any) -> bool:
    """An export that marks the account's own comments (`is_author` / `by_author` / `is_owner`: true)."""
    extra = getattr(comment, "model_extra", None) or {}
    return any(extra.get(k) is True for k in ("is_author", "by_author", "is_owner", "own"))


def _post_text_nodes(post: Post, own_names: set[str], *, full: bool) -> list[EvidenceNode]:
    out: list[EvidenceNode] = []
    pid = post.post_id
    if post.title:
        out.append(text_evidence(pid, "caption", "title", str(post.title)))
    if post.caption:
        out.append(text_evidence(pid, "caption", "caption", str(post.caption)))
    if not full:
        return out
    for i, t in enumerate(post.tags or []):
        if t:
            out.append(text_evidence(pid, "hashtag", f"tags[{i}]", str(t)))
    for i, c in enumerate(post.comments or []):
        if c is None or not c.text:
            continue
        own = (bool(c.author) and str(c.author).casefold() in own_names) or _platform_says_own(c)
        out.append(text_evidence(pid, "caption", f"comments[{i}].text", str(c.text), by_other=not own,
                                  extra={"author": c.author}))
    return out


def _metadata_nodes(post: Post) -> list[EvidenceNode]:
    pid = post.post_id
    cites = [f"post:{pid}"]
    out: list[EvidenceNode] = []
    tf = rules.time_features(post.timestamp) if post.timestamp else {}
    if tf:
        out.append(EvidenceNode(
            node_id="", post_id=pid, modality="metadata", carrier="timestamp",
            content=f"posted {tf.get('date')} {tf.get('local_time')} ({tf.get('weekday')})",
            data={"field": "timestamp", "time": tf, "raw": post.timestamp, "cites": cites},
        ))
    if post.ip_region:
        out.append(EvidenceNode(
            node_id="", post_id=pid, modality="metadata", carrier="ip_region", content=str(post.ip_region)[:200],
            data={"field": "ip_region", "cites": cites},
        ))
    if post.location_tag:
        node = text_evidence(pid, "metadata", "location_tag", str(post.location_tag)[:500], modality="metadata",
                             extra={"location_tag": True})
        out.append(node)
    return out


@dataclass
class _Skim:
    """What one skim works with: the run config, the user's folder, the Recorder of its tool calls,
    this skim's prefetched work, and the changes it returns (images, errors)."""

    config: EngineConfig
    user: UserView
    rec: Recorder
    pre: _Prefetch
    changes: list[Change] = field(default_factory=list)

    def error(self, where: str, reason: str, **extra: Any) -> None:
        self.changes.append(RecordError(where=where, reason=reason, extra=extra))


def _image_error(sk: _Skim, post: Post, idx: int, reason: str) -> None:
    """Record an image error like every loader error: the posts.jsonl path, the post's line
    (kept by the loader) and the field."""
    sk.error(str(sk.user.user_dir / "posts.jsonl"), f"post {post.post_id}: {reason}",
             line=getattr(post, "_line", None), field=f"images.{idx}.file")


def _image_nodes(sk: _Skim, post: Post, idx: int, ref_file: str, alt: str | None) -> list[EvidenceNode]:
    """Signals, EXIF and (for text-bearing images) OCR of one image."""
    pid = post.post_id
    image_id = f"{pid}/img{idx}"
    cites = [f"post:{pid}"]
    out: list[EvidenceNode] = []
    rec, pre = sk.rec, sk.pre
    meta: dict[str, Any] = {}
    try:  # the one user-file guard: inside the folder, a regular file, size limit, deadline
        # (already passed by this skim's prefetch: its path and hash are reused, not read again)
        path, digest = pre.digests.get(ref_file) or user_file_digest(sk.user.user_dir, ref_file)
    except USER_FILE_ERRORS as e:  # missing, unreadable, not a regular file, or outside the folder
        reason = str(e) if isinstance(e, UserFileError) else f"{ref_file}: {type(e).__name__}: {e}"
        _image_error(sk, post, idx, reason)
        _store_image(sk, image_id, pid, ref_file, None, {"error": reason})
        out.append(EvidenceNode(node_id="", post_id=pid, modality="image", carrier="image_scene",
                                content=f"image {ref_file} unreadable", status="removed",
                                data={"image_id": image_id, "file": ref_file, "error": reason, "cites": cites}))
        return out
    # inputs name the file relative to the user folder; the cache key adds the content hash, so
    # a copy of the same benchmark elsewhere is served from the cache too
    fut = pre.futures.get(str(path))
    sig = rec.call("image_signals", lambda file, v: fut.result() if fut is not None else _signals(str(path), v),
                   {"file": ref_file, "v": SIGNALS_V}, content_hash=digest)
    if "error" in sig:
        _image_error(sk, post, idx, f"{ref_file}: {sig['error']}")
        _store_image(sk, image_id, pid, ref_file, digest, {"error": sig["error"]})
        out.append(EvidenceNode(node_id="", post_id=pid, modality="image", carrier="image_scene",
                                content=f"image {ref_file} unreadable", status="removed",
                                data={"image_id": image_id, "file": ref_file, "error": sig["error"], "cites": cites}))
        return out
    meta["signals"] = sig
    shot = bool(sig.get("screenshot_like"))
    desc = (f"image {sig.get('width')}x{sig.get('height')}"
            + (", screenshot-like" if shot else "") + (", text-bearing" if sig.get("text_bearing") else ""))
    img_node = EvidenceNode(node_id="", post_id=pid, modality="image", carrier="screenshot" if shot else "image_scene",
                            content=desc, data={"image_id": image_id, "file": ref_file, "signals": sig, "cites": cites})
    out.append(img_node)
    if alt:
        out.append(text_evidence(pid, "image_scene", f"images[{idx}].alt", str(alt), modality="image",
                                  extra={"image_id": image_id}))
    # the exif route's tool, name and inputs (one cache), checked against its output model
    ex = rec.call("exif", lambda file: read_exif(path), {"file": ref_file}, content_hash=digest,
                  check=output_check(TOOLS["exif"]))
    if "error" not in ex and ex.get("has_exif"):
        meta["exif"] = ex
        out.append(exif_node(pid, image_id, ex, sk.error))
    if sig.get("text_bearing") and sk.config.ocr_in_perception:
        # the old "OCR everything during the skim" mode (config ocr_in_perception=true)
        res = run_tool(ToolEnv(rec, sk.user.user_dir, sk.config.model_dump()), "ocr",
                       {"image_id": image_id, "file": ref_file, "carrier": img_node.carrier})
        if res.error:
            _image_error(sk, post, idx, f"{ref_file}: OCR failed ({res.error})")
        else:
            # the route family's adapter (tool_evidence._ev_ocr) without a route
            lines = [ln for ln in (res.output or {}).get("lines", []) if str(ln.get("text", "")).strip()]
            node = ocr_node(pid, image_id, ref_file, lines, img_node.carrier == "screenshot",
                            source="perception") if lines else None
            nodes = [] if node is None else [node]
            for n in nodes:
                n.data.tool_call_id = res.call_id
            meta["ocr_lines"] = len(res.output.get("lines", [])) if res.output else 0
            out += nodes
        img_node.data.ocr_done = True
    _store_image(sk, image_id, pid, ref_file, digest, meta, sig)
    return out


def _signals(path: str, v: int = SIGNALS_V) -> dict[str, Any]:
    """The skim's signals of one image (tools.images.image_signals with the dense-edge text tiles)."""
    return image_signals(path, tiles=True)


def _store_image(sk: _Skim, image_id: str, post_id: str, file: str, digest: str | None,
                 meta: dict[str, Any], sig: dict[str, Any] | None = None) -> None:
    # applied by the loop inside the perception step's transaction (perception itself runs
    # outside it so slow OCR never holds the DB write lock)
    sk.changes.append(RecordImage(image_id=image_id, post_id=post_id, file=file, sha256=digest,
                                   width=(sig or {}).get("width"), height=(sig or {}).get("height"), meta=meta))


def _profile_nodes(p: AccountProfile) -> list[EvidenceNode]:
    out: list[EvidenceNode] = []
    if p.bio:
        out.append(text_evidence(PROFILE_POST, "caption", "profile.bio", str(p.bio)))
    if p.nickname:
        out.append(text_evidence(PROFILE_POST, "metadata", "profile.nickname", str(p.nickname),
                                  modality="metadata"))
    if p.ip_region:
        out.append(EvidenceNode(node_id="", post_id=PROFILE_POST, modality="metadata", carrier="ip_region",
                                content=str(p.ip_region)[:200],
                                data={"field": "profile.ip_region", "cites": [f"post:{PROFILE_POST}"]}))
    return taint_after_injection(out)     # a bio addressed to an AI governs the nickname too


@dataclass
class _Prefetch:
    """This skim's work done ahead: (path, hash) of every image file the guard passed, and the
    image signals computed in a background thread (path -> future)."""

    digests: dict[str, tuple] = field(default_factory=dict)
    futures: dict[str, Future] = field(default_factory=dict)
    pool: ThreadPoolExecutor | None = None


def _prefetch_signals(view: GraphView, user: UserView) -> _Prefetch:
    """Compute the cheap image signals of every image in a background thread, so they overlap
    with the OCR of earlier images (the OCR model runs under its own lock). Results still go
    through the Recorder (cache + tool_calls) in the main thread."""
    jobs = []
    pre = _Prefetch()
    for post in user.posts[:10_000]:
        for ref in (post.images or [])[:MAX_IMAGES_PER_POST]:
            if ref is None or not getattr(ref, "file", None):
                continue
            try:   # refused files are reported by _image_nodes
                path, digest = pre.digests[str(ref.file)] = user_file_digest(user.user_dir, str(ref.file))
            except USER_FILE_ERRORS:
                continue
            key = cache_key("image_signals", {"file": str(ref.file), "v": SIGNALS_V}, digest)
            if not view.cached(key):
                jobs.append(str(path))
    if len(jobs) < 2:
        return pre
    pre.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="argus-signals")
    pre.futures = {p: pre.pool.submit(_signals, p, SIGNALS_V) for p in dict.fromkeys(jobs)}
    return pre


def perceive(view: GraphView, config: EngineConfig, user: UserView, rec: Recorder) -> Perception:
    """Post nodes first, then each post's evidence drafts (node ids assigned by the graph), and the
    changes to store with them (the images' records, the errors). `rec` records the tool calls."""
    sk = _Skim(config, user, rec, _prefetch_signals(view, user) if config.perceiver else _Prefetch())
    try:
        out = _perceive(sk)
        if config.semantic:   # semantic cues next to the rule cues (rules/semantic.py)
            sk.changes += rules.semantic_injections(rec, out)     # first: a flagged post gives no cue
        taint_pointed_posts(out)
        if config.semantic:
            sk.changes += rules.semantic_cues(rec, out)
        return Perception(drafts=out, changes=sk.changes)
    finally:
        if sk.pre.pool is not None:
            sk.pre.pool.shutdown(wait=True, cancel_futures=True)


def _perceive(sk: _Skim) -> list[EvidenceNode]:
    user, full = sk.user, sk.config.perceiver
    # a commenter is the account only by its id: anyone can take the account's display name
    own_names = {str(user.profile.user_id).casefold()} if user.profile.user_id else set()
    out: list[EvidenceNode] = [EvidenceNode(node_id=f"post:{PROFILE_POST}", kind="post", post_id=PROFILE_POST,
                                            modality="metadata", carrier="metadata", content="account profile",
                                            status="grounded")]
    if full:
        out += _profile_nodes(user.profile)
    for idx, post in enumerate(user.posts):
        pid = post.post_id
        preview = (post.title or post.caption or "")[:120]
        out.append(EvidenceNode(node_id=f"post:{pid}", kind="post", post_id=pid, modality="text", carrier="caption",
                                content=preview, status="grounded", data={"idx": idx, "timestamp": post.timestamp}))
        nodes = _post_text_nodes(post, own_names, full=full)
        if not full:
            # captions only, but the timestamp stays: it is part of the post, not a perception
            out += taint_after_injection(nodes) + [n for n in _metadata_nodes(post) if n.carrier == "timestamp"]
            continue
        nodes += _metadata_nodes(post)
        for i, ref in enumerate((post.images or [])[:MAX_IMAGES_PER_POST]):
            if ref is None or not getattr(ref, "file", None):
                continue
            nodes += _image_nodes(sk, post, i, str(ref.file), ref.alt)
        out += taint_after_injection(nodes)
    return out


def taint_pointed_posts(nodes: list[EvidenceNode]) -> int:
    """Taint by provenance (rules/taint.py): every text of a post whose author addresses an
    automated reader, and of every post it points at. Returns the posts tainted."""
    order = [n.post_id for n in nodes if n.kind == "post" and n.post_id != PROFILE_POST]
    return len(taint_by_provenance(nodes, order))
