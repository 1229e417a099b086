"""Loading the public view of sopri/1 users and benchmarks. Never opens truth files."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from pydantic import ValidationError

from core.errors import InputError
from core.models import AccountProfile, Manifest, Post, UserView

MAX_JSON_BYTES = 64 * 1024 * 1024  # a posts file beyond this is refused, not read into memory


def _first_error(e: ValidationError) -> tuple[str, str]:
    err = e.errors()[0]
    return ".".join(str(p) for p in err["loc"]) or "(root)", err["msg"]


def read_json(path: Path) -> object:
    if not path.is_file():
        raise InputError(path, "file not found")
    if path.stat().st_size > MAX_JSON_BYTES:
        raise InputError(path, f"file larger than {MAX_JSON_BYTES} bytes")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as e:
        raise InputError(path, f"not UTF-8 text ({e.reason})") from e
    except json.JSONDecodeError as e:
        raise InputError(path, f"broken JSON: {e.msg}", line=e.lineno) from e
    except RecursionError as e:  # hostile input: thousands of nested brackets
        raise InputError(path, "JSON nested too deeply") from e


def load_manifest(bench_dir: Path) -> Manifest:
    path = Path(bench_dir) / "manifest.json"
    data = read_json(path)
    try:
        return Manifest.model_validate(data)
    except ValidationError as e:
        field, msg = _first_error(e)
        raise InputError(path, msg, field=field) from e


def iter_posts(path: Path, *, strict: bool = True, errors: list[InputError] | None = None) -> Iterator[Post]:
    """Posts of a posts.jsonl; with strict=False bad lines are collected in `errors` and skipped."""
    if not path.is_file():
        raise InputError(path, "file not found")
    if path.stat().st_size > MAX_JSON_BYTES:
        raise InputError(path, f"file larger than {MAX_JSON_BYTES} bytes")
    with path.open(encoding="utf-8", errors="strict") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                if not isinstance(data, dict):
                    raise InputError(path, "a post must be a JSON object", line=lineno)
                yield Post.model_validate(data)
            except json.JSONDecodeError as e:
                err = InputError(path, f"broken JSON: {e.msg}", line=lineno)
            except RecursionError:
                err = InputError(path, "JSON nested too deeply", line=lineno)
            except ValidationError as e:
                field, msg = _first_error(e)
                err = InputError(path, msg, field=field, line=lineno)
            except InputError as e:
                err = e
            else:
                continue
            if strict:
                raise err
            if errors is not None:
                errors.append(err)


def load_user(user_dir: Path, *, strict: bool = False, errors: list[InputError] | None = None) -> UserView:
    """The adversary's view of one account. Malformed post lines are skipped (and reported
    through `errors`) unless strict; a missing or broken profile.json is fatal."""
    user_dir = Path(user_dir)
    if not user_dir.is_dir():
        raise InputError(user_dir, "user folder not found")
    ppath = user_dir / "profile.json"
    if ppath.exists():
        data = read_json(ppath)
        try:
            profile = AccountProfile.model_validate(data)
        except ValidationError as e:
            field, msg = _first_error(e)
            raise InputError(ppath, msg, field=field) from e
    else:
        profile = AccountProfile(user_id=user_dir.name)
    posts = list(iter_posts(user_dir / "posts.jsonl", strict=strict, errors=errors))
    return UserView(user_dir=user_dir, profile=profile, posts=posts)


def user_dirs(bench_dir: Path) -> list[tuple[str, Path]]:
    manifest = load_manifest(bench_dir)
    return [(uid, Path(bench_dir) / "users" / uid) for uid in manifest.users]
