"""The scheduler core: nodes, kube-scheduler's filters and scores, binding, preemption and FitError.

Filters run in the default profile's order and stop at the first failure per node (kube-scheduler's
``RunFilterPlugins``): NodeUnschedulable, TaintToleration (NoSchedule/NoExecute), NodeAffinity (nodeSelector
and required node affinity), NodeResourcesFit (pods, cpu, memory, extended resources). Scores are the default
profile's: NodeResourcesFit LeastAllocated and NodeResourcesBalancedAllocation on cpu and memory only (GPUs
are not scored, which is why one-GPU pods spread over, and fragment, eight-GPU nodes), TaintToleration
(PreferNoSchedule) and preferred NodeAffinity, normalised over the feasible nodes.

Speed without changing the semantics: the nodes of a pool are identical, so they are grouped by *state*
(what is bound on them, by priority). A pod shape is evaluated once per (pool, state), not once per node; a
pool's best state for a shape is cached until the pool's set of states changes; within a state the lowest node
index wins ties (kube-scheduler breaks ties at random; gpupool is deterministic). Pods whose node selection
depends on per-node labels (hostname, zone) or names fall back to evaluating every node, with the same
functions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from gpupool.design.nodeshape import NodeShape, node_name, per_node_labels
from gpupool.k8s import affinity
from gpupool.k8s.facts import Messages, Scoring
from gpupool.k8s.taints import tolerates, untolerated
from gpupool.simulate import nodetree
from gpupool.simulate.diagnosis import FitDiagnosis
from gpupool.simulate.nodestate import Bucket, PoolState, State, vec_add, vec_sub
from gpupool.simulate.pods import Pod, Registry, Shape
from gpupool.simulate.spread import HOSTNAME, MAX_SCORE, SpreadScoring
from gpupool.spec.model import PoolSpec, Taint

UNSCHEDULABLE_TAINT = Taint("node.kubernetes.io/unschedulable", "", "NoSchedule")


class Cluster(SpreadScoring, FitDiagnosis):
    def __init__(
        self,
        registry: Registry,
        msgs: Messages,
        scoring: Scoring,
        pools: list[tuple[PoolSpec, NodeShape, bool]],
    ) -> None:
        self.registry = registry
        self.msgs = msgs
        self.sc = scoring
        self.names = registry.names
        self.width = len(registry.names)
        self._states: dict[tuple, State] = {}
        self._rids: dict[tuple, int] = {}
        self._spec_nodes: Counter[int] = Counter()  # nodes per pool spec (nodes are never removed)
        # (tolerations, nodeSelector, affinity) as text -> the pools a shape with them passes statically;
        # many workloads share these while each is its own shape (the pools' taints and labels are fixed)
        self._static_pools: dict[str, list[PoolState]] = {}
        self.empty = self._intern(0, 0, ())
        self.pools = [
            PoolState(i, spec, shape, registry.vector(shape.allocatable), cordoned)
            for i, (spec, shape, cordoned) in enumerate(pools)
        ]
        self.node_pool: list[int] = []
        self.node_state: list[State] = []
        self.node_name: list[str] = []
        self.node_labels: list[dict[str, str] | None] = []
        self.node_ordinal: list[int] = []
        self.node_pods: list[list[Pod]] = []
        self.node_young: list[bool] = []  # created less than CA's MaxNodeStartupTime ago
        self.node_zone: list[tuple] = []  # values of the non-hostname spreading keys (zone), per node
        self.by_name: dict[str, int] = {}
        self._affinity_cache: dict[tuple, tuple[int, ...]] = {}  # node selection -> groups it matches
        self.tree = nodetree.NodeTree()  # the scheduler cache's node order (its tie-break from 1.35)
        # (pod name, equal best nodes) -> the node: a test steers the random tie-breaks of < 1.35 with it
        self.tie_break: Callable[[str, set[int]], int] | None = None
        self._selecting = ""
        self.version = 0  # bumps on every change; caches of failures key on it
        self.placed_priorities: Counter[int] = Counter()
        # Choices kube-scheduler makes at random (equal best scores): "node" among identical nodes (same pool,
        # same state: the outcome is the same up to node names), "state" among different pools or states.
        self.ties: Counter[str] = Counter()
        # PodTopologySpread's system defaults: (topologyKey, maxSkew)
        self.spread_constraints: tuple[tuple[str, int], ...] = scoring.spread_defaults
        self.owner_total: Counter[int] = Counter()  # bound pods per spreading selector they match
        # (selector, key index, zone value, node group) -> bound pods that match the selector
        self.owner_zone: Counter[tuple] = Counter()
        self.zone_keys = tuple(k for k, _ in self.spread_constraints if k != HOSTNAME)

    # ---- states -------------------------------------------------------------------------------------

    def _intern(self, nz_cpu: int, nz_mem: int, prio: tuple, owners: tuple = ()) -> State:
        key = (nz_cpu, nz_mem, prio, owners)
        s = self._states.get(key)
        if s is None:
            vec = tuple([0] * self.width)
            for _, v in prio:
                vec = vec_add(vec, v)
            rkey = (vec, nz_cpu, nz_mem)
            rid = self._rids.get(rkey)
            if rid is None:
                rid = self._rids[rkey] = len(self._rids)
            s = State(len(self._states), vec, nz_cpu, nz_mem, prio, owners, rid)
            self._states[key] = s
        return s

    @staticmethod
    def _owners(state: State, shape: Shape, delta: int) -> tuple:
        """The node's pods per spreading selector, after adding (1) or removing (-1) a pod of ``shape``."""
        if not shape.spread_matches:
            return state.owners
        counts = dict(state.owners)
        for sel in shape.spread_matches:
            n = counts.get(sel, 0) + delta
            if n:
                counts[sel] = n
            else:
                counts.pop(sel, None)
        return tuple(sorted(counts.items()))

    def _plus(self, state: State, shape: Shape) -> State:
        nxt = state.next.get(shape.id)
        if nxt is None:
            p, items, done = shape.priority, [], False
            for q, v in state.prio:
                if q == p:
                    items.append((q, vec_add(v, shape.req)))
                    done = True
                else:
                    items.append((q, v))
            if not done:
                items.append((p, shape.req))
                items.sort(key=lambda t: t[0])
            nxt = self._intern(
                state.nz_cpu + shape.nz_cpu,
                state.nz_mem + shape.nz_mem,
                tuple(items),
                self._owners(state, shape, 1),
            )
            state.next[shape.id] = nxt
        return nxt

    def _minus(self, state: State, shape: Shape) -> State:
        items = []
        for q, v in state.prio:
            if q == shape.priority:
                v = vec_sub(v, shape.req)
                if not any(v):
                    continue
            items.append((q, v))
        owners = self._owners(state, shape, -1)
        return self._intern(state.nz_cpu - shape.nz_cpu, state.nz_mem - shape.nz_mem, tuple(items), owners)

    # ---- nodes --------------------------------------------------------------------------------------

    @property
    def num_nodes(self) -> int:
        return len(self.node_pool)

    def spec_nodes(self, spec_idx: int) -> int:
        """Nodes of one pool (all its node groups)."""
        return self._spec_nodes[spec_idx]

    def add_group(self, spec_idx: int, spec: PoolSpec, shape: NodeShape, cordoned: bool) -> int:
        """A further group of nodes of pool ``spec_idx`` (real nodes that differ from the pool's design)."""
        idx = len(self.pools)
        alloc = self.registry.vector(shape.allocatable)
        self.pools.append(PoolState(idx, spec, shape, alloc, cordoned, spec_idx))
        return idx

    def add_existing(self, group_idx: int, name: str, labels: dict[str, str], young: bool = False) -> int:
        """A real node, with its own name and labels."""
        nid = self._add_node(self.pools[group_idx], name, dict(labels), young)
        self.version += 1
        return nid

    def add_nodes(self, pool_idx: int, count: int, young: bool = False) -> list[int]:
        """``count`` new nodes of a pool, named as AKS names VMSS instances (labels built when first read)."""
        pool = self.pools[pool_idx]
        new = []
        for _ in range(count):
            name = node_name(pool.spec, pool.created)
            while name in self.by_name:  # a real node already has the name
                pool.created += 1
                name = node_name(pool.spec, pool.created)
            new.append(self._add_node(pool, name, None, young))
        self.version += 1
        return new

    def _add_node(self, pool: PoolState, name: str, labels: dict[str, str] | None, young: bool) -> int:
        nid = len(self.node_pool)
        self.node_pool.append(pool.idx)
        self.node_state.append(self.empty)
        self.node_name.append(name)
        self.node_labels.append(labels)
        self.node_ordinal.append(pool.created)
        self.node_pods.append([])
        self.node_young.append(young)
        self.by_name[name] = nid
        self.node_zone.append(self._zone_of(nid))
        self.tree.add(nid, self.labels_of(nid))
        self._move(pool, nid, None, self.empty)
        pool.nodes.append(nid)
        pool.created += 1
        self._spec_nodes[pool.spec_idx] += 1
        return nid

    def labels_of(self, nid: int) -> dict[str, str]:
        labels = self.node_labels[nid]
        if labels is None:
            pool = self.pools[self.node_pool[nid]]
            labels = {
                **pool.labels,
                **per_node_labels(pool.shape, self.node_name[nid], self.node_ordinal[nid]),
            }
            self.node_labels[nid] = labels
        return labels

    def _move(self, pool: PoolState, nid: int, old: State | None, new: State) -> None:
        zone = self.node_zone[nid]
        if old is not None:
            bucket = pool.buckets[old]
            bucket.discard(nid, zone)
            if not bucket.members:
                del pool.buckets[old]
                pool.version += 1
        bucket = pool.buckets.get(new)
        if bucket is None:
            bucket = pool.buckets[new] = Bucket()
            pool.version += 1
        bucket.add(nid, zone)
        self.node_state[nid] = new

    def bind(self, pod: Pod, nid: int) -> None:
        pool = self.pools[self.node_pool[nid]]
        old = self.node_state[nid]
        self._move(pool, nid, old, self._plus(old, pod.shape))
        self.node_pods[nid].append(pod)
        pod.node = nid
        self.placed_priorities[pod.priority] += 1
        group = self.node_pool[nid]
        for sel in pod.shape.spread_matches:
            self.owner_total[sel] += 1
            for i, v in enumerate(self.node_zone[nid]):
                self.owner_zone[(sel, i, v, group)] += 1
        self.version += 1

    def unbind(self, pod: Pod) -> None:
        nid = pod.node
        assert nid is not None
        pool = self.pools[self.node_pool[nid]]
        old = self.node_state[nid]
        self._move(pool, nid, old, self._minus(old, pod.shape))
        self.node_pods[nid].remove(pod)
        pod.node = None
        group = self.node_pool[nid]
        for sel in pod.shape.spread_matches:
            self.owner_total[sel] -= 1
            for i, v in enumerate(self.node_zone[nid]):
                self.owner_zone[(sel, i, v, group)] -= 1
        self.placed_priorities[pod.priority] -= 1
        if not self.placed_priorities[pod.priority]:
            del self.placed_priorities[pod.priority]
        self.version += 1

    # ---- filters ------------------------------------------------------------------------------------

    def _taint_and_unschedulable(self, shape: Shape, pool: PoolState) -> str | None:
        if pool.cordoned and not any(tolerates(t, UNSCHEDULABLE_TAINT) for t in shape.tolerations):
            return self.msgs.unschedulable
        bad = untolerated(pool.taints, shape.tolerations)
        if bad:
            return self.msgs.taint(bad[0].key, bad[0].value)
        return None

    def static(self, shape: Shape, pool: PoolState) -> str | None:
        """NodeUnschedulable, TaintToleration, NodeAffinity for a pool's nodes (same for all of them)."""
        cache = pool.static_cache
        key = self._static_key(shape)
        if key in cache:
            return cache[key]
        reason = self._taint_and_unschedulable(shape, pool)
        if reason is None and not shape.varying and not affinity.matches_node(shape.pod_spec, pool.labels):
            reason = self.msgs.node_affinity
        cache[key] = reason
        return reason

    @staticmethod
    def _static_key(shape: Shape) -> str:
        """All that :meth:`static` depends on (many workloads share it while each is its own shape)."""
        key = shape.cache.get("static-key")  # set by the ShapeBook
        if key is None:
            spec = shape.pod_spec
            key = shape.cache["static-key"] = repr(
                (shape.tolerations, spec.get("nodeSelector"), spec.get("affinity"))
            )
        return key

    def static_pools(self, shape: Shape) -> list[PoolState]:
        """The pools whose nodes pass :meth:`static` for a shape that does not vary by node."""
        key = self._static_key(shape)
        found = self._static_pools.get(key)
        if found is None:
            found = self._static_pools[key] = [p for p in self.pools if self.static(shape, p) is None]
        return found

    def static_node(self, shape: Shape, nid: int) -> str | None:
        pool = self.pools[self.node_pool[nid]]
        if not shape.varying:
            return self.static(shape, pool)
        reason = self._taint_and_unschedulable(shape, pool)
        if reason is None and not affinity.matches_node(
            shape.pod_spec, self.labels_of(nid), self.node_name[nid]
        ):
            reason = self.msgs.node_affinity
        return reason

    def fit_vec(self, alloc: tuple[int, ...], used: tuple[int, ...], req: tuple[int, ...]) -> tuple[str, ...]:
        """NodeResourcesFit: "Too many pods", then cpu, memory, then the extended resources."""
        reasons = []
        if used[0] + 1 > alloc[0]:
            reasons.append(self.msgs.too_many_pods)
        for i in range(1, self.width):
            r = req[i]
            if r and r > alloc[i] - used[i]:
                reasons.append(self.msgs.insufficient_of(self.names[i]))
        return tuple(reasons)

    def fit(self, pool: PoolState, state: State, shape: Shape) -> tuple[str, ...]:
        key = (state.rid, shape.rid)
        r = pool.fit_cache.get(key)
        if r is None:
            r = self.fit_vec(pool.alloc, state.vec, shape.req)
            pool.fit_cache[key] = r
        return r

    # ---- scores -------------------------------------------------------------------------------------

    def base_score(self, pool: PoolState, state: State, shape: Shape) -> int:
        key = (state.rid, shape.rid)
        s = pool.score_cache.get(key)
        if s is None:
            s = self._base_score(pool.alloc, state, shape)
            pool.score_cache[key] = s
        return s

    def _base_score(self, alloc: tuple[int, ...], state: State, shape: Shape) -> int:
        cpu_cap, mem_cap = alloc[1], alloc[2]
        # NodeResourcesFit, LeastAllocated, non-zero requests (cpu and memory, weight 1 each)
        total = weight = 0
        for req, cap in ((state.nz_cpu + shape.nz_cpu, cpu_cap), (state.nz_mem + shape.nz_mem, mem_cap)):
            if cap == 0:
                continue
            total += 0 if req > cap else (cap - req) * MAX_SCORE // cap
            weight += 1
        least = total // weight if weight else 0
        # NodeResourcesBalancedAllocation on actual requests; skipped for best-effort pods
        balanced = 0
        if not shape.best_effort:
            fr = []
            for req, cap in ((state.vec[1] + shape.cpu, cpu_cap), (state.vec[2] + shape.mem, mem_cap)):
                if cap == 0:
                    continue
                fr.append(min(req / cap, 1.0))
            std = abs((fr[0] - fr[1]) / 2) if len(fr) == 2 else 0.0
            balanced = int((1 - std) * MAX_SCORE)
        return self.sc.w_fit * least + self.sc.w_balanced * balanced

    def pref_raw(
        self, shape: Shape, pool: PoolState, labels: dict[str, str] | None = None
    ) -> tuple[int, int]:
        """(intolerable PreferNoSchedule taints, sum of matching preferred-affinity weights)."""
        if labels is None:
            key = ("pref", pool.uid)
            if key in shape.cache:
                return shape.cache[key]
        tols = [
            t
            for t in shape.tolerations
            if isinstance(t, dict) and (t.get("effect") or "PreferNoSchedule") == "PreferNoSchedule"
        ]
        taint = len(untolerated(pool.taints, tols, ("PreferNoSchedule",)))
        lab = labels if labels is not None else pool.labels
        aff = sum(w for w, term in shape.preferred if affinity.term_matches(term, lab))
        if labels is None:
            shape.cache[("pref", pool.uid)] = (taint, aff)
        return taint, aff

    def _normalised(self, raws: list[tuple[int, int]]) -> list[int]:
        max_t = max(t for t, _ in raws)
        max_a = max(a for _, a in raws)
        out = []
        for t, a in raws:
            ts = MAX_SCORE if max_t == 0 else MAX_SCORE - MAX_SCORE * t // max_t
            as_ = 0 if max_a == 0 else MAX_SCORE * a // max_a
            out.append(self.sc.w_taint * ts + self.sc.w_affinity * as_)
        return out

    # ---- scheduling ---------------------------------------------------------------------------------

    def _pool_best(self, pool: PoolState, shape: Shape) -> tuple[int, list[State]]:
        cached = pool.best_cache.get(shape.id)
        if cached is not None and cached[0] == pool.version:
            return cached[1], cached[2]
        best, states = -1, []
        for state in pool.buckets:
            if self.fit(pool, state, shape):
                continue
            s = self.base_score(pool, state, shape)
            if s > best:
                best, states = s, [state]
            elif s == best:
                states.append(state)
        pool.best_cache[shape.id] = (pool.version, best, states)
        return best, states

    def candidates(self, pod: Pod) -> list[int] | None:
        """Nodes a PreFilterResult leaves (DaemonSet pin or ``metadata.name In``); None = every node."""
        if pod.pin is not None:
            return [pod.pin]
        if pod.shape.prefilter is not None:
            return sorted(self.by_name[n] for n in pod.shape.prefilter if n in self.by_name)
        return None

    def select(self, pod: Pod) -> int | None:
        """The node kube-scheduler would bind ``pod`` to, or None when no node passes the filters."""
        shape = pod.shape
        if not self.node_pool:
            return None
        self._selecting = pod.name
        cands = self.candidates(pod)
        if cands is None and not shape.varying:
            if shape.spread_owner is not None and self.spread_constraints:
                return self._select_spread(shape)
            return self._select_fast(shape)
        nodes = cands if cands is not None else range(len(self.node_pool))
        return self._select_nodes(shape, nodes)

    def _select_fast(self, shape: Shape) -> int | None:
        found = []
        for pool in self.static_pools(shape):
            if not pool.buckets:
                continue
            score, states = self._pool_best(pool, shape)
            if score >= 0:
                found.append((pool, score, states))
        if not found:
            return None
        if len(found) == 1:
            pool, _, states = found[0]
            nodes = sum(len(pool.buckets[s]) for s in states)
            self._note_tie(len(states), nodes)
            low = min(pool.buckets[s].top() for s in states)
            if nodes > 1:
                best = [pool.buckets[s].members for s in states]
                return self._tie(best, low, lambda: self._feasible_in(shape, [pool]))
            return low
        extra = self._normalised([self.pref_raw(shape, p) for p, _, _ in found])
        best_total, best_node, at_best = -1, None, []
        for (pool, score, states), add in zip(found, extra, strict=True):
            total = score + add
            node = min(pool.buckets[s].top() for s in states)
            if total > best_total:
                at_best = []
            if total >= best_total:
                at_best.append((pool, states))
            if total > best_total or (total == best_total and node < best_node):  # type: ignore[operator]
                best_total, best_node = total, node
        nodes = sum(len(pool.buckets[s]) for pool, states in at_best for s in states)
        self._note_tie(sum(len(states) for _, states in at_best), nodes)
        if nodes > 1:
            best = [pool.buckets[s].members for pool, states in at_best for s in states]
            return self._tie(best, best_node, lambda: self._feasible_in(shape, [p for p, _, _ in found]))
        return best_node

    def _tie(self, best: list, lowest: int, feasible: Callable[[], set[int]]) -> int:
        """The node among equal best ones (``best``: sets of node ids). From 1.35, where the scheduler scores
        every node, its heap's choice over the feasible nodes in node-tree order; before, it picks at random
        and gpupool takes the lowest node index (``lowest``). ``tie_break`` (tests) overrides both."""
        if self.tie_break is not None:
            return self.tie_break(self._selecting, set().union(*best))
        if not self.msgs.ordered_ties or len(self.node_pool) >= self.msgs.ordered_ties_below:
            return lowest
        ids = feasible()
        return nodetree.heap_pick([n for n in self.tree.order() if n in ids], set().union(*best))

    def _feasible_in(self, shape: Shape, pools: list[PoolState]) -> set[int]:
        """The nodes of ``pools`` that pass the resource filter for ``shape`` (the pools pass the others)."""
        out: set[int] = set()
        for pool in pools:
            for state, bucket in pool.buckets.items():
                if not self.fit(pool, state, shape):
                    out |= bucket.members
        return out

    def _note_tie(self, states: int, nodes: int) -> None:
        if states > 1:
            self.ties["state"] += 1
        elif nodes > 1:
            self.ties["node"] += 1

    def _select_nodes(self, shape: Shape, nodes) -> int | None:  # type: ignore[no-untyped-def]
        feasible = []
        for nid in nodes:
            if self.static_node(shape, nid) is not None:
                continue
            pool = self.pools[self.node_pool[nid]]
            state = self.node_state[nid]
            if self.fit(pool, state, shape):
                continue
            labels = self.labels_of(nid) if shape.varying else None
            feasible.append((nid, self.base_score(pool, state, shape), self.pref_raw(shape, pool, labels)))
        if not feasible:
            return None
        extra = self._normalised([f[2] for f in feasible])
        totals = [f[1] + e for f, e in zip(feasible, extra, strict=True)]
        if shape.spread_owner is not None and self.spread_constraints and len(feasible) > 1:
            owner = shape.spread_owner
            labels_f = [self.labels_of(f[0]) for f in feasible]
            counts = [self.node_state[f[0]].owned(owner) for f in feasible]
            zone_counts = self._zone_counts(shape, self._zone_keys(labels_f))
            raws = self._spread_raw(shape, len(feasible), counts, labels_f, zone_counts)
            spread = self._spread_normalised(raws)
            totals = [t + self.sc.w_spread * sp for t, sp in zip(totals, spread, strict=True)]
        top = max(totals)
        at_best = [f[0] for f, t in zip(feasible, totals, strict=True) if t == top]
        kinds = {(self.node_pool[n], self.node_state[n].id) for n in at_best}
        self._note_tie(len(kinds), len(at_best))
        if len(at_best) > 1:
            return self._tie([set(at_best)], at_best[0], lambda: {f[0] for f in feasible})
        return at_best[0]

    # ---- diagnosis ----------------------------------------------------------------------------------

    # ---- summaries ----------------------------------------------------------------------------------

    def pool_states(self, pool: PoolState) -> list[tuple[State, int]]:
        """(state, number of nodes in it) for a pool."""
        return [(state, len(bucket)) for state, bucket in pool.buckets.items()]

    def pool_used(self, pool: PoolState) -> tuple[int, ...]:
        total = tuple([0] * self.width)
        for state, bucket in pool.buckets.items():
            if state.prio:
                total = vec_add(total, tuple(x * len(bucket) for x in state.vec))
        return total
