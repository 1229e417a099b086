"""The report a person reads (`argus audit`'s report.html), on a real audit of a generated London
commuter written out as an Instagram export (photos of a parcel label, a payslip, station signs):
parsed with html.parser, it has a card per finding with thumbnails and the revealing region drawn,
the marked words, each edit previewed (a blur changes the pixels of its region), an offline map, a
timeline, honest notes, the platform's own inferences beside the posts'; no script, no external
URL, thumbnails not originals, under 5 MB."""
from __future__ import annotations

import base64
import io
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image, ImageChops

sys.path.insert(0, str(Path(__file__).parent))
from generated_export import generated_instagram  # noqa: E402

from core.audit import run_audit  # noqa: E402


class Tree(HTMLParser):
    """Every element as (tag, attrs, path of enclosing classes), and the text under each class."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str], tuple[str, ...]]] = []
        self.stack: list[tuple[str, str]] = []
        self.text: dict[str, list[str]] = {}

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        self.elements.append((tag, a, tuple(c for _, c in self.stack)))
        if tag not in ("meta", "image", "rect", "circle", "br", "img"):
            self.stack.append((tag, f"{tag}.{a.get('class', '')}"))

    def handle_startendtag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        self.elements.append((tag, a, tuple(c for _, c in self.stack)))

    def handle_endtag(self, tag):
        if not any(t == tag for t, _ in self.stack):
            return
        while self.stack:
            t, _ = self.stack.pop()
            if t == tag:
                break

    def handle_data(self, data):
        for _, c in self.stack:
            self.text.setdefault(c, []).append(data)

    def find(self, tag: str, cls: str | None = None, within: str | None = None):
        return [(t, a, p) for t, a, p in self.elements if t == tag
                and (cls is None or cls in a.get("class", "").split())
                and (within is None or any(within in x for x in p))]


def parse(html: str) -> Tree:
    t = Tree()
    t.feed(html)
    return t


def pixels(uri: str) -> Image.Image:
    assert uri.startswith("data:image/jpeg;base64,")
    return Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1]))).convert("RGB")


@pytest.fixture(scope="module")
def audit(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("rep")
    res = run_audit(generated_instagram(tmp), tmp / "audit")
    return res, Path(res.report).read_text(encoding="utf-8")


def test_findings_are_cards_with_thumbnails_regions_and_marked_words(audit) -> None:
    res, html = audit
    t = parse(html)
    cards = [a for _, a, _ in t.find("article", "card") if "edit" not in a["class"].split()]
    assert len(cards) == len(res.attributes) >= 4
    ids = [a["id"] for a in cards]
    assert ids[0] in ("f-home_location", "f-political_views")       # the most sensitive first
    says = " ".join(t.text["p.says"])
    assert "You live in or near Foxglove Terrace" in says
    assert "“" not in says and "#" not in says                     # plain sentences, not value dumps
    assert "How sure:" in " ".join(t.text["p.sure"])
    assert all(re.search(r"sensitivity [0-5]/5", s) for s in t.text["span.sens s4"] + t.text["span.sens s3"])
    thumbs = t.find("svg", "thumb", within="article.card")
    regions = t.find("rect", "region", within="div.srcs")
    assert len(thumbs) >= 5 and len(regions) >= 4
    assert "Foxglove Terrace" in " ".join(t.text["mark."])         # the revealing words marked
    # dated sources
    assert re.search(r"\d\d \w{3} 2025, \d\d:\d\d", " ".join(t.text["figcaption."]))
    # each card says how to mark it wrong, with the real paths
    assert "--reject home_location" in html and str(Path(res.out_dir)) in " ".join(t.text["p.wrong"])


def test_edits_are_previewed_with_exposure_and_a_checklist(audit) -> None:
    res, html = audit
    t = parse(html)
    plan = json.loads(Path(res.advice).read_text())["plan"]
    edits = t.find("article", "edit")
    assert len(edits) == len(plan["steps"]) >= 1
    assert len(t.find("li", within="ul.check")) == len(plan["steps"])
    assert f"{plan['exposure_before']:g} → {plan['exposure_after']:g}" in html
    blur = [i for i, s in enumerate(plan["steps"], 1) if s["edit"]["kind"] == "blur_region"]
    assert blur, plan["steps"]                                   # the payslip's gross pay
    before, after = (pixels(u) for u in _blur_pair(html, blur[0]))
    assert before.size == after.size
    x0, y0, x1, y1 = plan["steps"][blur[0] - 1]["edit"]["box"]
    diff = ImageChops.difference(before, after).getbbox()
    assert diff is not None                                      # the preview has the blur applied ...
    sx = before.size[0] / Image.open(Path(res.user_dir) / plan["steps"][blur[0] - 1]["edit"]["image"]).size[0]
    # ... inside the marked region (thumbnail pixels, a few pixels of JPEG bleed)
    assert diff[0] >= x0 * sx - 8 and diff[2] <= x1 * sx + 8 and diff[1] >= y0 * sx - 8 and diff[3] <= y1 * sx + 8
    assert len(t.find("rect", "region", within="div.ba")) >= 2   # the region drawn on before and after


def _blur_pair(html: str, i: int) -> list[str]:
    part = html.split(f"id='edit-{i}'", 1)[1].split("</article>", 1)[0]
    return re.findall(r"href='(data:image/jpeg;base64,[^']+)'", part)[:2]


def test_map_timeline_notes_and_imports(audit) -> None:
    res, html = audit
    t = parse(html)
    assert len(t.find("svg", "map")) == 1
    pts = t.find("circle", "pt")
    assert pts and any("London" in s for s in t.text.get("svg.map", []))
    assert len(t.find("svg", "timeline")) == 1
    cells = t.find("rect", "cell")
    assert len(cells) == 7 * 24
    counts = sum(int(re.search(r": (\d+) post", s).group(1)) for s in t.text["svg.timeline"] if ": " in s and " post" in s)
    assert counts == res.posts
    notes = " ".join(t.text["ul.notes"])
    assert "does not erase it from the platform's own archive" in notes and "Others' comments" in notes
    assert "route budget: 20 of 20 units spent" in html
    assert "RUNS.db" not in html and "USER_DIR" not in html       # real paths in the commands


def test_report_is_inert_self_contained_and_small(audit) -> None:
    res, html = audit
    t = parse(html)
    assert not t.find("script") and "<script" not in html.lower()
    assert not any(k.startswith("on") for _, a, _ in t.elements for k in a)        # no event handlers
    for tag, a, _ in t.elements:
        for k in ("href", "src", "xlink:href", "action"):
            if k in a:
                assert a[k].startswith("data:image/jpeg;base64,"), (tag, k, a[k][:60])
    assert not re.search(r"https?://|url\(", html)
    assert Path(res.report).stat().st_size < 5_000_000
    for tag, a, _ in t.elements:
        if tag == "image":
            assert max(pixels(a["href"]).size) <= 320                             # thumbnails, not originals


def test_platform_inferences_are_shown_beside_the_posts(audit) -> None:
    from core.advise.advisor import AdvicePlan
    from core.reports.audit_html import render_audit_html
    from db.store import open_db

    res, _ = audit
    (Path(res.user_dir) / "platform_inferences.json").write_text(json.dumps({
        "platform": "Instagram", "items": [
            {"attribute": "home_location", "value": "London", "source_file": "ads_information/locations.json"},
            {"attribute": "gender", "value": "<script>alert(1)</script>", "source_file": "x.json"}]}))
    plan = AdvicePlan(**json.loads(Path(res.advice).read_text())["plan"])
    html = render_audit_html(db=open_db(Path(res.db)), run_id=res.run_id, platform="instagram", src="export",
                             import_lines=[], plan=plan, score=None, out_dir=res.out_dir)
    t = parse(html)
    assert "What the platform already infers" in html
    rows = html.split("id='platform'", 1)[1].split("</section>", 1)[0]
    assert "ads_information/locations.json" in rows and "Foxglove Terrace" in rows       # beside the posts' value
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in rows and not t.find("script")
    assert "not from your posts" in rows


def test_a_real_browser_draws_the_thumbnails_under_the_reports_csp(audit, tmp_path: Path) -> None:
    """Headless Chromium renders the report as written (its Content-Security-Policy included): the
    thumbnails show (the same page with the images emptied is far plainer), and at a phone's 390 px
    the cards are laid out one per row with nothing cut at the right edge."""
    import shutil
    import subprocess

    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        pytest.skip("no chromium (apt-get install -y chromium)")
    res, html = audit

    def shot(page: str, width: int, name: str) -> Image.Image:
        f = tmp_path / f"{name}.html"
        f.write_text(page, encoding="utf-8")
        png = tmp_path / f"{name}.png"
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--window-size={width},1400", f"--screenshot={png}", f.as_uri()],
                       check=True, capture_output=True, timeout=120)
        return Image.open(png).convert("RGB")

    def colours(im: Image.Image) -> int:
        return len(im.getcolors(maxcolors=1 << 20) or [])

    full = shot(html, 1280, "full")
    bare = shot(re.sub(r"href='data:image/jpeg;base64,[^']+'", "href='data:,'", html), 1280, "bare")
    # blocked or broken images would leave the two pages alike; drawn, they differ over a large area
    diff = ImageChops.difference(full, bare).convert("L").point(lambda v: 255 if v > 24 else 0)
    changed = diff.histogram()[255]
    assert changed > 0.05 * full.width * full.height, changed
    phone = shot(html, 390, "phone")
    # the right margin column at 390 px is page background: no card or picture runs past the edge
    edge = phone.crop((phone.width - 3, 0, phone.width, phone.height))
    assert colours(edge) <= 3, colours(edge)


def test_thumbnails_stop_at_the_size_budget(tmp_path: Path) -> None:
    """Past BUDGET bytes of thumbnails a report gets no more pictures (it stays under 5 MB)."""
    from core.reports import thumbs

    (tmp_path / "images").mkdir()
    for i in range(3):
        Image.effect_noise((900, 900), 90).convert("RGB").save(tmp_path / "images" / f"n{i}.jpg")
    t = thumbs.Thumbs(tmp_path)
    first = t.region("images/n0.jpg", [1, 1, 50, 50], "x")
    assert first and t.spent > 0
    t.spent = thumbs.BUDGET
    assert t.region("images/n1.jpg", None, "x") == ""                          # no new picture
    assert t.region("images/n0.jpg", [1, 1, 50, 50], "x") == first              # one made before stays
    assert t.region("../../etc/passwd", None, "x") == ""                       # only the account's own files
