"""`pyab check --random N --jobs J` checks the same trees and reaches the same
verdict as one process: the same exit code, and the same disagreement
reported (the first one in the sequence) when the program is wrong."""

from __future__ import annotations

import re

from tests.conftest import PROLOG, pyab_cli


def _without_rate(text: str) -> str:
    return re.sub(r"\(\d+ trees/s[^)]*\)", "(rate)", text)


def test_jobs_give_the_verdict_of_one_process(tmp_path):
    mutant = tmp_path / "mutant.pl"
    program = (PROLOG / "alphabeta.pl").read_text(encoding="utf-8")
    assert "Val > Beta, !" in program
    mutant.write_text(program.replace("Val > Beta, !", "Val >= Beta, !"), encoding="utf-8")
    runs = {}
    for jobs in ("1", "2"):
        ok = pyab_cli("check", "--random", "60", "--seed", "5", "--jobs", jobs)
        bad = pyab_cli("check", "--random", "300", "--seed", "4", "--jobs", jobs,
                       "--program", str(mutant), "--save-dir", str(tmp_path))
        runs[jobs] = (ok.returncode, _without_rate(ok.stdout), bad.returncode, bad.stdout)
    assert runs["1"][0] == 0 and runs["1"][2] == 1
    assert "DISAGREE on random tree" in runs["1"][3]
    assert runs["2"] == runs["1"]


def test_jobs_must_be_positive():
    done = pyab_cli("check", "--random", "5", "--jobs", "0")
    assert done.returncode == 2
    assert "--jobs" in done.stderr


def _die_on(x: int, bad: int) -> int:
    import os
    if x == bad:
        os._exit(9)  # the worker dies, as when a child takes it down
    return 10 * x


def test_a_dead_worker_costs_only_its_own_call():
    """One call that kills its worker (twice) ends with the error; every
    other call, those the broken pool lost included, gets its result."""
    from concurrent.futures.process import BrokenProcessPool

    from pyab.referee.supervise import Pool
    with Pool(2, die_on_sigterm=False) as pool:
        got = {i: (r, e) for i, r, e in pool.each(_die_on, [(x, 3) for x in range(8)])}
    assert sorted(got) == list(range(8))
    assert isinstance(got[3][1], BrokenProcessPool)
    assert {i: r for i, (r, e) in got.items() if i != 3} == {x: 10 * x for x in range(8) if x != 3}


def test_a_hanging_program_ends_check_jobs_keep_going_soon(tmp_path):
    """--jobs 2 --keep-going on a program that loops: each worker stops at
    its first timeout (was: a timeout for every tree of its share)."""
    import time
    prog = tmp_path / "loop.py"
    prog.write_text("def alphabeta(game, node, alpha, beta):\n    while True:\n        pass\n")
    start = time.monotonic()
    r = pyab_cli("check", "--random", "40", "--jobs", "2", "--keep-going", "--timeout", "1",
                 "--python", f"{prog}:alphabeta", timeout=120)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "timeout" in r.stderr
    assert time.monotonic() - start < 15  # ten timeouts and the start-up (was 27 s)


def _share_of(argv: list[str], share: int, jobs: int) -> list[int]:
    """What --jobs worker ``share`` of ``pyab check ARGV --jobs JOBS`` reports."""
    from pyab.cli import build_parser
    from pyab.commands import check
    argv = ["check", *argv, "--jobs", str(jobs)]
    args = build_parser(argv).parse_args(argv)
    args.algorithm = args.algorithm or "bratko"
    settings = {k: v for k, v in vars(args).items() if k != "run"}
    return check._check_share(settings, check._options(args), share, jobs)


def test_a_worker_reports_the_first_disagreement_of_its_share(monkeypatch):
    """In-process --jobs workers compare 64 trees a Prolog call
    (pyab.engines.both_many): a record that differs from the mirror's on
    the third tree of the share is the tree the worker names."""
    from pyab.prolog import bridge
    real = bridge.Engine.solve_batch

    def third_wrong(self, cases, algorithm="bratko", **kw):
        records = real(self, cases, algorithm, **kw)
        best, value, *rest = records[2]
        records[2] = (best, value + 1, *rest)
        return records
    assert _share_of(["--random", "40", "--seed", "3"], 1, 2) == []
    monkeypatch.setattr(bridge.Engine, "solve_batch", third_wrong)
    assert _share_of(["--random", "40", "--seed", "3"], 1, 2) == [6]  # trees 2, 4, 6


def test_a_worker_names_the_first_refused_tree_of_its_share():
    """A tree both engines refuse (three agents: sides that do not
    alternate, for the slides' program) is named, the trees before it judged."""
    from pyab.engines import check_search
    from pyab.referee.checking import CheckOptions, random_cases
    options = CheckOptions(algorithm="bratko", random=40, seed=2, agents=3)
    refused = []
    for case in random_cases(options):
        try:
            check_search(case.tree, "bratko", case.alpha, case.beta)
        except ValueError:
            refused.append(case.number)
    for share in (0, 1):
        first = [n for n in refused if (n - 1) % 2 == share][:1]
        assert first, "the seed makes a refused tree in each share"
        assert _share_of(["--random", "40", "--seed", "2", "--agents", "3"], share, 2) == first
