"""Saying a referee's report: as lines for people, or as the one JSON
object of ``pyab check --json`` with a program under test
(docs/json-schema.json keeps its shape)."""

from __future__ import annotations

import math
from typing import Any

from ..result import bound_text as bound
from .verdict import KINDS

# A report is a pyab.referee.checking.Report; not imported (checking uses
# this module), so it is typed Any here.
Report = Any

__all__ = ["error_json", "nothing_checked", "report_json", "report_text"]


def _compared(report: Report) -> str:
    what = {"all": "value, best move, leaves and visited nodes", "value": "a correct minimax value",
            "move": "the best move", "optimal-move": "an optimal move", "leaves": "the leaves read, in order",
            "visited": "the nodes visited, in order",
            "generated": "the root move and the set of states generated (CS188's rule)"}
    text = "; ".join(what[c] for c in report.options.compare)
    if report.route.interface == "aima" and "all" in report.options.compare:
        text += " (an aima player returns no value)"
    return text


def report_text(report: Report) -> list[str]:
    """The report as lines for people (the per-file "ok" lines are the
    caller's, from ``on_verdict``)."""
    from ..dsl import dump
    o, route = report.options, report.route
    out = [f"error: {src}: {err}".replace("\n", "\n  ") for src, err in report.refused]
    speed = report.checked / report.elapsed if report.elapsed > 0 else math.inf
    first, case = report.first, report.first_case
    if getattr(route, "serial", ""):
        out.append(f"note: {route.serial}")
    if first is None or case is None:
        on = (f"{report.checked} random trees (seed {o.seed})" if o.random is not None
              else f"{report.checked} files")
        if not report.checked:
            out.append(f"verdict none: {nothing_checked(report)}")
        else:
            out.append(f"{on}, {o.algorithm}: {route.label} agrees with {report.reference} on every one "
                       f"(compared: {_compared(report)}; {speed:.0f} trees/s)")
        return out
    where = f"random tree {case.number} (seed {o.seed})" if case.number else case.source
    out.append(f"DISAGREE on {where}, window {bound(first.alpha)} .. {bound(first.beta)}: "
               f"{report.reference} vs {route.label}")
    if first.kind != "differs":
        out.append(f"  a wrong search ({first.kind}): {KINDS[first.kind]}")
    out.append("  " + dump(first.tree).strip())
    out += ["  " + line.replace("\n", "\n  ") for line in first.lines]
    shrunk = report.shrunk
    assert shrunk is not None
    v = shrunk.verdict
    if not shrunk.reproduced:
        out.append("checked again from its text, the tree did not give the same disagreement "
                   "(does the program answer the same every time?)")
    elif o.shrink == "none":
        out.append("not shrunk (--shrink none); checked again from its text: the same disagreement")
    elif v.tree == first.tree and (v.alpha, v.beta) == (first.alpha, first.beta):
        out.append("no smaller tree shows it; checked again from its text: the same disagreement")
    else:
        out.append(f"shrunk to {len(v.tree)} nodes (from {len(first.tree)}), window "
                   f"{bound(v.alpha)} .. {bound(v.beta)}, checked again from its text:")
        out.append("  " + shrunk.text.strip())
        out += ["  " + line.replace("\n", "\n  ") for line in v.lines]
    if report.saved:
        out.append(f"saved to {' and '.join(report.saved)}; replay with:\n  {report.replay}")
    elif report.replay:
        out.append(f"replay with:\n  {report.replay}")
    if o.keep_going:
        rate = report.disagreements / report.checked if report.checked else 0.0
        out.append(f"{report.disagreements} of {report.checked} trees disagree "
                   f"({100 * rate:.1f}%; compared: {_compared(report)})")
    return out


def nothing_checked(report: Report) -> str:
    """Why a run checked no tree (its verdict is ``none``, never agree)."""
    if report.refused:
        return (f"every one of the {len(report.refused)} files or trees was refused"
                if len(report.refused) > 1 else "the one file or tree was refused")
    return "there was no tree to check"


def error_json(err: Exception) -> dict[str, Any]:
    """A refused file's error as JSON: kind, message, and its place."""
    from ..errors import DSLError
    out: dict[str, Any] = {"kind": type(err).__name__, "message": str(err).split("\n")[0]}
    if isinstance(err, DSLError):
        out.update(message=err.message, file=err.source, line=err.line, column=err.column,
                   excerpt=err.excerpt)
    return out


def report_json(report: Report) -> dict[str, Any]:
    """The report as one JSON object (docs/json-schema.json, "check" with
    a program under test)."""
    o, first, case = report.options, report.first, report.first_case
    speed = report.checked / report.elapsed if report.elapsed > 0 else math.inf
    verdict = "disagree" if first else "agree" if report.checked else "none"
    out: dict[str, Any] = {
        "verdict": verdict, "kind": first.kind if first else verdict,
        "agree": verdict == "agree" and not report.refused,
        "checked": report.checked, "disagreements": report.disagreements,
        "rate": round(report.disagreements / report.checked, 6) if report.checked else 0.0,
        "compare": ",".join(o.compare), "reference": report.reference, "yours": report.route.label,
        "algorithm": o.algorithm, "trees_per_second": round(speed, 1) if math.isfinite(speed) else None,
        "refused": [{"file": src, "error": error_json(err)} for src, err in report.refused],
        "replay_run": report.replay_run,
    }
    if getattr(report.route, "serial", ""):
        out["one_at_a_time"] = report.route.serial
    if verdict == "none":
        out["reason"] = nothing_checked(report)
    if o.random is not None:
        out["seed"] = o.seed
    else:
        out["files"] = report.files
    if first is not None and case is not None and report.shrunk is not None:
        from ..dsl import dump
        v = report.shrunk.verdict
        out["first"] = {
            "tree_number": case.number or None, "file": case.source or (report.saved[0] if report.saved else None),
            "tree": dump(first.tree).strip(), **first.to_json(),
            "shrunk": {"file": report.saved[-1] if report.saved else None,
                       "tree": report.shrunk.text.strip(), "reproduced": report.shrunk.reproduced,
                       **v.to_json()},
        }
        out["replay"] = report.replay
    return out
