"""The snapshot, indexed for the rules: GPU nodes with what they advertise, pods per node, the GPU stack's
DaemonSets and pods, events per object, AKS pools. Built once per diagnosis; plain data, no I/O."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from gpupool import catalog
from gpupool.cluster import LogKey, Snapshot
from gpupool.design.node import GPU_RESOURCE, MIG_PREFIX, is_gpu_resource
from gpupool.doctor import facts
from gpupool.k8s import gpustack as comp
from gpupool.k8s import nodes as kn
from gpupool.k8s.resources import pod_requests
from gpupool.spec.model import Taint

NVIDIA_PREFIX = "nvidia.com/"


@dataclass
class NodeView:
    obj: dict
    name: str
    pool: str  # AKS pool, or "(no pool)" for nodes without the label
    vm_size: str
    labels: dict[str, str]
    taints: tuple[Taint, ...]
    ready: bool
    unschedulable: bool
    capacity: dict[str, Fraction]
    allocatable: dict[str, Fraction]
    size: catalog.VmSize | None
    is_gpu: bool
    managed: bool
    windows: bool
    pods: list[dict] = field(default_factory=list)
    gpu_requested: dict[str, int] = field(default_factory=dict)

    def gpu(self, which: str = "capacity") -> dict[str, int]:
        src = self.capacity if which == "capacity" else self.allocatable
        return {k: int(v) for k, v in src.items() if k.startswith(NVIDIA_PREFIX) and is_gpu_resource(k)}

    @property
    def advertises_gpu(self) -> bool:
        return any(v > 0 for v in self.gpu().values())

    @property
    def physical_gpus(self) -> int | None:
        return self.size.gpu_devices if self.size is not None and self.size.is_gpu else None

    def condition(self, type_: str) -> dict | None:
        return kn.condition(self.obj, type_)

    @property
    def object(self) -> str:
        return f"Node {self.name}"


@dataclass
class View:
    snap: Snapshot
    nodes: list[NodeView]
    by_node: dict[str, NodeView]
    pools: dict[str, dict]  # az aks nodepool list entries by name
    daemonsets: dict[str, list[dict]]  # role -> DaemonSets
    component_pods: dict[str, list[dict]]  # role -> pods
    events_by_object: dict[tuple[str, str, str], list[dict]]  # (kind, namespace, name) -> events
    logs_by_pod: dict[tuple[str, str], dict[LogKey, str]]
    namespaces: frozenset[str] | None  # -n: the workload namespaces to report on (None: all)
    roles: dict[int, str] = field(default_factory=dict)  # id(pod) -> GPU stack role, for pods that have one

    def role(self, pod: dict) -> str | None:
        return self.roles.get(id(pod))

    @cached_property
    def gpu_nodes(self) -> list[NodeView]:
        """Linux GPU nodes (the view is not changed once built: most rules read this, often in loops)."""
        return [n for n in self.nodes if n.is_gpu and not n.windows]

    def pool_info(self, name: str) -> dict | None:
        return self.pools.get(name)

    def pool_driver(self, name: str) -> str | None:
        """``Install`` / ``None`` from ``gpuProfile.driver`` (no profile: AKS installs it); None: unknown."""
        p = self.pools.get(name)
        if p is None:
            return None
        prof = p.get("gpuProfile") if isinstance(p.get("gpuProfile"), dict) else {}
        return str(prof.get("driver") or "Install")

    def pod_logs(self, pod: dict) -> dict[LogKey, str]:
        m = pod.get("metadata") or {}
        return self.logs_by_pod.get((m.get("namespace", ""), m.get("name", "")), {})

    def events_for(self, kind: str, namespace: str, name: str) -> list[dict]:
        return self.events_by_object.get((kind, namespace, name), [])

    def in_scope(self, namespace: str) -> bool:
        return self.namespaces is None or namespace in self.namespaces


def gpu_requests(pod_spec: Any) -> dict[str, int]:
    return {k: math.ceil(v) for k, v in pod_requests(pod_spec).items() if is_gpu_resource(k) and v > 0}


def _is_managed(node: dict, labels: dict[str, str], pool: dict | None) -> bool:
    lab = facts.label("managedDcgm")
    if labels.get(lab["key"]) == lab["value"]:
        return True
    if pool is not None:
        nv = (
            ((pool.get("gpuProfile") or {}).get("nvidia") or {})
            if isinstance(pool.get("gpuProfile"), dict)
            else {}
        )
        if isinstance(nv, dict) and nv.get("managementMode") == "Managed":
            return True
    return kn.condition(node, "UnhealthyNvidiaDevicePlugin") is not None


def _node_view(obj: dict, pools: dict[str, dict]) -> NodeView:
    labels = kn.labels(obj)
    pool = kn.pool_name(obj) or "(no pool)"
    vm = kn.vm_size(obj) or ""
    size = catalog.vm_size(vm) if vm else None
    capacity = kn.capacity(obj)
    gpu_cap = any(k.startswith(NVIDIA_PREFIX) and is_gpu_resource(k) and v > 0 for k, v in capacity.items())
    nvidia_size = size is not None and size.is_gpu and size.path == "nvidia"
    is_gpu = (
        nvidia_size
        or kn.accelerator(obj) == "nvidia"
        or labels.get(facts.label("gpuPresent")) == "true"
        or gpu_cap
    )
    return NodeView(
        obj=obj,
        name=kn.name(obj),
        pool=pool,
        vm_size=vm,
        labels=labels,
        taints=kn.taints(obj),
        ready=kn.is_ready(obj),
        unschedulable=kn.unschedulable(obj),
        capacity=capacity,
        allocatable=kn.allocatable(obj),
        size=size,
        is_gpu=is_gpu,
        managed=is_gpu and _is_managed(obj, labels, pools.get(pool)),
        windows=labels.get("kubernetes.io/os") == "windows",
    )


def build(snap: Snapshot, namespaces: list[str] | None = None) -> View:
    pools = {p["name"]: p for p in snap.nodepools or [] if isinstance(p.get("name"), str)}
    nodes = [_node_view(n, pools) for n in snap.nodes]
    by_node = {n.name: n for n in nodes}
    daemonsets: dict[str, list[dict]] = defaultdict(list)
    for ds in snap.daemonsets:
        r = comp.role(ds)
        if r:
            daemonsets[r].append(ds)
    component_pods: dict[str, list[dict]] = defaultdict(list)
    roles: dict[int, str] = {}
    for pod in snap.pods:
        spec = pod.get("spec") if isinstance(pod.get("spec"), dict) else {}
        status = pod.get("status") if isinstance(pod.get("status"), dict) else {}
        node = by_node.get(spec.get("nodeName") or "")
        phase = status.get("phase")
        if node is not None and phase not in ("Succeeded", "Failed"):
            node.pods.append(pod)
            if node.is_gpu:
                for k, v in gpu_requests(spec).items():
                    node.gpu_requested[k] = node.gpu_requested.get(k, 0) + v
        r = comp.role(pod)
        if r:
            component_pods[r].append(pod)
            roles[id(pod)] = r
    events: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for e in snap.events:
        obj = e.get("involvedObject") or e.get("regarding")  # core/v1 or events.k8s.io/v1
        if isinstance(obj, dict):
            events[
                (str(obj.get("kind") or ""), str(obj.get("namespace") or ""), str(obj.get("name") or ""))
            ].append(e)
    logs: dict[tuple[str, str], dict[LogKey, str]] = defaultdict(dict)
    for key, text in snap.logs.items():
        logs[(key.namespace, key.pod)][key] = text
    return View(
        snap=snap,
        nodes=nodes,
        by_node=by_node,
        pools=pools,
        daemonsets=dict(daemonsets),
        component_pods=dict(component_pods),
        events_by_object=dict(events),
        logs_by_pod=dict(logs),
        namespaces=frozenset(namespaces) if namespaces else None,
        roles=roles,
    )


def event_message(e: dict) -> str:
    return str(e.get("message") or e.get("note") or "")


def event_time(e: dict) -> str:
    return str(
        e.get("lastTimestamp")
        or e.get("eventTime")
        or (e.get("series") or {}).get("lastObservedTime")
        or e.get("firstTimestamp")
        or (e.get("metadata") or {}).get("creationTimestamp")
        or ""
    )


__all__ = [
    "GPU_RESOURCE",
    "MIG_PREFIX",
    "NodeView",
    "View",
    "build",
    "event_message",
    "event_time",
    "gpu_requests",
]
