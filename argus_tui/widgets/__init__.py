"""Panes of the investigation console; each renders a state.Snapshot via `show(snap)`."""
