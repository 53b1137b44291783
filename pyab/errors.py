"""pyab's errors.  Everything pyab raises on purpose derives from :class:`Error`."""

from __future__ import annotations

__all__ = ["ArgumentError", "DSLError", "Error", "Mismatch", "NoStaticValue", "ProgramError",
           "PrologError", "SearchArgumentError", "SearchTimeout", "SetupError"]


class Error(Exception):
    """Root of pyab's errors."""


class DSLError(Error, ValueError):
    """A tree text that cannot be read.  Carries ``source``, ``line``,
    ``column`` (1-based; 0 when there is no place) and ``excerpt``: the
    offending line with a caret under the column."""

    def __init__(self, message: str, source: str, line: int, column: int, lines: list[str]):
        self.message, self.source, self.line, self.column = message, source, line, column
        self.excerpt = ""
        if 0 < line <= len(lines):
            from .text import printable
            text = lines[line - 1].expandtabs(1)
            if len(text) > 200:  # keep the caret readable on very long lines
                start = max(0, column - 100)
                text, column = text[start:start + 200], column - start
            # control characters shown as escapes; the caret moves with them
            before = printable(text[:max(column - 1, 0)])
            self.excerpt = f"  {printable(text)}\n  {' ' * len(before)}^"
        place = f"{source}:{line}:{self.column}" if line else source
        super().__init__(f"{place}: {message}")

    def __str__(self) -> str:
        head = super().__str__()
        return f"{head}\n{self.excerpt}" if self.excerpt else head


class ArgumentError(Error, TypeError):
    """A public function was called with the wrong kind of argument; the
    message names what was expected and how to get it."""


class SearchArgumentError(Error, ValueError):
    """A search asked for with arguments it cannot honour (exit code 2)."""


class NoStaticValue(SearchArgumentError):
    """A depth-limited search reached an inner node at its limit that has no
    static value: the same error from both engines (``node``: its name)."""

    def __init__(self, node: str):
        self.node = node
        super().__init__(f"node {node!r} is at the depth limit and has no static value: give it one "
                         "in the tree (NAME = VALUE before its children, as in b = 5 (e = 3, f = 12)), "
                         "or search deeper (a larger --depth)")


class PrologError(Error):
    """SWI-Prolog raised an error.  ``term`` is the error term as text
    (e.g. ``error(resource_error(...),_)``), ``message`` SWI's own words."""

    def __init__(self, message: str, term: str = ""):
        super().__init__(message)
        self.message, self.term = message, term


class SearchTimeout(PrologError):
    """A search ran past its time limit and was stopped."""


class Mismatch(Error):
    """The two engines disagree.  ``diff`` says where."""

    def __init__(self, message: str, diff: str = ""):
        super().__init__(message)
        self.diff = diff


class SetupError(Error, ValueError):
    """The grader's own set-up cannot do what a test asks (a suite's
    ``framework`` that cannot play the course's game): neither the
    submission's fault nor pyab's; the test's kind is ``setup``."""


class ProgramError(Error):
    """The program under test failed: it crashed, timed out, broke a limit,
    was refused, broke the protocol or gave an invalid answer (exit code 3).

    ``kind`` is one of ``KINDS``; ``reason`` one line saying what happened;
    ``stdout`` / ``stderr`` what the program printed (captured, capped; the
    stdout text is what it wrote on the protocol channel that was not
    protocol)."""

    KINDS = ("crash", "timeout", "limit", "refused", "protocol", "invalid")

    def __init__(self, reason: str, kind: str = "crash", *, stdout: str = "", stderr: str = ""):
        if kind not in self.KINDS:
            raise ValueError(f"unknown ProgramError kind {kind!r}")
        reason = " ".join(reason.split()) or kind
        super().__init__(f"program under test: {reason}")
        self.reason, self.kind, self.stdout, self.stderr = reason, kind, stdout, stderr

    def __reduce__(self):  # keep kind and output across processes (--jobs)
        return (type(self), (self.reason, self.kind), {"stdout": self.stdout, "stderr": self.stderr})

    def to_json(self) -> dict:
        return {"error": self.reason, "kind": self.kind,
                "program_stdout": self.stdout, "program_stderr": self.stderr}
