"""Commands: config."""
