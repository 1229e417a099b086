"""Commands: engine."""
