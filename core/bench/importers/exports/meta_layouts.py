"""The folder layouts Meta's "Download your information" has used, as data: which files hold the
posts, stories, reels and comments in each. An export's layout is recognised by the files present
(the first layout whose posts, stories or reels files are in it), never by one fixed path, and the
import summary names it. Sources: docs/importers.md ("Layouts")."""
from __future__ import annotations

from dataclasses import dataclass

from core.bench.importers.exports.source import ExportSource


@dataclass(frozen=True)
class Layout:
    name: str
    posts: tuple[str, ...] = ()
    stories: tuple[str, ...] = ()
    reels: tuple[str, ...] = ()
    comments: tuple[str, ...] = ()
    top_only: bool = False          # the files sit at the export's top (or under its one top folder)


_IG_COMMENTS = ("your_instagram_activity/comments/post_comments*.json", "your_instagram_activity/comments/reels_comments.json")
_IG_OLD_COMMENTS = ("comments/post_comments*.json", "comments/reels_comments.json")

INSTAGRAM = (
    Layout("Instagram 2025 (your_instagram_activity/media/posts_N.json)",
           posts=("your_instagram_activity/media/posts_*.json",),
           stories=("your_instagram_activity/media/stories.json",),
           reels=("your_instagram_activity/media/reels.json",), comments=_IG_COMMENTS),
    Layout("Instagram 2024 (your_instagram_activity/content/posts_N.json)",
           posts=("your_instagram_activity/content/posts_*.json",),
           stories=("your_instagram_activity/content/stories.json",),
           reels=("your_instagram_activity/content/reels.json",), comments=_IG_COMMENTS),
    Layout("Instagram before 2024 (content/posts_N.json)",
           posts=("content/posts_*.json",), stories=("content/stories.json",), reels=("content/reels.json",),
           comments=_IG_OLD_COMMENTS),
    Layout("Instagram folder (posts.json and reels.json at the top, media under media/posts/YYYYMM/)",
           posts=("posts.json", "posts_*.json"), stories=("stories.json",), reels=("reels.json",),
           comments=_IG_OLD_COMMENTS + ("post_comments*.json",), top_only=True),
)

FACEBOOK = (
    Layout("Facebook 2024-2025 (your_facebook_activity/posts/)",
           posts=("your_facebook_activity/posts/your_posts__check_ins__photos_and_videos_*.json",
                  "your_facebook_activity/posts/your_posts_*.json"),
           comments=("your_facebook_activity/comments_and_reactions/comments.json",)),
    Layout("Facebook 2023 (your_activity_across_facebook/posts/)",
           posts=("your_activity_across_facebook/posts/your_posts__check_ins__photos_and_videos_*.json",
                  "your_activity_across_facebook/posts/your_posts_*.json"),
           comments=("your_activity_across_facebook/comments_and_reactions/comments.json",)),
    Layout("Facebook before 2023 (posts/your_posts_N.json)",
           posts=("posts/your_posts__check_ins__photos_and_videos_*.json", "posts/your_posts_*.json",
                  "posts/your_posts.json"),
           comments=("comments_and_reactions/comments.json", "comments/comments.json")),
)


def members(src: ExportSource, patterns: tuple[str, ...], *, top_only: bool = False) -> list[str]:
    """Members matching any pattern (in pattern order, each once); top_only: at most one folder deep."""
    out: list[str] = []
    for pat in patterns:
        for m in src.glob(pat):
            if m not in out and (not top_only or m.count("/") <= 1):
                out.append(m)
    return out


def choose(src: ExportSource, layouts: tuple[Layout, ...]) -> Layout | None:
    """The first layout whose posts, stories or reels files are in the export."""
    for lay in layouts:
        if members(src, lay.posts + lay.stories + lay.reels, top_only=lay.top_only):
            return lay
    return None
