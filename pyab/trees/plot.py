"""The average-case plot (needs matplotlib: ``pip install 'pyab[plot]'``)."""

from __future__ import annotations

import math
from typing import Any, Sequence

__all__ = ["plot_random_order"]


def plot_random_order(rows: Sequence[dict[str, Any]], out: str) -> None:
    """Draw, per depth, the measured exponent x (mean leaves = b^(x d))
    against b, the growth per level between the two deepest depths, and
    beside them 0.75 (Fuller et al.), log(b/ln b)/log b (Knuth and Moore's
    b/log b) and 0.5 (the perfect ordering's limit).  Writes
    ``out`` (.svg or .png).

    :raises ValueError: without matplotlib, or for another file type.
    """
    if not out.endswith((".svg", ".png")):
        raise ValueError(f"the plot must be a .svg or .png file, not {out!r}")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ValueError("the plot needs matplotlib: pip install 'pyab[plot]'") from None
    if out.endswith(".svg"):
        matplotlib.rcParams["svg.hashsalt"] = "pyab"  # the same file for the same data
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    depths = sorted({r["depth"] for r in rows if "exponent" in r})
    for d in depths:
        pts = sorted((r["branching"], r["exponent"]) for r in rows
                     if r["depth"] == d and "exponent" in r)
        if pts:
            ax.plot(*zip(*pts), marker="o", label=f"measured, depth {d}")
    deepest: dict[int, dict[str, Any]] = {}
    for r in rows:
        if "growth_exponent" in r and r["depth"] >= deepest.get(r["branching"], {}).get("depth", -1):
            deepest[r["branching"]] = r
    if deepest:
        pts = sorted((b, r["growth_exponent"]) for b, r in deepest.items())
        ax.plot(*zip(*pts), "ks-", linewidth=2,
                label="measured growth per level, deepest two levels")
    bs = sorted({r["branching"] for r in rows if r["branching"] > 1})
    if bs:
        fine = [bs[0] + (bs[-1] - bs[0]) * i / 100 for i in range(101)]
        ax.plot(fine, [0.75] * len(fine), "k--", label="Fuller et al.: b^0.75")
        ax.plot(fine, [math.log(b / math.log(b)) / math.log(b) if b > math.e else float("nan")
                       for b in fine],
                "k:", label="Knuth-Moore shape: b/ln b")
        ax.plot(fine, [0.5] * len(fine), color="grey", linewidth=0.8,
                label="perfect ordering: b^0.5 per level")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("branching factor b")
    ax.set_ylabel("x, where mean leaves read = b^(x * depth)")
    ax.set_title("Slides' alpha-beta on random uniform trees")
    ax.set_ylim(0.4, 1.02)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="lower left")
    fig.tight_layout()
    fig.savefig(out, metadata={"Date": None} if out.endswith(".svg") else None)
    plt.close(fig)
