"""Argus engine: headless, knows nothing of any UI."""
