"""library(pyab/tree_dsl) (prolog/tree_dsl.pl) reading a big flat tree in
plain SWI-Prolog, beside SWI-Prolog consulting the facts `pyab facts`
writes for the same tree, measured in one run (CPU seconds inside swipl,
start-up excluded).  The yardstick is what a Prolog user would do without
the reader: convert with pyab, then consult.  Aim: within 10x of it."""

from __future__ import annotations

from pathlib import Path

from .measure import ROOT, Row, median, swipl_timed


def flat_tree(levels: int) -> str:
    """A 10-ary flat tree, ``levels`` deep (111,111 nodes for 5)."""
    lines, level = [], ["n"]
    for _ in range(levels):
        nxt = []
        for p in level:
            kids = [f"{p}_{i}" for i in range(10)]
            lines.append(f"{p} -> {', '.join(kids)}")
            nxt += kids
        level = nxt
    lines += [f"{leaf} = {i % 97 - 40}" for i, leaf in enumerate(level)]
    return "\n".join(lines) + "\n"


def rows(tmp: Path, quick: bool) -> list[Row]:
    import pyab
    from pyab.prolog.facts import facts
    levels = 4 if quick else 5
    tree_file, facts_file = tmp / "dsl-big.tree", tmp / "dsl-big.pl"
    tree_file.write_text(flat_tree(levels), encoding="utf-8")
    tree = pyab.load(str(tree_file))
    facts_file.write_text(facts(tree), encoding="utf-8")
    dsl = str(ROOT / "prolog" / "tree_dsl.pl")
    reads, consults = [], []
    for _ in range(3):  # alternately, each in a fresh swipl
        got = swipl_timed(f"use_module('{dsl}'), statistics(cputime, T0), "
                          f"read_tree('{tree_file}', F), length(F, N), statistics(cputime, T1), "
                          "T is T1 - T0, format('cpu=~w~nclauses=~w~n', [T, N])", [])
        reads.append(got["cpu"])
        got = swipl_timed(f"statistics(cputime, T0), consult('{facts_file}'), "
                          "statistics(cputime, T1), T is T1 - T0, format('cpu=~w~n', [T])", [])
        consults.append(got["cpu"])
    read, consult = median(reads), median(consults)
    return [Row(f"tree_dsl read_tree/2 of a {len(tree):,}-node flat tree (plain swipl)",
                f"{read:.2f} s CPU", "swipl consulting the same tree's facts", f"{consult:.2f} s CPU",
                read / consult, f"{read / consult:.1f}x the consult", "<= 10x", read <= 10 * consult)]
