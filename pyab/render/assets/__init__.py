"""The style sheets and scripts of the HTML pages (``stepper.*``: the
stepper of ``pyab.render.html``; ``practice.*``: ``pyab.render.practice``),
kept as files of their own so that they are read and linted as CSS and
JavaScript (``make lint`` runs ``node --check`` on every script).  They ship
as package data and are put inline into each page, which needs no network."""

from __future__ import annotations

import functools
from pathlib import Path

__all__ = ["text"]


@functools.cache
def text(name: str) -> str:
    """The text of the asset ``name`` (``stepper.js``, ``practice.css``, ...)."""
    return Path(__file__).with_name(name).read_text(encoding="utf-8")
