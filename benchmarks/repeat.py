"""The same big tree file solved twice, by two fresh ``pyab solve``
processes: the second run's cost beside the first's (issue 28's
cached-load figure).

Issue 28 aims at a second run three times faster than the first, by a
cache of the tree's compiled facts (a ``.qlf`` file).  There is no such
cache: ``python -m benchmarks.repeat --qlf N`` measures why.  It loads the
facts of an N-node tree from a ``.qlf`` into a module of a plain ``swipl``
and asks each predicate once (the indexes a search needs: what the
bridge's load does), beside pyab's compiled loader putting the same tree
into SWI-Prolog, each in a fresh process, and times ``qcompile/1``
writing the ``.qlf`` (what a first run would pay to fill the cache).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from .bigtree import flat_text
from .measure import ROOT, Row, py, run, swipl_timed


def rows(size: int, folder: Path) -> list[Row]:
    path = folder / f"repeat-{size}.tree"
    path.write_text(flat_text(size), encoding="utf-8")
    cmd = py("-m", "pyab", "solve", str(path), "--json")
    first, done1 = run(cmd)
    second, done2 = run(cmd)
    if done1.stdout != done2.stdout:
        raise RuntimeError("the second pyab solve answered differently from the first")
    ratio = first.cpu / second.cpu
    return [Row(f"second `pyab solve` of the same {size:,}-node file (fresh process)",
                f"{second.wall:.2f} s wall, {second.cpu:.2f} s CPU",
                "the first run", f"{first.wall:.2f} s wall, {first.cpu:.2f} s CPU",
                ratio, f"{ratio:.2f}x faster (CPU)", ">= 3x faster", ratio >= 3)]


_QLF_LOAD = """\
statistics(cputime, C0), m:load_files('{qlf}', [silent(true)]), statistics(cputime, C1),
m:tree(Root, _), \\+ m:tree(_, [Root|_]),
forall(member(G, [tree(Root, _), staticval(Root, _), min_to_move(Root), max_to_move(Root)]),
       ignore(m:G)),
statistics(cputime, C2),
format("load=~f~nindex=~f~n", [C1 - C0, C2 - C1])"""

_CLOAD = """\
import sys, time
import pyab
from pyab.prolog import engine
tree = pyab.load(sys.argv[1])
eng = engine()
c0 = time.process_time()
with eng.lock:
    eng._module(tree)
print(time.process_time() - c0)
"""


def qlf(size: int) -> str:
    """The .qlf experiment on an N-node tree, as Markdown lines."""
    from pyab.prolog.facts import facts
    import pyab
    with tempfile.TemporaryDirectory(prefix="pyab-qlf-") as tmp:
        folder = Path(tmp)
        tree_file = folder / "t.tree"
        tree_file.write_text(flat_text(size), encoding="utf-8")
        pl = folder / "t.pl"
        pl.write_text(":- dynamic tree/2, staticval/2, min_to_move/1, max_to_move/1.\n"
                      + facts(pyab.load(tree_file)), encoding="utf-8")
        compiled, _ = run(["swipl", "-q", "-g", f"qcompile('{pl}')", "-t", "halt"])
        out = swipl_timed(_QLF_LOAD.format(qlf=folder / "t.qlf"), [])
        _, done = run(py("-c", _CLOAD, str(tree_file)), env={**os.environ, "PYTHONPATH": str(ROOT)})
        cload = float(done.stdout.strip())
    total = out["load"] + out["index"]
    return (f"{size:,}-node tree, CPU seconds, fresh processes: .qlf load {out['load']:.2f} + "
            f"indexes {out['index']:.2f} = {total:.2f} s; pyab's compiled loader (asserts, "
            f"observation, indexes) {cload:.2f} s ({cload / total:.2f}x the .qlf); writing "
            f"the .qlf (qcompile/1 of the fact text) {compiled.cpu:.1f} s")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--qlf", type=int, metavar="N", default=200_000,
                   help="nodes of the tree for the .qlf experiment (default 200,000)")
    args = p.parse_args(argv)
    print(qlf(args.qlf))
    return 0


if __name__ == "__main__":
    sys.exit(main())
