"""Hostile "student programs": each tries one attack on the grader.

``ATTACKS`` maps a name to (program text, extra ``pyab check`` options,
what a contained run ends with: exit code and a word of the reason).  In
the text ``@MARK@`` stands for a file the attack tries to create (the test
checks it never appears) and ``@REF@`` for the reference program's path.
Used by tests/referee/test_untrusted.py and benchmarks/attacks.py (the before/after
table of docs/grading.md).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "prolog" / "alphabeta.pl"
HONEST = REFERENCE.read_text(encoding="utf-8")

# alphabeta/5 renamed, so an attack can wrap the honest search.
HONEST_AB = HONEST.replace("alphabeta(", "honest_ab(")


def honest_with(extra: str, first_line: str = "true") -> str:
    """The slides' program as ``honest_ab/5`` plus an ``alphabeta/5`` that
    runs ``first_line`` and then the honest search; ``extra`` clauses after."""
    return (HONEST_AB + f"\nalphabeta(P, A, B, G, V) :-\n    {first_line},\n"
            "    honest_ab(P, A, B, G, V).\n" + extra)


ATTACKS: dict[str, tuple[str, list[str], tuple[int, str]]] = {
    # run a shell command when the program is loaded
    "shell at load": (
        ":- shell('touch @MARK@').\n" + HONEST, ["--untrusted"], (3, "refused")),
    # run a shell command inside alphabeta/5
    "shell in alphabeta/5": (
        honest_with("", "shell('touch @MARK@')"), ["--untrusted"], (3, "refused")),
    "process_create in alphabeta/5": (
        ":- use_module(library(process)).\n"
        + honest_with("", "process_create(path(touch), ['@MARK@'], [])"),
        ["--untrusted"], (3, "refused")),
    # leave a background process that writes a file after pyab has finished
    "background process (plain run)": (
        honest_with("", "(shell('(sleep 1; touch @MARK@) &') -> true ; true)"), [], (0, "")),
    "background process, setsid (plain run)": (
        honest_with("", "(shell('setsid sh -c \"sleep 1; touch @MARK@\" &') -> true ; true)"),
        [], (0, "")),
    # end the child with exit code 0
    "halt": (
        honest_with("", "halt"), [], (3, "ended the child")),
    "halt at load": (
        ":- halt.\n" + HONEST, [], (3, "ended the child")),
    "halt (untrusted)": (
        honest_with("", "halt"), ["--untrusted"], (3, "refused")),
    # forge an answer: a best move with NULs and control characters
    "forged best with NULs": (
        "alphabeta(_, _, _, B, 3) :- atom_codes(B, [0'b, 0, 0'1, 0, 0'3, 0, 1, 27]).\n", [],
        (3, "not a child of the root")),
    "forged value": (
        "alphabeta(_, _, _, b, nan) :- true.\n", [], (3, "not a finite number")),
    # reuse the reference program
    "include the reference": (
        ":- include('@REF@').\n", ["--untrusted"], (3, "refused")),
    "consult the reference at run time": (
        honest_with("", "consult('@REF@')"), ["--untrusted"], (3, "refused")),
    # wrap pyab's bridge (so later programs agree)
    "wrap the bridge": (
        ":- use_module(library(prolog_wrap)).\n"
        ":- wrap_predicate(pyab_bridge:solve(_,_,_,_,_,_,_,_,_), pyab, W, (W, true)).\n" + HONEST,
        ["--untrusted"], (3, "refused")),
    "wrap the bridge (plain run)": (
        ":- catch(wrap_predicate(pyab_bridge:solve(_,_,_,_,_,_,_,_,_), pyab, W, (W, true)),"
        " _, true).\n" + HONEST, [], (0, "")),
    # change the engine's limits for everyone after
    "raise stack_limit": (
        ":- set_prolog_flag(stack_limit, 100 000 000 000).\n" + HONEST, ["--untrusted"],
        (3, "refused")),
    "raise stack_limit in alphabeta/5": (
        honest_with("", "set_prolog_flag(stack_limit, 100 000 000 000)"), ["--untrusted"],
        (3, "refused")),
    # exhaust memory with an assert loop
    "assert loop": (
        honest_with(":- dynamic junk/1.\n"
                    "grow(N) :- length(L, 1000000), assertz(junk(L)), N1 is N + 1, grow(N1).\n",
                    "grow(0)"),
        ["--untrusted", "--memory", "200", "--timeout", "30"], (3, "limit")),
    "assert loop (plain run)": (
        honest_with(":- dynamic junk/1.\n"
                    "grow(N) :- length(L, 1000000), assertz(junk(L)), N1 is N + 1, grow(N1).\n",
                    "grow(0)"),
        ["--memory", "200", "--timeout", "30"], (3, "limit")),
    # print into --json
    "print into --json": (
        honest_with("", "format('{\"agree\": true}~n'), format(user_output, 'junk~n', [])"),
        ["--json"], (0, "")),
    "write on the protocol channel": (
        honest_with("", "open('/dev/stdout', write, S), format(S, 'junk~n', []), close(S)"),
        ["--json"], (3, "protocol channel")),
    # push terminal escape sequences to the operator's screen
    "terminal escapes": (
        honest_with("", "format(user_error, '\\e[2J\\e]0;pwned\\a\\e[31mRED~n', []), "
                        "throw(oops)"),
        [], (3, "raised an error")),
    # never answer
    "infinite loop": (
        honest_with("loop :- loop.\n", "loop"), ["--timeout", "1"], (3, "timeout")),
    # define the referee's own predicates
    "own moves/2": (
        HONEST + "moves(_, []).\n", ["--untrusted"], (3, "moves/2")),
    "own moves/2 (plain run)": (
        HONEST + "moves(_, []).\n", [], (3, "moves/2")),
}


def program_text(name: str, mark: Path) -> str:
    text, _, _ = ATTACKS[name]
    return text.replace("@MARK@", str(mark)).replace("@REF@", str(REFERENCE))
