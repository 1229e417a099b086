"""Step 5: truth exactly as the sopri/1 spec (core.models.Truth): leaked attributes truncated to
what the posts reveal, with leakage type, difficulty and evidence pointing at posts; the rest of
the hidden profile; plus the decoys and prompt injections planted in the posts.
"""
from __future__ import annotations

from core.bench.generate.leakage import Frag, Plan, Scene
from core.bench.generate.profiles import Profile
from core.bench.generate.scripts import PostScript
from core.models import EvidenceRef, Truth, TruthAttribute
from core.textmatch import contains, contains_substring


def truncate(full: TruthAttribute, keep) -> TruthAttribute:
    ta = full.model_copy(deep=True)
    if ta.kind == "hierarchy" and isinstance(keep, int):
        ta.levels = ta.levels[:keep]
        ta.value = ", ".join(lv.value for lv in reversed(ta.levels))
    elif ta.kind == "set" and isinstance(keep, list):
        ta.items = [ta.items[i] for i in keep if i < len(ta.items)]
    elif ta.kind == "facts" and isinstance(keep, list):
        ta.facts = [ta.facts[i] for i in keep if i < len(ta.facts)]
    return ta


def _ref(post_id: str, f: Frag) -> EvidenceRef:
    return EvidenceRef(post_id=post_id, modality=f.modality, carrier=f.carrier, clue=f.clue)  # type: ignore[arg-type]


def build_truth(p: Profile, plan: Plan, posts: list[PostScript]) -> tuple[Truth, list[str]]:
    """Truth for one user, and problems found while cross-checking it against the posts."""
    where: dict[int, list[tuple[str, Frag]]] = {}
    home_posts = [ps.post_id for ps in posts if ps.trip is None]
    for ps in posts:
        for u in ps.units:
            for f in u.frags:
                where.setdefault(id(f), []).append((ps.post_id, f))
    leaked: list[TruthAttribute] = []
    leaked_names = set()
    for lk in plan.leaks:
        ta = truncate(p.attrs[lk.attribute], lk.keep)
        ta.leakage_type = lk.leakage_type()  # type: ignore[assignment]
        ta.difficulty = lk.difficulty()
        ev: list[EvidenceRef] = []
        for g in lk.groups:
            for f in g:
                for pid, _ in where.get(id(f), []):
                    ev.append(_ref(pid, f))
        # supporting evidence that does not change the difficulty: the IP label of the clue's own post,
        # and GPS on holiday photos of posts already cited
        first = ev[0].post_id if ev else (home_posts[0] if home_posts else None)
        for f in lk.extra_evidence:
            if first:
                ev.append(_ref(first, f))
        if lk.attribute == "travel_history":
            cited = {e.post_id for e in ev}
            for ps in posts:
                if ps.post_id in cited and any(im.scene.gps for im in ps.images if im.scene.kind == "photo"):
                    ev.append(EvidenceRef(post_id=ps.post_id, modality="metadata", carrier="exif", clue="EXIF GPS of a holiday photo"))
        ta.evidence = ev
        leaked.append(ta)
        leaked_names.add(lk.attribute)
    hidden = []
    for name, full in p.attrs.items():
        if name in leaked_names:
            continue
        h = full.model_copy(deep=True)
        h.evidence = []
        hidden.append(h)
    decoys = []
    for d in plan.decoys:
        pid = where.get(id(d.frag), [("", None)])[0][0]
        decoys.append({"kind": d.kind, "attribute": d.attribute, "value": d.value, "post_id": pid, "note": d.note})
    injections = []
    for inj in plan.injections:
        pid = where.get(id(inj.frag), [("", None)])[0][0]
        injections.append({"post_id": pid, "carrier": inj.carrier, "text": inj.text, "claims": inj.claims})
    # decoys are also recorded on the attribute they imitate (leaked or hidden entry)
    for ta in leaked + hidden:
        mine = [d for d in decoys if d["attribute"] == ta.attribute]
        if mine:
            setattr(ta, "decoys", mine)
    # key text of every text-bearing image, so `bench stats` can measure what OCR recovers
    ocr_keys = []
    for ps in posts:
        for im in ps.images:
            if im.scene.key_texts and im.scene.carrier not in ("exif",):
                ocr_keys.append({"post_id": ps.post_id, "file": im.file, "carrier": im.scene.carrier, "texts": list(im.scene.key_texts)})
    truth = Truth(user_id=p.user_id, leaked=leaked, hidden=hidden)
    setattr(truth, "personality", plan.personality)
    setattr(truth, "ocr_keys", ocr_keys)
    setattr(truth, "decoys", decoys)
    setattr(truth, "injections", injections)
    return truth, check_truth(truth, posts)


# ------------------------------------------------------------------ checks shared with tests and stats
def scene_text(scene: Scene) -> str:
    out: list[str] = []

    def walk(x):
        if isinstance(x, str):
            out.append(x)
        elif isinstance(x, (list, tuple)):
            for y in x:
                walk(y)
        elif isinstance(x, dict):
            for k, y in x.items():
                if k not in ("style", "paper", "obj", "topic", "filler", "layout"):
                    walk(y)

    walk(scene.data)
    return "\n".join(out)


def names_of(ta: TruthAttribute) -> list[list[str]]:
    """Per unit of the value (level / item / fact keyword group / the category), the strings naming it."""
    if ta.kind == "hierarchy":
        return [[lv.value, *lv.aliases] for lv in ta.levels]
    if ta.kind == "set":
        return [[it.value, *it.aliases] for it in ta.items]
    if ta.kind == "category":
        return [[ta.value or "", *ta.aliases]]
    return []


def _named(text: str, names: list[str]) -> bool:
    return any(n and contains(text, n) for n in names)


def fully_stated(ta: TruthAttribute, text: str) -> bool:
    """Whether one text states the whole value: every level / item / fact of it."""
    if ta.kind == "facts":
        return all(all(any(contains_substring(text, k) for k in grp) for grp in f.keywords) for f in ta.facts)
    units = names_of(ta)
    return bool(units) and all(_named(text, u) for u in units)


def finest_stated(ta: TruthAttribute, text: str) -> bool:
    """Whether a text names the finest level of a hierarchy (or the value of any other kind)."""
    if ta.kind == "hierarchy":
        lv = ta.levels[-1]
        return _named(text, [lv.value, *lv.aliases])
    return fully_stated(ta, text)


def post_text(ps: PostScript) -> str:
    parts = [ps.title or "", ps.caption or "", *ps.tags, *(c["text"] for c in ps.comments)]
    return "\n".join(x for x in parts if x)


def post_full_text(ps: PostScript) -> str:
    return post_text(ps) + "\n" + "\n".join(scene_text(im.scene) for im in ps.images)


def check_truth(truth: Truth, posts: list[PostScript]) -> list[str]:
    problems: list[str] = []
    ids = {ps.post_id for ps in posts}
    for ta in truth.leaked:
        if not ta.evidence:
            problems.append(f"{ta.attribute}: no evidence")
        for ev in ta.evidence:
            if ev.post_id not in ids:
                problems.append(f"{ta.attribute}: evidence points at missing post {ev.post_id}")
        if ta.leakage_type == "cross_post":
            for ps in posts:
                if finest_stated(ta, post_text(ps)) or fully_stated(ta, post_full_text(ps)):
                    problems.append(f"{ta.attribute}: cross-post value fully stated in {ps.post_id}")
    return problems
