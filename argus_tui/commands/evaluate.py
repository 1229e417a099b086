"""Commands: evaluate."""
