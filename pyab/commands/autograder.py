"""pyab autograder SUITE.toml: the suite packed for Gradescope or GitHub Classroom."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import _common


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "autograder", help="pack a grading suite for Gradescope (a zip) or GitHub Classroom (a workflow)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""\
Write the zip Gradescope takes for SUITE.toml: setup.sh and run_autograder
at its top level (Ubuntu 22.04: its Python, SWI-Prolog 9 from the
SWI-Prolog PPA, pyab from its sdist; each submission graded with `pyab
grade --gradescope`), pyab's sdist, and the suite with the files its groups
read.  Where the container gives no user namespaces, run_autograder grades
without pyab's sandbox and says so.  With --github, write the suite and
pyab's sdist into REPO/.autograder/ and a GitHub Classroom workflow into
REPO/.github/workflows/classroom.yml instead.

The sdist is built from the checkout pyab runs from (python -m build);
an installed pyab needs --sdist FILE.  See `pyab docs grading`.""",
        epilog="""\
examples:
  pyab autograder suite.toml -o autograder.zip    upload it as the Gradescope autograder
  pyab autograder suite.toml --github -o template-repo
  pyab autograder --sandbox                       is there a sandbox here? (exit 0 yes, 1 no)""")
    p.add_argument("suite", nargs="?", metavar="SUITE.toml", help="the test suite")
    p.add_argument("-o", "--out", metavar="PATH",
                   help="the zip (default autograder.zip); with --github the repository folder (default .)")
    p.add_argument("--github", action="store_true", help="a GitHub Classroom workflow instead of a zip")
    p.add_argument("--sdist", metavar="FILE", help="pyab's source archive to ship (pyab-VERSION.tar.gz)")
    p.add_argument("--sandbox", action="store_true",
                   help="only say whether pyab's sandbox works here: exit 0 (and its name) or 1 (and why)")
    p.add_argument("--classroom-result", metavar="RESULTS.json",
                   help="print a results.json as the payload GitHub Classroom's reporter reads (the workflow's step)")
    _common.add_json(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..grade import autograder
    if args.sandbox:
        from ..referee.sandbox import SandboxUnavailable
        try:
            name = autograder.sandbox()
        except SandboxUnavailable as err:
            if args.json:
                _common.print_json({"sandbox": None, "why": str(err)})
            else:
                print(f"no sandbox: {err}")
            return 1
        if args.json:
            _common.print_json({"sandbox": name})
        else:
            print(name)
        return 0
    if args.classroom_result:
        path = Path(args.classroom_result)
        try:
            results = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise ValueError(f"{path}: not a results.json ({err})") from None
        print(autograder.classroom_result(results))
        return 0
    if not args.suite:
        raise ValueError("give SUITE.toml (or --sandbox, or --classroom-result FILE)")
    if args.github:
        written = [str(p) for p in autograder.github_classroom(args.suite, args.out or ".", args.sdist)]
        if args.json:
            _common.print_json({"suite": args.suite, "written": written})
        else:
            print(f"{written[0]}, and the suite and pyab's sdist in {Path(args.out or '.') / '.autograder'}")
        return 0
    out = args.out or "autograder.zip"
    names = autograder.gradescope_zip(args.suite, out, args.sdist)
    if args.json:
        _common.print_json({"suite": args.suite, "zip": out, "names": names})
    else:
        print(f"{out}: {', '.join(names[:3])} and {len(names) - 3} file(s) of the suite")
    return 0
