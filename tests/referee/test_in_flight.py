"""Protocol 2: several searches in flight on one child (pyab/referee/flight.py),
and protocol 1 still served to a client that does not opt in."""

from __future__ import annotations

import shlex
import shutil
import sys
import time

import pytest

from pyab.cli import main
from pyab.referee import ExecRoute, PythonRoute
from pyab.referee import child as child_module
from pyab.referee.checking import CheckOptions, run

from tests.conftest import EXAMPLES

REF = EXAMPLES / "referee"
SLIDES = REF / "slides_alphabeta.py"
NODE = shutil.which("node")
CLIENTS = [
    f"{sys.executable} {REF / 'client.py'}",
    pytest.param(f"node {REF / 'client.js'}",
                 marks=pytest.mark.skipif(NODE is None, reason="node is not installed")),
]


@pytest.fixture
def lines(monkeypatch):
    """Counts the lines pyab writes to and reads from its children."""
    n = {"sent": 0, "read": 0}
    send, receive = child_module.Child.send, child_module.Child.receive

    def counted_send(self, obj):
        n["sent"] += 1
        return send(self, obj)

    def counted_receive(self):
        n["read"] += 1
        return receive(self)

    monkeypatch.setattr(child_module.Child, "send", counted_send)
    monkeypatch.setattr(child_module.Child, "receive", counted_receive)
    return n


def check(route, n: int = 200, **kw):
    verdicts: list = []
    report = run(route, CheckOptions(random=n, seed=0, save_dir=None, **kw),
                 on_verdict=lambda case, v: verdicts.append((case.number, v.status, v.kind)))
    return report, verdicts


V1_CLIENT = f"""\
import json, sys
sys.path.insert(0, {str(REF)!r})
from slides_alphabeta import alphabeta
log = open(sys.argv[1], "w", buffering=1)
def ask(question, node):
    print(json.dumps({{question: node}}), flush=True)
    line = sys.stdin.readline()
    log.write(line)
    return json.loads(line)
class Game:
    def children(self, n): return ask("moves", n)
    def is_max(self, n): return ask("max_to_move", n)
    def value(self, n): return ask("staticval", n)
for line in sys.stdin:
    log.write(line)
    job = json.loads(line)
    bound = lambda x: float(x) if isinstance(x, str) else x
    best, value = alphabeta(Game(), job["root"], bound(job["alpha"]), bound(job["beta"]))
    print(json.dumps({{"best": best, "value": value}}), flush=True)
"""


def test_a_hand_written_protocol_1_client_is_served_as_before(tmp_path, lines):
    client, heard = tmp_path / "v1.py", tmp_path / "heard.txt"
    client.write_text(V1_CLIENT)
    report, verdicts = check(ExecRoute(f"{sys.executable} {client} {heard}"), 100)
    assert report.exit == 0 and report.checked == 100 and not report.route.serial
    said = heard.read_text().splitlines()
    jobs = [s for s in said if s.startswith("{")]
    assert len(jobs) == 100 and all('"root"' in j and '"id"' not in j for j in jobs)  # one at a time
    assert all(s.startswith(("[", "{", "true", "false", "-")) or s[0].isdigit() for s in said)
    assert not any(s.startswith("[[") for s in said)  # moves answered with the names only
    assert lines["sent"] / 100 > 10  # a line each way for every question


@pytest.mark.parametrize("client", CLIENTS, ids=["python", "javascript"])
def test_the_worked_clients_speak_both_protocols_and_their_mutants_are_caught(client, lines):
    for protocol, most in (("", 1.0), (" --protocol 1", None)):
        lines["sent"] = 0
        report, _ = check(ExecRoute(client + protocol), 300)
        assert report.exit == 0 and report.checked == 300, protocol
        per_tree = lines["sent"] / 300
        if most is not None:
            assert per_tree < most, per_tree  # many searches' messages in a line
        else:
            assert per_tree > 10, per_tree
        report, _ = check(ExecRoute(client + protocol + " --mutant"), 300)
        assert report.exit == 1 and report.first_case.number == 15, protocol  # the tie at a bound


def test_the_python_route_batches_and_its_mutant_is_caught(tmp_path, lines):
    report, _ = check(PythonRoute(f"{SLIDES}:alphabeta"), 300)
    assert report.exit == 0 and lines["sent"] / 300 < 1.0, lines
    mutant = tmp_path / "mutant.py"
    text = SLIDES.read_text()
    assert "val > beta)" in text
    mutant.write_text(text.replace("val > beta)", "val >= beta)"))
    report, _ = check(PythonRoute(f"{mutant}:alphabeta"), 300)
    assert report.exit == 1 and report.first_case.number == 15 and not report.route.serial


SHARED = f"""\
import sys
sys.path.insert(0, {str(REF)!r})
import slides_alphabeta

CACHE = {{}}  # module-level state: this search's children by name (wrong when two run)

class Cached:
    def __init__(self, game): self.game = game
    def children(self, n):
        if n not in CACHE:
            CACHE[n] = self.game.children(n)
        return CACHE[n]
    def is_max(self, n): return self.game.is_max(n)
    def value(self, n): return self.game.value(n)

def alphabeta(game, root, alpha, beta):
    CACHE.clear()
    return slides_alphabeta.alphabeta(Cached(game), root, alpha, beta)
"""


def test_a_program_with_module_state_falls_back_to_one_search_at_a_time(tmp_path, capsys):
    program = tmp_path / "shared.py"
    program.write_text(SHARED)
    route = PythonRoute(f"{program}:alphabeta", timeout=10)
    report, verdicts = check(route, 200)
    assert report.exit == 0 and report.checked == 200, verdicts  # every verdict right
    assert "one at a time" in route.serial
    code = main(["check", "--random", "100", "--python", f"{program}:alphabeta", "--timeout", "10"])
    out = capsys.readouterr().out
    assert code == 0 and "one at a time" in out, out


FAILS = f"""\
import sys
sys.path.insert(0, {str(REF)!r})
from slides_alphabeta import alphabeta as slides

def alphabeta(game, root, alpha, beta):
    if len(game.children(root)) == 3:
        raise ValueError("three moves")
    return slides(game, root, alpha, beta)
"""


def test_searches_that_fail_in_flight_are_judged_alone_on_their_own_trees(tmp_path):
    from pyab.referee.checking import random_cases
    program = tmp_path / "fails.py"
    program.write_text(FAILS)
    route = PythonRoute(f"{program}:alphabeta", timeout=10)
    report, verdicts = check(route, 60, keep_going=True, count_failures=True)
    three = {c.number for c in random_cases(CheckOptions(random=60, seed=0)) if len(c.tree.kids[0]) == 3}
    assert three and report.checked == 60
    assert {n for n, status, _ in verdicts if status != "agree"} == three
    assert all(kind == "crash" for n, status, kind in verdicts if status != "agree")
    assert not route.serial  # each failed alone too: no reason to go one at a time


HANGS = f"""\
import sys
sys.path.insert(0, {str(REF)!r})
from slides_alphabeta import alphabeta as slides

def alphabeta(game, root, alpha, beta):
    kids = game.children(root)
    if len(kids) == 3:
        while True:
            pass
    return slides(game, root, alpha, beta)
"""


def test_a_hanging_search_is_a_timeout_on_its_own_tree(tmp_path):
    program = tmp_path / "hangs.py"
    program.write_text(HANGS)
    route = PythonRoute(f"{program}:alphabeta", timeout=0.5)
    start = time.monotonic()
    report, verdicts = check(route, 12, keep_going=True, count_failures=True, shrink_seconds=0)
    took = time.monotonic() - start
    assert [(n, kind) for n, status, kind in verdicts if status != "agree"] == [(10, "timeout")]
    assert report.checked == 12
    assert took < 3 * 0.5 + 3.0, took  # the tree's own time limit, and one more at most


def test_the_replay_of_a_disagreement_in_flight_disagrees_again(tmp_path, capsys):
    client = f"{sys.executable} {REF / 'client.py'} --mutant"
    code = main(["check", "--random", "100", "--exec", client, "--save-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1, out
    replay = shlex.split(out.strip().splitlines()[-1])
    assert replay[:2] == ["pyab", "check"] and replay[3:5] == ["--exec", client]
    code = main(replay[1:])
    out = capsys.readouterr().out
    assert code == 1 and "DISAGREE" in out, out


WRONG_ON_THREE = f"""\
import sys
sys.argv = sys.argv[:1]
sys.path.insert(0, {str(REF)!r})
import client

right = client.search

def search(job, moves):  # the static value of an inner node: the root, when it has 3 moves
    inner = right(job, moves)
    def wrong():
        answer = yield next(inner)
        if len(answer[0]) == 3:
            yield {{"staticval": job["root"]}}
        while True:
            try:
                question = inner.send(answer)
            except StopIteration as end:
                return end.value
            answer = yield question
    return wrong()

client.search = search
client.main()
"""


def test_a_wrong_question_in_flight_is_judged_on_its_own_searchs_tree(tmp_path, lines):
    from pyab.referee.checking import random_cases
    program = tmp_path / "wrong.py"
    program.write_text(WRONG_ON_THREE)
    route = ExecRoute(f"{sys.executable} {program}", timeout=10)
    report, verdicts = check(route, 60, keep_going=True, shrink_seconds=0)
    three = {c.number for c in random_cases(CheckOptions(random=60, seed=0)) if len(c.tree.kids[0]) == 3}
    assert three and report.checked == 60
    assert {(n, kind) for n, status, kind in verdicts if status != "agree"} == {
        (n, "inner-static-value") for n in three}
    assert not route.serial and report.disagreements == len(three)
