"""Start from the real cluster: existing nodes and running pods as plain data, from a doctor snapshot.

``from_snapshot(snap)`` reads what :func:`gpupool.cluster.read_snapshot` (or the live reader) returns: Node
objects (their real allocatable, labels, taints, cordon, age from ``creationTimestamp`` to the snapshot's
``meta.json`` ``capturedAt``, else to now), Pods bound to nodes (their effective requests and
priority), DaemonSets (they also run on nodes the autoscaler adds) and, when present, ``nodepools.json``
(``az aks nodepool list``: VM sizes, autoscaler bounds). What a Node says comes from :mod:`gpupool.k8s.nodes`;
pod requests from :mod:`gpupool.k8s.resources`. Pure: data in, data out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from gpupool.findings import agree, plural
from gpupool.k8s import nodes as k8s_nodes
from gpupool.k8s.workloads import Workload, workload_of
from gpupool.spec.model import PoolSpec, Taint

DONE_PHASES = ("Succeeded", "Failed")
UNPOOLED = "nodes"  # the pool of nodes without an AKS agentpool label (clusters outside AKS)


@dataclass(frozen=True)
class ExistingNode:
    name: str
    pool: str | None
    vm_size: str | None
    labels: dict[str, str]
    capacity: dict[str, int]
    allocatable: dict[str, int]
    taints: tuple[Taint, ...]
    cordoned: bool
    ready: bool
    age_s: float | None = None  # seconds since creationTimestamp when the cluster was read (None: unknown)


@dataclass(frozen=True)
class ExistingPod:
    name: str
    namespace: str
    node: str
    spec: dict
    priority: int
    daemonset: bool
    key: str = ""  # what scheduling reads of the spec, as text: equal keys, equal shapes (computed once)
    labels: dict[str, str] = field(default_factory=dict)  # default topology spreading counts pods by them


def scheduling_key(spec: dict, priority: int) -> str:
    """The parts of a pod spec that requests, filters and scores read (pods of one controller share it)."""
    inits = spec.get("initContainers")
    return json.dumps(
        [
            [c.get("resources") for c in spec.get("containers") or [] if isinstance(c, dict)],
            [
                [c.get("resources"), c.get("restartPolicy")]
                for c in (inits if isinstance(inits, list) else [])
                if isinstance(c, dict)
            ],
            spec.get("overhead"),
            spec.get("tolerations"),
            spec.get("nodeSelector"),
            spec.get("affinity"),
            spec.get("preemptionPolicy"),
            priority,
        ],
        sort_keys=True,
        default=str,
    )


@dataclass
class StartState:
    source: str
    nodes: list[ExistingNode]
    pods: list[ExistingPod]
    daemonsets: list[Workload]
    pools: list[PoolSpec] = field(default_factory=list)  # from nodepools.json; empty when absent
    notes: list[str] = field(default_factory=list)
    kubernetes_version: tuple[int, int, int] | None = None  # the cluster's own (server, else kubelets)


def _ints(q: dict) -> dict[str, int]:
    from gpupool.simulate.pods import to_ints

    return to_ints(q)


def node_of(obj: Any, read_at: datetime | None = None) -> ExistingNode:
    """``read_at``: when the cluster was read (a node's age is counted to it; None: now)."""
    made = k8s_nodes.created(obj)
    age = ((read_at or datetime.now(UTC)) - made).total_seconds() if made is not None else None
    return ExistingNode(
        name=k8s_nodes.name(obj),
        pool=k8s_nodes.pool_name(obj) or UNPOOLED,
        vm_size=k8s_nodes.vm_size(obj),
        labels=k8s_nodes.labels(obj),
        capacity=_ints(k8s_nodes.capacity(obj)),
        allocatable=_ints(k8s_nodes.allocatable(obj)),
        taints=k8s_nodes.taints(obj),
        cordoned=k8s_nodes.unschedulable(obj),
        ready=k8s_nodes.is_ready(obj),
        age_s=age,
    )


def pod_of(obj: Any) -> ExistingPod | None:
    """A pod that holds room on a node now (bound, not finished), or None."""
    if not isinstance(obj, dict):
        return None
    spec = obj.get("spec") if isinstance(obj.get("spec"), dict) else {}
    status = obj.get("status") if isinstance(obj.get("status"), dict) else {}
    node = spec.get("nodeName")
    if not isinstance(node, str) or not node or status.get("phase") in DONE_PHASES:
        return None
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    owners = meta.get("ownerReferences") if isinstance(meta.get("ownerReferences"), list) else []
    prio = spec.get("priority")
    priority = prio if isinstance(prio, int) and not isinstance(prio, bool) else 0
    return ExistingPod(
        name=str(meta.get("name") or ""),
        namespace=str(meta.get("namespace") or "default"),
        node=node,
        spec=spec,
        priority=priority,
        daemonset=any(isinstance(o, dict) and o.get("kind") == "DaemonSet" for o in owners),
        key=scheduling_key(spec, priority),
        labels=dict(meta["labels"]) if isinstance(meta.get("labels"), dict) else {},
    )


def from_snapshot(snap: Any, pools: list[PoolSpec] | None = None) -> StartState:
    """``snap``: a :class:`gpupool.cluster.Snapshot`. ``pools``: pools from nodepools.json, when read."""
    meta = getattr(snap, "meta", None)
    read_at = k8s_nodes.timestamp(meta.get("capturedAt")) if isinstance(meta, dict) else None
    nodes = [node_of(n, read_at) for n in snap.nodes if isinstance(n, dict)]
    pods = [p for p in (pod_of(o) for o in snap.pods) if p is not None]
    daemonsets = [w for w in map(workload_of, (d for d in snap.daemonsets if isinstance(d, dict))) if w]
    notes = list(getattr(snap, "notes", []) or [])
    unbound = [
        o
        for o in snap.pods
        if isinstance(o, dict)
        and not (o.get("spec") or {}).get("nodeName")
        and (o.get("status") or {}).get("phase") not in DONE_PHASES
    ]
    if unbound:
        notes.append(_pending_note(unbound, str(snap.source).startswith("context ")))
    meta = getattr(snap, "meta", None) or {}
    version = k8s_nodes.cluster_version(meta.get("kubernetesVersion"), snap.nodes)
    return StartState(str(snap.source), nodes, pods, daemonsets, list(pools or []), notes, version)


def _pending_note(pods: list[dict], live: bool) -> str:
    """The cluster's own Pending pods, named: simulate places the workloads it is given on the cluster as it
    is; these pods hold no room and are not placed again (``gpupool doctor`` says why they are Pending)."""
    names = []
    for o in pods[:5]:
        m = o.get("metadata") if isinstance(o.get("metadata"), dict) else {}
        names.append(f"{m.get('namespace') or 'default'}/{m.get('name') or '?'}")
    more = f" and {len(pods) - 5} more" if len(pods) > 5 else ""
    where = "in the cluster" if live else "in the snapshot"
    why = ""
    status = pods[0].get("status") if isinstance(pods[0].get("status"), dict) else {}
    for c in status.get("conditions") or []:
        if isinstance(c, dict) and c.get("type") == "PodScheduled" and c.get("status") == "False":
            msg = str(c.get("message") or c.get("reason") or "").split(" preemption:")[0]
            why = f"; the scheduler said of {names[0]}: {msg[:200]}" if msg else ""
    return (
        f"{plural(len(pods), 'pod')} Pending {where} ({', '.join(names)}{more}) "
        f"{agree(len(pods), 'holds', 'hold')} no room and are not placed "
        f"again: simulate places only the workloads you give; gpupool doctor explains why these are Pending"
        f"{why}"
    )


def resolve_pools(spec_pools: list[PoolSpec], start: StartState) -> list[PoolSpec]:
    """The pools to simulate: the given specs, then nodepools.json's, then one per pool the nodes name."""
    from gpupool.errors import InputError
    from gpupool.spec import parse_pool

    out = list(spec_pools)
    names = {p.name for p in out}
    for p in start.pools:
        if p.name not in names:
            out.append(p)
            names.add(p.name)
    cluster = out[0].cluster_name if out else "snapshot"
    rg = out[0].resource_group if out else "snapshot"
    seen: dict[str, ExistingNode] = {}
    counts: dict[str, int] = {}
    for n in start.nodes:
        if n.pool is None or n.pool in names:
            continue
        seen.setdefault(n.pool, n)
        counts[n.pool] = counts.get(n.pool, 0) + 1
    for name, n in seen.items():
        spec = {
            "resourceGroup": rg,
            "clusterName": cluster,
            "vmSize": n.vm_size or "unknown",
            "nodeCount": counts[name],
            "mode": "System" if n.labels.get("kubernetes.azure.com/mode") == "system" else "User",
        }
        kind = "GpuNodePool" if n.labels.get("kubernetes.azure.com/accelerator") else "NodePool"
        doc = {"apiVersion": "gpupool/v1", "kind": kind, "metadata": {"name": name}, "spec": spec}
        try:
            out.append(parse_pool(doc, f"{start.source} (nodes of pool {name})", 1))
        except InputError as e:
            raise InputError(
                start.source,
                None,
                f"node {n.name} (pool {name}, VM size {n.vm_size or 'unknown'}): {e.message}",
                "simulate starts from AKS clusters; give the pools' specs or the snapshot's nodepools.json",
            ) from None
        names.add(name)
    return out


def shape_of(node: ExistingNode, pool: PoolSpec) -> Any:
    """A real node as a :class:`~gpupool.design.nodeshape.NodeShape` (per-node labels left out)."""
    from gpupool.design.nodeshape import NodeShape
    from gpupool.simulate.pods import VARYING_KEYS

    labels = {k: v for k, v in node.labels.items() if k not in VARYING_KEYS}
    return NodeShape(
        pool.name,
        node.vm_size or pool.vm_size,
        dict(node.capacity),
        dict(node.allocatable),
        labels,
        node.taints,
        pool.zones,
        pool.location or "",
        "node",
        (),
    )


def load_start(
    snapshot: str | None = None, live: bool = False, context: str | None = None, kubeconfig: str | None = None
) -> StartState:
    """Read the real cluster (a snapshot directory, or live and read-only) with doctor's reader."""
    from gpupool.cluster import read_snapshot
    from gpupool.errors import InputError

    if snapshot is not None:
        snap = read_snapshot(snapshot)
    elif live:
        from gpupool.cluster.live import read_live

        snap = read_live(context, kubeconfig, log_budget=0)  # simulate reads no logs
    else:
        raise InputError(None, None, "give --snapshot DIR or --live")
    pools: list[PoolSpec] = []
    if snap.nodepools:
        from gpupool.spec.azjson import pools_from_data

        pools = [az.pool for az in pools_from_data(snap.nodepools, f"{snap.source}/nodepools.json")]
    return from_snapshot(snap, pools)
