"""``util`` as a CS188 ``multiAgents.py`` uses it, written for pyab: the
names the course's ``util.py`` offers agents (queues, ``Counter``,
distances, sampling), each doing what its name says, so that an agent that
imports them runs here as under the course."""

from __future__ import annotations

import heapq
import importlib
import random
import sys
from typing import Any, Callable, Iterable

__all__ = ["Counter", "PriorityQueue", "PriorityQueueWithFunction", "Queue", "Stack",
           "TimeoutFunction", "TimeoutFunctionException", "chooseFromDistribution", "flipCoin",
           "getProbability", "lookup", "manhattanDistance", "mutePrint", "nSample", "nearestPoint",
           "normalize", "pause", "raiseNotDefined", "sample", "sampleFromCounter", "sign",
           "unmutePrint"]


class Stack:
    """Last in, first out."""

    def __init__(self) -> None:
        self.list: list = []

    def push(self, item: Any) -> None:
        self.list.append(item)

    def pop(self) -> Any:
        return self.list.pop()

    def isEmpty(self) -> bool:
        return not self.list


class Queue:
    """First in, first out (``list`` holds the items, newest first)."""

    def __init__(self) -> None:
        self.list: list = []

    def push(self, item: Any) -> None:
        self.list.insert(0, item)

    def pop(self) -> Any:
        return self.list.pop()

    def isEmpty(self) -> bool:
        return not self.list


class PriorityQueue:
    """The item of least priority first; equal priorities in the order pushed."""

    def __init__(self) -> None:
        self.heap: list = []
        self.count = 0

    def push(self, item: Any, priority: Any) -> None:
        heapq.heappush(self.heap, (priority, self.count, item))
        self.count += 1

    def pop(self) -> Any:
        return heapq.heappop(self.heap)[-1]

    def isEmpty(self) -> bool:
        return not self.heap

    def update(self, item: Any, priority: Any) -> None:
        """Lower ``item``'s priority to ``priority`` (push it when absent);
        a higher priority leaves it as it is."""
        for i, (p, c, it) in enumerate(self.heap):
            if it == item:
                if p <= priority:
                    return
                self.heap[i] = (priority, c, item)
                heapq.heapify(self.heap)
                return
        self.push(item, priority)


class PriorityQueueWithFunction(PriorityQueue):
    """A priority queue whose priority is ``priorityFunction(item)``."""

    def __init__(self, priorityFunction: Callable[[Any], Any]) -> None:
        self.priorityFunction = priorityFunction
        super().__init__()

    def push(self, item: Any) -> None:  # type: ignore[override]
        super().push(item, self.priorityFunction(item))


def manhattanDistance(xy1: Any, xy2: Any) -> Any:
    """|x1 - x2| + |y1 - y2|."""
    return abs(xy1[0] - xy2[0]) + abs(xy1[1] - xy2[1])


class Counter(dict):
    """A dict whose missing keys count 0, with the arithmetic of vectors."""

    def __getitem__(self, key: Any) -> Any:
        self.setdefault(key, 0)
        return dict.__getitem__(self, key)

    def incrementAll(self, keys: Iterable, count: Any) -> None:
        for key in keys:
            self[key] += count

    def argMax(self) -> Any:
        if not self:
            return None
        return max(self.items(), key=lambda kv: kv[1])[0]

    def sortedKeys(self) -> list:
        return [k for k, _ in sorted(self.items(), key=lambda kv: kv[1], reverse=True)]

    def totalCount(self) -> Any:
        return sum(self.values())

    def normalize(self) -> None:
        total = float(self.totalCount())
        if total == 0:
            return
        for key in list(self):
            self[key] = self[key] / total

    def divideAll(self, divisor: Any) -> None:
        divisor = float(divisor)
        for key in list(self):
            self[key] /= divisor

    def copy(self) -> "Counter":
        return Counter(dict.copy(self))

    def __mul__(self, other: "Counter") -> Any:
        small, big = (self, other) if len(self) <= len(other) else (other, self)
        return sum(small[k] * big[k] for k in small if k in big)

    def __radd__(self, other: "Counter") -> None:
        for key, value in other.items():
            self[key] += value

    def __add__(self, other: "Counter") -> "Counter":
        out = Counter()
        for key in set(self) | set(other):
            out[key] = self.get(key, 0) + other.get(key, 0)
        return out

    def __sub__(self, other: "Counter") -> "Counter":
        out = Counter()
        for key in set(self) | set(other):
            out[key] = self.get(key, 0) - other.get(key, 0)
        return out


def raiseNotDefined() -> None:
    """What an unfinished method calls: stops the search, naming it."""
    caller = sys._getframe(1).f_code.co_name
    raise NotImplementedError(f"{caller} is not implemented (it calls util.raiseNotDefined())")


def normalize(vectorOrCounter: Any) -> Any:
    """The values scaled to sum to 1 (a Counter, or a list)."""
    if isinstance(vectorOrCounter, Counter):
        out = vectorOrCounter.copy()
        out.normalize()
        return out
    total = float(sum(vectorOrCounter))
    return vectorOrCounter if total == 0 else [x / total for x in vectorOrCounter]


def sample(distribution: Any, values: Any = None) -> Any:
    """One of ``values`` drawn with the probabilities ``distribution`` (or
    the keys of a Counter, by their counts)."""
    if isinstance(distribution, Counter):
        items = sorted(distribution.items())
        distribution, values = [v for _, v in items], [k for k, _ in items]
    if sum(distribution) != 1:
        distribution = normalize(distribution)
    r, total = random.random(), 0.0
    for p, v in zip(distribution, values):
        total += p
        if r <= total:
            return v
    return values[-1]


def nSample(distribution: Any, values: Any, n: int) -> list:
    return [sample(distribution, values) for _ in range(n)]


def sampleFromCounter(ctr: Counter) -> Any:
    items = sorted(ctr.items())
    return sample([v for _, v in items], [k for k, _ in items])


def getProbability(value: Any, distribution: Any, values: Any) -> float:
    return float(sum(p for p, v in zip(distribution, values) if v == value))


def flipCoin(p: float) -> bool:
    """True with probability ``p``."""
    return random.random() < p


def chooseFromDistribution(distribution: Any) -> Any:
    """A key of a dict or Counter by its probability, or from (prob, value) pairs."""
    if isinstance(distribution, (dict, Counter)):
        return sample(distribution if isinstance(distribution, Counter) else Counter(distribution))
    r, base = random.random(), 0.0
    for prob, element in distribution:
        base += prob
        if r <= base:
            return element
    return distribution[-1][1]


def nearestPoint(pos: Any) -> tuple[int, int]:
    """The grid point nearest ``pos``."""
    return int(pos[0] + 0.5), int(pos[1] + 0.5)


def sign(x: Any) -> int:
    return 1 if x >= 0 else -1


def arrayInvert(array: list) -> list:
    return [list(row) for row in zip(*array)]


def matrixAsList(matrix: Any, value: Any = True) -> list:
    return [(x, y) for x, row in enumerate(matrix) for y, cell in enumerate(row) if cell == value]


def lookup(name: str, namespace: dict) -> Any:
    """The object called ``name``: first in ``namespace`` (the agent
    module's globals, where ``scoreEvaluationFunction`` lives), then as
    ``module.attribute``."""
    if name in namespace:
        return namespace[name]
    module, _, attr = name.rpartition(".")
    if module:
        return getattr(importlib.import_module(module), attr)
    raise NameError(f"{name} is not defined in the agent's module")


def pause() -> None:
    """The course's waits for a key press; here nothing waits."""


class TimeoutFunctionException(Exception):
    pass


class TimeoutFunction:
    """``function`` called as it is: pyab's own timeout bounds the search."""

    def __init__(self, function: Callable, timeout: Any) -> None:
        self.function, self.timeout = function, timeout

    def __call__(self, *args: Any, **kw: Any) -> Any:
        return self.function(*args, **kw)


def mutePrint() -> None:
    """What the agent prints never reaches pyab's wire: nothing to mute."""


def unmutePrint() -> None:
    pass
