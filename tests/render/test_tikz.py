"""The .tex pictures compiled: `pyab draw -o X.tex` of three trees, put in a
LaTeX document as its docstring says (``\\usepackage{tikz}``, ``\\input``),
compiled with Debian's pdflatex (`make test` installs texlive-latex-base
and texlive-pictures), and the PDF's text read back with pdftotext: every
node's name and value, the windows and the cut labels are there.  Skipped,
with the reason, where LaTeX with TikZ or pdftotext is missing."""

from __future__ import annotations

import shutil
import subprocess
import warnings
from pathlib import Path

import pytest

from conftest import EXAMPLES, pyab_cli


def _latex() -> str | None:
    """Why the test cannot run here, or None."""
    if shutil.which("pdflatex") is None:
        return "pdflatex is not installed (make test installs texlive-latex-base)"
    found = subprocess.run(["kpsewhich", "tikz.sty"], capture_output=True, text=True)
    if found.returncode != 0 or not found.stdout.strip():
        return "tikz.sty is not installed (make test installs texlive-pictures)"
    if shutil.which("pdftotext") is None:
        return "pdftotext is not installed (make setup installs poppler-utils)"
    return None


DOCUMENT = r"""\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{tikz}
\begin{document}
\input{tree.tex}
\end{document}
"""

CASES = {  # file, arguments, words the PDF must show besides every name and value
    "slides": ("slides.tree", [], ["\u03b1-cut", "[3, \u221e]"]),
    "aima": ("aima.tree", ["--algorithm", "aima"], ["\u03b1-cut", "never searched", "Val = 3 is exact"]),
    "negative-decimal": ("negative-decimal.tree", [], ["King e1", "it's", "Val = -0.5 is exact"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_tex_picture_compiles_and_shows_its_labels(tmp_path: Path, case: str):
    missing = _latex()
    if missing:
        warnings.warn(f"the TikZ output was not compiled: {missing}")
        pytest.skip(missing)
    import pyab
    name, args, words = CASES[case]
    drawn = pyab_cli("draw", str(EXAMPLES / name), "-o", str(tmp_path / "tree.tex"), *args)
    assert drawn.returncode == 0, drawn.stderr
    (tmp_path / "doc.tex").write_text(DOCUMENT, encoding="utf-8")
    made = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stdout[-3000:]
    text = subprocess.run(["pdftotext", "-layout", "doc.pdf", "-"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60).stdout
    flat = " ".join(text.replace("\u2212", "-").split())
    from pyab.render.model import model
    from pyab.render.trace import trace
    drawn_labels = model(pyab.load(EXAMPLES / name), trace(pyab.load(EXAMPLES / name), "prolog",
                                                            args[1] if args else "bratko"))
    labels = [t for n in drawn_labels.nodes for t in (n.name, n.value, n.window) if t]
    assert len(labels) > 2 * len(drawn_labels.nodes)
    for label in labels + words:
        assert label.replace("\u2212", "-") in flat, (label, flat[:2000])
