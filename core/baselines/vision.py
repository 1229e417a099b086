"""Image reading for the baselines that see pixels (postvlm, holmes): the same tools as the
Argus perceiver (image signals, then OCR of text-bearing images), recorded in tool_calls and
cached by content hash, but no EXIF/metadata (a VLM sees the picture, not the file)."""
from __future__ import annotations

from typing import Any

from core.baselines.common import BaselineRun
from core.engine.types import EvidenceNode
from core.models import Post

MAX_IMAGES_PER_POST = 12


def image_drafts(run: BaselineRun, post: Post) -> list[EvidenceNode]:
    """Evidence drafts of one post's images: alt text and OCR text (with cues), errors recorded."""
    from core.engine.perceiver import ocr_node
    from tools.registry import ToolEnv, run_tool
    from tools.userfiles import UserFileError, user_file_digest

    try:
        from core.engine.perceiver import _signals
    except ImportError:  # an engine without the edge-tile pass
        from tools.images import image_signals

        def _signals(path: str, v: int = 2) -> dict[str, Any]:
            return image_signals(path)

    out: list[EvidenceNode] = []
    ctx = run.ctx
    rec = run.recorder()
    for idx, ref in enumerate((post.images or [])[:MAX_IMAGES_PER_POST]):
        if ref is None or not getattr(ref, "file", None):
            continue
        image_id = f"{post.post_id}/img{idx}"
        where = f"posts.jsonl post {post.post_id} images[{idx}].file"
        if ref.alt:
            out.append(run.text_node(post.post_id, "image_scene", f"images[{idx}].alt", str(ref.alt),
                                     modality="image", extra={"image_id": image_id}))
        try:   # the one user-file guard (tools/userfiles.py), as in perception and routes
            path, digest = user_file_digest(ctx.user.user_dir, ref.file)
        except Exception as e:
            ctx.error(where, str(e) if isinstance(e, UserFileError) else f"{ref.file}: {type(e).__name__}: {e}")
            continue
        # the same call (inputs, cache key) as the Argus perceiver: same text-bearing decision, shared cache
        sig: dict[str, Any] = rec.call("image_signals", lambda file, v: _signals(str(path), v),
                                       {"file": ref.file, "v": 2}, content_hash=digest)
        if "error" in sig:
            ctx.error(where, f"{ref.file}: {sig['error']}")
            continue
        if not sig.get("text_bearing"):
            continue
        res = run_tool(ToolEnv(rec, ctx.user.user_dir, ctx.config), "ocr", {"image_id": image_id,
                                                                            "file": str(ref.file)})
        lines = [ln for ln in (res.output or {}).get("lines", []) if str(ln.get("text", "")).strip()]
        if res.error:
            ctx.error(where, f"{ref.file}: OCR failed ({res.error})")
        elif lines:
            node = ocr_node(post.post_id, image_id, ref.file, lines, bool(sig.get("screenshot_like")),
                            source=run.system)
            if node is not None:        # None: detector noise only
                out.append(node)
    return out


def image_urls(run: BaselineRun, post: Post, max_side: int, limit: int = 4) -> list[str]:
    """Data URLs of a post's images for a vision model (unreadable ones are skipped, recorded)."""
    from core.backends.client import image_data_url

    urls = []
    for ref in (post.images or [])[:limit]:
        if ref is None or not getattr(ref, "file", None):
            continue
        try:
            url, _ = image_data_url(run.user.image_path(ref.file), max_side)
        except Exception as e:
            run.ctx.error(f"posts.jsonl post {post.post_id} images", f"{ref.file}: not sent ({type(e).__name__})")
            continue
        urls.append(url)
    return urls
