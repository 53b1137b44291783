"""The child process for ``--python PATH.py:FUNC`` (or ``module:func``).

    python -m pyab.referee.pychild [--path DIR]... SPEC [--interface pyab|aima|cs188 [--framework DIR]]

(``--path``: a folder appended to ``sys.path``, where a confined child
finds the modules a teacher allowed: ``--allow-module``.)

Imports the user's function and, for each job read from standard input,
calls it on a game object whose every method is a question to the parent
(``moves``, ``max_to_move``, ``staticval``; see ``pyab.referee.protocol``).
The parent answers and records; nothing here is trusted for the verdict.
It speaks protocol 2 (``pyab.referee.flight``) for the pyab and aima
interfaces: each search runs on a stack of its own (a greenlet; a thread
where the greenlet package is missing), one at a time, each up to its next
question, and a line carries every search's message.
What the user's code prints goes to standard error, so it cannot break the
protocol on standard output.  An exception in the user's code ends the
search with ``{"error": ...}`` naming the exception and the last frame of
the user's traceback.

The game classes are also used in-process by ``pyab.testing``, with
``ask`` answered by an :class:`~pyab.referee.protocol.Observer` directly.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import math
import os
import sys
import threading
import traceback
from pathlib import Path
from typing import Any, Callable

__all__ = ["AimaGame", "INTERFACES", "PyabGame", "call", "describe", "load"]

INTERFACES = ("pyab", "aima", "cs188")

Ask = Callable[[str, Any], Any]


class PyabGame:
    """The ``pyab`` interface: ``FUNC(game, root, alpha, beta)`` returns
    ``(best_child_or_None, value)``; nodes are the tree's node names.
    ``depth`` (plies, None: no limit) and ``agents`` (None: two sides
    alternating) are the job's, as the reference is given them."""

    def __init__(self, ask: Ask, depth: Any = None, agents: Any = None):
        self._ask, self.depth, self.agents = ask, depth, agents
        # A node's side never changes during a search, and the referee
        # records moves and staticval, not max_to_move: asking it once a
        # node saves a round trip per repeat (the slides' mirror asks it
        # about 1.6 times a node).
        self._max: dict[Any, bool] = {}

    def children(self, node: Any) -> list:
        """The children of ``node`` in order (moves/2); [] for a leaf.  Each
        child's side comes with them: no question of its own later."""
        kids, sides = self._ask("moves_sides", node)
        for kid, side in zip(kids, sides):
            self._max[kid] = bool(side)
        return list(kids)

    def is_max(self, node: Any) -> bool:
        """True when MAX is to move at ``node`` (max_to_move/1)."""
        try:
            return self._max[node]
        except (KeyError, TypeError):  # TypeError: a node that cannot be a key (asked each time)
            answer = bool(self._ask("max_to_move", node))
        try:
            self._max[node] = answer
        except TypeError:
            pass
        return answer

    def value(self, node: Any) -> Any:
        """The static value of the leaf ``node`` (staticval/2)."""
        return self._ask("staticval", node)


class AimaGame:
    """aima-python's ``Game`` protocol over the tree: a state is a node name,
    an action the name of the child it leads to, the players "MAX" and
    "MIN"; ``utility(state, player)`` is the static value for MAX and its
    negation for MIN.  ``FUNC(state, game)`` returns an action."""

    def __init__(self, ask: Ask, initial: str, depth: Any = None, agents: Any = None):
        self._ask, self.initial, self.depth, self.agents = ask, initial, depth, agents
        self._max: dict[Any, str] = {}  # the side of a node, asked once (see PyabGame)

    def actions(self, state: Any) -> list:
        kids, sides = self._ask("moves_sides", state)
        for kid, side in zip(kids, sides):  # each child's side: no question of its own later
            self._max[kid] = "MAX" if side else "MIN"
        return list(kids)

    def result(self, state: Any, move: Any) -> Any:
        return move

    def terminal_test(self, state: Any) -> bool:
        return not self.actions(state)

    def to_move(self, state: Any) -> str:
        try:
            return self._max[state]
        except (KeyError, TypeError):
            side = "MAX" if self._ask("max_to_move", state) else "MIN"
        try:
            self._max[state] = side
        except TypeError:
            pass
        return side

    def utility(self, state: Any, player: Any) -> Any:
        v = self._ask("staticval", state)
        if player == "MAX":
            return v
        if player == "MIN":
            return -v
        raise ValueError(f"utility(state, player): player must be 'MAX' or 'MIN', not {player!r}")

    def display(self, state: Any) -> None:
        print(state, file=sys.stderr)

    def __repr__(self) -> str:
        return "<pyab tree as an aima Game>"


class Invalid(Exception):
    """The user's function returned something of the wrong shape."""


def _framework() -> Any:
    """pyab.referee.cs188_framework; in the sandbox, where this file runs
    as a shipped script, the copy shipped beside it."""
    try:
        from . import cs188_framework
    except ImportError:  # no parent package: a script
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import cs188_framework  # type: ignore[no-redef]
    return cs188_framework


def _takes(func: Callable, name: str) -> bool:
    import inspect
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == name or p.kind is p.VAR_KEYWORD for p in params)


def call(func: Callable, interface: str, ask: Ask, root: str, alpha: Any, beta: Any,
         job: dict | None = None) -> tuple[Any, Any]:
    """One search by the user's ``func``: (best, value); value None for
    the aima and cs188 interfaces, which return only an action.  The job's
    ``depth`` and ``agents`` are on the game object, and passed as keywords
    to a function that takes them."""
    job = job or {}
    depth, agents = job.get("depth"), job.get("agents")
    if interface == "cs188":
        return _framework().call_agent(func, ask, job), None
    if interface == "aima":
        return func(root, AimaGame(ask, root, depth, agents)), None
    extra = {k: v for k, v in (("depth", depth), ("agents", agents))
             if v is not None and _takes(func, k)}
    out = func(PyabGame(ask, depth, agents), root, alpha, beta, **extra)
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise Invalid(f"returned {out!r:.80}; expected a pair (best_child_or_None, value)")
    return out[0], out[1]


def _kind(err: BaseException) -> str:
    """"limit" for running out of memory or of writable space (its disk
    budget, its file size), else "crash"."""
    import errno
    if isinstance(err, MemoryError) or (isinstance(err, OSError) and err.errno in (
            errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.ENOMEM)):
        return "limit"
    return "crash"


def describe(err: BaseException) -> str:
    """``ExcType: message (at FILE:LINE in FUNC)`` with the last frame of
    the traceback outside pyab itself: the user's code."""
    # no <frozen importlib._bootstrap>: the interpreter's own frames say nothing
    frames = [f for f in traceback.extract_tb(err.__traceback__) if not f.filename.startswith("<")]
    # pyab's files; a shipped copy (--untrusted) is alone in its folder
    here = str(Path(__file__).resolve().parent.parent if __package__ else Path(__file__).resolve())
    user = [f for f in frames if not str(Path(f.filename).resolve()).startswith(here)]  # none: a SyntaxError
    where = ""
    if user:
        f = user[-1]
        where = f" (at {Path(f.filename).name}:{f.lineno} in {f.name}"
        where += f": {_words(f.line.strip(), 80)})" if f.line else ")"
    text = str(err).splitlines()[0] if str(err) else ""
    return f"raised {type(err).__name__}{': ' + _words(text, 200) if text else ''}{where}"


def _words(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters at a space, never mid-word."""
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[:cut if cut > limit // 2 else limit] + " ..."


def load(spec: str) -> Callable:
    """``PATH.py:FUNC`` or ``module:func`` -> the function.

    :raises ValueError: for a malformed spec, a missing file or a missing
        function; exceptions raised while importing the user's code pass on.
    """
    target, sep, name = spec.rpartition(":")
    if not sep or not target or not name.isidentifier():
        raise ValueError(f"--python {spec!r}: expected PATH.py:FUNC or module:func")
    if target.endswith(".py"):
        path = Path(target)
        if not path.is_file():
            raise ValueError(f"--python {spec!r}: no file {target}")
        sys.path.insert(0, str(path.resolve().parent))  # its own imports, as when run as a script
        mod_spec = importlib.util.spec_from_file_location(f"pyab_user_{path.stem}", path)
        if mod_spec is None or mod_spec.loader is None:
            raise ValueError(f"--python {spec!r}: {target} is not a Python file")
        module = importlib.util.module_from_spec(mod_spec)
        sys.modules[mod_spec.name] = module
        mod_spec.loader.exec_module(module)
    else:
        sys.path.insert(0, ".")
        module = importlib.import_module(target)
    func = getattr(module, name, None)
    if not callable(func):
        raise ValueError(f"--python {spec!r}: {target} has no function {name}")
    return func


def _wire(x: Any) -> Any:
    # pyab.result.json_number, written again: this file runs alone in a
    # sandbox, where pyab cannot be imported
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if isinstance(x, float) and math.isnan(x):
        return "NaN"  # not JSON; the parent refuses it by name
    if x is None or isinstance(x, (str, int, float, bool)):
        return x
    try:  # a numpy number and the like
        f = float(x)
        if not isinstance(x, (list, tuple, dict)) and f == x:
            return _wire(int(f) if f.is_integer() and "int" in type(x).__name__ else f)
    except (TypeError, ValueError):
        pass
    return repr(x)  # the parent refuses it, naming it


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    while argv[:1] == ["--path"] and len(argv) > 1:  # a folder of allowed modules (--untrusted)
        sys.path.append(argv[1])
        argv = argv[2:]
    interface, course = "pyab", None
    if len(argv) == 5 and argv[3] == "--framework":  # the course's modules, a read-only copy
        course, argv = argv[4], argv[:3]
    if len(argv) == 3 and argv[1] == "--interface" and argv[2] in INTERFACES:
        interface = argv[2]
    elif len(argv) != 1:
        print("usage: python -m pyab.referee.pychild SPEC [--interface pyab|aima|cs188 "
              "[--framework DIR]]", file=sys.stderr)
        return 2
    if interface == "cs188":  # util, game, pacman: the framework's, before the user's import
        _framework().prepare(course)
    wire_in = sys.stdin
    wire_out = sys.stdout
    sys.stdout = sys.stderr  # what the user's code prints stays off the wire

    def put(obj: Any) -> None:
        wire_out.write(json.dumps(obj, allow_nan=False) + "\n")
        wire_out.flush()

    def get() -> Any:
        line = wire_in.readline()
        if not line:
            raise SystemExit(0)  # the parent closed the pipe: done
        return json.loads(line)

    try:
        func = load(argv[0])
    except ValueError as err:
        put({"error": str(err), "kind": "refused"})
        return 1
    except BaseException as err:  # the user's module failed to import
        traceback.print_exception(err, file=sys.stderr)  # the program's own stderr keeps it
        put({"error": f"importing {argv[0]} {describe(err)}", "kind": "crash"})
        return 1

    def ask(question: str, node: Any) -> Any:
        put(_question(question, node))
        return get()

    def one(job: dict, ask: Ask) -> dict:
        """One search: the message that ends it (SystemExit passes on)."""
        alpha, beta = (math.inf * (1 if b == "inf" else -1) if isinstance(b, str) else b
                       for b in (job["alpha"], job["beta"]))
        try:
            best, value = call(func, interface, ask, job["root"], alpha, beta, job)
        except SystemExit:
            raise
        except Invalid as err:
            return {"error": str(err), "kind": "invalid"}
        except BaseException as err:
            traceback.print_exception(err, file=sys.stderr)
            return {"error": describe(err), "kind": _kind(err)}
        return {"best": _wire(best), "value": _wire(value)}

    job = get()  # the first job: answered {"protocol": 2}, then sent again in protocol 2
    if interface != "cs188":  # cs188: the course's modules keep state
        worker = _green_worker() or (_Worker if _Worker.can_start() else None)
        if worker is not None:
            put({"protocol": 2})
            try:
                _serve(one, put, get, worker)
            except SystemExit as end:
                if worker is _Worker:
                    raise
                # the searches still on their stacks are dropped, not unwound: a
                # greenlet collected at exit would run the user's except clauses
                if end.code is not None and not isinstance(end.code, int):
                    print(end.code, file=sys.stderr)
                sys.stderr.flush()
                os._exit(end.code if isinstance(end.code, int) else 1)
    while True:  # protocol 1 (cs188), or no thread to spare: one search at a time
        put(one(job, ask))
        job = get()


def _question(question: str, node: Any) -> dict:
    if isinstance(node, list):  # a cs188 successor question: [state, action]
        return {question: [x if isinstance(x, str) else _wire(x) for x in node]}
    return {question: node if isinstance(node, str) else _wire(node)}


class _Worker:
    """A thread that runs the user's searches one at a time.  Only one
    worker runs at once: the searches of a line run in turn, each up to
    its next question (or its end), and each then passes control to the
    next one, the last back to the main thread (:func:`_serve`)."""

    STACK = 4 * 1024 * 1024  # bytes a thread's stack reserves: a limit on address space counts them

    def __init__(self, one: Callable[[dict, Ask], dict]):
        self.go, self._one = threading.Lock(), one
        self.go.acquire()
        self.job: dict | None = None
        self.out: Any = None
        self.answer: Any = None
        self.next: Any = None  # the lock that lets the next one run
        self.exit: BaseException | None = None  # the user's code raised SystemExit
        threading.Thread(target=self._loop, daemon=True).start()  # RuntimeError: none to spare

    @staticmethod
    def can_start() -> bool:
        try:
            threading.stack_size(_Worker.STACK)
        except (ValueError, RuntimeError):
            pass
        try:
            t = threading.Thread(target=lambda: None, daemon=True)
            t.start()
            t.join()
        except RuntimeError:
            return False
        return True

    @staticmethod
    def run_turn(turn: list, back: threading.Lock) -> None:
        """Each search of ``turn`` has its step, in order: each passes
        control to the next, the last back here."""
        for (_, w), (_, after) in zip(turn, turn[1:]):
            w.next = after.go
        turn[-1][1].next = back
        turn[0][1].go.release()
        back.acquire()

    def _loop(self) -> None:
        _HERE.worker = self
        self.go.acquire()
        while True:
            assert self.job is not None
            try:
                self.out = self._one(self.job, _ask_here)
            except SystemExit as err:
                self.exit, self.out = err, None
            self.job = None  # ended: the worker is free
            self._pass()

    def ask(self, question: str, node: Any) -> Any:
        self.out = _question(question, node)
        self._pass()
        return self.answer

    def _pass(self) -> None:
        """Let the next one run; wait for this search's next turn."""
        self.next.release()
        self.go.acquire()


_HERE = threading.local()  # the worker that runs on this thread


def _green_worker() -> Any:
    """Workers that are greenlets, where the greenlet package is there: a
    switch between searches is then a jump in user space, where a thread's
    turn costs the system a wake-up and a wait (a futex each way, about
    120 µs of system time a default random tree).  None without it."""
    try:
        from greenlet import getcurrent, greenlet
    except ImportError:
        return None

    class _GreenWorker:
        """A search's own stack, run up to its next question by the main
        loop (:func:`_serve`), which it is switched back to each time."""

        def __init__(self, one: Callable[[dict, Ask], dict]):
            self._one, self.main = one, getcurrent()
            self.job: dict | None = None
            self.out: Any = None
            self.answer: Any = None
            self.exit: BaseException | None = None
            self.g = greenlet(self._loop)

        @staticmethod
        def run_turn(turn: list, back: Any) -> None:  # noqa: ARG004 - the threads' signature
            for _, w in turn:
                w.out = w.g.switch()  # its next question, or its end; SystemExit passes on

        def _loop(self) -> None:
            _GREEN[self.g] = self
            while True:
                assert self.job is not None
                out = self._one(self.job, _ask_green)
                self.job = None  # ended: the worker is free
                self.main.switch(out)

        def ask(self, question: str, node: Any) -> Any:
            self.main.switch(_question(question, node))
            return self.answer

    def _ask_green(question: str, node: Any) -> Any:
        return _GREEN[getcurrent()].ask(question, node)

    return _GreenWorker


_GREEN: dict = {}  # greenlet -> the _GreenWorker it runs


def _ask_here(question: str, node: Any) -> Any:
    """A question of the search this thread runs, whatever game object it
    came through (a program that keeps one in a global mixes them up)."""
    return _HERE.worker.ask(question, node)


def _serve(one: Callable[[dict, Ask], dict], put: Callable[[Any], None],
           get: Callable[[], Any], worker: Any) -> None:
    """Protocol 2: the searches of every line run in turn, each up to its
    next question, and their messages go back in one line."""
    from collections import deque
    back = threading.Lock()
    back.acquire()
    idle: list[_Worker] = []
    busy: dict[int, _Worker] = {}
    waiting: deque = deque()
    room = 64  # threads it may start yet (fewer when the system refuses one)
    while True:
        line = get()
        turn = []  # (id, worker): the searches that run this line, in order
        for sid, answer in line.get("answers", ()):
            w = busy[sid]
            w.answer = answer
            turn.append((sid, w))
        waiting.extend(line.get("jobs", ()))
        while waiting:
            if not idle:
                if not room:
                    break
                try:
                    idle.append(worker(one))
                    room -= 1
                except RuntimeError:
                    room = 0
                    if busy or turn:
                        break
                    raise
            w, job = idle.pop(), waiting.popleft()
            w.job = job
            busy[job["id"]] = w
            turn.append((job["id"], w))
        if not turn:
            continue
        worker.run_turn(turn, back)
        out = []
        for sid, w in turn:
            if w.exit is not None:
                raise w.exit
            out.append([sid, w.out])
            if w.job is None:
                idle.append(busy.pop(sid))
        put(out)


if __name__ == "__main__":
    sys.exit(main())
