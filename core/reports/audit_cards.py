"""The cards of `argus audit`'s report: each finding in plain words with its source posts (thumbnail
with the revealing region drawn, date, caption excerpt with the revealing words marked), and each
advised edit previewed. The words live in core/data/audit_report.json; every value from the posts
is escaped here, at the point it enters the HTML."""
from __future__ import annotations

import re
import shlex
from datetime import datetime
from typing import Any

from core.audit_words import words
from core.reports.thumbs import Thumbs
from core.textsafe import html_text as escape  # the output boundary: html.escape of printable text

EXCERPT = 90            # characters of context either side of the marked words
MAX_SOURCES = 4         # source posts shown on a card


def label(attribute: str) -> str:
    return attribute.replace("_", " ").capitalize()


def plain_value(value: str, attribute: str = "") -> str:
    """A projected value as a person reads it: quoted post text, hashtags, the attribute's own name
    and repeats dropped ("commute / metro Jubilee line; lines Jubilee line; weekday mornings around
    08:00; “Update: …”" -> "metro Jubilee line, weekday mornings around 08:00")."""
    v = re.sub(r"“[^”]*”", "", value or "")
    own = {attribute.casefold(), attribute.replace("_", " ").casefold()}
    parts: list[str] = []
    for p in re.split(r"\s*;\s*|\s+/\s+", v):
        p = p.strip(" ,")
        if not p or "#" in p or p.casefold() in own or p.casefold() in {x.casefold() for x in parts}:
            continue
        # "lines Jubilee line" after "metro Jubilee line": a label word before what a kept part says
        if " " in p and any(p.split(" ", 1)[1].casefold() in o.casefold() for o in parts):
            continue
        parts.append(p)
    return ", ".join(parts) or (value or "").strip()


def sentence(attribute: str, value: str) -> str:
    tpl = words()["sentences"].get(attribute, label(attribute) + ": {value}.")
    return tpl.replace("{value}", plain_value(value, attribute))


def sureness(conf: float | None) -> str:
    c = conf or 0.0
    for floor, w in words()["sure"]:
        if c >= floor:
            return w
    return words()["sure"][-1][1]


def sensitivity_words(s: int | None) -> str:
    return words()["sensitivity"].get(str(s), "unknown") if s is not None else "unknown"


def when(ts: str | None) -> str:
    try:
        return datetime.fromisoformat(str(ts).replace("Z", "+00:00")).strftime("%d %b %Y, %H:%M")
    except ValueError:
        return "no date"


def post_text(post: dict[str, Any]) -> str:
    return " ".join(str(x) for x in (post.get("title"), post.get("caption")) if x)


def excerpt(text: str, marks: list[str], width: int = EXCERPT) -> str:
    """Escaped excerpt of `text` around the marked words (each <mark>ed), with an ellipsis
    wherever the text is cut."""
    text = text or ""
    spans: list[tuple[int, int]] = []
    for m in sorted({m.strip() for m in marks if m and m.strip()}, key=len, reverse=True):
        i = text.casefold().find(m.casefold())
        if i >= 0 and not any(a < i + len(m) and i < b for a, b in spans):
            spans.append((i, i + len(m)))
    spans.sort()
    lo = max(0, spans[0][0] - width) if spans else 0
    hi = min(len(text), spans[-1][1] + width) if spans else min(len(text), 2 * width)
    # cut at a word boundary, never mid-word
    if lo > 0:
        sp = text.find(" ", lo)
        lo = sp + 1 if 0 <= sp < (spans[0][0] if spans else hi) else lo
    if hi < len(text):
        sp = text.rfind(" ", spans[-1][1] if spans else lo, hi)
        hi = sp if sp > lo else hi
    out, pos = [], lo
    for a, b in spans:
        if a < lo or b > hi:
            continue
        out.append(escape(text[pos:a]))
        out.append(f"<mark>{escape(text[a:b])}</mark>")
        pos = b
    out.append(escape(text[pos:hi]))
    return ("… " if lo > 0 else "") + "".join(out).strip() + (" …" if hi < len(text) else "")


def _marks(db, run_id: str, node_id: str, attribute: str, value: str, text: str, quote: str) -> list[str]:
    """The revealing words of one evidence node: the parts of the finding's value the text holds,
    else the node's cue and entity spans for the attribute, else the quoted phrase."""
    from core.advise.from_run import _relevant_spans
    from db.queries import node

    low = text.casefold()
    parts = [p.strip() for p in re.split(r"[;,/]", plain_value(value, attribute)) if len(p.strip()) >= 3]
    hits = [p for p in parts if p.casefold() in low]
    if hits:
        return hits
    n = node(db, run_id, node_id)
    spans = [s for _, _, s in _relevant_spans(n.data, {attribute})[0]] if n is not None else []
    return spans or ([quote] if quote else [])


def reject_cmd(src: str, out_dir: str, key: str) -> str:
    return f"argus audit {shlex.quote(src)} --out {shlex.quote(out_dir)} --reject {shlex.quote(key)}"


class Cards:
    def __init__(self, db, run_id: str, user_dir: str, posts: dict[str, dict[str, Any]], src: str, out_dir: str):
        self.db, self.run_id, self.posts, self.src, self.out_dir = db, run_id, posts, src, out_dir
        self.thumbs = Thumbs(user_dir)

    def why(self, evidence: list[dict[str, Any]]) -> str:
        """'read from text in a photo (2 posts) and a caption (1 post)'"""
        by: dict[str, set[str]] = {}
        for e in evidence:
            by.setdefault(words()["carriers"].get(e.get("carrier") or "", "your posts"), set()).add(
                str(e.get("post_id")))
        items = [f"{w} ({len(p)} post{'s' if len(p) != 1 else ''})" for w, p in by.items()]
        if not items:
            return "from the run's reasoning over several posts"
        return "read from " + (", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0])

    def source(self, attribute: str, value: str, e: dict[str, Any]) -> str:
        post = self.posts.get(str(e.get("post_id")), {})
        ocr = bool(e.get("image") and e.get("quote") and e.get("carrier") in ("ocr_text", "screenshot"))
        text = (e.get("quote") or "").replace("\n", " / ") if ocr else post_text(post)
        marks = _marks(self.db, self.run_id, str(e.get("node_id")), attribute, value, text, e.get("quote") or "")
        pic = self.thumbs.region(e.get("image"), e.get("box"), f"post {e.get('post_id')}: the revealing part marked")
        where = words()["carriers"].get(e.get("carrier") or "", e.get("carrier") or "")
        if ocr:
            quote = f"<p class='q'>In the photo: {excerpt(text, marks)}</p>"
        elif text:
            quote = f"<p class='q'>{excerpt(text, marks)}</p>"
        else:
            quote = ""
        return (f"<figure class='src'>{pic}<figcaption><b>{escape(when(post.get('timestamp')))}</b>"
                f" <span class='k'>· {escape(where)} · post {escape(str(e.get('post_id')))}</span>{quote}"
                "</figcaption></figure>")

    def finding(self, attribute: str, value: str, conf: float | None, sens: int | None,
                evidence: list[dict[str, Any]], chain_html: str) -> str:
        seen: set[str] = set()
        sources = []
        for e in evidence:
            key = f"{e.get('post_id')}|{e.get('image')}"
            if key in seen or len(sources) >= MAX_SOURCES:
                continue
            seen.add(key)
            sources.append(self.source(attribute, value, e))
        s = sens if sens is not None else 0
        return (f"<article class='card s{s}' id='f-{escape(attribute)}'>"
                f"<header><h3>{escape(label(attribute))}</h3><span class='sens s{s}'>sensitivity {s}/5 · "
                f"{escape(sensitivity_words(sens))}</span></header>"
                f"<p class='says'>{escape(sentence(attribute, value))}</p>"
                f"<p class='sure'>How sure: <b>{escape(sureness(conf))}</b> ({(conf or 0):.2f}), "
                f"{escape(self.why(evidence))}.</p>"
                f"<div class='srcs'>{''.join(sources)}</div>"
                f"<p class='wrong'>Not right? Mark it as wrong: <code>{escape(reject_cmd(self.src, self.out_dir, attribute))}"
                f"</code> <span class='k'>(finding key <code>{escape(attribute)}</code>)</span></p>"
                f"{chain_html}</article>")

    def edit(self, i: int, step: Any, before: float) -> str:
        """One advised edit previewed: before and after pictures, or the caption with the cut struck."""
        e = step.edit
        post = self.posts.get(e.post_id, {})
        what = words()["edits"].get(e.kind, e.kind)
        pics = ""
        text = post_text(post)
        if e.kind in ("blur_region", "crop_image", "strip_exif", "remove_image"):
            a = self.thumbs.region(e.image, e.box if e.kind != "strip_exif" else None, "before")
            b = self.thumbs.edited(e.image, e.kind, e.box, "after the edit")
            pics = (f"<div class='ba'><figure>{a}<figcaption>now</figcaption></figure>"
                    f"<figure>{b}<figcaption>after: {escape(what.lower())}</figcaption></figure></div>")
            body = f"<p class='q'>{excerpt(text, [])}</p>" if text else ""
        elif e.kind == "delete_post":
            files = [im.get("file") for im in post.get("images") or [] if isinstance(im, dict)][:3]
            thumbs = "".join(f"<figure>{t}</figure>" for f in files
                             if (t := self.thumbs.edited(f, "delete_post", None, "to delete")))
            pics = f"<div class='ba del'>{thumbs}<span class='stamp'>delete</span></div>" if thumbs else \
                "<p class='stamp'>delete</p>"
            body = f"<p class='q'><del>{excerpt(text, [])}</del></p>" if text else ""
        elif e.kind == "cut_phrase":
            phrase = e.phrase or ""
            src = text if e.post_id != "@profile" else phrase
            body = "<p class='q'>" + excerpt(src, [phrase]).replace("<mark>", "<del>").replace("</mark>", "</del>") + \
                "</p>" + f"<p class='k'>Cut, whole: “{escape(phrase)}”</p>"
        else:
            body = ""
        where = "every post and the account" if e.post_id == "*" else (
            "your profile" if e.post_id == "@profile" else f"post {e.post_id} of {when(post.get('timestamp'))}")
        removes = ", ".join(label(a) for a in step.removed) or "lowers the confidence of what remains"
        return (f"<article class='card edit' id='edit-{i}'><header><h3>{i}. {escape(what)}</h3>"
                f"<span class='k'>{escape(where)}</span></header>{pics}{body}"
                f"<p>Exposure {before:g} → <b>{step.exposure_after:g}</b>. Removes: {escape(removes)}.</p></article>")

    def checklist_item(self, step: Any) -> str:
        e = step.edit
        post = self.posts.get(e.post_id, {})
        what = words()["edits"].get(e.kind, e.kind)
        where = "" if e.post_id in ("*", "@profile") else f" — post of {when(post.get('timestamp'))}"
        text = post_text(post)
        hint = f": “{escape(text[:60].rsplit(' ', 1)[0] if len(text) > 60 else text)}{'…' if len(text) > 60 else ''}”" \
            if text and e.post_id not in ("*", "@profile") else ""
        return f"<li>☐ {escape(what)}{escape(where)}{hint}</li>"
