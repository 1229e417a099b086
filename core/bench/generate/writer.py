"""Orchestration: profiles -> plans -> post scripts -> truth, then images rendered in parallel
and everything written in the sopri/1 layout. Deterministic for a given seed: every user and
every image has its own seeded random.Random, independent of worker scheduling.
"""
from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from core.bench.generate import world as W
from core.bench.generate.images import check_fonts, render_to_file
from core.bench.generate.leakage import make_plan
from core.bench.generate.profiles import NOW, Profile, build_profile, consistency_problems
from core.bench.generate.posts import STYLES, bank
from core.bench.generate.scripts import PostScript, build_scripts, strip_filler
from core.bench.generate.truth import build_truth
from core.errors import InputError
from core.models import FORMAT

NICK_ZH_A = ("晚风", "不吃香菜的", "爱睡觉的", "今天也要", "慢慢", "一只", "小小", "元气", "安静的", "碎碎念的")
NICK_ZH_B = ("小狗", "猫", "橘子", "鲸鱼", "土豆", "柚子", "小熊", "星星", "饼干", "蘑菇")
NICK_EN_A = ("sleepy", "tiny", "wandering", "quiet", "salty", "golden", "mellow", "lazy", "cosmic", "rainy")
NICK_EN_B = ("otter", "dumpling", "fern", "pigeon", "toast", "moth", "noodle", "kettle", "comet", "pebble")
BIO_ZH = ("记录生活｜随缘更新", "快乐小狗一枚", "吃吃喝喝，走走停停", "人间观察员", "保持好奇")
BIO_EN = ("coffee first ☕", "small joys, big naps", "collecting moments", "just here for the food pics", "be kind")


@dataclass
class UserBundle:
    profile: Profile
    posts: list[PostScript]
    truth: dict
    account: dict
    problems: list[str] = field(default_factory=list)


def _user_rng(seed: int, index: int, salt: str) -> random.Random:
    return random.Random(f"sopri-gen/{seed}/{index}/{salt}")


def assign_cities(n: int, seed: int) -> list[W.City]:
    """Cycle through all cities (shuffled by seed) so every style is represented even for small n."""
    rng = random.Random(f"sopri-gen/{seed}/cities")
    order = list(W.CITIES)
    rng.shuffle(order)
    # put one zh, one en and one mixed city first so that 3 users already cover all styles
    order.sort(key=lambda c: 0 if c.key in ("shenzhen", "london", "hongkong") else 1)
    return [order[i % len(order)] for i in range(n)]


def plan_user(seed: int, index: int, city: W.City, style: str = "a") -> UserBundle:
    uid = f"u{index + 1:03d}"
    prof_seed = _user_rng(seed, index, "profile").randrange(2**31)
    p = build_profile(uid, prof_seed, city)
    # A plan can clash with itself (an employer's name that contains the studied field completes a
    # cross-post value in one post): re-plan with the next salt until the self-checks pass.
    for attempt in range(12):
        salt = "" if attempt == 0 else f"/{attempt}"
        plan = make_plan(p, _user_rng(seed, index, "plan" + salt), style)
        posts = build_scripts(p, plan, _user_rng(seed, index, "posts" + salt), style)
        truth, problems = build_truth(p, plan, posts)
        if any("fully stated" in x for x in problems):
            # an ordinary filler sentence happened to complete a cross-post value: keep only the cues
            bad = {x.rsplit(" ", 1)[-1] for x in problems if "fully stated" in x}
            for ps in posts:
                if ps.post_id in bad:
                    strip_filler(ps)
            truth, problems = build_truth(p, plan, posts)
        if not problems:
            break
    problems = consistency_problems(p) + problems
    rng = _user_rng(seed, index, "account")
    if style != "a":
        nick, bio = bank(style).account(rng, p.lang)
    elif p.lang == "zh":
        nick = rng.choice(NICK_ZH_A) + rng.choice(NICK_ZH_B)
        bio = rng.choice(BIO_ZH)
    else:
        nick = f"{rng.choice(NICK_EN_A)}.{rng.choice(NICK_EN_B)}{rng.randint(1, 99)}"
        bio = rng.choice(BIO_EN)
    account = {"user_id": uid, "platform": p.platform, "nickname": nick, "bio": bio,
               "ip_region": posts[0].ip_region if posts and posts[0].trip is None else
               (p.city.ip_label_zh if p.platform == "rednote" else p.city.ip_label_en),
               "avatar": "images/avatar.jpg", "language": {"zh": "zh", "en": "en", "mixed": "en,zh"}[p.lang]}
    return UserBundle(p, posts, truth.model_dump(mode="json", exclude_none=True), account, problems)


def _post_json(ps: PostScript) -> dict:
    return {"post_id": ps.post_id, "timestamp": ps.when.isoformat() if ps.when else None, "title": ps.title,
            "caption": ps.caption, "tags": ps.tags, "ip_region": ps.ip_region, "location_tag": ps.location_tag,
            "images": [{"file": im.file, "alt": None} for im in ps.images], "comments": ps.comments}


def _render_job(args: tuple) -> str:
    path, kind, data, topic, seed, exif_time, gps = args
    render_to_file(Path(path), kind, data, topic, seed, exif_time=exif_time, gps=gps)
    return path


def image_jobs(user_dir: Path, b: UserBundle, seed: int, index: int) -> list[tuple]:
    jobs = [(str(user_dir / "images" / "avatar.jpg"), "photo", {"topic": "pets"}, "pets", _user_rng(seed, index, "avatar").randrange(2**31), None, None)]
    for ps in b.posts:
        for im in ps.images:
            et = im.taken.strftime("%Y:%m:%d %H:%M:%S") if im.exif_time else None
            jobs.append((str(user_dir / im.file), im.scene.kind, im.scene.data, ps.topic, im.seed, et, im.scene.gps))
    return jobs


@dataclass
class GenerateResult:
    out_dir: Path
    users: int
    posts: int
    images: int
    problems: list[str]


def generate(out_dir: Path, users: int = 50, seed: int = 0, *, workers: int | None = None, force: bool = False,
             name: str | None = None, progress: Callable[[str, int, int], None] | None = None,
             style: str = "a") -> GenerateResult:
    """`progress(phase, done, total)` is called as users are written and images rendered (CLI progress).
    Style a is the original surface; style b (posts_b, scenes_b, images_b) was written separately:
    other phrasings, document formats and layouts over the same profiles and leakage plans."""
    tick = progress or (lambda phase, done, total: None)
    if users < 1:
        raise InputError("--users", "must be at least 1")
    if style not in STYLES:
        raise InputError("--style", f"unknown style {style!r} (one of {', '.join(STYLES)})")
    check_fonts()
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(out_dir, "exists and is not a folder")
    if out_dir.is_dir() and any(out_dir.iterdir()):
        if not force:
            raise InputError(out_dir, "folder is not empty (pass --force to replace a generated benchmark)")
        if not (out_dir / "manifest.json").is_file():
            raise InputError(out_dir, "refusing to replace a folder that holds no manifest.json")
        shutil.rmtree(out_dir / "users", ignore_errors=True)
    out_dir.mkdir(parents=True, exist_ok=True)
    cities = assign_cities(users, seed)
    bundles = [plan_user(seed, i, c, style) for i, c in enumerate(cities)]
    jobs: list[tuple] = []
    n_posts = 0
    problems: list[str] = []
    for i, b in enumerate(bundles):
        udir = out_dir / "users" / b.profile.user_id
        (udir / "images").mkdir(parents=True, exist_ok=True)
        (udir / "profile.json").write_text(json.dumps(b.account, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        with (udir / "posts.jsonl").open("w", encoding="utf-8") as fh:
            for ps in b.posts:
                fh.write(json.dumps(_post_json(ps), ensure_ascii=False) + "\n")
        (udir / "truth.json").write_text(json.dumps(b.truth, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        jobs.extend(image_jobs(udir, b, seed, i))
        n_posts += len(b.posts)
        problems.extend(f"{b.profile.user_id}: {x}" for x in b.problems)
        tick("users", i + 1, len(bundles))
    tag = "" if style == "a" else f"-style{style}"
    manifest = {"format": FORMAT, "name": name or f"sopri-synthetic-seed{seed}-n{users}{tag}", "users": [b.profile.user_id for b in bundles],
                "generator": {"seed": seed, "users": users, "reference_date": NOW.isoformat()}}
    if style != "a":   # style a's manifest stays as it always was (byte-identical output)
        manifest["generator"]["style"] = style
    workers = workers or min(4, os.cpu_count() or 1)
    if workers > 1 and len(jobs) > 20:
        with ProcessPoolExecutor(max_workers=workers) as ex:
            for k, _ in enumerate(ex.map(_render_job, jobs, chunksize=8), 1):
                tick("images", k, len(jobs))
    else:
        for k, j in enumerate(jobs, 1):
            _render_job(j)
            tick("images", k, len(jobs))
    (out_dir / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return GenerateResult(out_dir, users, n_posts, len(jobs), problems)
