"""`make demo` on a fresh clone (issue 37: a virtualenv under 500 MB, the profile on screen in
under 60 s on an idle 2-core machine): clones this checkout's HEAD into a short temp path, runs
`make demo` and prints the total time, the time until the profile's first line is on screen,
the virtualenv's size and its largest packages (what is left to trim).

    python benchmarks/demo_setup.py [--dest /tmp/d1] [--keep]

Time depends on the machine's load and the package index; run it on an idle machine for the
issue's numbers (the load average is printed beside them).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROFILE_LINE = "privacy profile of"


def du_mib(*paths: Path) -> float:
    """Disk usage as `du -sh` counts it (blocks, MiB), of all paths together."""
    if not paths:
        return 0.0
    out = subprocess.run(["du", "-skc", *map(str, paths)], capture_output=True, text=True, check=True).stdout
    return int(out.splitlines()[-1].split()[0]) / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dest", type=Path, default=None, help="clone here (default: a new /tmp/argus-d* folder)")
    ap.add_argument("--keep", action="store_true", help="keep the clone and its virtualenv")
    args = ap.parse_args()
    dest = args.dest or Path(tempfile.mkdtemp(prefix="argus-d", dir="/tmp"))
    if dest.exists():
        shutil.rmtree(dest)
    subprocess.run(["git", "clone", "-q", str(ROOT), str(dest)], check=True)
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)       # as on a person's machine: imports leave their .pyc
    env["PYTHONUNBUFFERED"] = "1"                  # each line of the profile timed as it is printed
    # a first demo, as on a fresh machine: its own TMP, so no earlier demo's folder and tool cache
    # (TMP/argus-demo-USER) spares it the OCR, nor the bytecode of what the OCR imports
    tmp = Path(tempfile.mkdtemp(prefix="argus-dt", dir="/tmp"))
    env["TMPDIR"] = str(tmp)
    load = os.getloadavg()[0]
    start = time.monotonic()
    first_profile = None
    proc = subprocess.Popen(["make", "demo"], cwd=dest, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, bufsize=1)
    assert proc.stdout is not None
    for line in proc.stdout:
        if first_profile is None and line.startswith(PROFILE_LINE):
            first_profile = time.monotonic() - start
    rc = proc.wait()
    total = time.monotonic() - start
    if rc != 0:
        print(f"make demo failed (exit {rc}) in {dest} (TMPDIR {tmp})", file=sys.stderr)
        return rc
    venv = dest / ".venv"
    site = next((venv / "lib").glob("python*/site-packages"))
    groups: dict[str, list[Path]] = {}
    for entry in site.iterdir():
        # a distribution's files: its package folder, *.libs and single modules under one name
        name = entry.name.split("-")[0].removesuffix(".libs").removesuffix(".py").lower()
        groups.setdefault(name, []).append(entry)
    sizes = {name: du_mib(*paths) for name, paths in groups.items()}
    pyc = du_mib(*venv.rglob("__pycache__"))
    print(f"load average at start: {load:.1f} on {os.cpu_count()} cores")
    print(f"make demo: {total:.0f} s in all; profile on screen after {first_profile or float('nan'):.0f} s")
    size = du_mib(venv)
    print(f"virtualenv: {size:.0f} MiB ({size * 2**20 / 1e6:.0f} MB) as `du -sh` counts (target < 500 MB), "
          f"of which {pyc:.0f} MiB __pycache__")
    for name, mib in sorted(sizes.items(), key=lambda kv: -kv[1])[:16]:
        print(f"  {mib:6.1f} MiB  {name}")
    shutil.rmtree(tmp)
    if not args.keep:
        shutil.rmtree(dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
