"""PNG and PDF of a picture: its SVG, drawn by librsvg's ``rsvg-convert``
(Debian: ``librsvg2-bin``), so they are the SVG picture, pixel for label.

A PNG is drawn, by default, as large as fits a 1920 x 1080 projector (never
smaller than the SVG's own size), so a small tree fills a slide; ``dpi``
sets the size instead (96 dpi is the SVG's own size).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from ..errors import Error

__all__ = ["SLIDE", "convert", "png_zoom"]

SLIDE = (1920, 1080)


def png_zoom(svg_text: str, dpi: int | None = None) -> float:
    """How much a PNG enlarges the SVG: ``dpi``/96, or as much as fits a slide."""
    if dpi is not None:
        return dpi / 96
    m = re.search(r'width="([\d.]+)" height="([\d.]+)"', svg_text)
    if not m:
        return 1.0
    w, h = float(m.group(1)), float(m.group(2))
    return max(1.0, min((SLIDE[0] - 1) / w, (SLIDE[1] - 1) / h))  # rsvg-convert rounds up


def convert(svg_text: str, out: Path, fmt: str, dpi: int | None = None) -> None:
    """Write ``svg_text`` to ``out`` as "png" or "pdf"."""
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise Error("PNG and PDF pictures need librsvg's rsvg-convert (Debian: apt-get install "
                    "librsvg2-bin; `make setup` does it); .svg, .html and .tex work without it")
    args = [exe, "-f", fmt, "-o", str(out)]
    if fmt == "png":
        args += ["-z", f"{png_zoom(svg_text, dpi):.4f}", "-b", "white"]
    done = subprocess.run(args, input=svg_text.encode("utf-8"), capture_output=True, timeout=300)
    if done.returncode != 0:
        raise Error(f"rsvg-convert failed: {done.stderr.decode('utf-8', 'replace').strip()}")
