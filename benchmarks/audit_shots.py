"""Screenshots of a real `argus audit` report for docs/: a generated user (argus bench generate)
written out as an Instagram export (the 2024 layout: your_instagram_activity/content/posts_1.json
with its media), audited offline, and the report shot in headless Chromium at 1280 px and 390 px
wide. Prints the report's size and the PNGs' sizes.

    PYTHONPATH=$PWD python benchmarks/audit_shots.py --out /tmp/shots [--user u002] [--seed 3] [--docs docs]
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from generated_export import instagram_export  # noqa: E402


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if found := shutil.which(name):
            return found
    raise SystemExit("no chromium: apt-get install -y chromium")


def shoot(report: Path, png: Path, width: int, height: int) -> None:
    """Headless Chromium at this window size."""
    subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--window-size={width},{height}", f"--screenshot={png}", report.as_uri()],
                   check=True, capture_output=True, timeout=120)


def shrink(png: Path, limit: int = 500_000) -> None:
    """Palette PNG (256 colours) so a screenshot stays under `limit` bytes in the repository."""
    from PIL import Image

    im = Image.open(png).convert("RGB")
    im.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(png, optimize=True)
    if png.stat().st_size > limit:
        im.quantize(colors=64, method=Image.Quantize.MEDIANCUT).save(png, optimize=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--user", default="u002")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--docs", type=Path, default=None, help="copy the PNGs here")
    ap.add_argument("--height", type=int, default=1800, help="of the 1280 px shot (the 390 px one is 1.5 x)")
    a = ap.parse_args()
    shutil.rmtree(a.out, ignore_errors=True)
    a.out.mkdir(parents=True)
    py = [sys.executable, "-m", "argus_tui.cli"]
    subprocess.run(py + ["bench", "generate", str(a.out / "gen"), "--users", "3", "--seed", str(a.seed)],
                   check=True, cwd=ROOT)
    src = instagram_export(a.out / "gen" / "users" / a.user, a.out / "export")
    subprocess.run(py + ["audit", str(src), "--out", str(a.out / "audit"), "-q"], check=True, cwd=ROOT)
    report = a.out / "audit" / "report.html"
    print(f"report {report}: {report.stat().st_size / 1e6:.2f} MB")
    shots = []
    for w, h in ((1280, 8000), (390, 16000)):
        tall = a.out / f"tall-{w}.png"
        shoot(report, tall, w, h)
        shots += split(tall, a.out, w, a.height if w > 400 else int(a.height * 1.5))
    for png in shots:
        shrink(png)
        print(f"{png}: {png.stat().st_size / 1e3:.0f} KB")
        if a.docs:
            shutil.copyfile(png, a.docs / png.name)


def split(tall: Path, out: Path, width: int, height: int) -> list[Path]:
    """The page's first screen, and (at 1280 px) the rest of the page down to its last content
    row; the tall window is cut where the page ends."""
    from PIL import Image, ImageChops

    im = Image.open(tall).convert("RGB")
    bg = Image.new("RGB", im.size, im.getpixel((im.width - 1, im.height - 1)))
    bottom = (ImageChops.difference(im, bg).getbbox() or (0, 0, width, height))[3] + 24
    first = out / f"audit-report-{width}.png"
    im.crop((0, 0, width, min(height, bottom))).save(first)
    paths = [first]
    if width > 400 and bottom > height:
        rest = out / f"audit-report-{width}-more.png"
        im.crop((0, height, width, bottom)).save(rest)
        paths.append(rest)
    return paths


if __name__ == "__main__":
    main()
