"""The one font lookup shared by `make fonts`, the benchmark generator and the demo account.

A CJK font is any of the ones Debian ships (WenQuanYi Micro Hei first: the generator's images
are byte-identical per seed only with the same font), else whatever fontconfig knows for
Chinese; `ARGUS_CJK_FONT` overrides. Standard library only: `make fonts` runs it
(`python3 -m core.fonts --missing`) before the virtualenv exists."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

#: Debian's CJK fonts, preferred first: (path, package)
CJK_FONTS: tuple[tuple[str, str], ...] = (
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "fonts-wqy-microhei"),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", "fonts-wqy-zenhei"),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "fonts-noto-cjk"),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", "fonts-noto-cjk"),
    ("/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc", "fonts-noto-cjk"),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", "fonts-arphic-uming"),
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", "fonts-arphic-ukai"),
    ("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", "fonts-droid-fallback"),
)
CJK_PACKAGE = "fonts-wqy-microhei"  # what `make fonts` installs when no CJK font is found
LATIN_FONTS = {  # DejaVu (fonts-dejavu-core): the generator's Latin faces
    "sans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "bold": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "serif": "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
}
LATIN_PACKAGE = "fonts-dejavu-core"


def _fontconfig_cjk() -> Path | None:
    """A Chinese-capable font fontconfig knows of (covers fonts outside the list above)."""
    if not shutil.which("fc-list"):
        return None
    try:
        out = subprocess.run(["fc-list", ":lang=zh", "file"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    files = sorted(line.split(":")[0].strip() for line in out.splitlines() if line.strip())
    files = [f for f in files if f.lower().endswith((".ttf", ".ttc", ".otf", ".otc"))]
    return Path(files[0]) if files else None


def cjk_font() -> Path | None:
    """The CJK font file to use, or None when none is installed."""
    env = os.environ.get("ARGUS_CJK_FONT")
    if env:
        return Path(env) if Path(env).is_file() else None
    for path, _ in CJK_FONTS:
        if Path(path).is_file():
            return Path(path)
    return _fontconfig_cjk()


def latin_font(face: str = "sans") -> Path | None:
    p = Path(LATIN_FONTS[face])
    return p if p.is_file() else None


def missing_packages() -> list[str]:
    """Debian packages to install for the fonts Argus needs (empty when all are present)."""
    pkgs = [] if cjk_font() else [CJK_PACKAGE]
    if any(latin_font(f) is None for f in LATIN_FONTS):
        pkgs.append(LATIN_PACKAGE)
    return pkgs


def main(argv: list[str]) -> int:
    if "--missing" in argv:  # for `make fonts`: the packages to install, one line, nothing when complete
        print(" ".join(missing_packages()))
        return 0
    cjk = cjk_font()
    print(f"CJK font: {cjk or 'none (apt-get install ' + CJK_PACKAGE + ')'}")
    for face in LATIN_FONTS:
        print(f"Latin {face}: {latin_font(face) or 'none (apt-get install ' + LATIN_PACKAGE + ')'}")
    return 0 if not missing_packages() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
