"""The referee for anyone's alpha-beta: a program under test, run in a child
process, searches pyab's trees by asking the parent about nodes; the parent
answers from the tree and records the questions (``protocol``), and the
verdict compares that observation with pyab's reference (``verdict``).

Three routes to a program, one protocol:

* ``--exec "CMD"``: any program speaking JSON lines (:class:`ExecRoute`);
* ``--python PATH.py:FUNC`` or ``module:func``: a Python function, run in
  ``python -m pyab.referee.pychild`` (:class:`PythonRoute`);
* ``--program FILE.pl [--untrusted]``: a Prolog program, run by its own
  SWI-Prolog (:class:`PrologRoute`, through ``prolog/referee/child.pl``);

``untrusted`` confines a child of any of the three in an operating-system
sandbox (``sandbox``); and one route in-process, for ``pyab.testing``: a
Python function called with the
observer's game object (:class:`FunctionRoute`).  :func:`open_route` makes
the route the options name; ``verdict.judge`` judges one tree on any route
and ``checking.run`` loops over trees.
"""

from __future__ import annotations

import math
import shlex
import sys
import weakref
from collections import deque
from pathlib import Path
from typing import Any, Callable

from ..errors import ProgramError
from ..result import Result
from ..search.common import record_ids
from ..tree import Number, Tree
from .protocol import Observer, SearchBug, converse, job

__all__ = ["ExecRoute", "FunctionRoute", "PrologRoute", "PythonRoute", "Route", "exec_folder",
           "open_route"]

Flags = list[tuple[str, Any]]  # (option, value; True for a switch, None: left out), in order


class Route:
    """A program under test.  ``label`` names it ("yours (my_ab.py)"),
    ``flags`` are the command-line options that select it again (for the
    replay command), ``interface`` the Python interface ("aima" answers no
    value and takes no window)."""

    label: str
    flags: Flags
    interface: str = "pyab"
    lookahead: int = 1  # how many searches the loop announces (ahead) before it asks for one
    crowded = False  # the last search ran beside others (a failure is then judged again alone)
    serial = ""      # why the route went back to one search at a time ("": it did not)

    def search(self, tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf, *,
               depth: int | None = None, log: list | None = None,
               agents: int | None = None) -> Result:
        """The observed search of ``tree``; ``depth`` (plies) and ``agents``
        (how many move in turn) are sent with the job, so the program is
        told what the reference is told.  :raises ProgramError: the
        program failed (exit 3); :class:`~pyab.referee.protocol.SearchBug`:
        its search went wrong (a disagreement)."""
        raise NotImplementedError

    def ahead(self, tree: Tree, alpha: Number = -math.inf, beta: Number = math.inf, *,
              depth: int | None = None, agents: int | None = None) -> None:
        """The search the next :meth:`search` will most likely ask for: a
        route may start on it early (the Prolog child does); any other
        search is still answered right."""

    def alone(self, again: Callable[[], Any]) -> Any:
        """The verdict ``again()`` of the last search judged again with
        nothing else in flight (after a failure while :attr:`crowded`); a
        route that then agrees goes on one search at a time."""
        return again()

    def close(self) -> None:
        pass

    def __enter__(self) -> "Route":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _ChildRoute(Route):
    """A program in a child process, started once and reused for every
    search; replaced after it failed (a failed child's state is unknown).
    A child that speaks protocol 2 gets up to :attr:`width` searches in
    flight (:mod:`~pyab.referee.flight`), taken from the :attr:`lookahead`
    announced: more than it runs at once, so a slow search never leaves
    the others without work."""

    lookahead = 256
    width = 32

    def __init__(self, argv: list[str], label: str, flags: Flags, *,
                 timeout: float | None = None, memory_mb: int | None = None,
                 untrusted: bool = False, startup: float = 0.0):
        self.argv, self.label, self.startup = argv, label, startup
        self.flags = flags + ([("--untrusted", True)] if untrusted else [])
        self.timeout, self.memory_mb, self.untrusted = timeout, memory_mb, untrusted
        self._child: Any = None
        self._flight: Any = None  # the child speaks protocol 2 (referee.flight)
        self._v1 = False          # the child answered its first job in protocol 1
        self._order: deque = deque()  # the searches announced, not yet asked for
        self._queue: deque = deque()  # those of them not sent

    folder: str | None = None  # where the child runs (the exec route: the submission's folder)

    def _confine(self) -> tuple[list[str], Any]:
        """The confined argv and its sandbox (``--untrusted``)."""
        raise NotImplementedError

    def _start(self) -> Any:
        from .child import Child
        from .supervise import critical
        if self._child is None:
            with critical():  # SIGTERM waits until the child (and its sandbox) is registered
                self._child = self._new_child(Child)
        return self._child

    def _new_child(self, Child: Any) -> Any:
        if not self.untrusted:
            return Child(self.argv, timeout=self.timeout, memory_mb=self.memory_mb, cwd=self.folder,
                         startup=self.startup)
        from .sandbox import limits
        argv, box = self._confine()
        try:
            return Child(argv, sandbox=box, startup=self.startup,
                         **limits(self.timeout, self.memory_mb))
        except BaseException:
            box.cleanup()  # Child removes it only once it owns it
            raise

    def _observer(self, tree: Tree, depth: int | None, agents: int | None) -> Observer:
        if self.interface == "cs188":
            from .cs188 import observer_for
            return observer_for(tree, self.label, depth, agents)
        return Observer(tree, self.label)

    def _search_of(self, tree: Tree, alpha: Number, beta: Number, depth: int | None,
                   agents: int | None) -> Any:
        from .flight import Search
        extra = {"agents": agents} if agents is not None else {}
        return Search(tree, (alpha, beta, depth, agents), job(tree, alpha, beta, depth, **extra),
                      lambda: self._observer(tree, depth, agents))

    def ahead(self, tree, alpha=-math.inf, beta=math.inf, *, depth=None, agents=None):
        if agents is None and self.interface != "cs188" and not self.serial and not self._v1:
            s = self._search_of(tree, alpha, beta, depth, agents)
            self._order.append(s)
            self._queue.append(s)

    def _take(self, tree: Tree, key: tuple) -> Any:
        """The search of ``tree`` announced (and those announced before it,
        never asked for, dropped), or None."""
        for n, s in enumerate(self._order):
            if s.tree is tree and s.key == key:
                for _ in range(n + 1):
                    dropped = self._order.popleft()
                    if dropped is not s and dropped.id is None and not dropped.ended:
                        self._queue.remove(dropped)  # never sent; one sent ends unheard
                return s
        return None

    def search(self, tree, alpha=-math.inf, beta=math.inf, *, depth=None, log=None, agents=None):
        s = self._take(tree, (alpha, beta, depth, agents))
        lone = s is None or bool(self.serial)  # not announced: nothing else in flight with it
        if s is None:
            s = self._search_of(tree, alpha, beta, depth, agents)
        try:
            return self._run(s, lone)
        except (ProgramError, SearchBug):
            if self._flight is None:
                self._close_child()  # mid-search: the next tree gets a fresh child
            raise
        except BaseException:
            self.close()
            raise
        finally:
            self.crowded = s.crowded
            if log is not None:
                log.extend(s.observer.log)

    def _run(self, s: Any, lone: bool) -> Result:
        """``s``'s result: on a child speaking protocol 2, with up to
        :attr:`width` in flight (``lone``: none); on one that
        speaks protocol 1, alone, as every search then is."""
        value_required = self.interface not in ("aima", "cs188")
        while not s.ended:
            flight = self._flight
            if flight is not None and flight.child is not None:
                if lone:
                    flight.wait(None, self._queue, 0)  # the others end first
                if s.id is None and s not in self._queue:
                    self._queue.appendleft(s)
                if flight.child is not None and not s.ended:
                    flight.wait(s, self._queue, 1 if lone else self.width)
                if flight.child is None:
                    self._child = self._flight = None  # a failure ended it
                continue
            if s.id is not None or s in self._queue:  # sent to a child that is gone: again
                if s in self._queue:
                    self._queue.remove(s)
                s.requeue()
            child = self._start()
            if self._v1:
                return converse(child, s.observer, s.job, value_required=value_required)._replace(
                    window=s.key[:2])
            result = converse(child, s.observer, s.job, value_required=value_required,
                              upgrade=lambda: self._upgraded(child, s, value_required))
            if result is not None:  # it answered in protocol 1: so it will
                self._v1 = True
                self._order.clear()
                self._queue.clear()
                return result._replace(window=s.key[:2])
        if s.error is not None:
            raise s.error
        return s.result

    def _upgraded(self, child: Any, s: Any, value_required: bool) -> None:
        """The child answered its first job with ``{"protocol": 2}``."""
        from .flight import Flight
        self._flight = Flight(child, self.label, value_required)
        s.requeue()  # sent again, in protocol 2, with the ones announced after it

    def alone(self, again: Callable[[], Any]) -> Any:
        verdict = again()  # not announced: searched with nothing else in flight
        if verdict.status == "agree" and not self.serial:
            self.serial = ("searched one at a time after tree(s) that failed beside others "
                           "agreed when searched alone")
        return verdict

    def _close_child(self) -> None:
        if self._child is not None:
            self._child.close()
        self._child = self._flight = None
        self._v1 = False

    def close(self) -> None:
        self._close_child()
        self._order.clear()
        self._queue.clear()


class ExecRoute(_ChildRoute):
    """``folder`` is the submission's folder: where the command runs, and
    with ``untrusted`` all it sees (:func:`exec_folder` when not given;
    the words naming its files are then made absolute, as the sandbox
    shows the folder where it is)."""

    def __init__(self, command: str, folder: str | None = None, **kw: Any):
        try:
            argv = shlex.split(command)
        except ValueError as err:
            raise ValueError(f"--exec {command!r}: {err}") from None
        if not argv:
            raise ValueError("--exec needs a command")
        super().__init__(argv, f"yours ({command})", [("--exec", command)], **kw)
        self.folder = folder
        if self.untrusted and folder is None:
            self._box_folder = exec_folder(argv)
            self.argv = [str(Path(w).resolve()) if i == 0 and "/" in w or i and Path(w).is_file()
                         else w for i, w in enumerate(argv)]
        else:
            self._box_folder = folder or ""

    def _confine(self) -> tuple[list[str], Any]:
        from .sandbox import exec_child
        return exec_child(self.argv, self._box_folder)


_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt")


def exec_folder(argv: list[str]) -> str:
    """The folder an ``--exec`` command sees (and runs in): its first
    word's when that is a path outside the system's folders
    (``./my_ab``), else that of the first later word naming an existing
    file (``python3 my_ab.py``).  :raises ValueError: when neither names
    one: the current folder is never shown (say --submission DIR)."""
    first = argv[0]
    if "/" in first:
        real = str(Path(first).resolve())
        if not any(real == s or real.startswith(s + "/") for s in _SYSTEM):
            return str(Path(first).parent.resolve())
    for word in argv[1:]:
        if Path(word).is_file():
            return str(Path(word).parent.resolve())
    raise ValueError(f"--exec {shlex.join(argv)!r}: no word of the command names a program file, "
                     "so pyab does not know the submission's folder: give --submission DIR")


def _python_spec(spec: str) -> None:
    target, sep, name = spec.rpartition(":")
    if not sep or not target or not name.isidentifier():
        raise ValueError(f"--python {spec!r}: expected PATH.py:FUNC or module:func")
    if target.endswith(".py") and not Path(target).is_file():
        raise ValueError(f"--python {spec!r}: no file {target}")


def _interface(interface: str) -> None:
    from .pychild import INTERFACES
    if interface not in INTERFACES:
        raise ValueError(f"unknown interface {interface!r} (known: {', '.join(INTERFACES)})")


class PythonRoute(_ChildRoute):
    def __init__(self, spec: str, interface: str = "pyab", framework: str | None = None, **kw: Any):
        _interface(interface)
        _python_spec(spec)
        flags: Flags = [("--python", spec)] + ([("--interface", interface)] if interface != "pyab" else [])
        argv = [sys.executable, "-m", "pyab.referee.pychild", spec, "--interface", interface]
        self.framework = None
        if framework is not None:  # the course's own modules (cs188), a read-only copy
            from .cs188 import framework_copy, remove_copy
            self.framework = framework_copy(framework)
            weakref.finalize(self, remove_copy, self.framework)
            argv += ["--framework", str(self.framework)]
            flags.append(("--cs188-framework", framework))
        super().__init__(argv, f"yours ({spec})", flags, **kw)
        self.interface, self.spec = interface, spec

    def _confine(self) -> tuple[list[str], Any]:
        from .sandbox import python_child
        return python_child(self.spec, self.interface, self.framework)


class FunctionRoute(Route):
    """A Python function searched in-process (``pyab.testing``): the same
    game objects and observer as ``--python``, without the child."""

    def __init__(self, func: Callable, interface: str = "pyab", label: str | None = None):
        _interface(interface)
        self.func, self.interface = func, interface
        self.label = label or f"yours ({getattr(func, '__qualname__', func)!s})"
        self.flags = []  # nothing on the command line selects it

    def search(self, tree, alpha=-math.inf, beta=math.inf, *, depth=None, log=None, agents=None):
        from .protocol import SearchBug
        from .pychild import Invalid, call, describe
        observer = Observer(tree, self.label)
        try:
            best, value = call(self.func, self.interface, observer.ask, tree.root, alpha, beta)
        except (ProgramError, SearchBug):
            raise
        except Invalid as err:
            raise observer.fail(str(err)) from None
        except Exception as err:
            if observer.bug is not None:  # it stopped the search: the bug, not a crash
                raise observer.bug from None
            raise observer.fail(describe(err), "crash") from err
        finally:
            if log is not None:
                log.extend(observer.log)
        from ..result import json_number  # an infinity as on the wire: a bound, not an overflow
        return observer.result(best, json_number(value), value_required=self.interface != "aima")._replace(
            window=(alpha, beta))


class PrologRoute(Route):
    """A Prolog program in a child SWI-Prolog (:class:`~pyab.referee.program.
    PrologProgram`): consulted there, or with ``untrusted`` read clause by
    clause and vetted with library(sandbox); never loaded into pyab.  A
    program that defines the tree's own predicates is refused by the child,
    which reads clauses as SWI-Prolog does (naming the file and line).  The
    loop announces a batch of searches ahead (``lookahead``): the child gets
    them in one write."""

    def __init__(self, path: str, algorithm: str, timeout: float | None = None, *,
                 untrusted: bool = False, memory_mb: int | None = None):
        from .program import BATCH, PrologProgram, observed
        self._observed = observed  # agrees(), once a tree
        self.path, self.algorithm = path, algorithm
        self.label = f"yours ({path})"
        self.flags = [("--program", path)] + ([("--untrusted", True)] if untrusted else [])
        self._program = PrologProgram(path, untrusted=untrusted, timeout=timeout,
                                      memory_mb=memory_mb)
        self.lookahead = BATCH

    def search(self, tree, alpha=-math.inf, beta=math.inf, *, depth=None, log=None, agents=None):
        observer = Observer(tree, self.label)
        try:
            r = self._program.solve(tree, self.algorithm, alpha, beta, depth=depth,
                                    observer=observer)
        finally:
            if log is not None:
                log.extend(observer.log)
        return r._replace(engine="SWI-Prolog", algorithm=self.label)

    def agrees(self, tree: Tree, alpha: Number, beta: Number, depth: int | None,
               checks: tuple, ref: Result) -> Result | None:
        """The program's result on ``tree`` when it plainly agrees with
        ``ref`` on ``checks`` (each ``(field, "exact")`` of best, value,
        leaves and visited), read from the child's record without a Python
        call a question; else None, and the answer is kept for
        :meth:`search`, which replays it and says what differs.
        :raises ProgramError: the program failed on it."""
        fields = _FIELDS.get(checks)
        if fields is None:
            fields = _FIELDS[checks] = (frozenset(f for f, _ in checks) if all(
                how == "exact" and f in ("best", "value", "leaves", "visited") for f, how in checks)
                else frozenset())
        if not fields:
            return None
        program, observed = self._program, self._observed
        search = program.search_of(tree, self.algorithm, alpha, beta, depth)
        msg = program.answer(search)
        seen = observed(tree, msg)
        best, value = msg.get("best"), msg.get("value")  # type: Any, Any
        if seen is not None and (best is None or best.__class__ is str):
            if value == "inf" or value == "-inf":
                value = math.inf if value == "inf" else -math.inf
            elif (value.bit_length() > 1023 if value.__class__ is int
                  else value.__class__ is not float or not math.isfinite(value)):
                seen = None  # not a number a double holds: the replay says so
        if seen is not None:
            names = tree.names
            ids = record_ids(ref)  # the mirror's ids: equal ids are equal names, none made
            if ids is None:  # a reference named already (a class's, shared): by name
                same_leaves = "leaves" not in fields or tuple(map(names.__getitem__, seen[1])) == ref.leaves
                same_visited = "visited" not in fields or tuple(map(names.__getitem__, seen[0])) == ref.visited
            else:
                same_leaves = "leaves" not in fields or seen[1] == ids[1]
                same_visited = "visited" not in fields or seen[0] == ids[0]
            if (("best" not in fields or best == ref.best)
                    and ("value" not in fields or _same_value(value, ref.value))
                    and same_leaves and same_visited
                    and (best is None or tree.index.get(best, -1) in tree.kids[0])):
                return Result.deferred(best, value, "SWI-Prolog", self.label,
                                       {"pruned": lambda: ref.pruned,
                                        "leaves": lambda: tuple(map(names.__getitem__, seen[1])),
                                        "visited": lambda: tuple(map(names.__getitem__, seen[0]))},
                                       extra={"program": program.path}, window=(alpha, beta))
        program.keep(search, msg)
        return None

    def ahead(self, tree, alpha=-math.inf, beta=math.inf, *, depth=None, agents=None):
        if agents is None:  # with agents, each search gets a tree of its own
            self._program.ahead(tree, self.algorithm, alpha, beta, depth=depth)

    def close(self) -> None:
        self._program.close()


_FIELDS: dict[tuple, frozenset] = {}  # PrologRoute.agrees: the fields a verdict's checks compare


def _same_value(a: Number, b: Number) -> bool:
    """The verdict's test (the same text), without making the text of two
    equal ints."""
    if a.__class__ is int and b.__class__ is int:
        return a == b
    from ..result import bound_text
    return bound_text(a) == bound_text(b)


def open_route(*, program: str | None = None, python: str | None = None,
               exec: str | None = None, interface: str = "pyab", untrusted: bool = False,
               timeout: float | None = None, memory_mb: int | None = None,
               algorithm: str = "bratko", submission: str | None = None,
               framework: str | None = None) -> Route | None:
    """The route that ``program`` / ``python`` / ``exec`` (at most one)
    name, or None when none is given; ``submission`` the folder the exec
    route sees.  :raises ValueError: on bad usage."""
    chosen = [o for o, v in (("--python", python), ("--exec", exec), ("--program", program)) if v]
    if len(chosen) > 1:
        raise ValueError("give one of --python, --exec, --program")
    interface = interface or "pyab"
    if interface != "pyab" and not python:
        raise ValueError("--interface applies to --python (an --exec program speaks the JSON protocol)")
    if framework is not None and interface != "cs188":
        raise ValueError("--cs188-framework is for --interface cs188")
    route: Route | None = None
    if python:
        route = PythonRoute(python, interface, framework, timeout=timeout, memory_mb=memory_mb,
                            untrusted=untrusted)
    elif exec:
        if submission is not None and not Path(submission).is_dir():
            raise ValueError(f"--submission {submission}: no such folder")
        route = ExecRoute(exec, submission, timeout=timeout, memory_mb=memory_mb,
                          untrusted=untrusted)
    elif program:
        route = PrologRoute(program, algorithm, timeout, untrusted=untrusted, memory_mb=memory_mb)
    if route is not None:
        route.flags += [(f, v) for f, v in (("--timeout", timeout), ("--memory", memory_mb))
                        if v is not None]
    return route
