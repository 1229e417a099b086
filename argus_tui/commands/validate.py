"""Commands: validate."""
