"""The Prolog modules' public faces: every predicate prolog/referee/child.pl
exports has a PlDoc head with modes, and prolog/pyab_bridge.pl passes its
submodules' predicates on with reexport/1 instead of listing them again."""

from __future__ import annotations

import re

from conftest import ROOT, swipl


def _exports(module_file: str, module: str) -> set[str]:
    goal = (f"use_module('{ROOT / 'prolog' / module_file}'), module_property({module}, exports(E)), "
            "forall(member(N/A, E), format('~w/~w~n', [N, A]))")
    out = swipl("-g", goal, "-t", "halt")
    assert out.returncode == 0, out.stderr
    return set(out.stdout.split())


def test_every_export_of_the_child_has_a_pldoc_head():
    text = (ROOT / "prolog" / "referee" / "child.pl").read_text(encoding="utf-8")
    heads = {f"{m.group(1)}/{len(m.group(2).split(',')) if m.group(2) else 0}"
             for m in re.finditer(r"^%!\s+(\w+)(?:\(([^)]*)\))?\s+is\s+\w+\.", text, re.M)
             if not m.group(2) or all(re.match(r"\s*[-+?:@!]\w", a) for a in m.group(2).split(","))}
    exports = _exports("referee/child.pl", "pyab_child")
    assert exports and exports <= heads, exports - heads


def test_the_bridge_reexports_its_submodules():
    text = (ROOT / "prolog" / "pyab_bridge.pl").read_text(encoding="utf-8")
    assert ":- reexport(bridge/store)." in text and ":- reexport(bridge/run)." in text
    header = text[:text.index("]).")]
    for name in ("load_tree/2", "solve/9", "entry/8"):  # listed once, in their own module
        assert name not in header
    bridge = _exports("pyab_bridge.pl", "pyab_bridge")
    store = _exports("bridge/store.pl", "pyab_store")
    run = _exports("bridge/run.pl", "pyab_run")
    assert store | run <= bridge and "message_text/2" in bridge
