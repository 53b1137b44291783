"""Text -> Tree on trees of several shapes, beside the C floor and plain
``swipl`` consulting the facts, measured in one run.

- parse rate (nodes per CPU second, median of three fresh processes) of
  ``pyab.parse`` on each shape of :mod:`benchmarks.shapes`, with the
  compiled scanner (pyab/_cscan.c) and with the pure-Python fast paths
  alone (``PYAB_PURE_PYTHON=1``), the two alternately in one run;
- the C floor (``benchmarks/floor.c``, compiled here with ``gcc -O2`` into a
  temporary directory; skipped with a note when there is no compiler):
  reading, parsing and searching the issue's tree;
- plain ``swipl`` consulting the facts ``pyab facts`` writes for it;
- peak resident memory of each of the three on the 1.1M-node tree;
- text -> answer: ``pyab solve --json`` as a whole process against the C
  floor, and its stages inside one process (parse, SWI-Prolog's start, load,
  first solve, print), the load with the compiled loader and with
  load_packed/3; the load beside plain ``swipl`` consulting the facts, and the
  first observed solve beside the bare program's first call in that
  ``swipl`` (which builds its indexes then), both measured in this run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import shapes
from .measure import ROOT, Row, median, swipl_timed

# Runs a command and prints its CPU seconds and peak resident memory (KB):
# a fresh wrapper per command, since RUSAGE_CHILDREN's peak is the largest
# of all children ever waited for.  The peak includes what the child had
# mapped from the small wrapper before exec (about 10 MB at most).
_WRAP = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime, r.ru_maxrss, done.returncode)
sys.stdout.write(done.stdout)
sys.stderr.write(done.stderr)
"""

# One parse in a fresh process: CPU seconds of the parse alone, nodes, the
# resident memory before it (text read) and the peak after it (KB; VmHWM,
# the peak of this program: getrusage's ru_maxrss keeps the peak of the
# forked parent from before exec).
_PARSE = """
import sys, time
import pyab
from pyab.dsl import reader as dsl
pyab.parse("a(b=1)"); pyab.parse("[1]"); pyab.parse("a -> b\\nb = 1")
text = open(sys.argv[1], encoding="utf-8").read()
before = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmRSS:"))
c0 = time.process_time()
tree = pyab.parse(text)
cpu = time.process_time() - c0
after = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(cpu, len(tree), before, after, "compiled" if dsl._cscan is not None else "python")
"""

# The two readers of pyab.parse: the compiled scanner (pyab/_cscan.c) in
# front, and the pure-Python fast paths alone (PYAB_PURE_PYTHON=1).
READERS = {"compiled": "0", "python": "1"}

# The stages of text -> answer inside one process.  "load" is the engine's
# own load of the tree (Engine._module): the compiled loader (pyab/_cload.c)
# when it is built, or with "packed" as argv[2] the packer and load_packed/3
# (what the engine does without the extension, or with PYAB_PURE_PYTHON=1;
# the parser stays the compiled one); "solve" the first observed solve.
_STAGES = """
import json, sys, time
c = time.process_time
t0 = c()
import pyab
from pyab.prolog import bridge as prolog
t1 = c()
text = open(sys.argv[1], encoding="utf-8").read()
tree = pyab.parse(text, sys.argv[1])
t2 = c()
if sys.argv[2] == "packed":
    prolog._cload = None
eng = prolog.engine()
t3 = c()
with eng.lock:
    eng._module(tree)
t4 = c()
res = pyab.solve(tree, eager=True)
t5 = c()
out = json.dumps({"best": res.best, "value": res.value, "visited": len(res.visited)})
t6 = c()
print(json.dumps({"import": t1 - t0, "parse": t2 - t1, "start": t3 - t2, "load": t4 - t3,
                  "solve": t5 - t4, "print": t6 - t5, "best": res.best, "value": res.value,
                  "loader": "compiled" if prolog._cload is not None else "packed"}))
"""

# Plain swipl: consult the facts, then the bare program's first call (it
# builds the indexes it needs) and a warm one, each timed inside swipl.
_BARE = ("statistics(cputime, C0), consult('{facts}'), statistics(cputime, C1), "
         "once(alphabeta({root}, -inf, inf, _, _)), statistics(cputime, C2), "
         "once(alphabeta({root}, -inf, inf, _, _)), statistics(cputime, C3), "
         "format(\"consult_cpu=~f~nfirst_cpu=~f~nwarm_cpu=~f~n\", [C1 - C0, C2 - C1, C3 - C2])")


def _wrapped(cmd: list[str]) -> tuple[float, int, str]:
    """CPU seconds, peak RSS (KB) and standard output of ``cmd``."""
    done = subprocess.run([sys.executable, "-c", _WRAP, *cmd], capture_output=True, text=True, cwd=ROOT)
    head, _, rest = done.stdout.partition("\n")
    cpu, rss, code = head.split()
    if code != "0":
        raise RuntimeError(f"{' '.join(cmd)} exited {code}:\n{done.stderr[-2000:]}")
    return float(cpu), int(rss), rest


def _floor(tmp: Path) -> Path | None:
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        return None
    exe = tmp / "floor"
    done = subprocess.run([gcc, "-O2", "-o", str(exe), str(ROOT / "benchmarks" / "floor.c")],
                          capture_output=True, text=True)
    return exe if done.returncode == 0 else None


def _kv(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def _mb(kb: float) -> str:
    return f"{kb / 1024:,.0f} MB"


def rows(tmp: Path, quick: bool = False, repeat: int = 3) -> tuple[list[Row], list[str]]:
    import pyab
    from pyab.prolog.facts import facts, quote

    notes: list[str] = []
    out: list[Row] = []
    big = tmp / "dfs.tree"
    big.write_text(shapes.dfs(10, 5 if quick else 6), encoding="utf-8")
    exe = _floor(tmp)

    # -- the yardsticks on the tree -------------------------------
    floor: dict[str, str] = {}
    floor_rss = 0
    if exe is None:
        notes.append("C floor skipped: no C compiler (gcc or cc) found")
    else:
        runs = []
        for _ in range(repeat):
            _, _, text = _wrapped([str(exe), str(big)])
            runs.append(_kv(text))
        floor = runs[-1]
        floor_rss = int(floor["peak_rss_kb"])  # its own VmHWM
        for key in ("parse_cpu", "total_cpu"):
            floor[key] = str(median([float(r[key]) for r in runs]))
    tree = pyab.parse(big.read_text(encoding="utf-8"))
    n = len(tree)
    facts_file = tmp / "dfs.pl"
    facts_file.write_text(facts(tree), encoding="utf-8")
    swipl = shutil.which("swipl")
    sw_cpu, sw_rss = float("nan"), 0
    if swipl:
        sw_cpu, sw_rss, _ = _wrapped([swipl, "-q", "-g", f"consult('{facts_file}')", "-t", "halt"])
        base_cpu, _, _ = _wrapped([swipl, "-q", "-g", "true", "-t", "halt"])
        sw_cpu -= base_cpu  # start-up and halt alone, measured the same way
        bare = swipl_timed(_BARE.format(facts=facts_file, root=quote(tree.root)),
                           [str(ROOT / "prolog" / "alphabeta.pl")])

    # -- pyab.parse on every shape --------------------------------------------
    sizes = {"dfs": {}, "quoted": {"depth": 4 if quick else 5}, "ragged": {"size": 20_000 if quick else 200_000},
             "nested": {"depth": 5 if quick else 6}, "list": {"depth": 5 if quick else 6}}
    floor_rate = n / float(floor["parse_cpu"]) if floor else None
    peak = (0, 0)
    for shape, (make, label) in shapes.SHAPES.items():
        path = big if shape == "dfs" else tmp / f"{shape}.tree"
        if shape != "dfs":
            path.write_text(make(**sizes[shape]), encoding="utf-8")
        runs: dict[str, list[float]] = {r: [] for r in READERS}
        for _ in range(repeat):  # the two readers alternately, fresh processes
            for reader, pure in READERS.items():
                env = {**os.environ, "PYAB_PURE_PYTHON": pure}
                done = subprocess.run([sys.executable, "-c", _PARSE, str(path)], capture_output=True,
                                      text=True, cwd=ROOT, check=True, env=env)
                cpu, nodes, before, after, used = done.stdout.split()
                if used != reader:
                    raise RuntimeError(f"parse with PYAB_PURE_PYTHON={pure} used the {used} reader")
                runs[reader].append(float(cpu))
                if shape == "dfs" and reader == "compiled":
                    peak = (int(before), int(after))
        rate = int(nodes) / median(runs["compiled"])
        pure_rate = int(nodes) / median(runs["python"])
        mine = (f"{rate:,.0f} nodes/s ({median(runs['compiled']):.2f} s CPU); pure Python "
                f"{pure_rate:,.0f} nodes/s ({median(runs['python']):.2f} s CPU)")
        mb = path.stat().st_size / 1e6
        if floor_rate:
            out.append(Row(f"parse {shape}: {label}, {int(nodes):,} nodes, {mb:.1f} MB",
                           mine, f"C floor reading+parsing the dfs tree ({n:,} nodes)",
                           f"{floor_rate:,.0f} nodes/s", rate / floor_rate,
                           f"{floor_rate / rate:.2f}x slower ({floor_rate / pure_rate:.1f}x pure Python)",
                           ">= 1,000,000 nodes/s", rate >= 1e6))
        else:
            out.append(Row(f"parse {shape}: {label}, {int(nodes):,} nodes, {mb:.1f} MB",
                           mine, "C floor", "skipped", None, "-", ">= 1,000,000 nodes/s", rate >= 1e6))
        if shape == "dfs" and swipl:
            out.append(Row(f"parse dfs: {n:,} nodes", f"{rate:,.0f} nodes/s",
                           "plain swipl consulting the facts of the same tree",
                           f"{n / sw_cpu:,.0f} nodes/s ({sw_cpu:.2f} s CPU)", rate / (n / sw_cpu),
                           f"{rate / (n / sw_cpu):.1f}x faster", "-", None))

    # -- peak resident memory on the tree ---------------------------
    grown = peak[1] - peak[0]
    out.append(Row(f"peak resident memory, parse of the {n:,}-node tree (process total; "
                   f"{_mb(grown)} above the process with the text read)", _mb(peak[1]),
                   "C floor (read+parse+search) / plain swipl consulting the facts",
                   f"{_mb(floor_rss) if floor else 'skipped'} / {_mb(sw_rss) if swipl else 'skipped'}",
                   None, (f"{peak[1] / floor_rss:.1f}x the C floor, " if floor else "")
                   + (f"{peak[1] / sw_rss:.2f}x swipl" if swipl else ""), "-", None))

    # -- text -> answer ---------------------------------------------------------
    if swipl:
        cpu, rss, text = _wrapped([sys.executable, "-m", "pyab", "solve", "--json", str(big)])
        answer = json.loads(text)
        if floor and (answer["best"], answer["value"]) != (floor["best"], int(floor["value"])):
            raise RuntimeError(f"the C floor answered {floor['best']} {floor['value']}, pyab {answer}")
        if floor:
            total = float(floor["total_cpu"])
            out.append(Row(f"text -> answer, `pyab solve --json` on the {n:,}-node tree (whole process)",
                           f"{cpu:.2f} s CPU, peak {_mb(rss)}", "C floor: read, parse, alpha-beta",
                           f"{total:.2f} s CPU, peak {_mb(floor_rss)}", total / cpu,
                           f"{cpu / total:.1f}x the C floor", "<= 10x", cpu / total <= 10))
        st: dict[str, dict] = {}
        for loader in ("compiled", "packed"):
            done = subprocess.run([sys.executable, "-c", _STAGES, str(big), loader], capture_output=True,
                                  text=True, cwd=ROOT, check=True)
            st[loader] = json.loads(done.stdout.strip().splitlines()[-1])
        if st["compiled"]["loader"] != "compiled":
            notes.append("the compiled loader (pyab/_cload.c) is not built: both loads are load_packed/3")
        packed, st = st["packed"], st["compiled"]
        stages = ", ".join(f"{k} {st[k]:.2f}" for k in ("import", "parse", "start", "load", "solve", "print"))
        out.append(Row("  its stages in one process (CPU s)", stages, "-", "-", None, "-", "-", None))
        out.append(Row(f"  its load into SWI-Prolog ({st['loader']} loader; packer + load_packed/3: "
                       f"{packed['load']:.2f} s)", f"{st['load']:.2f} s CPU",
                       "plain swipl consulting the facts", f"{bare['consult_cpu']:.2f} s CPU",
                       bare["consult_cpu"] / st["load"], f"{bare['consult_cpu'] / st['load']:.1f}x faster",
                       "-", None))
        out.append(Row("  its first observed solve (program load, search, answer)", f"{st['solve']:.2f} s CPU",
                       "the bare program's first call in plain swipl (warm: "
                       f"{bare['warm_cpu']:.2f} s)", f"{bare['first_cpu']:.2f} s CPU",
                       bare["first_cpu"] / st["solve"], f"{st['solve'] / bare['first_cpu']:.2f}x the bare first call",
                       "-", None))
    return out, notes


def main(argv: list[str] | None = None) -> int:
    from .measure import machine, print_table
    quick = bool(argv and "--quick" in argv)
    print(f"machine: {machine()}\n")
    with tempfile.TemporaryDirectory(prefix="pyab-parse-") as tmp:
        table, notes = rows(Path(tmp), quick)
    print_table(table)
    for note in notes:
        print(f"\nnote: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
