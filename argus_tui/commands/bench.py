"""Commands: bench."""
