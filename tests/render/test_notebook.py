"""examples/notebook.ipynb runs from top to bottom in a real Jupyter kernel
(nbclient + ipykernel, both in the test extra) started from this very
Python (the virtualenv), and shows what it promises: SVG for a Tree and a
Result, the stepper as HTML, no error."""

from __future__ import annotations

import json
import sys
import time

import pytest

from conftest import EXAMPLES

nbformat = pytest.importorskip("nbformat", reason="nbformat is in the test extra")
nbclient = pytest.importorskip("nbclient", reason="nbclient is in the test extra")
pytest.importorskip("ipykernel", reason="ipykernel is in the test extra")


@pytest.fixture()
def venv_kernel(tmp_path, monkeypatch):
    """A kernel spec that runs ipykernel with sys.executable, found first on
    JUPYTER_PATH (a system-wide "python3" kernel would use another Python)."""
    spec = tmp_path / "kernels" / "pyab-venv"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "pyab venv", "language": "python"}), encoding="utf-8")
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    return "pyab-venv"


def test_example_notebook_runs_and_shows_pictures(venv_kernel):
    nb = nbformat.read(EXAMPLES / "notebook.ipynb", as_version=4)
    client = nbclient.NotebookClient(nb, kernel_name=venv_kernel, timeout=120,
                                     resources={"metadata": {"path": str(EXAMPLES)}})
    start = time.perf_counter()
    client.execute()
    seconds = time.perf_counter() - start
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    data = [o.get("data", {}) for o in outputs]
    svgs = [d["image/svg+xml"] for d in data if "image/svg+xml" in d]
    assert len(svgs) >= 3  # the tree, the result, the AIMA picture
    assert any('class="node max' in s and "pruned" in s for s in svgs)
    assert any("<iframe srcdoc=" in d.get("text/html", "") for d in data)  # the stepper
    text = "".join(o.get("text", "") for o in outputs)
    assert "r_1 3 ('r_2_2', 'r_2_3')" in text
    assert "expected a Tree" in text and "pyab.parse(text)" in text
    assert "whose result equals the observed Prolog run" in text
    # the final windows on demand, and the slide picture in every format from one model
    assert any("final [\u03b1, \u03b2] (after newbounds)" in s for s in svgs)
    assert all(f"slide.{ext} True" in text for ext in ("svg", "png", "pdf", "tex"))
    assert any("font-size: 18px" in s and "AIMA&#x27;s figure 5.2, searched" in s for s in svgs)
    print(f"notebook ran in {seconds:.1f} s")  # shown with -s; measured for the docs
