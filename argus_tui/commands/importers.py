"""Commands: importers."""
