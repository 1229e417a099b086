"""Argus console and command line: sends commands to the core engine and renders its events."""
