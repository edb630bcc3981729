"""PodTopologySpread's system default constraints in scoring (a mixin of :class:`~.cluster.Cluster`).

kube-scheduler spreads pods owned by a ReplicaSet or StatefulSet that set no topologySpreadConstraints of
their own with the default constraints (hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway): per feasible
node, ``round(count x ln(size + 2) + maxSkew - 1)`` summed over the constraints (count: the workload's pods on
the node, or in its zone over nodes matching the pod's node affinity; size: feasible nodes, or zone values
among them), normalised as ``100 x (max + min - s) / max`` and weighted 2 (sched: plugins/podtopologyspread/
scoring.go). Node states count each spreading workload's pods, so identical nodes stay grouped.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from gpupool.k8s import affinity

if TYPE_CHECKING:
    from gpupool.simulate.pods import Shape

HOSTNAME = "kubernetes.io/hostname"
MAX_SCORE = 100


class SpreadScoring:
    """Needs the cluster's pools, node states and labels, filters and the other scores."""

    pools: Any
    node_pool: Any
    node_state: Any
    node_name: Any
    spread_constraints: tuple[tuple[str, int], ...]
    owner_total: Any
    sc: Any
    _zone_version: int
    _zone_uniform: bool
    _uniform_labels: dict[str, str]

    def _zones_uniform(self) -> bool:
        """Every node has the same value (or none) for every spreading key other than the hostname."""
        if self._zone_version != len(self.node_pool):
            keys = [k for k, _ in self.spread_constraints if k != HOSTNAME]
            values = {(k, self.labels_of(n).get(k)) for n in range(len(self.node_pool)) for k in keys}
            self._zone_uniform = len(values) <= len(keys)
            self._uniform_labels = {k: v for k, v in values if v is not None}
            self._zone_version = len(self.node_pool)
        return self._zone_uniform

    def _spread_raw(
        self,
        shape: Shape,
        feasible: int,
        host_counts: list[int],
        labels: list[dict],
        zone_counts: dict[tuple[str, str], int],
    ) -> list[int]:
        """PodTopologySpread Score for each feasible node (before normalising): sum over the constraints of
        count x log(size + 2) + (maxSkew - 1), rounded (podtopologyspread/scoring.go)."""
        out = []
        weights = {}
        for key, _ in self.spread_constraints:
            if key == HOSTNAME:
                weights[key] = math.log(feasible + 2)
            else:
                values = {lab[key] for lab in labels if key in lab}
                weights[key] = math.log(len(values) + 2)
        for cnt, lab in zip(host_counts, labels, strict=True):
            score = 0.0
            for key, skew in self.spread_constraints:
                if key == HOSTNAME:
                    if key in lab:
                        score += cnt * weights[key] + (skew - 1)
                elif key in lab:
                    score += zone_counts.get((key, lab[key]), 0) * weights[key] + (skew - 1)
            out.append(math.floor(score + 0.5))  # Go's math.Round for positive numbers
        return out

    def _zone_keys(self, labels: list[dict]) -> set[tuple[str, str]]:
        """(key, value) of the non-hostname spreading keys the feasible nodes carry."""
        keys = [k for k, _ in self.spread_constraints if k != HOSTNAME]
        return {(k, lab[k]) for lab in labels for k in keys if k in lab}

    @staticmethod
    def _spread_normalised(raws: list[int]) -> list[int]:
        lo, hi = min(raws), max(raws)
        if hi == 0:
            return [MAX_SCORE] * len(raws)
        return [MAX_SCORE * (hi + lo - r) // hi for r in raws]

    def _zone_counts(self, shape: Shape, keys_values: set[tuple[str, str]]) -> dict[tuple[str, str], int]:
        """Pods of the workload per zone value, over nodes that match the pod's required node affinity."""
        owner = shape.spread_owner
        out: dict[tuple[str, str], int] = {}
        if owner is None or not keys_values:
            return out
        keys = {k for k, _ in keys_values}
        for nid in range(len(self.node_pool)):
            n = self.node_state[nid].owned(owner)
            if not n:
                continue
            lab = self.labels_of(nid)
            if not affinity.matches_node(shape.pod_spec, lab, self.node_name[nid]):
                continue
            for k in keys:
                if (k, lab.get(k)) in keys_values:
                    out[(k, lab[k])] = out.get((k, lab[k]), 0) + n
        return out

    def _select_spread(self, shape: Shape) -> int | None:
        """The fast path's choice for a pod that spreads by default, when every node has the same zone:
        every feasible (pool, state) is scored, since the spreading score is normalised over all feasible
        nodes. A pool's feasible states are cached until its set of states changes."""
        owner = shape.spread_owner
        assert owner is not None
        found = []  # (pool, [(state, bucket, base, count)])
        feasible = 0
        for pool in self.pools:
            if not pool.buckets or self.static(shape, pool) is not None:
                continue
            cached = pool.spread_cache.get(shape.id)
            if cached is None or cached[0] != pool.version:
                items = [
                    (state, bucket, self.base_score(pool, state, shape), state.owned(owner))
                    for state, bucket in pool.buckets.items()
                    if not self.fit(pool, state, shape)
                ]
                pool.spread_cache[shape.id] = (pool.version, items)
            else:
                items = cached[1]
            if items:
                found.append((pool, items))
                feasible += sum(len(it[1]) for it in items)
        if not found:
            return None
        if feasible == 1:
            return found[0][1][0][1].top()
        # raw score = round(count x ln(feasible + 2) + maxSkew - 1 [+ the same for each zone-like key])
        const = 0.0
        w_host = math.log(feasible + 2)
        for key, skew in self.spread_constraints:
            if key == HOSTNAME:
                const += skew - 1
            elif key in self._uniform_labels:  # one value: ln(1 + 2); the workload's pods all count
                const += self.owner_total[owner] * math.log(3) + skew - 1
        lo = hi = None
        raws = []
        for _, items in found:
            row = []
            for it in items:
                r = math.floor(it[3] * w_host + const + 0.5)  # Go's math.Round for positive numbers
                row.append(r)
                lo = r if lo is None or r < lo else lo
                hi = r if hi is None or r > hi else hi
            raws.append(row)
        assert lo is not None and hi is not None
        extra = self._normalised([self.pref_raw(shape, pool) for pool, _ in found]) if len(found) > 1 else [0]
        w = self.sc.w_spread
        best_total, best_node = -1, -1
        at_states = at_nodes = 0
        for (_, items), row, add in zip(found, raws, extra, strict=True):
            for it, r in zip(items, row, strict=True):
                sp = MAX_SCORE if hi == 0 else MAX_SCORE * (hi + lo - r) // hi
                total = it[2] + w * sp + add
                if total < best_total:
                    continue
                node = it[1].top()
                if total > best_total:
                    best_total, best_node, at_states, at_nodes = total, node, 0, 0
                elif node < best_node:
                    best_node = node
                at_states += 1
                at_nodes += len(it[1])
        self._note_tie(at_states, at_nodes)
        return best_node

