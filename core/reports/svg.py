"""Small inline SVG charts (no JavaScript, no external files): grouped bars and a scatter."""
from __future__ import annotations

from core.textsafe import html_text as escape  # the output boundary: html.escape of printable text

PALETTE = ("#3b6fb6", "#d9822b", "#3a9a5b", "#c23b3b", "#7d5ba6", "#8c6d46", "#d36fb4", "#6f6f6f", "#b5b83a",
           "#2aa8b8", "#1f3f73", "#a34d00")


def color(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def legend(series: list[str]) -> str:
    items = "".join(f'<span class="lg"><i style="background:{color(i)}"></i>{escape(s)}</span>'
                    for i, s in enumerate(series))
    return f'<div class="legend">{items}</div>'


def grouped_bars(title: str, groups: list[str], series: list[str], values: dict[str, dict[str, float | None]],
                 *, width: int = 900, height: int = 260, vmax: float = 1.0) -> str:
    """values[series][group] in [0, vmax]; one cluster of bars per group."""
    left, bottom, top = 40, 40, 24
    plot_w, plot_h = width - left - 10, height - bottom - top
    n_g, n_s = max(1, len(groups)), max(1, len(series))
    gw = plot_w / n_g
    bw = max(2.0, (gw - 8) / n_s)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="{escape(title)}"><title>{escape(title)}</title>',
             f'<text x="{left}" y="15" class="ct">{escape(title)}</text>']
    for k in range(0, 5):
        y = top + plot_h - plot_h * k / 4
        parts.append(f'<line x1="{left}" x2="{width - 10}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
                     f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" class="ax">{vmax * k / 4:.2f}</text>')
    for gi, g in enumerate(groups):
        x0 = left + gi * gw + 4
        for si, s in enumerate(series):
            v = values.get(s, {}).get(g)
            if v is None:
                continue
            h = plot_h * max(0.0, min(v, vmax)) / vmax
            x = x0 + si * bw
            parts.append(f'<rect x="{x:.1f}" y="{top + plot_h - h:.1f}" width="{bw - 1:.1f}" height="{h:.1f}" '
                         f'fill="{color(si)}"><title>{escape(s)} · {escape(g)}: {v:.3f}</title></rect>')
        parts.append(f'<text x="{x0 + gw / 2 - 4:.1f}" y="{height - bottom + 16}" text-anchor="middle" '
                     f'class="ax">{escape(g[:18])}</text>')
    parts.append("</svg>")
    return "".join(parts) + legend(series)


def scatter(title: str, points: list[tuple[str, float, float]], *, xlabel: str, ylabel: str, width: int = 640,
            height: int = 320) -> str:
    """points: (label, x, y); axes start at 0."""
    left, bottom, top, right = 50, 40, 24, 20
    plot_w, plot_h = width - left - right, height - top - bottom
    xmax = max([p[1] for p in points] + [1e-9]) * 1.1
    ymax = max([p[2] for p in points] + [1e-9]) * 1.1
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="{escape(title)}"><title>{escape(title)}</title>',
             f'<text x="{left}" y="15" class="ct">{escape(title)}</text>',
             f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" class="axis"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" class="axis"/>',
             f'<text x="{left + plot_w / 2}" y="{height - 6}" text-anchor="middle" class="ax">{escape(xlabel)}</text>',
             f'<text x="12" y="{top + plot_h / 2}" transform="rotate(-90 12 {top + plot_h / 2})" '
             f'text-anchor="middle" class="ax">{escape(ylabel)}</text>']
    for k in range(0, 5):
        y = top + plot_h - plot_h * k / 4
        x = left + plot_w * k / 4
        parts.append(f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" class="ax">{ymax * k / 4:.2f}</text>'
                     f'<text x="{x:.1f}" y="{top + plot_h + 14}" text-anchor="middle" class="ax">{xmax * k / 4:.2g}</text>')
    for i, (lab, xv, yv) in enumerate(points):
        cx, cy = left + plot_w * xv / xmax, top + plot_h - plot_h * yv / ymax
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="{color(i)}"><title>{escape(lab)}: '
                     f'{xlabel} {xv:.3g}, {ylabel} {yv:.3f}</title></circle>'
                     f'<text x="{cx + 7:.1f}" y="{cy - 5:.1f}" class="pl">{escape(lab[:28])}</text>')
    parts.append("</svg>")
    return "".join(parts)
