"""Why a pod does not fit, as kube-scheduler says it (FitError: nodes grouped by the first filter that
fails them, then the PostFilter's preemption verdict), and what preemption would evict. A part of
:class:`~gpupool.simulate.cluster.Cluster`, kept apart as :mod:`.spread` is."""

from __future__ import annotations

from collections import Counter
from typing import Any

from gpupool.simulate import messages
from gpupool.simulate.nodestate import Diagnosis, Group, vec_add
from gpupool.simulate.pods import Pod


class FitDiagnosis:
    """Needs the cluster's pools, node states, filters and messages."""

    pools: Any
    node_pool: Any
    node_state: Any
    msgs: Any

    def groups(self, pod: Pod) -> tuple[list[Group], str | None]:
        """Every node with its filter outcome, grouped; and a PreFilter failure message, if any."""
        shape = pod.shape
        out: list[Group] = []
        if shape.prefilter is not None and not shape.prefilter and pod.pin is None:
            return [
                Group(len(self.node_pool), (self.msgs.affinity_conflict,), True)
            ], self.msgs.affinity_conflict
        cands = self.candidates(pod)
        if cands is None and not shape.varying:
            for pool in self.pools:
                if not pool.nodes:
                    continue
                reason = self.static(shape, pool)
                if reason is not None:
                    out.append(Group(len(pool.nodes), (reason,), True, pool))
                    continue
                for state, bucket in pool.buckets.items():
                    out.append(
                        Group(len(bucket), self.fit(pool, state, shape), False, pool, state, bucket.members)
                    )
            return out, None
        nodes = cands if cands is not None else range(len(self.node_pool))
        seen = 0
        for nid in nodes:
            seen += 1
            pool = self.pools[self.node_pool[nid]]
            reason = self.static_node(shape, nid)
            if reason is not None:
                out.append(Group(1, (reason,), True, pool, None, [nid]))
                continue
            state = self.node_state[nid]
            out.append(Group(1, self.fit(pool, state, shape), False, pool, state, [nid]))
        absent = len(self.node_pool) - seen
        if absent:
            out.append(Group(absent, (self.msgs.absent_nodes,), True))
        return out, None

    def diagnose(self, pod: Pod) -> Diagnosis:
        """kube-scheduler's message for a pod no node takes, and nodes where preemption would make room."""
        if not self.node_pool:
            return Diagnosis(self.msgs.no_nodes, [])
        groups, pre = self.groups(pod)
        reasons: Counter[str] = Counter()
        if pre is None:
            for g in groups:
                for r in g.reasons:
                    reasons[r] += g.count
        post, cands = self._preemption(pod, groups)
        return Diagnosis(messages.fit_error(self.msgs, len(self.node_pool), reasons, post, pre), cands)

    def _preemption(self, pod: Pod, groups: list[Group]) -> tuple[str | None, list[int]]:
        shape = pod.shape
        if shape.preempt_never:
            return messages.preemption_never(self.msgs), []
        p = shape.priority
        hist: Counter[str] = Counter()
        cands: list[int] = []
        for g in groups:
            if g.unresolvable or g.state is None or g.pool is None:
                hist[self.msgs.not_helpful] += g.count
                continue
            if not g.reasons:  # fits (can happen only when asked about a pod that was not tried)
                continue
            if self.msgs.fit_unresolvable and any(
                r > a for r, a in zip(shape.req, g.pool.alloc, strict=True)
            ):
                hist[self.msgs.not_helpful] += g.count  # allocatable can never hold it (1.34+)
                continue
            state = g.state
            if not any(q < p for q, _ in state.prio):
                hist[self.msgs.no_victims] += g.count
                continue
            remaining = tuple([0] * self.width)
            for q, v in state.prio:
                if q >= p:
                    remaining = vec_add(remaining, v)
            again = self.fit_vec(g.pool.alloc, remaining, shape.req)
            if again:
                for r in again:
                    hist[r] += g.count
            else:
                cands.extend(g.nodes or ())
        if cands:
            return None, sorted(cands)
        return messages.preemption(self.msgs, len(self.node_pool), hist), []

    def preempt(self, pod: Pod, cands: list[int]) -> tuple[int, list[Pod]]:
        """Pick the node and victims as DefaultPreemption does (minus PDBs and start times), evict, bind."""
        shape = pod.shape
        best_key, best = None, None
        for nid in cands:
            pool = self.pools[self.node_pool[nid]]
            keep = [q for q in self.node_pods[nid] if q.priority >= shape.priority]
            lower = sorted(
                (q for q in self.node_pods[nid] if q.priority < shape.priority),
                key=lambda q: (-q.priority, q.seq),
            )
            used = tuple([0] * self.width)
            for q in keep:
                used = vec_add(used, q.shape.req)
            victims = []
            for q in lower:  # reprieve the most important first
                trial = vec_add(used, q.shape.req)
                if not self.fit_vec(pool.alloc, trial, shape.req):
                    used = trial
                else:
                    victims.append(q)
            if not victims:
                continue
            key = (max(v.priority for v in victims), sum(v.priority for v in victims), len(victims), nid)
            if best_key is None or key < best_key:
                best_key, best = key, (nid, victims)
        assert best is not None
        nid, victims = best
        for v in victims:
            self.unbind(v)
        self.bind(pod, nid)
        return nid, victims
