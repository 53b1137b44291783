"""A big tree file read once: its table in the user's cache.

Parsing a million-node file takes about half a second and putting its two
million clauses into SWI-Prolog one and a half (benchmarks/HISTORY.md).
:func:`load_cached` keeps, beside the first parse, the tree as flat arrays
(a *table*: pyab/prolog/_ctable.c gives the layout) in
``$XDG_CACHE_HOME/pyab/trees`` (else ``~/.cache/pyab/trees``), named by
the SHA-256 of the file's bytes.  The next search of the same bytes gets a
:class:`TableTree` instead of a :class:`~pyab.tree.Tree`: the file mapped
into memory, nothing parsed, nothing asserted.  It has the node protocol
(so the Python mirror runs on it) and ``prolog_source()`` (so SWI-Prolog
runs the real program on it through prolog/trees/table.pl, where a
position is a node's number); either reads only the nodes the search
visits.  The answer is the same: the names come from the table.

Every table is checked in full (sizes, tree order, one parent each,
depths, values, flags, UTF-8 names) before it is read, in Python and again
when SWI-Prolog maps it; a table that fails is made again from the text.
Only files of at least :data:`MIN_BYTES` are cached, and the
:data:`KEEP` tables used last are kept, up to :data:`KEEP_BYTES` in all.  ``PYAB_TREE_CACHE=0`` in the
environment turns the cache off; so does a missing compiled extension.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Sequence

from ..resources import compiled, prolog_dir
from ..tree import Number, Tree

__all__ = ["ENV", "KEEP", "KEEP_BYTES", "MIN_BYTES", "TableTree", "load_cached", "table_dir"]

#: Set to 0 to parse every file afresh.
ENV = "PYAB_TREE_CACHE"
#: Files smaller than this parse faster than a table pays for itself.
MIN_BYTES = 1 << 20
#: How many tables the cache keeps (the ones used last), and how many bytes
#: at most (the table just written is kept whatever its size).
KEEP = 8
KEEP_BYTES = 1 << 30

_F_ALTERNATING, _F_FLOATS, _F_WIDE = 1, 2, 4
_K_INT, _K_FLOAT, _K_MAX = 1, 2, 4


def table_dir() -> Path:
    from ..prolog.home import cache_dir
    return cache_dir() / "trees"


class TableTree:
    """A tree read from its table (see the module docstring).  Nodes are
    the ids of the :class:`~pyab.tree.Tree` the table was made from.

    :raises ValueError: saying what is wrong when ``path`` is no sound table.
    """

    root_node = 0
    #: Every node has one parent (``pyab.search.common.Recorder``).
    one_parent = True

    def __init__(self, path: str | Path, source: str = ""):
        loader = compiled("prolog._cload")
        if loader is None:
            raise ValueError("reading a tree table needs pyab's compiled extension")
        self.path, self.source = str(path), source
        import mmap
        with open(path, "rb") as f:
            self._map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        n, self._flags = loader.table_check(self._map)
        loader.table_forget(self.path)  # SWI-Prolog maps what was read here
        view = memoryview(self._map)
        at = _layout(n)
        self._n = n
        self._start = view[at[0]:at[0] + 4 * (n + 1)].cast("I")
        self._kids = view[at[1]:at[1] + 4 * (n - 1)].cast("I")
        self._depth = view[at[2]:at[2] + 4 * n].cast("I")
        self._kind = view[at[3]:at[3] + n]
        self._ints = view[at[4]:at[4] + 8 * n].cast("q")
        self._floats = view[at[4]:at[4] + 8 * n].cast("d")
        self._name_at = view[at[5]:at[5] + 8 * (n + 1)].cast("Q")
        self._names = view[at[6]:]

    def __repr__(self) -> str:
        return f"TableTree({self.source or self.path!r}, {self._n} nodes)"

    def __len__(self) -> int:
        return self._n

    # -- the node protocol ----------------------------------------------------
    def kids_of(self, node: int) -> Sequence[int]:
        return tuple(self._kids[self._start[node]:self._start[node + 1]])

    def value_of(self, node: int) -> Number | None:
        kind = self._kind[node] & 3
        if kind == _K_INT:
            return self._ints[node]
        return self._floats[node] if kind == _K_FLOAT else None

    def is_max(self, node: int) -> bool:
        return bool(self._kind[node] & _K_MAX)

    def name_of(self, node: int) -> str:
        return str(self._names[self._name_at[node]:self._name_at[node + 1]], "utf-8")

    def depth_of(self, node: int) -> int:
        return self._depth[node]

    # -- what the searches' checks ask of a tree -------------------------------
    @property
    def root(self) -> str:
        return self.name_of(0)

    @property
    def root_side(self) -> str:
        return "max" if self.is_max(0) else "min"

    @property
    def alternating(self) -> bool:
        return bool(self._flags & _F_ALTERNATING)

    @property
    def values(self) -> Sequence[Number | None]:
        """Every value, for :func:`pyab.tree.check_window`; empty when the
        table's flags say it holds nothing that check could refuse."""
        if not self._flags & (_F_FLOATS | _F_WIDE):
            return ()
        return [self.value_of(i) for i in range(self._n)]

    def repeated_side(self) -> str | None:
        """The first node with its parent's side to move (None when sides alternate)."""
        if self.alternating:
            return None
        for i in range(self._n):
            for k in self.kids_of(i):
                if self.is_max(k) == self.is_max(i):
                    return self.name_of(k)
        return None  # pragma: no cover - the flag is checked against the nodes

    def _id_of(self, name: str) -> int:
        """A node by name: a walk over the table (only error messages ask)."""
        found = next((i for i in range(self._n) if self.name_of(i) == name), None)
        if found is None:
            raise KeyError(f"no node named {name!r} in this tree")
        return found

    def side(self, name: str) -> str:
        return "max" if self.is_max(self._id_of(name)) else "min"

    def parent(self, name: str) -> str | None:
        k = self._id_of(name)
        return next((self.name_of(i) for i in range(k) if k in self.kids_of(i)), None)

    def prolog_source(self) -> tuple[str, str]:
        """(rules file, parameter facts) for the bridge's ``load_rules``."""
        from ..dsl.quoted import quote
        return str(prolog_dir() / "trees" / "table.pl"), f"table_file({quote(self.path)}).\n"


def _layout(n: int) -> list[int]:
    """Where each array starts (as _ctable.c's layout(); checked there)."""
    def up8(x: int) -> int:
        return (x + 7) & ~7
    at, o = [], up8(32)
    for length in (4 * (n + 1), 4 * (n - 1), 4 * n, n):
        at.append(o)
        o = up8(o + length)
    at.append(o)
    at.append(o + 8 * n)
    at.append(o + 16 * n + 8)
    return at


def load_cached(path: str | Path, *, min_bytes: int = MIN_BYTES) -> Any:
    """The tree in the file ``path``: a :class:`TableTree` when its table is
    in the cache, else the parsed :class:`~pyab.tree.Tree` (and, for a file
    of at least ``min_bytes``, its table written for next time).

    :raises pyab.dsl.DSLError: as :func:`pyab.load` does."""
    from ..dsl import load
    from ..dsl.reader import decode, parse, read_bytes
    loader = compiled("prolog._cload")
    if (loader is None or os.environ.get(ENV, "1") == "0" or str(path) == "-"
            or str(path).endswith(".pl") or _size(path) < min_bytes):
        return load(path)
    import hashlib  # here: a small file's solve does not load OpenSSL
    data = read_bytes(path)
    table = table_dir() / f"{hashlib.sha256(data).hexdigest()}.table"
    if table.exists():
        try:
            found = TableTree(table, str(path))
        except (OSError, ValueError):
            _remove(table)  # damaged: made again below
        else:
            try:
                os.utime(table)  # used last: kept longest
            except OSError:
                pass  # a cache we may read but not write
            return found
    tree = parse(decode(data, str(path)), str(path))
    _write(loader, tree, table)
    return tree


def _size(path: str | Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0  # load() names the problem


def _write(loader: Any, tree: Tree, table: Path) -> None:
    """Write ``tree``'s table (atomically: a reader sees all of it or none);
    a cache that cannot be written, or a value no table holds, is no error."""
    tmp = table.with_name(f"{table.name}.{os.getpid()}.tmp")
    try:
        table.parent.mkdir(parents=True, exist_ok=True)
        loader.table_write(str(tmp), tree.names, tree.kids, tree.values, tree.sides,
                           tree.depth, tree.root_side == "max")
        os.replace(tmp, table)
    except (OSError, ValueError):
        _remove(tmp)
        return
    kept = total = 0
    for old in sorted(table.parent.glob("*.table"), key=_mtime, reverse=True):
        total += _bytes(old)
        kept += 1
        if kept > KEEP or (kept > 1 and total > KEEP_BYTES):
            _remove(old)
    for left in table.parent.glob("*.tmp"):  # a writer that was stopped
        if _mtime(left) < time.time() - 3600:
            _remove(left)


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass  # another process's, or a cache we cannot write: not ours to fail on


def _bytes(p: Path) -> int:
    try:
        return p.stat().st_size
    except OSError:
        return 0


def _mtime(p: Path) -> float:
    try:
        return p.stat().st_mtime
    except OSError:
        return 0.0
