"""Commands: generate."""
