"""The order kube-scheduler sees the nodes in, and how it breaks ties between equal best scores from 1.35.

The scheduler cache keeps nodes in a tree by zone (pkg/scheduler/backend/cache/node_tree.go): zones in the
order their first node was added, keyed by region and zone label, nodes of a zone in the order they were
added; the list it filters and scores takes one node of each zone in turn. From 1.35 the scored nodes go into
a heap (pkg/scheduler/schedule_one.go newSortedNodeScores: ``container/heap``, Less = the higher score; a
tie-breaking Randomizer is set only by score extenders) and the host is the heap's root. Bottom-up heapify
keeps a node in place unless a child is strictly better and prefers the left child on equal scores, so the
root is, among the best nodes, the first in the heap's pre-order: index i, then the subtree at 2i+1, then the
one at 2i+2.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

ZONE_LABELS = ("topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone")
REGION_LABELS = ("topology.kubernetes.io/region", "failure-domain.beta.kubernetes.io/region")


def zone_key(labels: dict[str, str]) -> str:
    """utilnode.GetZoneKey: region and zone, or "" when a node has neither."""
    zone = next((labels[k] for k in ZONE_LABELS if k in labels), "")
    region = next((labels[k] for k in REGION_LABELS if k in labels), "")
    return "" if not zone and not region else f"{region}:\x00:{zone}"


class NodeTree:
    """Node ids by zone, in the order they were added; :meth:`order` is the scheduler's node list."""

    def __init__(self) -> None:
        self.zones: list[str] = []
        self.tree: dict[str, list[int]] = {}
        self._order: list[int] | None = None

    def add(self, nid: int, labels: dict[str, str]) -> None:
        key = zone_key(labels)
        nodes = self.tree.get(key)
        if nodes is None:
            nodes = self.tree[key] = []
            self.zones.append(key)
        nodes.append(nid)
        self._order = None

    def order(self) -> list[int]:
        if self._order is None:
            out: list[int] = []
            lists = [self.tree[z] for z in self.zones]
            depth = max((len(x) for x in lists), default=0)
            for i in range(depth):
                out.extend(x[i] for x in lists if i < len(x))
            self._order = out
        return self._order


@cache
def preorder(n: int) -> tuple[int, ...]:
    """Indices of a binary heap of ``n`` elements in pre-order."""
    out, stack = [], [0] if n else []
    while stack:
        i = stack.pop()
        out.append(i)
        for child in (2 * i + 2, 2 * i + 1):
            if child < n:
                stack.append(child)
    return tuple(out)


def heap_pick(feasible: list[int], best: Iterable[int]) -> int:
    """The node the 1.35+ scheduler binds: ``feasible`` in the order it scored them, ``best`` the nodes with
    the highest score."""
    top = set(best)
    for i in preorder(len(feasible)):
        if feasible[i] in top:
            return feasible[i]
    raise ValueError("no best node among the feasible ones")
