"""Nothing of the person's deleted, no audit of the wrong export (issue 36): `--overwrite`
removes only what Argus wrote (its .argus-written list) and refuses a folder Argus did not
make; a killed audit resumes only when the export at its path is the same one, and an audit
killed during its import restarts by itself."""
from __future__ import annotations

import io
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from core.audit import CHANGED, KILLED_IN_IMPORT, run_audit
from core.bench.importers.exports import import_export
from core.errors import InputError

sys.path.insert(0, str(Path(__file__).parent))
import export_fixtures as fx  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "COLUMNS": "80", "PYTHONPATH": str(ROOT),
            "HOME": str(tmp_path), **extra}


def _argus(tmp_path: Path, *args: str, preexec=None, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "argus_tui.cli", *args], capture_output=True, text=True,
                          cwd=tmp_path, env=_env(tmp_path, **env), stdin=subprocess.DEVNULL, timeout=600,
                          preexec_fn=preexec)


def _noisy_jpeg(n: int = 300) -> bytes:
    out = io.BytesIO()
    Image.frombytes("RGB", (n, n), os.urandom(n * n * 3)).save(out, "JPEG", quality=95)
    return out.getvalue()


def test_import_overwrite_keeps_the_persons_own_files(tmp_path: Path) -> None:
    src = fx.x(tmp_path / "e")
    out = tmp_path / "out"
    import_export("x", src, out)
    (out / "my notes.txt").write_text("mine")
    (out / "users" / "person_x" / "my-photo.jpg").write_bytes(b"mine too")
    r = import_export("x", src, out, overwrite=True)
    assert (out / "my notes.txt").read_text() == "mine"
    assert (out / "users" / "person_x" / "my-photo.jpg").read_bytes() == b"mine too"
    assert (Path(r.user_dir) / "posts.jsonl").is_file() and (out / "manifest.json").is_file()
    listed = (out / ".argus-written").read_text()
    assert "my notes.txt" not in listed and "users/person_x/posts.jsonl" in listed


def test_overwrite_refuses_a_folder_argus_did_not_make(tmp_path: Path) -> None:
    """A folder with a manifest.json of its own (today's only check) is still not Argus's."""
    out = tmp_path / "bench"
    out.mkdir()
    (out / "manifest.json").write_text('{"format": "sopri/1"}')
    (out / "thesis.tex").write_text("years of work")
    with pytest.raises(InputError) as ei:
        import_export("x", fx.x(tmp_path / "e"), out, overwrite=True)
    assert str(out) in ei.value.message and "did not make" in ei.value.message
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "thesis.tex"]


def test_overwrite_never_replaces_a_persons_file_of_the_same_name(tmp_path: Path) -> None:
    src = fx.x(tmp_path / "e")
    out = tmp_path / "out"
    import_export("x", src, out)
    (out / "users" / "person_x" / "images").rename(tmp_path / "moved")   # Argus's folder gone ...
    (out / "users" / "person_x" / "images").write_text("a file of the person's with that name")
    with pytest.raises(InputError) as ei:
        import_export("x", src, out, overwrite=True)
    assert "images" in ei.value.message and "Argus did not write it" in ei.value.message
    assert (out / "users" / "person_x" / "images").read_text() == "a file of the person's with that name"


def test_audit_overwrite_keeps_the_persons_own_files(tmp_path: Path) -> None:
    src = fx.mastodon(tmp_path / "e")
    out = tmp_path / "a"
    run_audit(src, out, budget=2)
    (out / "keep.txt").write_text("mine")
    (out / "account" / "users" / "mine.md").write_text("mine too")
    with pytest.raises(InputError, match="not empty"):
        run_audit(src, out, budget=2)
    res = run_audit(src, out, budget=2, overwrite=True)
    assert (out / "keep.txt").read_text() == "mine" and (out / "account" / "users" / "mine.md").read_text() == "mine too"
    assert Path(res.report).is_file() and not res.resumed


def _zip_of(tmp_path: Path, name: str, user: str, text: str) -> Path:
    folder = fx.x(tmp_path / name)
    data = folder / "twitter-2026-03-01" / "data"
    (data / "account.js").write_text((data / "account.js").read_text().replace("person_x", user))
    (data / "tweets.js").write_text((data / "tweets.js").read_text().replace("Commute again", text))
    return fx.zip_dir(folder, tmp_path / f"{name}.zip")


def test_a_killed_audit_of_a_replaced_export_starts_afresh(tmp_path: Path) -> None:
    """Killed after step 1, then the export at the same path is replaced by another account's:
    the rerun must not resume (and report on the old account under the new name)."""
    src = tmp_path / "export.zip"
    _zip_of(tmp_path, "alice", "alice_x", "Alice commutes").rename(src)
    out = tmp_path / "a"
    killed = _argus(tmp_path, "audit", str(src), "--out", str(out), "--budget", "3",
                    ARGUS_ENGINE_EXIT_AFTER_STEP="1")
    assert killed.returncode == 137, killed.stderr
    _zip_of(tmp_path, "bob", "bob_x", "Bob cycles").rename(src)          # same path, another export
    again = _argus(tmp_path, "audit", str(src), "--out", str(out), "--budget", "3")
    assert again.returncode == 0, again.stderr
    assert CHANGED in again.stdout and "resumed the unfinished audit" not in again.stdout
    assert (out / "account" / "users" / "bob_x").is_dir() and not (out / "account" / "users" / "alice_x").exists()
    runs = sqlite3.connect(out / "runs.db").execute("SELECT user_dir FROM runs").fetchall()
    assert len(runs) == 1 and runs[0][0].endswith("bob_x"), runs
    assert "Alice commutes" not in (out / "account" / "users" / "bob_x" / "posts.jsonl").read_text()


def test_a_touched_export_starts_afresh_and_says_so(tmp_path: Path) -> None:
    src = _zip_of(tmp_path, "alice", "alice_x", "Alice commutes")
    out = tmp_path / "a"
    assert _argus(tmp_path, "audit", str(src), "--out", str(out), "--budget", "3",
                  ARGUS_ENGINE_EXIT_AFTER_STEP="1").returncode == 137
    os.utime(tmp_path / "alice.zip")              # touched, not changed: mtime differs ...
    again = _argus(tmp_path, "audit", str(src), "--out", str(out), "--budget", "3")
    assert again.returncode == 0, again.stderr    # ... so it starts afresh, and says why
    assert CHANGED in again.stdout


def test_a_killed_audit_of_the_untouched_export_resumes(tmp_path: Path) -> None:
    src = _zip_of(tmp_path, "alice", "alice_x", "Alice commutes")
    out = tmp_path / "a"
    assert _argus(tmp_path, "audit", str(src), "--out", str(out), "--budget", "3",
                  ARGUS_ENGINE_EXIT_AFTER_STEP="1").returncode == 137
    again = _argus(tmp_path, "audit", str(src), "--out", str(out), "--budget", "3")
    assert again.returncode == 0, again.stderr
    assert f"resumed the unfinished audit in {out}" in again.stdout and CHANGED not in again.stdout


def _file_limit(n: int):
    def set_limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (n, n))
    return set_limit


# Python ignores SIGXFSZ; put back the default so the kernel kills the process mid-write
KILLED_BY_KERNEL = ("import runpy, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_DFL); "
                    "sys.argv = ['argus', *sys.argv[1:]]; runpy.run_module('argus_tui.cli', run_name='__main__')")


def test_an_audit_killed_during_its_import_restarts_by_itself(tmp_path: Path) -> None:
    """A real kill in the middle of the import (SIGXFSZ when the big photo is written)."""
    folder = fx.x(tmp_path / "e")
    (folder / "twitter-2026-03-01" / "data" / "tweets_media" / "1003-Abc123.jpg").write_bytes(_noisy_jpeg())
    src = fx.zip_dir(folder, tmp_path / "x.zip")
    out = tmp_path / "a"
    killed = subprocess.run([sys.executable, "-c", KILLED_BY_KERNEL, "audit", str(src), "--out", str(out),
                             "--budget", "3"], capture_output=True, text=True, cwd=tmp_path, env=_env(tmp_path),
                            stdin=subprocess.DEVNULL, timeout=600, preexec_fn=_file_limit(100_000))
    assert killed.returncode == -signal.SIGXFSZ, (killed.returncode, killed.stderr)
    assert (out / "account").is_dir() and not (out / "account" / "manifest.json").exists()   # half an import
    again = _argus(tmp_path, "audit", str(src), "--out", str(out), "--budget", "3")
    assert again.returncode == 0, again.stderr
    assert KILLED_IN_IMPORT in again.stdout
    assert (out / "report.html").is_file()
    assert json.loads((out / "account" / "manifest.json").read_text())["users"] == ["person_x"]


def test_overwrite_on_a_killed_audit_starts_afresh(tmp_path: Path) -> None:
    src = _zip_of(tmp_path, "alice", "alice_x", "Alice commutes")
    out = tmp_path / "a"
    assert _argus(tmp_path, "audit", str(src), "--out", str(out), "--budget", "3",
                  ARGUS_ENGINE_EXIT_AFTER_STEP="1").returncode == 137
    again = _argus(tmp_path, "audit", str(src), "--out", str(out), "--budget", "3", "--overwrite")
    assert again.returncode == 0, again.stderr
    assert "resumed the unfinished audit" not in again.stdout
    assert len(sqlite3.connect(out / "runs.db").execute("SELECT run_id FROM runs").fetchall()) == 1
