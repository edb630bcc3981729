"""The run of a simulation: create each pool's ``nodeCount`` nodes (DaemonSet pods land on every eligible node
as they join), schedule the workload pods in kube-scheduler's queue order (priority, then creation order),
then, while pods stay Pending, let the cluster autoscaler add nodes to autoscaled pools (one scale-up per
loop, as CA does) and schedule the pending pods again. Fills a :class:`~.model.Run`; no messages.
"""

from __future__ import annotations

import json
from collections import Counter

from gpupool.design.nodeshape import NodeShape, aks_template, group_id, node_shape
from gpupool.errors import InputError
from gpupool.k8s import facts, selectors
from gpupool.k8s.workloads import Workload
from gpupool.simulate import messages
from gpupool.simulate.autoscaler import Option, ScaleUp, Template, choose
from gpupool.simulate.cluster import Cluster
from gpupool.simulate.inputs import Inputs, WorkloadInput
from gpupool.simulate.model import AUTOSCALER_MODES, EXPANDERS, MAX_PODS, Options, Run, WorkloadInfo
from gpupool.simulate.pods import Pod, Registry, Shape, ShapeBook, effective_requests
from gpupool.simulate.start import resolve_pools, scheduling_key, shape_of
from gpupool.spec.model import PoolSpec


def pod_labels(w: Workload) -> dict:
    """The labels of the workload's pods: its pod template's, or a bare Pod's own (k8s.podspecs gives a Pod's
    template no metadata)."""
    meta = w.pod_metadata
    if w.kind == "Pod" and not meta.get("labels"):
        meta = w.obj.get("metadata") if isinstance(w.obj.get("metadata"), dict) else {}
    labels = meta.get("labels")
    return labels if isinstance(labels, dict) else {}


class Runner:
    """Everything a run needs, built once; :meth:`run` places the pods under one autoscaler model (where each
    pod lands, what stays Pending, the scale-ups); the words come after (:mod:`.explain`)."""

    added_young = False
    """Nodes the simulated autoscaler adds count as past CA's start-up time in later loops: the run describes
    where the loops settle, so a GPU node that never advertises its GPUs ends as plain unready (CA scales its
    pool again from the VM size), not as upcoming. Only a real cluster's young nodes are upcoming."""

    def __init__(self, inputs: Inputs, options: Options) -> None:
        if options.autoscaler not in AUTOSCALER_MODES:
            raise InputError(
                None,
                None,
                f"autoscaler model {options.autoscaler!r}: expected one of {', '.join(AUTOSCALER_MODES)}",
            )
        if options.expander not in EXPANDERS:
            raise InputError(
                None, None, f"expander {options.expander!r}: expected one of {', '.join(EXPANDERS)}"
            )
        self.inputs = inputs
        self.options = options
        self.start = options.start
        self.pools = resolve_pools(inputs.pools, self.start) if self.start is not None else inputs.pools
        if not self.pools and not (inputs.nap and inputs.nap.node_pools):
            raise InputError(None, None, "no pool spec found among the inputs, and the cluster has no nodes")
        self.version = self._version()
        self.msgs = facts.messages(self.version)
        self.scoring = facts.scoring()
        self.reservations = options.reservations or facts.default_reservations()
        self.default_max_pods = options.default_max_pods or facts.default_max_pods().value
        names = {p.name for p in self.pools}
        for c in options.cordon:
            if c not in names:
                raise InputError(
                    None, None, f"--cordon {c}: no such pool (pools: {', '.join(sorted(names))})"
                )
        self.shapes_real: list[NodeShape] = [self._real_shape(p) for p in self.pools]
        self.workloads = [self._workload(w) for w in inputs.workloads]
        if self.start is not None:
            for w in self.start.daemonsets:
                where = f"{self.start.source} (DaemonSet {w.namespace}/{w.name})"
                wi = WorkloadInput(w, where, 1, len(self.workloads))
                info = self._workload(wi)
                info.existing = True
                self.workloads.append(info)
        total = sum(w.count or 0 for w in self.workloads)
        if total > MAX_PODS:
            big = max(self.workloads, key=lambda w: w.count or 0)
            raise InputError(
                big.input.path,
                big.input.line,
                f"the workloads make {total:,} pods; gpupool simulates at most {MAX_PODS:,}",
                f"{big.ref} alone has {big.count:,} replicas",
            )
        gpu = facts.autoscaler().gpu_resource
        resource_names: set[str] = {gpu}
        for s in self.shapes_real:
            resource_names |= set(s.allocatable)
        self.existing_requests: list[tuple[dict[str, int], int, int]] = []
        if self.start is not None:
            for n in self.start.nodes:
                resource_names |= set(n.allocatable)
            seen: dict[str, tuple[dict[str, int], int, int]] = {}
            for ep in self.start.pods:
                key = ep.key or scheduling_key(ep.spec, ep.priority)
                reqs = seen.get(key)
                if reqs is None:  # pods of one controller share their spec: compute once
                    reqs = seen[key] = effective_requests(ep.spec)
                    resource_names |= set(reqs[0])
                self.existing_requests.append(reqs)
        for w in self.workloads:
            resource_names |= set(w.requests)
        self.registry = Registry(resource_names)
        self.book = ShapeBook(self.registry, options.extended_resource_toleration)
        # PodTopologySpread's default selectors: (namespace, label selector) of each spreading workload
        self.spread_selectors: list[tuple[str, dict]] = []
        self._spread_matches: dict[tuple, tuple[int, ...]] = {}
        self._selector_index: dict[tuple[str, str, str], list[int]] = {}
        owners: dict[int, int] = {}
        known: dict[tuple[str, str], int] = {}
        for w in self.workloads:
            sel = None if w.is_daemonset else self._spread_selector(w)
            if sel is not None:
                key = (w.input.workload.namespace, json.dumps(sel, sort_keys=True, default=str))
                if key not in known:
                    known[key] = len(self.spread_selectors)
                    self.spread_selectors.append((key[0], sel))
                    # indexed by one matchLabels pair (a pod must carry it), or by namespace alone
                    pairs = sorted((str(k), str(v)) for k, v in (sel.get("matchLabels") or {}).items())
                    at = (key[0], *pairs[0]) if pairs else (key[0], "", "")
                    self._selector_index.setdefault(at, []).append(known[key])
                owners[w.index] = known[key]
        for w in self.workloads:
            spec = w.input.workload.pod_spec
            matches = self.spread_matches(w.input.workload.namespace, pod_labels(w.input.workload))
            if w.is_daemonset:
                host_net = spec.get("hostNetwork") is True
                w.ds_shape = self.book.shape(
                    spec,
                    w.requests,
                    w.nz_cpu,
                    w.nz_mem,
                    w.priority,
                    w.preempt_never,
                    facts.daemonset_tolerations(host_net),
                    spread_matches=matches,
                )
            else:
                w.shape = self.book.shape(
                    spec,
                    w.requests,
                    w.nz_cpu,
                    w.nz_mem,
                    w.priority,
                    w.preempt_never,
                    spread_owner=owners.get(w.index),
                    spread_matches=matches,
                )
        self.ds_shapes = [w.ds_shape for w in self.workloads if w.ds_shape is not None]
        self.ca = facts.autoscaler()
        kp = self.ca.kube_proxy_cpu_milli
        self.kube_proxy = self.book.shape({}, {"cpu": kp}, kp, self.scoring.non_zero_memory, 0, False)
        # Nodes the autoscaler on AKS counts as unready: the GPU label, but no nvidia.com/gpu to allocate
        self.gpu_unready = [
            self.ca.gpu_label in s.labels and not s.allocatable.get(self.ca.gpu_resource)
            for s in self.shapes_real
        ]

    # ---- inputs -------------------------------------------------------------------------------------

    def _version(self) -> tuple[int, int, int]:
        try:
            stated = [p.kubernetes_version for p in self.pools]
            cluster = self.start.kubernetes_version if self.start is not None else None
            v = facts.scheduler_version(self.options.kubernetes_version, stated, cluster)
            self.assumed = facts.version_assumed(self.options.kubernetes_version, stated, cluster)
        except ValueError as e:
            raise InputError(None, None, f"--kubernetes-version: {e}") from None
        if v < facts.oldest_version():
            raise InputError(
                None,
                None,
                f"Kubernetes {facts.version_text(v)} is older than "
                f"{facts.version_text(facts.oldest_version())}, the oldest version whose "
                "scheduler messages gpupool reproduces",
            )
        return v

    def _spread_selector(self, w: WorkloadInfo) -> dict | None:
        """The selector PodTopologySpread's system defaults count pods with, or None when they do not apply:
        ReplicaSet/StatefulSet-owned pods with no topologySpreadConstraints of their own, scored against the
        owner's selector (sched: pkg/scheduler/util DefaultSelector; gpupool's pods are the ReplicaSet's, with
        the Deployment's selector)."""
        if w.kind not in self.scoring.spread_owners:
            return None
        if w.input.workload.pod_spec.get("topologySpreadConstraints"):
            return None
        spec = w.input.workload.obj.get("spec")
        sel = spec.get("selector") if isinstance(spec, dict) else None
        if isinstance(sel, dict) and (sel.get("matchLabels") or sel.get("matchExpressions")):
            return {k: sel[k] for k in ("matchLabels", "matchExpressions") if sel.get(k)}
        labels = pod_labels(w.input.workload)
        if labels:  # apps/v1 defaults nothing: a selector is required
            return {"matchLabels": dict(labels)}
        return None

    def spread_matches(self, namespace: str, labels: dict) -> tuple[int, ...]:
        """The spreading selectors a pod of ``namespace`` with ``labels`` counts for."""
        key = (namespace, tuple(sorted((str(k), str(v)) for k, v in labels.items())))
        found = self._spread_matches.get(key)
        if found is None:
            plain = dict(key[1])
            index = self._selector_index
            cands = set(index.get((namespace, "", ""), ()))
            for k, v in key[1]:
                cands.update(index.get((namespace, k, v), ()))
            found = self._spread_matches[key] = tuple(
                sorted(i for i in cands if selectors.matches(self.spread_selectors[i][1], plain))
            )
        return found

    def _real_shape(self, pool: PoolSpec) -> NodeShape:
        """What a node of the pool offers: a Ready node of the real cluster if any, else the design."""
        if self.start is not None:
            ready = (n for n in self.start.nodes if n.pool == pool.name and n.ready and not n.cordoned)
            node = next(ready, None)
            if node is not None:
                return shape_of(node, pool)
        return node_shape(pool, self.reservations, self._pool_version(pool), self.default_max_pods)

    def _pool_version(self, pool) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
        return facts.parse_version(pool.kubernetes_version) if pool.kubernetes_version else self.version

    def _workload(self, wi: WorkloadInput) -> WorkloadInfo:
        w = wi.workload
        info = WorkloadInfo(index=wi.order, input=wi, ref=w.ref, kind=w.kind, name=w.name, count=w.replicas)
        spec = w.pod_spec
        info.requests, info.nz_cpu, info.nz_mem = effective_requests(spec)
        pcn = spec.get("priorityClassName")
        classes = self.inputs.priority_classes
        builtin = facts.builtin_priorities()
        policy = spec.get("preemptionPolicy")
        if pcn:
            if pcn in classes:
                info.priority = classes[pcn].value
                policy = policy or classes[pcn].preemption_policy
            elif pcn in builtin:
                info.priority = builtin[pcn]
            else:
                prefix = w.name if w.kind == "Pod" else f"{w.name}-"
                info.problem = (
                    f'pods "{prefix}" is forbidden: no PriorityClass with name {pcn} was found '
                    "(the Priority admission plugin rejects the pod)"
                )
        else:
            default = next((c for c in classes.values() if c.global_default), None)
            if default is not None:
                info.priority = default.value
                policy = policy or default.preemption_policy
        info.preempt_never = policy == "Never"
        scheduler = spec.get("schedulerName")
        if info.problem is None and scheduler not in (None, "", "default-scheduler"):
            info.problem = (
                f"spec.schedulerName is {scheduler}: the default scheduler leaves the pod to it "
                "(not simulated)"
            )
        gates = spec.get("schedulingGates")
        if info.problem is None and isinstance(gates, list) and gates:
            info.problem = "SchedulingGated: the pod waits until its spec.schedulingGates are removed"
        node = spec.get("nodeName")
        if info.problem is None and node:
            info.problem = (
                f"spec.nodeName is {node}: the pod skips the scheduler and waits for that node "
                "(not one of the simulated nodes)"
            )
        return info

    # ---- running ------------------------------------------------------------------------------------

    def template(self, run: Run, pool_idx: int, mode: str) -> Template:
        """CA's template for a pool now: a copy of a real node, or (``aks``, zero nodes) the SKU template."""
        at_zero = not run.cluster.spec_nodes(pool_idx)
        from_size = mode == "aks" and (at_zero or self.gpu_unready[pool_idx])
        return self.template_of(run, pool_idx, "aks-template" if from_size else "node")

    def template_of(self, run: Run, pool_idx: int, kind: str) -> Template:
        """``kind``: aks-template (built from the VM size, with CA's kube-proxy pod), aks-template-bare (the
        same without it) or node (a copy of a real node)."""
        spec = self.pools[pool_idx]
        key = (pool_idx, kind)
        t = run.templates.get(key)
        if t is None:
            shape = self.shapes_real[pool_idx] if kind == "node" else aks_template(spec)
            system = (self.kube_proxy,) if kind == "aks-template" else ()
            t = Template(spec, shape, self.registry, self.msgs, self.scoring, self.ds_shapes, system)
            run.templates[key] = t
        return t

    def no_template(self, run: Run, pool_idx: int) -> bool:
        """CA has no template for the pool: no node, and its size is missing from CA's static table."""
        return not run.cluster.spec_nodes(pool_idx) and not self.ca.in_static_table(
            self.pools[pool_idx].vm_size
        )

    def ca_blocked(self, run: Run, autoscaled: list[int]) -> tuple[str, int | None] | None:
        """Why the autoscaler on AKS does no scale-up at all now, or None. Which paths abort depends on
        CA's version (on AKS its minor is the cluster's Kubernetes minor)."""
        cluster, ca = run.cluster, self.ca
        # RunOnce checks the cluster's health before the scale-up
        bad = self.unready_nodes(run)
        if bad > ca.ok_total_unready and bad > ca.max_unready_percent / 100 * cluster.num_nodes:
            return "unhealthy", None
        if ca.no_node_info_aborts(self.version):
            for i in autoscaled:
                if self.no_template(run, i):
                    return "no-node-info", i
        if ca.unmanaged_aborts(self.version):
            for ps in cluster.pools:
                if ps.ca_unready and ps.nodes and self.pools[ps.spec_idx].autoscaler is None:
                    return "unready-unmanaged", ps.spec_idx
        return None

    def unready_nodes(self, run: Run) -> int:
        """Nodes CA counts as Unready for the cluster's health: GPU nodes without GPUs past the start-up
        time (younger ones are NotStarted, which health does not count)."""
        young = run.cluster.node_young
        return sum(1 for ps in run.cluster.pools if ps.ca_unready for n in ps.nodes if not young[n])

    def upcoming_unready(self, run: Run, pool_idx: int) -> int:
        """GPU nodes without GPUs that CA still counts as starting (upcoming) in pool ``pool_idx``."""
        young = run.cluster.node_young
        return sum(
            1
            for ps in run.cluster.pools
            if ps.spec_idx == pool_idx and ps.ca_unready
            for n in ps.nodes
            if young[n]
        )

    def _upcoming(self, run: Run, pods: list[Pod], autoscaled: list[int]) -> list[Pod]:
        """CA counts unready GPU nodes younger than its MaxNodeStartupTime as upcoming template nodes: pods
        its template says they would take are left out of the scale-up (no event). Returns the rest."""
        for i in autoscaled:
            n = self.upcoming_unready(run, i)
            if not n or not pods:
                continue
            t = self.template(run, i, "aks")
            groups: dict[tuple[int, int], list[Pod]] = {}
            for p in pods:
                groups.setdefault((p.workload, p.shape.id), []).append(p)
            fitting = [(g[0].shape, g) for g in groups.values() if not t.reasons(g[0].shape)]
            if not fitting:
                continue
            _, helped = t.estimate(fitting, n)
            taken = {id(p) for p in helped}
            for p in helped:
                run.absorbed[id(p)] = i
            pods = [p for p in pods if id(p) not in taken]
        return pods

    def run(self, mode: str) -> Run:
        cordon = set(self.options.cordon)
        cluster = Cluster(
            self.registry,
            self.msgs,
            self.scoring,
            [(p, s, p.name in cordon) for p, s in zip(self.pools, self.shapes_real, strict=True)],
        )
        initial = [0 if self.start is not None else p.node_count for p in self.pools]
        run = Run(mode, cluster, [], [], [], initial)
        for ps in cluster.pools:
            ps.ca_unready = self.gpu_unready[ps.spec_idx]
        seq = 0
        ds_waiting: list[Pod] = []
        daemonsets = [w for w in self.workloads if w.ds_shape is not None]

        def add_nodes(pool_idx: int, count: int, young: bool) -> None:
            for nid in cluster.add_nodes(pool_idx, count, young):
                daemon_pods(nid, new_node=True)

        def daemon_pods(nid: int, new_node: bool) -> None:
            nonlocal seq
            for w in daemonsets:
                if w.existing and not new_node:
                    continue  # the real cluster's DaemonSet runs there already
                if cluster.static_node(w.ds_shape, nid) is not None:  # type: ignore[arg-type]
                    continue  # the DaemonSet controller makes no pod for this node
                suffix = cluster.node_name[nid].rsplit("-", 1)[-1]
                pod = Pod(f"{w.name}-{suffix}", w.index, w.ds_shape, seq, pin=nid, ds=True)
                seq += 1
                run.pods.append(pod)
                if w.problem is not None:
                    pod.status = w.problem
                    ds_waiting.append(pod)
                    continue
                target = cluster.select(pod)
                if target is not None:
                    cluster.bind(pod, target)
                else:
                    ds_waiting.append(pod)

        if self.start is None:
            for i, p in enumerate(self.pools):
                add_nodes(i, p.node_count, False)  # a pool's nodes at the start are old
        else:
            seq = self._add_existing(run, cordon, seq)
            for nid in range(cluster.num_nodes):
                daemon_pods(nid, new_node=False)
        queue: list[Pod] = []
        for w in self.workloads:
            if w.is_daemonset:
                continue
            for k in range(w.count or 0):
                pod = Pod(f"{w.name}-{k}" if w.kind != "Pod" else w.name, w.index, w.shape, seq)  # type: ignore[arg-type]
                seq += 1
                if w.problem is not None:
                    pod.status = w.problem
                queue.append(pod)
                run.pods.append(pod)
        pending = self._schedule(run, ds_waiting + queue)
        ds_waiting.clear()

        autoscaled = [i for i, p in enumerate(self.pools) if p.autoscaler is not None]
        if mode != "none" and autoscaled:
            limit_total = facts.autoscaler().max_nodes_per_scale_up
            while True:
                eligible = [p for p in pending if not p.ds and p.status is None]
                if mode == "aks" and eligible:
                    run.ca_blocked = self.ca_blocked(run, autoscaled)
                    if run.ca_blocked is not None:
                        break
                    eligible = self._upcoming(run, eligible, autoscaled)
                if not eligible:
                    break
                groups: dict[tuple[int, int], list[Pod]] = {}
                for p in eligible:
                    groups.setdefault((p.workload, p.shape.id), []).append(p)
                options: list[Option] = []
                for i in autoscaled:
                    cur, mx = cluster.spec_nodes(i), self.pools[i].autoscaler.max_count  # type: ignore[union-attr]
                    if cur >= mx or (mode == "aks" and self.no_template(run, i)):
                        continue
                    t = self.template(run, i, mode)
                    fitting = [(g[0].shape, g) for g in groups.values() if not t.reasons(g[0].shape)]
                    if not fitting:
                        continue
                    count, helped = t.estimate(fitting, min(limit_total, mx - cur))
                    if count:
                        options.append(Option(i, count, helped, t))
                if not options:
                    break
                opt = choose(options, self.options.expander)
                spec = self.pools[opt.pool_idx]
                cur = cluster.spec_nodes(opt.pool_idx)
                new = cur + opt.count
                mx = spec.autoscaler.max_count  # type: ignore[union-attr]
                event = messages.ca_triggered(self.msgs, group_id(spec), cur, new, mx)
                per_workload = Counter(self.workloads[p.workload].ref for p in opt.pods)
                up = ScaleUp(
                    spec.name,
                    group_id(spec),
                    cur,
                    new,
                    mx,
                    opt.template.kind,
                    len(opt.pods),
                    event,
                    dict(per_workload),
                )
                run.scale_ups.append(up)
                for p in opt.pods:
                    run.triggered[id(p)] = up
                add_nodes(opt.pool_idx, opt.count, self.added_young)
                pending = self._schedule(run, pending + ds_waiting)
                ds_waiting.clear()
        run.pending = pending
        run.autoscaled = autoscaled if mode != "none" else []
        return run

    def _add_existing(self, run: Run, cordon: set[str], seq: int) -> int:
        """The real cluster's nodes (grouped when alike) and the pods running on them; returns next seq."""
        assert self.start is not None
        cluster = run.cluster
        index = {p.name: i for i, p in enumerate(self.pools)}
        groups: dict[tuple, int] = {}
        by_node: dict[str, int] = {}
        for n in self.start.nodes:
            i = index.get(n.pool) if n.pool is not None else None
            if i is None or n.name in by_node:
                continue
            spec = self.pools[i]
            shape = shape_of(n, spec)
            cordoned = n.cordoned or spec.name in cordon
            key = (
                i,
                tuple(sorted(shape.allocatable.items())),
                tuple(sorted(shape.labels.items())),
                shape.taints,
                cordoned,
                n.ready,
            )
            g = groups.get(key)
            if g is None:
                g = groups[key] = cluster.add_group(i, spec, shape, cordoned)
                gpu = self.ca.gpu_resource
                unready = n.ready and self.ca.gpu_label in n.labels and not n.allocatable.get(gpu)
                cluster.pools[g].ca_unready = unready
            young = n.age_s is not None and n.age_s < self.ca.max_node_startup_s
            by_node[n.name] = cluster.add_existing(g, n.name, n.labels, young)
            run.initial[i] += 1
        shapes: dict[tuple, Shape] = {}
        for ep, (reqs, nz_cpu, nz_mem) in zip(self.start.pods, self.existing_requests, strict=True):
            nid = by_node.get(ep.node)
            if nid is None:
                continue
            matches = self.spread_matches(ep.namespace, ep.labels)
            key = (ep.key or scheduling_key(ep.spec, ep.priority), matches)
            shape = shapes.get(key)
            if shape is None:
                never = ep.spec.get("preemptionPolicy") == "Never"
                shape = shapes[key] = self.book.shape(
                    ep.spec, reqs, nz_cpu, nz_mem, ep.priority, never, spread_matches=matches
                )
            pod = Pod(f"{ep.namespace}/{ep.name}", -1, shape, seq, ds=ep.daemonset)
            seq += 1
            cluster.bind(pod, nid)  # it runs there: the filters are not asked again
            run.existing.append(pod)
        return seq

    def _schedule(self, run: Run, pods: list[Pod]) -> list[Pod]:
        """Try ``pods`` in queue order; returns those left Pending. Preempts when kube-scheduler would."""
        cluster = run.cluster
        failed_at: dict[int, int] = {}
        still: list[Pod] = []
        recreated: list[Pod] = []
        for pod in sorted(pods, key=Pod.queue_key):
            if pod.status is not None:
                still.append(pod)
                continue
            shape = pod.shape
            if pod.pin is None and failed_at.get(shape.id) == cluster.version:
                still.append(pod)  # an identical pod just failed and nothing changed since
                continue
            nid = cluster.select(pod)
            if nid is not None:
                cluster.bind(pod, nid)
                continue
            if (
                not shape.preempt_never
                and cluster.placed_priorities
                and min(cluster.placed_priorities) < shape.priority
            ):
                d = cluster.diagnose(pod)
                if d.preempt_nodes:
                    _, victims = cluster.preempt(pod, d.preempt_nodes)
                    recreated += self._replace(run, victims, pod)
                    continue
            if pod.pin is None:
                failed_at[shape.id] = cluster.version
            still.append(pod)
        if recreated:
            still += self._schedule(run, recreated)
        return still

    def _replace(self, run: Run, victims: list[Pod], by: Pod) -> list[Pod]:
        """Preempted pods: controllers make new ones (a bare Pod is gone); DaemonSet pods return."""
        out = []
        seq = max((p.seq for p in run.pods), default=0) + 1
        for v in victims:
            if v.workload < 0:  # a pod of the real cluster: its controller makes a new one (not simulated)
                run.evicted.append(v)
                continue
            w = self.workloads[v.workload]
            if w.kind == "Pod":
                v.status = f"preempted by {by.name} (priority {by.priority}); a bare Pod is not recreated"
                out.append(v)
                continue
            new = Pod(v.name + "-r", v.workload, v.shape, seq, pin=v.pin, ds=v.ds)
            seq += 1
            run.pods.append(new)
            run.pods.remove(v)
            out.append(new)
        return out
