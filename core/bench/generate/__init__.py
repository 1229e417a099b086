"""Synthetic sopri/1 benchmark generator: hidden profiles -> leakage plans -> post scripts ->
Pillow images -> truth (see docs/generator.md)."""
from core.bench.generate.writer import GenerateResult, generate

__all__ = ["GenerateResult", "generate"]
