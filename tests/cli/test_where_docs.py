"""pyab where and pyab docs name what is installed, and no --help text
points at a checkout's path (prolog/..., docs/...) that a pip user lacks;
test_package.py runs them from a wheel far from the checkout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import ROOT, pyab_cli
from pyab.cli import COMMANDS


def test_where_names_folders_that_exist():
    out = pyab_cli("where", "--json")
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)
    assert (Path(found["prolog"]) / "alphabeta.pl").is_file()
    assert (Path(found["examples"]) / "slides.tree").is_file()
    assert (Path(found["docs"]) / "prolog.md").is_file()
    for key in ("alphabeta", "tree_dsl", "tests"):
        assert Path(found[key]).is_file(), key
    one = pyab_cli("where", "--prolog")
    assert one.returncode == 0 and one.stdout.strip() == found["prolog"]
    text = pyab_cli("where")
    assert found["prolog"] in text.stdout and found["docs"] in text.stdout


def test_docs_lists_and_prints():
    listing = pyab_cli("docs")
    assert listing.returncode == 0
    names = {line.split()[0] for line in listing.stdout.splitlines()[1:-1]}
    assert {p.stem for p in (ROOT / "docs").glob("*.md")} == names
    page = pyab_cli("docs", "prolog")
    assert page.returncode == 0
    assert page.stdout == (ROOT / "docs" / "prolog.md").read_text(encoding="utf-8")
    assert pyab_cli("docs", "prolog.md").stdout == page.stdout


def test_an_unknown_document_is_exit_2_with_the_list():
    out = pyab_cli("docs", "nosuch")
    assert out.returncode == 2
    assert out.stderr.startswith("error: no document 'nosuch'") and "prolog" in out.stderr
    as_json = pyab_cli("docs", "nosuch", "--json")
    obj = json.loads(as_json.stdout)
    assert as_json.returncode == obj["exit"] == 2 and "nosuch" in obj["error"]["message"]


@pytest.mark.parametrize("command", COMMANDS)
def test_no_help_text_names_a_checkout_path(command):
    out = pyab_cli(command, "--help")
    assert out.returncode == 0
    for path in ("prolog/", "docs/"):
        assert path not in out.stdout, f"pyab {command} --help names {path}"
