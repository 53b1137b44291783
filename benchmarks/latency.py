"""Latency: a warm ``pyab.solve`` on the slides' tree, and a cold ``pyab
solve examples/slides.tree`` process, each beside plain SWI-Prolog doing
the same (the bare program in a loop; a whole ``swipl`` process)."""

from __future__ import annotations

import shutil
import time

from .measure import ROOT, Row, median, py, run, swipl_timed

SLIDES = "a(b(e=3, f=12, g=8), c(h=2, i=3, j=20), d(k=14, l=5, m=2))"

_LOOP = """\
forall(between(1, 100, _), alphabeta(a, -inf, inf, _, _)),
get_time(W0), forall(between(1, {n}, _), alphabeta(a, -inf, inf, _, _)), get_time(W1),
format("per_call=~f~n", [(W1 - W0) / {n}])"""


def rows(quick: bool = False) -> list[Row]:
    import pyab

    out: list[Row] = []
    tree = pyab.parse(SLIDES)
    for _ in range(50):
        pyab.solve(tree)
    times = []
    for _ in range(300 if quick else 2000):
        t0 = time.perf_counter()
        pyab.solve(tree)
        times.append(time.perf_counter() - t0)
    warm = median(times)
    bare = swipl_timed(_LOOP.format(n=20000), [str(ROOT / "prolog" / "alphabeta.pl"),
                                              str(ROOT / "examples" / "slides.pl")])["per_call"]
    out.append(Row("warm `pyab.solve` on the slides' tree (median)", f"{warm * 1e3:.3f} ms",
                   "bare alphabeta/5 in swipl (no observation, no bridge)", f"{bare * 1e3:.4f} ms",
                   warm / bare, f"{warm / bare:.0f}x the bare call", "< 1 ms", warm < 1e-3))

    cold, sw, bare_py = [], [], []
    swipl = shutil.which("swipl") or "swipl"
    for _ in range(3 if quick else 7):
        cold.append(run(py("-m", "pyab", "solve", "examples/slides.tree"))[0].wall)
        sw.append(run([swipl, "-g", "alphabeta(a, -inf, inf, B, V), print(B-V), nl", "-t", "halt",
                       "prolog/alphabeta.pl", "examples/slides.pl"])[0].wall)
        bare_py.append(run(py("-c", "pass"))[0].wall)
    c, s, b = median(cold), median(sw), median(bare_py)
    out.append(Row("cold `pyab solve examples/slides.tree` process (median)", f"{c:.3f} s",
                   "`swipl prolog/alphabeta.pl examples/slides.pl`, same query", f"{s:.3f} s",
                   c / s, f"{c / s:.1f}x swipl", "< 0.6 s", c < 0.6))
    out.append(Row("  of which Python itself starts in", f"{b:.3f} s", "(python -c pass)", "-",
                   None, f"{b / c:.0%} of the cold run", "-", None))
    return out
