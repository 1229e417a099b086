"""Where the workplace's shared/ folder (data sets) is: beside the checkout, `../shared` — tests
never look anywhere else (a test needing it skips without it). The format spec is in docs/."""
from pathlib import Path


def shared_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "shared"
