"""Screens of the console: start, investigation (live and inspect), modals and help."""
