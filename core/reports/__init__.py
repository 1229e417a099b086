"""Comparison tables (compare.py) and the self-contained HTML report (html.py) of batch runs."""
