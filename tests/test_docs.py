"""The documentation stands on its own: every relative link and anchor in
the Markdown files resolves to a file and a heading of this repository, no
tracked file points outside the repository, and the performance page stays
a page a user can read (the history lives in benchmarks/HISTORY.md)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
         ROOT / "benchmarks" / "HISTORY.md"]

# Spelt in pieces so that this file does not contain them itself.
OUTSIDE = ("../" + "shared", "/wo" + "rk/", "CONTRACT" + ".md")

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
MENTION = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md)#([\w-]+)")


def tracked() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    done = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    return [p for p in done.stdout.decode("utf-8").split("\0") if p]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text lower-cased, punctuation
    dropped (letters, digits, `_`, `-` and spaces kept), spaces as `-`."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)   # a link: its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "")
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def prose(text: str) -> str:
    """The text outside fenced code blocks and inline code spans."""
    out, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if not fenced:
            out.append(re.sub(r"(`+).*?\1", "", line))
    return "\n".join(out)


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for heading in _headings(page):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def _headings(page: Path) -> list[str]:
    heads, fenced = [], False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and (m := re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)):
            heads.append(m.group(1))
    return heads


def broken(page: Path, target: str) -> str | None:
    """Why a link from page to target does not resolve, or None."""
    if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):    # http:, https:, mailto:
        return None
    path, _, anchor = target.partition("#")
    dest = (page.parent / path).resolve() if path else page
    try:
        dest.relative_to(ROOT)
    except ValueError:
        return "points outside the repository"
    if not dest.exists():
        return "no such file"
    if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
        return f"no heading #{anchor} in {dest.relative_to(ROOT)}"
    return None


def test_the_slug_is_githubs():
    assert slug("Cold start") == "cold-start"
    assert slug("`--json`: one shape for every command") == "--json-one-shape-for-every-command"
    assert slug("Observation, fourth round: the recorder's `names` mode in C (issue 17)") == \
        "observation-fourth-round-the-recorders-names-mode-in-c-issue-17"
    assert slug("Text to Tree: every shape, beside the C floor") == \
        "text-to-tree-every-shape-beside-the-c-floor"


def test_a_broken_link_or_anchor_is_found(tmp_path):
    """The check can fail: a missing file, a missing heading, a path out."""
    page = ROOT / "docs" / "performance.md"
    assert broken(page, "../README.md") is None
    assert broken(page, "#cold-start") is None
    assert broken(ROOT / "README.md", "docs/performance.md#cold-start") is None
    assert broken(page, "#no-such-heading") is not None
    assert broken(page, "no-such-file.md") is not None
    assert broken(ROOT / "README.md", "docs/performance.md" + "#the-aims-at-a-glance") is not None
    assert broken(ROOT / "README.md", "../../elsewhere/x.md") is not None


def test_every_relative_link_and_anchor_resolves():
    bad = []
    for page in PAGES:
        for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
            why = broken(page, target)
            if why:
                bad.append(f"{page.relative_to(ROOT)}: ({target}): {why}")
    assert not bad, "\n".join(bad)


def test_every_mention_of_a_pages_anchor_resolves():
    """`docs/performance.md#cold-start` written anywhere (a comment, a
    docstring) names a heading that is there."""
    bad = []
    for rel in tracked():
        path = ROOT / rel
        if path.suffix not in (".md", ".py", ".pl", ".plt", ".c", ".lark", ".toml", ".json", ""):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, IsADirectoryError):
            continue
        for page, anchor in MENTION.findall(text):
            dest = next((d for d in (path.parent / page, ROOT / page) if d.is_file()), None)
            if dest is None:
                bad.append(f"{rel}: {page}#{anchor}: no such file")
            elif anchor not in anchors(dest):
                bad.append(f"{rel}: {page}#{anchor}: no such heading")
    assert not bad, "\n".join(bad)


def test_no_file_points_outside_the_repository():
    bad = []
    for rel in tracked():
        path = ROOT / rel
        if not path.is_file():
            continue
        data = path.read_bytes()
        bad += [f"{rel}: {s}" for s in OUTSIDE if s.encode() in data]
    assert not bad, "\n".join(bad)


def test_performance_page_is_short():
    lines = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, \
        f"docs/performance.md has {len(lines)} lines; the history goes to benchmarks/HISTORY.md"
    assert (ROOT / "benchmarks" / "HISTORY.md").is_file()
