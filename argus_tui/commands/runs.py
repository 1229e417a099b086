"""Commands: runs."""
