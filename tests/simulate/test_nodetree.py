"""The scheduler's node order and its 1.35+ tie-break (simulate/nodetree.py)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from gpupool.simulate.nodetree import NodeTree, heap_pick, preorder, zone_key


def test_zones_in_turn_in_the_order_they_appeared() -> None:
    tree = NodeTree()
    zones = ["0", "0", "0", "3", "3", "1", "2", "3", "1", "2", "3"]
    for nid, z in enumerate(zones):
        tree.add(nid, {"topology.kubernetes.io/region": "eastus", "topology.kubernetes.io/zone": z})
    assert tree.order() == [0, 3, 5, 6, 1, 4, 8, 9, 2, 7, 10]
    assert zone_key({}) == "" and zone_key({"topology.kubernetes.io/zone": "1"}) == ":\x00:1"


def test_preorder() -> None:
    assert preorder(11) == (0, 1, 3, 7, 8, 4, 9, 10, 2, 5, 6)
    assert preorder(0) == () and preorder(1) == (0,)


def _go_heap_root(scores: list[int]) -> int:
    """container/heap's Init then Pop with Less = the higher score: the index of the root (the host)."""
    h = list(range(len(scores)))

    def less(i: int, j: int) -> bool:
        return scores[h[i]] > scores[h[j]]

    n = len(h)
    for i in range(n // 2 - 1, -1, -1):  # heap.Init: down(i) for each parent, last first
        while True:
            j1 = 2 * i + 1
            if j1 >= n:
                break
            j = j1
            if j1 + 1 < n and less(j1 + 1, j1):
                j = j1 + 1
            if not less(j, i):
                break
            h[i], h[j] = h[j], h[i]
            i = j
    return h[0]


@given(st.lists(st.integers(0, 3), min_size=1, max_size=40))
def test_heap_pick_is_the_heaps_root(scores: list[int]) -> None:
    top = max(scores)
    best = [i for i, s in enumerate(scores) if s == top]
    assert heap_pick(list(range(len(scores))), best) == _go_heap_root(scores)


def test_heap_pick_follows_the_feasible_order() -> None:
    rng = random.Random(5)
    order = rng.sample(range(20), 20)
    assert heap_pick(order, {order[4], order[8]}) == order[8]  # pre-order 0, 1, 3, 7, 8, 4, ...
