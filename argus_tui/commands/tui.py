"""Commands: tui."""
