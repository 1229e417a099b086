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
    subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--window-size={width},{height}", f"--screenshot={png}", report.as_uri()],
                   check=True, capture_output=True, timeout=120)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--user", default="u002")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--docs", type=Path, default=None, help="copy the PNGs here")
    ap.add_argument("--height", type=int, default=2400)
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
    for w, h in ((1280, a.height), (390, a.height * 2)):
        png = a.out / f"audit-report-{w}.png"
        shoot(report, png, w, h)
        print(f"{png}: {png.stat().st_size / 1e3:.0f} KB")
        if a.docs:
            shutil.copyfile(png, a.docs / png.name)


if __name__ == "__main__":
    main()
