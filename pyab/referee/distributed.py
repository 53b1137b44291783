"""Beyond one machine: ``pyab check --random`` and ``pyab experiment`` on a
Dask distributed cluster (``--scheduler ADDRESS``).

Each Dask worker process starts its own SWI-Prolog on its first task
(``pyab.prolog`` keeps one engine per process), so workers must be
processes (``dask worker ADDRESS --nworkers N --nthreads 1``, or
``LocalCluster(processes=True, threads_per_worker=1)``).  A worker with
several threads still works: its tasks take turns with the one engine
(a lock per process), they just gain nothing from the extra threads.

The work is cut the way ``--jobs`` cuts it on one machine: ``check`` sends
one share of the random trees per worker thread (every worker rebuilds the
whole sequence from the seed and checks every n-th tree), ``experiment``
one task per table cell; the answers are put together here, so the verdict
and the table are those of one process.

Dask is an extra: ``pip install 'pyab[dist]'``.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Iterator, Sequence

from ..errors import Error

__all__ = ["each_task", "run_tasks", "workers"]

_ENGINE_TURN = threading.Lock()  # one SWI-Prolog per process: its tasks take turns
CONNECT_TIMEOUT = "10s"


def _client(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise Error("--scheduler needs Dask distributed: pip install 'pyab[dist]'") from None
    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        raise Error(f"cannot reach the Dask scheduler at {address!r}: {err}") from None


def workers(client: Any) -> int:
    """Worker threads on the cluster (at least 1)."""
    return max(1, sum(client.nthreads().values()))


def _in_turn(fn: Callable[..., Any], *args: Any) -> Any:
    """On a worker: ``fn(*args)`` while holding this process's engine."""
    with _ENGINE_TURN:
        return fn(*args)


def run_tasks(address: str, fn: Callable[..., Any],
              arguments: Callable[[int], Sequence[tuple[Any, ...]]]) -> list[Any]:
    """``[fn(*a) for a in arguments(n)]`` on the cluster at ``address``,
    with ``n`` its number of worker threads; answers in the order given.
    ``fn`` must be importable on the workers (a module-level function)."""
    with _client(address) as client:
        calls = list(arguments(workers(client)))
        futures = [client.submit(_in_turn, fn, *a, pure=False) for a in calls]
        return client.gather(futures)


def each_task(address: str, fn: Callable[..., Any],
              calls: Sequence[tuple[Any, ...]]) -> Iterator[tuple[int, Any, BaseException | None]]:
    """``(i, fn(*calls[i]), None)`` or ``(i, None, error)`` as each task
    ends on the cluster at ``address`` (``pyab grade --scheduler``: each
    submission's reports written as it is done).  A task whose worker is
    lost is run again by Dask on another worker; every index comes once."""
    from distributed import as_completed
    with _client(address) as client:
        futures = {client.submit(_in_turn, fn, *a, pure=False): i for i, a in enumerate(calls)}
        for future in as_completed(list(futures), loop=client.loop):
            i = futures[future]
            try:
                yield i, future.result(), None
            except Exception as err:
                yield i, None, err
