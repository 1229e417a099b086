"""Model backends: OpenAI-compatible roles ("openai") and record/replay ("replay").

Both are plugins of the engine's backend registry through the `argus.backends` entry
points in pyproject.toml (core/engine/backend.py loads them by name on first use).
"""
