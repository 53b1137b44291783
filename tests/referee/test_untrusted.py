"""Grading programs under test in a child process (`check --program`,
`--untrusted`, `--timeout`, `--memory`): every attack of
tests/hostile_programs.py is contained (nothing written, exit 3 with its
reason, valid JSON), and honest programs still pass."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, PROLOG, ROOT, pyab_cli
from tests.hostile_programs import ATTACKS, program_text

SLIDES = str(EXAMPLES / "slides.tree")
PROGRAMS = Path(__file__).resolve().parents[1] / "programs"
HONEST = sorted(PROGRAMS.glob("honest_*.pl")) + [PROLOG / "alphabeta.pl"]


def _check(prog: Path, *opts: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return pyab_cli("check", SLIDES, "--program", str(prog), *opts, timeout=timeout)


@pytest.mark.parametrize("name", list(ATTACKS))
def test_attack_is_contained(name, tmp_path):
    mark = tmp_path / "written-by-the-program"
    prog = tmp_path / "student.pl"
    prog.write_text(program_text(name, mark), encoding="utf-8")
    _, opts, (code, reason) = ATTACKS[name]
    done = _check(prog, *opts)
    assert done.returncode == code, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    if code == 3:
        lines = done.stderr.splitlines()
        assert lines[0].startswith("error: program under test: ") and reason in lines[0], lines
    if "background" in name:
        time.sleep(1.5)  # the background job would have written by now
    assert not mark.exists()
    if "--json" in opts:
        obj = json.loads(done.stdout)  # exactly one object: loads refuses anything after it
        assert obj["exit"] == code and obj.get("agree", False) is (code == 0)
        if code == 3:  # pyab's one error shape (docs/json.md), with the program's output
            assert obj["error"]["kind"] == "ProgramError"
            assert obj["error"]["program_kind"] == "protocol"
            assert "junk" in obj["error"]["program_stdout"]
    for ch in ("\x1b", "\x00", "\x07"):  # nothing raw reaches the operator's terminal
        assert ch not in done.stderr and ch not in done.stdout


def test_the_attacks_are_real_without_the_sandbox(tmp_path):
    """The same shell command runs when the program is trusted (plain run):
    the --untrusted refusal above is what stops it."""
    mark = tmp_path / "written"
    prog = tmp_path / "student.pl"
    prog.write_text(program_text("shell in alphabeta/5", mark), encoding="utf-8")
    assert _check(prog).returncode == 0
    assert mark.exists()


def test_printing_program_leaves_json_alone(tmp_path):
    prog = tmp_path / "student.pl"
    prog.write_text(program_text("print into --json", tmp_path / "x"), encoding="utf-8")
    done = _check(prog, "--json")
    obj = json.loads(done.stdout)
    assert obj["agree"] is True and obj["files"][0]["yours"]["best"] == "b"


def test_escapes_are_shown_escaped(tmp_path):
    prog = tmp_path / "student.pl"
    prog.write_text(program_text("terminal escapes", tmp_path / "x"), encoding="utf-8")
    done = _check(prog)
    assert done.returncode == 3
    assert "\\x1b[2J" in done.stderr and "\x1b" not in done.stderr


def test_error_with_json_is_one_object_with_the_output(tmp_path):
    prog = tmp_path / "student.pl"
    prog.write_text(program_text("terminal escapes", tmp_path / "x"), encoding="utf-8")
    done = _check(prog, "--json")
    assert done.returncode == 3
    obj = json.loads(done.stdout)
    assert obj["error"]["program_kind"] == "crash" and "\x1b[2J" in obj["error"]["program_stderr"]


@pytest.mark.parametrize("prog", HONEST, ids=lambda p: p.name)
def test_honest_programs_pass_untrusted(prog):
    done = pyab_cli("check", "--random", "60", "--seed", "3", "--program", str(prog),
                    "--untrusted", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {**json.loads(done.stdout), "checked": 60, "agree": True}


def test_a_mutant_is_still_caught_untrusted(tmp_path):
    """The child-process route can see a `>` turned into `>=`."""
    mutant = tmp_path / "mutant.pl"
    text = (PROLOG / "alphabeta.pl").read_text(encoding="utf-8")
    mutant.write_text(text.replace("Val > Beta, !", "Val >= Beta, !"), encoding="utf-8")
    done = pyab_cli("check", "--random", "300", "--seed", "4", "--program", str(mutant),
                    "--untrusted", "--save-dir", str(tmp_path))
    assert done.returncode == 1, done.stderr
    assert "DISAGREE" in done.stdout


def test_other_algorithms_through_the_child():
    done = pyab_cli("check", "--random", "60", "--algorithm", "aima", "--program",
                    str(PROLOG / "aima.pl"), "--untrusted")
    assert done.returncode == 0, done.stderr


def test_a_wrapping_program_cannot_change_the_next_program(tmp_path):
    """Each program has its own child: one that wraps predicates (here its
    own, and it tries the bridge's) changes nothing for the next one."""
    import pyab
    from pyab.referee.program import PrologProgram
    wrapper = tmp_path / "wrapper.pl"
    wrapper.write_text(program_text("wrap the bridge (plain run)", tmp_path / "x"), encoding="utf-8")
    mutant = tmp_path / "mutant.pl"
    mutant.write_text((PROLOG / "alphabeta.pl").read_text(encoding="utf-8")
                      .replace("Val > Beta, !", "Val >= Beta, !"), encoding="utf-8")
    from pyab.engines import differences
    tree = pyab.parse("a(b=5, c=7)")  # with beta 5 the mutant cuts after b, the slides' do not
    right = pyab.solve(tree, "python", beta=5)
    with PrologProgram(wrapper) as w, PrologProgram(mutant) as m:
        assert differences(w.solve(tree, beta=5), right) == []
        assert differences(m.solve(tree, beta=5), right) != []


def test_stack_limit_of_a_trusted_program_stays_in_its_child(tmp_path):
    """A trusted program may raise its own stack limit: only its child has
    it; the next program starts with the default again."""
    import pyab
    from pyab.referee.program import PrologProgram
    report = "alphabeta(_, _, _, b, Limit) :- current_prolog_flag(stack_limit, Limit).\n"
    big, plain = tmp_path / "big.pl", tmp_path / "plain.pl"
    big.write_text(":- set_prolog_flag(stack_limit, 100 000 000 000).\n" + report, encoding="utf-8")
    plain.write_text(report, encoding="utf-8")
    tree = pyab.parse("a(b=1, c=2)")
    with PrologProgram(big) as p:
        assert p.solve(tree).value == 100_000_000_000
    with PrologProgram(plain) as p:
        assert p.solve(tree).value < 100_000_000_000


def test_timeout_needs_a_program():
    done = pyab_cli("check", SLIDES, "--timeout", "1")
    assert done.returncode == 2 and "--program" in done.stderr
    assert pyab_cli("check", SLIDES, "--program", "x.pl", "--timeout", "0").returncode == 2


def _live(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split()[2] != "Z"


def _descendants(pid: int) -> set[int]:
    out, todo = set(), [pid]
    while todo:
        p = todo.pop()
        try:
            kids = open(f"/proc/{p}/task/{p}/children").read().split()
        except OSError:
            continue
        for k in map(int, kids):
            out.add(k)
            todo.append(k)
    return out


_STARTED: list[subprocess.Popen] = []


def _start(*args: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "pyab", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _STARTED.append(proc)
    return proc


@pytest.fixture(autouse=True)
def _no_pyab_left_running():
    """A failed test must not leave a looping run behind: SIGTERM ends pyab
    and, through it, its workers and children."""
    yield
    while _STARTED:
        proc = _STARTED.pop()
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for f in (proc.stdout, proc.stderr):
            f.close()


def _wait_for_swipl(proc: subprocess.Popen, count: int = 1, limit: float = 30) -> set[int]:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        kids = _descendants(proc.pid)
        swipl = {k for k in kids if "swipl" in open(f"/proc/{k}/cmdline").read()}
        if len(swipl) >= count:
            time.sleep(0.5)  # let the searches start
            return _descendants(proc.pid)
        time.sleep(0.05)
    raise AssertionError("the children never started")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, -signal.SIGTERM)])
def test_ctrl_c_stops_a_looping_program_within_a_second(tmp_path, sig, code):
    prog = tmp_path / "loop.pl"
    prog.write_text(program_text("infinite loop", tmp_path / "x"), encoding="utf-8")
    proc = _start("check", SLIDES, "--program", str(prog))
    kids = _wait_for_swipl(proc)
    start = time.monotonic()
    proc.send_signal(sig)
    proc.wait(timeout=5)
    assert time.monotonic() - start < 1.0
    assert proc.returncode == code
    time.sleep(0.1)
    assert not [k for k in kids if _live(k)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", ["SIGTERM to pyab", "SIGKILL to a worker"])
def test_jobs_leave_no_process_behind(tmp_path, how):
    prog = tmp_path / "loop.pl"
    prog.write_text(program_text("infinite loop", tmp_path / "x"), encoding="utf-8")
    proc = _start("check", "--random", "20", "--jobs", "2", "--program", str(prog))
    kids = _wait_for_swipl(proc, count=2)
    if how == "SIGTERM to pyab":
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=5)
        assert proc.returncode == -signal.SIGTERM
    else:
        worker = next(k for k in kids if "spawn_main" in open(f"/proc/{k}/cmdline").read())
        os.kill(worker, signal.SIGKILL)
        out, err = proc.communicate(timeout=10)
        assert proc.returncode == 3, err
        assert b"worker process died" in err and b"Traceback" not in err
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and [k for k in kids if _live(k)]:
        time.sleep(0.05)
    assert not [k for k in kids if _live(k)]


def test_a_crashed_child_is_replaced(tmp_path):
    """A child that dies in a search is reported, and the next tree gets a
    fresh child (here the program crashes once, then behaves)."""
    import pyab
    from pyab.errors import ProgramError
    from pyab.referee.program import PrologProgram
    flag = tmp_path / "crashed-once"
    prog = tmp_path / "once.pl"
    prog.write_text(program_text("halt", tmp_path / "x").replace(
        "    halt,\n", f"    ( exists_file('{flag}') -> true ; open('{flag}', write, S), close(S), halt(9) ),\n"),
        encoding="utf-8")
    tree = pyab.parse("a(b=1, c=2)")
    with PrologProgram(prog) as p:
        with pytest.raises(ProgramError) as err:
            p.solve(tree)
        assert err.value.kind == "crash" and "exit 9" in err.value.reason
        assert p.solve(tree).best == "c"
        os.kill(p._child.proc.pid, signal.SIGKILL)  # killed between trees: replaced too
        p._child.proc.wait()
        assert p.solve(tree).best == "c"


@pytest.mark.parametrize("directive, why", [
    (":- shell('touch pwned').", "shell"),
    (":- initialization(shell(ls)).", "shell"),
    (":- use_module(library('../x')).", "library(sandbox) accepts"),
    (":- module(late, []).", "not the file's first term"),
    (":- pyab_child:moves(a, _).", "pyab_child"),
])
def test_an_unsafe_directive_is_refused_naming_its_line(directive, why, tmp_path):
    """Directives run when library(sandbox) holds them safe; the rest are
    refused with the file, the line and why, and nothing of them runs."""
    prog = tmp_path / "p.pl"
    body = (PROGRAMS / "honest_printing.pl").read_text(encoding="utf-8")
    prog.write_text(":- format(\"fine~n\").\n" + directive + "\n" + body, encoding="utf-8")
    done = _check(prog, "--untrusted", "--json")
    assert done.returncode == 3, done.stderr
    err = json.loads(done.stdout)["error"]
    assert err["program_kind"] == "refused" and f"{prog}:2:" in err["message"], err
    assert why in err["message"] and not (tmp_path / "pwned").exists()


def test_printing_directives_and_a_module_header_run_untrusted(tmp_path):
    """The directives of the honest programs did run (their output is the
    program's stderr, kept when the run fails: here its entry goal throws)."""
    for name, printed in (("honest_printing.pl", ["Loading the alpha-beta program", "hello",
                                                  "ready", "all clauses read"]),
                          ("honest_module.pl", ["alphabeta loaded"])):
        text = (PROGRAMS / name).read_text(encoding="utf-8")
        at = text.index("alphabeta(Pos")
        stopped = tmp_path / name
        stopped.write_text(text[:at] + "alphabeta(_, _, _, _, _) :- throw(stopped_here).\n"
                           + text[at:], encoding="utf-8")
        done = _check(stopped, "--untrusted", "--json")
        assert done.returncode == 3, done.stderr
        err = json.loads(done.stdout)["error"]
        assert "stopped_here" in err["message"], err
        assert all(p in err["program_stderr"] for p in printed), err
