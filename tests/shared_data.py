"""Where the workplace's shared/ folder is: beside the checkout (CI's layout), else /work/shared."""
from pathlib import Path


def shared_dir() -> Path:
    beside = Path(__file__).resolve().parents[2] / "shared"
    return beside if beside.is_dir() else Path("/work/shared")
