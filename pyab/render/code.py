"""The code a step runs, for the stepper's code panel: the clause (or
pseudo-code routine) the step is in, the line it is at, and the values of
that line's variables.

For the slides' program the clauses are ``prolog/alphabeta.pl``'s, as the
slides print them (``alphabeta/5``, ``boundedbest/5``, ``goodenough/7``,
``newbounds/6``) and Bratko's ``betterof/6``.  Every other algorithm gets
its own routine in the words of its source (AIMA's MAX-VALUE, the
chessprogramming wiki's alphaBetaMax, Hsu's F', CS188's value, ...), in
mini-max form for the side to move; the nega-max forms say they are the
same routine with the signs turned, because the trace shows every value
from MAX's side.
"""

from __future__ import annotations

from typing import Any

from .trace import Step, Trace, _num

__all__ = ["ROUTINES", "panel"]

_BRATKO = {
    "alphabeta": ["alphabeta(Pos, Alpha, Beta, GoodPos, Val) :-",
                  "    moves(Pos, PosList), !,",
                  "    boundedbest(PosList, Alpha, Beta, GoodPos, Val);",
                  "    staticval(Pos, Val)."],
    "goodenough": ["goodenough([], _, _, Pos, Val, Pos, Val) :- !.",
                   "goodenough(_, Alpha, Beta, Pos, Val, Pos, Val) :-",
                   "    min_to_move(Pos), Val > Beta, !",
                   "    ;",
                   "    max_to_move(Pos), Val < Alpha, !.",
                   "goodenough(PosList, Alpha, Beta, Pos, Val, GoodPos, GoodVal) :-",
                   "    newbounds(Alpha, Beta, Pos, Val, NewAlpha, NewBeta),",
                   "    boundedbest(PosList, NewAlpha, NewBeta, Pos1, Val1),",
                   "    betterof(Pos, Val, Pos1, Val1, GoodPos, GoodVal)."],
    "newbounds": ["newbounds(Alpha, Beta, Pos, Val, Val, Beta) :-",
                  "    min_to_move(Pos), Val > Alpha, !.",
                  "newbounds(Alpha, Beta, Pos, Val, Alpha, Val) :-",
                  "    max_to_move(Pos), Val < Beta, !.",
                  "newbounds(Alpha, Beta, _, _, Alpha, Beta)."],
    "betterof": ["betterof(Pos, Val, _, Val1, Pos, Val) :-",
                 "    min_to_move(Pos), Val > Val1, !",
                 "    ;",
                 "    max_to_move(Pos), Val < Val1, !.",
                 "betterof(_, _, Pos1, Val1, Pos1, Val1)."],
}


def _routine(head: str, init: str, call: str, tie: str, test: str, bounds: str, ret: str,
             leaf: str = "if TERMINAL-TEST(state) then return UTILITY(state)") -> list[str]:
    return [head, "  " + leaf, "  " + init, "  for each child of state do", "    " + call,
            "    " + tie, "    " + test, "    " + bounds, "  " + ret]


# Line numbers in every routine below (one shape for all, so one mapping).
CALL, LEAF, INIT, LOOP, RECURSE, TIE, TEST, BOUNDS, RETURN = range(9)

ROUTINES: dict[str, dict[str, list[str]]] = {
    "aima": {
        "max": _routine("function MAX-VALUE(state, \u03b1, \u03b2)", "v \u2190 \u2212\u221e",
                        "v \u2190 MAX(v, MIN-VALUE(child, \u03b1, \u03b2))",
                        "(a tie: v stays, the first move worth v is kept)",
                        "if v \u2265 \u03b2 then return v", "\u03b1 \u2190 MAX(\u03b1, v)", "return v"),
        "min": _routine("function MIN-VALUE(state, \u03b1, \u03b2)", "v \u2190 +\u221e",
                        "v \u2190 MIN(v, MAX-VALUE(child, \u03b1, \u03b2))",
                        "(a tie: v stays, the first move worth v is kept)",
                        "if v \u2264 \u03b1 then return v", "\u03b2 \u2190 MIN(\u03b2, v)", "return v"),
    },
    "strict-cut": {
        "max": _routine("def value(state, \u03b1, \u03b2): MAX moves", "v = \u2212\u221e",
                        "w = value(child, \u03b1, \u03b2); if w > v: v, best = w, child",
                        "(a tie: only a strictly better move replaces best)",
                        "if v > \u03b2: return v   # strictly above", "\u03b1 = max(\u03b1, v)", "return v"),
        "min": _routine("def value(state, \u03b1, \u03b2): MIN moves", "v = +\u221e",
                        "w = value(child, \u03b1, \u03b2); if w < v: v, best = w, child",
                        "(a tie: only a strictly better move replaces best)",
                        "if v < \u03b1: return v   # strictly below", "\u03b2 = min(\u03b2, v)", "return v"),
    },
    "cpw": {
        "max": _routine("int alphaBetaMax(\u03b1, \u03b2, depthleft)", "(\u03b1 is the best so far)",
                        "score = alphaBetaMin(\u03b1, \u03b2, depthleft \u2212 1)",
                        "(a tie: only score > \u03b1 raises \u03b1)",
                        "if (score >= \u03b2) return \u03b2;   // fail hard \u03b2-cutoff",
                        "if (score > \u03b1) \u03b1 = score;", "return \u03b1;",
                        "if (depthleft == 0 || no moves) return evaluate();"),
        "min": _routine("int alphaBetaMin(\u03b1, \u03b2, depthleft)", "(\u03b2 is the best so far)",
                        "score = alphaBetaMax(\u03b1, \u03b2, depthleft \u2212 1)",
                        "(a tie: only score < \u03b2 lowers \u03b2)",
                        "if (score <= \u03b1) return \u03b1;   // fail hard \u03b1-cutoff",
                        "if (score < \u03b2) \u03b2 = score;", "return \u03b2;",
                        "if (depthleft == 0 || no moves) return -evaluate();"),
    },
    "hsu": {
        "max": _routine("F'(p, \u03b1, \u03b2)", "m := \u03b1  (F2, F3: m := \u2212\u221e)",
                        "t := G'(p_i, m, \u03b2); if t > m then m := t",
                        "(a tie: t > m is false, m and its move stay)",
                        "if m \u2265 \u03b2 then return m  (cut-off); if m = max then return m (direct)",
                        "(the next child is searched with m as its \u03b1)", "return m",
                        "if p is terminal then return f(p)"),
        "min": _routine("G'(p, \u03b1, \u03b2)", "m := \u03b2  (F2, F3: m := +\u221e)",
                        "t := F'(p_i, \u03b1, m); if t < m then m := t",
                        "(a tie: t < m is false, m and its move stay)",
                        "if m \u2264 \u03b1 then return m  (cut-off); if m = min then return m (direct)",
                        "(the next child is searched with m as its \u03b2)", "return m",
                        "if p is terminal then return f(p)"),
    },
    "module22": {
        "max": _routine("MINIMAX-A-B(position, depth, use-thresh, pass-thresh)", "best-path := nil",
                        "result := MINIMAX-A-B(succ, depth+1, \u2212pass-thresh, \u2212use-thresh); "
                        "new-value := \u2212VALUE(result)",
                        "(a tie: new-value > pass-thresh is false, nothing changes)",
                        "if new-value > pass-thresh: pass-thresh := new-value; "
                        "if pass-thresh \u2265 use-thresh then return",
                        "(the next successor gets the new thresholds)", "return (pass-thresh, best-path)",
                        "if DEEP-ENOUGH or no successors: return STATIC(position)"),
    },
    "minimax": {
        "max": _routine("F'(p): MAX moves", "m := \u2212\u221e", "t := G'(p_i); if t > m then m := t",
                        "(a tie: the first child worth m is kept)", "(no cut test: every child is searched)",
                        "", "return m", "if p is terminal then return f(p)"),
        "min": _routine("G'(p): MIN moves", "m := +\u221e", "t := F'(p_i); if t < m then m := t",
                        "(a tie: the first child worth m is kept)", "(no cut test: every child is searched)",
                        "", "return m", "if p is terminal then return f(p)"),
    },
}


def _max(tree, name: str) -> bool:
    return tree.is_max_id(tree.index[name])


def _family(algorithm: str) -> str:
    if algorithm.startswith("cpw"):
        return "cpw"
    if algorithm.startswith("hsu"):
        return "hsu"
    if algorithm.startswith("minimax"):
        return "minimax"
    return algorithm


def _bratko(step: Step, tree) -> tuple[str, int, dict[str, Any]]:
    n = _num
    child = step.child or ""
    value, alpha, beta = step.value, step.alpha, step.beta
    if step.kind == "call":
        return "alphabeta", 0, {"Pos": step.node, "Alpha": n(step.alpha), "Beta": n(step.beta)}
    if step.kind == "leaf":
        return "alphabeta", 3, {"Pos": step.node, "Val": n(step.value)}
    if step.kind in ("test", "cut"):
        child_min = not _max(tree, child)
        return "goodenough", 2 if child_min else 4, {
            "Pos": step.child, "Val": n(step.value), "Alpha": n(step.alpha), "Beta": n(step.beta),
            "test": "true: cut" if step.kind == "cut" else "false: no cut"}
    if step.kind == "bounds":
        child_min = not _max(tree, child)
        assert value is not None and alpha is not None and beta is not None
        if child_min and value > alpha:
            line = 1
        elif not child_min and value < beta:
            line = 3
        else:
            line = 4
        return "newbounds", line, {"Alpha": n(step.alpha), "Beta": n(step.beta), "Pos": step.child,
                                   "Val": n(step.value), "NewAlpha": n(step.new_alpha),
                                   "NewBeta": n(step.new_beta)}
    if step.kind == "betterof":
        held = step.good == step.child and step.value != step.rival_value
        line = (1 if not _max(tree, child) else 3) if held else 4
        return "betterof", line, {"Pos": step.child, "Val": n(step.value), "Pos1": step.rival,
                                  "Val1": n(step.rival_value), "GoodPos": step.good,
                                  "GoodVal": n(step.good_value)}
    if step.kind == "return":
        if step.best is None:
            return "alphabeta", 3, {"Pos": step.node, "Val": n(step.value)}
        return "alphabeta", 2, {"Pos": step.node, "GoodPos": step.best, "Val": n(step.value)}
    return "alphabeta", 0, {"Pos": step.node}


_LINE = {"call": CALL, "leaf": LEAF, "test": TEST, "cut": TEST, "bounds": BOUNDS, "tie": TIE,
         "return": RETURN, "horizon": LEAF}


def _other(step: Step, tree, algorithm: str) -> tuple[str, int, dict[str, Any]]:
    n = _num
    fam = ROUTINES[_family(algorithm)]
    side = "max" if _max(tree, step.node) or "min" not in fam else "min"
    line = _LINE.get(step.kind, CALL)
    if step.kind == "return" and step.best is None and not tree.children(step.node):
        line = LEAF
    names = {"node": step.node}
    for key, label in (("alpha", "\u03b1"), ("beta", "\u03b2"), ("child", "child"),
                       ("value", "value"), ("good", "best so far"), ("best", "best move"),
                       ("new_alpha", "new \u03b1"), ("new_beta", "new \u03b2")):
        v = getattr(step, key)
        if v is not None:
            names[label] = v if isinstance(v, str) else n(v)
    if step.kind == "test":
        names["test"] = "false: no cut"
    elif step.kind == "cut":
        names["test"] = "true: cut"
    return side, line, names


def panel(trace: Trace) -> dict[str, Any]:
    """The code panel's data: ``routines`` (name -> lines) and, for each
    step, ``[routine, line, {variable: value}]``."""
    tree, alg = trace.tree, trace.algorithm
    if trace.frames == "rebuilt":
        return {"routines": {}, "at": [None] * len(trace.steps), "note": ""}
    if alg == "bratko":
        return {"routines": _BRATKO, "at": [list(_bratko(s, tree)) for s in trace.steps],
                "note": "the slides' clauses (prolog/alphabeta.pl)"}
    fam = _family(alg)
    if fam not in ROUTINES:
        return {"routines": {}, "at": [None] * len(trace.steps), "note": ""}
    note = ""
    if "negamax" in alg or alg in ("cpw-negamax", "cpw-failsoft", "module22"):
        note = ("the nega-max routine in mini-max form: the same steps with the signs turned; "
                "values and windows from MAX's side")
    return {"routines": ROUTINES[fam], "at": [list(_other(s, tree, alg)) for s in trace.steps],
            "note": note}
