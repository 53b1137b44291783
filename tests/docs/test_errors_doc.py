"""Every row of docs/errors.md is run: the example must fail with the exit
code (or exception class) and the message the table gives.

Examples are command lines (``pyab ...``, run in-process through
``pyab.cli.main``) or Python expressions (the "Python only" table).
``[[TEXT]]`` becomes a file holding TEXT, where ``\\n`` is a line break and
``«X*N»`` is X written N times (``\\xHH`` inside it is a raw byte);
``[[DEEP]]`` / ``DEEP`` is a chain of 100,000 nodes.
"""

from __future__ import annotations

import itertools
import re
import shlex
from pathlib import Path

import pytest

import pyab
from pyab import cli
from pyab.prolog import bridge as prolog
from pyab.tree import build

DOC = Path(__file__).resolve().parents[2] / "docs" / "errors.md"


def rows() -> list[tuple[str, str, str, str, str]]:
    """(section, message, example, exit, what to do) for every table row."""
    out, section = [], ""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        elif line.startswith("| `"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            assert len(cells) == 4, line
            message, example, code, todo = cells
            out.append((section, message.strip("`"), example.strip("`"), code, todo))
    return out


ROWS = rows()


def _ids():
    return [f"{i:02d}-{re.sub(r'[^a-z0-9]+', '-', r[1].lower())[:40]}" for i, r in enumerate(ROWS)]


def test_the_table_is_complete():
    assert len(ROWS) >= 40
    assert all(r[4] and not r[4].startswith("TODO") for r in ROWS), "every row says what to do"
    assert len({r[1] for r in ROWS}) == len(ROWS), "messages are unique"


def file_bytes(text: str) -> bytes:
    out = b""
    for part in re.split(r"(«.*?»)", text):
        if part.startswith("«"):
            body, n = part[1:-1].rsplit("*", 1)
            unit = bytes([int(body[2:], 16)]) if re.fullmatch(r"\\x[0-9a-f]{2}", body) else body.encode()
            out += unit * int(n)
        else:
            out += part.replace("\\n", "\n").encode("utf-8")
    return out


@pytest.fixture(scope="module")
def deep() -> pyab.Tree:
    n = 100_000
    return build([(f"n{i}", (0, 0), [(f"n{i + 1}", (0, 0))]) for i in range(n)], [(f"n{n}", 7, (0, 0))])


@pytest.mark.parametrize("row", ROWS, ids=_ids())
def test_row(row, tmp_path, monkeypatch, capsys, deep):
    section, message, example, code, todo = row
    monkeypatch.chdir(tmp_path)
    if example.startswith("pyab "):
        counter = itertools.count(1)

        def as_file(m: re.Match) -> str:  # [[TEXT]].pl: a facts file
            path = tmp_path / f"f{next(counter)}{m.group(2) or '.tree'}"
            if m.group(1) == "DEEP":
                path.write_text(pyab.dump(deep, "flat"))
            else:
                path.write_bytes(file_bytes(m.group(1)))
            return str(path)

        argv = shlex.split(re.sub(r"\[\[(.*?)\]\](\.pl)?(?!\])", as_file, example))[1:]
        try:
            status = cli.main(argv)
        except SystemExit as stop:  # argparse reports usage errors this way
            status = stop.code
        captured = capsys.readouterr()
        err = captured.err
        assert str(status) == code, err
        assert "Traceback" not in err + captured.out
        if code == "1":  # a failed check reports on standard output
            assert message in captured.out + err, captured.out
        else:
            assert message in err, err
            assert err.startswith("error: ") or "error: " in err  # argparse: usage, then error
    else:
        names = {"pyab": pyab, "prolog": prolog, "build": build, "DEEP": deep, "Path": Path}
        with pytest.raises(Exception) as info:
            eval(example, names)
        assert type(info.value).__name__ == code or code in [c.__name__ for c in type(info.value).__mro__]
        assert isinstance(info.value, pyab.Error) or isinstance(info.value, ValueError)
        assert message in str(info.value)
