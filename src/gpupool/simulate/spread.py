"""PodTopologySpread's system default constraints in scoring (a mixin of :class:`~.cluster.Cluster`).

kube-scheduler spreads pods owned by a ReplicaSet or StatefulSet that set no topologySpreadConstraints of
their own with the default constraints (hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway): per feasible
node, ``round(count x ln(size + 2) + maxSkew - 1)`` summed over the constraints (count: the pods on the node
that match the selector, or in its zone over nodes matching the pod's required node affinity; size: feasible
nodes, or zone values among them), normalised as ``100 x (max + min - s) / max`` and weighted 2 (sched:
plugins/podtopologyspread/scoring.go). The selector is the owner's (pkg/scheduler/util DefaultSelector): it
counts every pod of the namespace whose labels match it, the workload's own, bare pods, other workloads'
and the pods already running, not only the workload's. A pod shape carries the selectors it matches
(``spread_matches``) and, when it spreads, the one it is scored by (``spread_owner``). Node states count
pods per selector, so identical nodes stay grouped; each group keeps its nodes by zone, and bound pods are
counted per selector, zone and node group as they bind.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gpupool.simulate.pods import Shape

HOSTNAME = "kubernetes.io/hostname"
MAX_SCORE = 100


def raw_score(terms: Iterable[tuple[int, float, int]]) -> int:
    """PodTopologySpread's raw score of a node: over its constraints, count x weight + (maxSkew - 1), summed
    and rounded as Go's math.Round rounds a positive number (podtopologyspread/scoring.go)."""
    score = 0.0
    for count, weight, skew in terms:
        score += count * weight + (skew - 1)
    return math.floor(score + 0.5)


def normalised(raw: int, lo: int, hi: int) -> int:
    """A raw score on the 0..MAX_SCORE scale, lowest raw best (NormalizeScore over the feasible nodes)."""
    return MAX_SCORE if hi == 0 else MAX_SCORE * (hi + lo - raw) // hi


class SpreadScoring:
    """Needs the cluster's pools, node states and labels, filters and the other scores."""

    pools: Any
    node_pool: Any
    node_state: Any
    node_name: Any
    node_zone: Any
    spread_constraints: tuple[tuple[str, int], ...]
    owner_total: Any
    sc: Any
    owner_zone: Any
    zone_keys: tuple[str, ...]
    labels_of: Any
    _tie: Any
    _affinity_cache: dict

    def _zone_of(self, nid: int) -> tuple:
        """The node's values of the non-hostname spreading keys (None where it has no such label)."""
        labels = self.labels_of(nid)
        return tuple(labels.get(k) for k in self.zone_keys)

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
            out.append(
                raw_score(
                    (cnt if key == HOSTNAME else zone_counts.get((key, lab[key]), 0), weights[key], skew)
                    for key, skew in self.spread_constraints
                    if key in lab
                )
            )
        return out

    def _zone_keys(self, labels: list[dict]) -> set[tuple[str, str]]:
        """(key, value) of the non-hostname spreading keys the feasible nodes carry."""
        keys = [k for k, _ in self.spread_constraints if k != HOSTNAME]
        return {(k, lab[k]) for lab in labels for k in keys if k in lab}

    @staticmethod
    def _spread_normalised(raws: list[int]) -> list[int]:
        lo, hi = min(raws), max(raws)
        return [normalised(r, lo, hi) for r in raws]

    def _zone_counts(self, shape: Shape, keys_values: set[tuple[str, str]]) -> dict[tuple[str, str], int]:
        """The pods matching the shape's selector per zone value, on nodes that match the pod's required node
        affinity (NodeAffinityPolicy Honor; taints are ignored). A shape whose affinity reads per-node labels
        is checked node by node."""
        owner = shape.spread_owner
        index = {k: i for i, k in enumerate(self.zone_keys)}
        if not shape.varying:
            return {(k, v): self._zone_count(shape, index[k], v) for k, v in keys_values if k in index}
        from gpupool.k8s import affinity

        out = dict.fromkeys(((k, v) for k, v in keys_values if k in index), 0)
        for nid in range(len(self.node_pool)):
            n = self.node_state[nid].owned(owner)
            if not n or not affinity.matches_node(shape.pod_spec, self.labels_of(nid), self.node_name[nid]):
                continue
            for i, v in enumerate(self.node_zone[nid]):
                key = (self.zone_keys[i], v)
                if key in out:
                    out[key] += n
        return out

    def _affinity_groups(self, shape: Shape) -> tuple[int, ...]:
        """Node groups whose nodes match the shape's required node affinity (a shape that does not vary)."""
        from gpupool.k8s import affinity

        key = (shape.key[4], len(self.pools))  # node selection as text: many shapes share it
        found = self._affinity_cache.get(key)
        if found is None:
            found = self._affinity_cache[key] = tuple(
                p.idx for p in self.pools if affinity.matches_node(shape.pod_spec, p.labels)
            )
        return found

    def _zone_count(self, shape: Shape, i: int, value: Any) -> int:
        owner = shape.spread_owner
        zone = self.owner_zone
        return sum(zone[(owner, i, value, g)] for g in self._affinity_groups(shape))

    def _select_spread(self, shape: Shape) -> int | None:
        """The fast path's choice for a pod that spreads by default: every feasible (pool, state, zone) is
        scored, since the spreading score is normalised over all feasible nodes. A pool's feasible states are
        cached until its set of states changes; nodes of a state are kept by zone."""
        owner = shape.spread_owner
        assert owner is not None
        found = []  # (pool, [(bucket of one zone, zone, base, count)])
        feasible = 0
        for pool in self.static_pools(shape):
            if not pool.buckets:
                continue
            cached = pool.spread_cache.get(shape.id)
            if cached is None or cached[0] != pool.version:
                items = [
                    (bucket, self.base_score(pool, state, shape), state.owned(owner))
                    for state, bucket in pool.buckets.items()
                    if not self.fit(pool, state, shape)
                ]
                pool.spread_cache[shape.id] = (pool.version, items)
            else:
                items = cached[1]
            rows = [(sub, zone, base, n) for bucket, base, n in items for zone, sub in bucket.zones.items()]
            if rows:
                found.append((pool, rows))
                feasible += sum(len(r[0]) for r in rows)
        if not found:
            return None
        if feasible == 1:
            return found[0][1][0][0].top()
        # raw_score per row: the weight of a constraint is ln(its feasible size + 2)
        host = [skew for key, skew in self.spread_constraints if key == HOSTNAME]
        others = [skew for key, skew in self.spread_constraints if key != HOSTNAME]
        zoned = list(enumerate(others))  # (index into the zone tuple, maxSkew)
        w_host = math.log(feasible + 2)
        w_zone = []
        for i, _ in zoned:
            values = {r[1][i] for _, rows in found for r in rows if r[1][i] is not None}
            w_zone.append(math.log(len(values) + 2))
        lo = hi = None
        raws = []
        zone_counts: dict[tuple[int, Any], int] = {}
        for _, rows in found:
            line = []
            for _, zone, _, cnt in rows:
                terms = [(cnt, w_host, skew) for skew in host]
                for (i, skew), w in zip(zoned, w_zone, strict=True):
                    if zone[i] is not None:
                        zc = zone_counts.get((i, zone[i]))
                        if zc is None:
                            zc = zone_counts[(i, zone[i])] = self._zone_count(shape, i, zone[i])
                        terms.append((zc, w, skew))
                r = raw_score(terms)
                line.append(r)
                lo = r if lo is None or r < lo else lo
                hi = r if hi is None or r > hi else hi
            raws.append(line)
        assert lo is not None and hi is not None
        extra = self._normalised([self.pref_raw(shape, pool) for pool, _ in found]) if len(found) > 1 else [0]
        w = self.sc.w_spread
        best_total, best_node = -1, -1
        at_states = at_nodes = 0
        best_rows: list = []
        for (_, rows), line, add in zip(found, raws, extra, strict=True):
            for row, r in zip(rows, line, strict=True):
                sp = normalised(r, lo, hi)
                total = row[2] + w * sp + add
                if total < best_total:
                    continue
                node = row[0].top()
                if total > best_total:
                    best_total, best_node, at_states, at_nodes = total, node, 0, 0
                    best_rows = []
                elif node < best_node:
                    best_node = node
                at_states += 1
                at_nodes += len(row[0])
                best_rows.append(row[0].members)
        self._note_tie(at_states, at_nodes)
        if at_nodes > 1:
            return self._tie(
                best_rows, best_node, lambda: {n for _, rows in found for r in rows for n in r[0].members}
            )
        return best_node
