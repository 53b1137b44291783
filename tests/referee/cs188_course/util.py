"""util, as the course's project has it, written for pyab's tests."""
import heapq

MARK = "course"


class PriorityQueue:
    def __init__(self):
        self.heap, self.count = [], 0

    def push(self, item, priority):
        heapq.heappush(self.heap, (priority, self.count, item))
        self.count += 1

    def pop(self):
        return heapq.heappop(self.heap)[-1]

    def isEmpty(self):
        return not self.heap


def manhattanDistance(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def lookup(name, namespace):
    return namespace[name]
