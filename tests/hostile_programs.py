"""Hostile "student programs": each tries one attack on the grader.

``ATTACKS`` maps a name to (program text, extra ``pyab check`` options,
what a contained run ends with: exit code and a word of the reason).  In
the text ``@MARK@`` stands for a file the attack tries to create (the test
checks it never appears) and ``@REF@`` for the reference program's path.
Used by tests/referee/test_untrusted.py and benchmarks/attacks.py (the before/after
table of docs/sandbox.md).
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
    # a message that formats with ~@ runs its argument (SWI-Prolog 9's
    # library(sandbox) holds print_message/2 and message_to_string/2 safe)
    "~@ through print_message/2": (
        honest_with("", "print_message(error, format(\"~@\", [shell('touch @MARK@')]))"),
        ["--untrusted"], (3, "No permission to print message")),
    "~@ through message_to_string/2": (
        honest_with("", "message_to_string(format(\"~@\", [shell('touch @MARK@')]), _)"),
        ["--untrusted"], (3, "No permission to print message")),
    "~@ through '$messages':print_message/2": (
        honest_with("", "'$messages':print_message(error, format(\"~@\", [shell('touch @MARK@')]))"),
        ["--untrusted"], (3, "No permission to print message")),
    "include a file outside the program's folder": (
        ":- include('/etc/passwd').\n" + HONEST, ["--untrusted"], (3, "refused")),
    # define the referee's own predicates
    "own moves/2": (
        HONEST + "moves(_, []).\n", ["--untrusted"], (3, "moves/2")),
    "own moves/2 (plain run)": (
        HONEST + "moves(_, []).\n", [], (3, "moves/2")),
}


def program_text(name: str, mark: Path) -> str:
    text, _, _ = ATTACKS[name]
    return text.replace("@MARK@", str(mark)).replace("@REF@", str(REFERENCE))


# -- probes for the --python and --exec routes ---------------------------------
#
# One file serves both routes: as ``--python student.py:alphabeta`` the
# function raises, as ``--exec "python3 student.py"`` the script answers the
# first job with {"error": ...}; either way pyab reports "PROBE <what
# happened>" (exit 3).  A probe's result starts with LEAK when the attack
# worked.  @PPID_MARK@ is a word of pyab's own command line the probe looks
# for; @TOKEN@ a word put in a left-behind process's command line; @PORT@ a
# listener on 127.0.0.1; @OTHER@ another student's folder; @SECRET@ a
# variable in pyab's environment; @PYAB@ pyab's package folder.

PROBE_FRAME = '''import json, os, signal, socket, sys, time


def probe():
@BODY@


def alphabeta(game, node, alpha, beta):  # --python
    raise RuntimeError("PROBE " + str(probe()))


if __name__ == "__main__":  # --exec
    sys.stdin.readline()
    print(json.dumps({"error": "PROBE " + str(probe())}), flush=True)
    sys.stdin.read()
'''

PROBES: dict[str, str] = {
    "read /etc/passwd": '''
    try:
        return "LEAK " + open("/etc/passwd").read()[:30]
    except OSError as e:
        return "blocked " + type(e).__name__''',
    "read and change another student's folder": '''
    out = []
    try:
        out.append("LEAK read " + open("@OTHER@/secret.txt").read())
    except OSError as e:
        out.append("read blocked " + type(e).__name__)
    try:
        open("@OTHER@/secret.txt", "w").write("changed")
        out.append("LEAK wrote")
    except OSError as e:
        out.append("write blocked " + type(e).__name__)
    try:
        seen = os.listdir("/root") + os.listdir("/home")
        out.append(("LEAK home " if seen else "home blocked: empty ") + ",".join(seen)[:60])
    except OSError as e:
        out.append("home blocked " + type(e).__name__)
    return "; ".join(out)''',
    "environment secret": '''
    v = os.environ.get("@SECRET@")
    return ("LEAK " + v) if v else "blocked: not in the environment (%d variables)" % len(os.environ)''',
    "network to 127.0.0.1": '''
    try:
        s = socket.create_connection(("127.0.0.1", @PORT@), timeout=2)
        s.sendall(b"LEAK from the program")
        s.close()
        return "LEAK connected"
    except OSError as e:
        return "blocked " + type(e).__name__''',
    "import pyab.search": '''
    try:
        import pyab.search.bratko
        return "LEAK imported " + pyab.search.bratko.__file__
    except ImportError as e:
        return "blocked " + type(e).__name__''',
    "change pyab's own files": '''
    path = "@PYAB@/search/bratko.py"
    try:
        open(path, "a").close()  # opened for writing, nothing written
        return "LEAK writable " + path
    except OSError as e:
        return "blocked " + type(e).__name__''',
    "read pyab's command line": '''
    try:
        text = open("/proc/%d/cmdline" % os.getppid(), "rb").read().replace(b"\\0", b" ").decode()
    except OSError as e:
        return "blocked " + type(e).__name__
    return ("LEAK " + text[:120]) if "@PPID_MARK@" in text else "blocked: the parent is " + text[:40]''',
    "fork bomb (64 forks)": '''
    n = 0
    for _ in range(64):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(3)
            os._exit(0)
        n += 1
    return ("LEAK " if n == 64 else "blocked ") + "forked %d of 64" % n''',
    "double fork and setsid": '''
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(6)", "@TOKEN@"])
        os._exit(0)
    os.wait()
    return "left a process behind"''',
    "forge a verdict through /proc/PPID/fd/1 and ptrace pyab": '''
    import ctypes
    ppid, out = os.getppid(), []
    for fd in (1, 2):
        try:
            with open("/proc/%d/fd/%d" % (ppid, fd), "w") as f:
                f.write('{"verdict": "agree", "agree": true, "exit": 0}\\n')
            out.append("wrote fd %d" % fd)
        except OSError as e:
            out.append("fd %d blocked %s" % (fd, type(e).__name__))
    try:
        cmd = open("/proc/%d/cmdline" % ppid, "rb").read()
    except OSError:
        cmd = b""
    if b"@PPID_MARK@" in cmd.replace(b"\\0", b" "):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.ptrace(16, ppid, 0, 0) == 0:  # PTRACE_ATTACH
            os.waitpid(ppid, 0x40000000)      # __WALL
            libc.ptrace(17, ppid, 0, 0)       # PTRACE_DETACH
            out.append("LEAK ptrace attached")
        else:
            out.append("ptrace blocked %d" % ctypes.get_errno())
    else:
        out.append("ptrace: pyab is not visible")
    return "; ".join(out)''',
    "SIGSTOP and SIGKILL to the parent": '''
    ppid = os.getppid()
    for sig in (signal.SIGSTOP, signal.SIGKILL):
        try:
            os.kill(ppid, sig)
        except OSError:
            pass
    time.sleep(4)
    return "pyab survived"''',
    "flood questions, never read": '''
    end = time.monotonic() + 8
    line = b'{"moves": "a"}\\n' * 256
    try:
        while time.monotonic() < end:
            os.write(1, line)
    except OSError as e:
        return "flood ended " + type(e).__name__
    return "flood ended by itself"''',
    "plant textwrap.py and json.py for later students": '''
    for name in ("textwrap.py", "json.py"):
        open(name, "w").write("raise SystemExit('PLANTED')\\n")
    return "planted in " + os.getcwd()''',
    "C1 and bidi characters": '''
    return "\\u009b31m \\u202e \\u2066 \\x1b[2J \\x07 end"''',
}


def probe_text(name: str, **fill: str) -> str:
    body = PROBES[name]
    for key, value in fill.items():
        body = body.replace(f"@{key}@", value)
    return PROBE_FRAME.replace("@BODY@", body.strip("\n"))
