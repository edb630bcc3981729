"""What a node of a pool offers: capacity, allocatable after AKS reservations, labels and taints; and the
node template the cluster autoscaler imagines for a pool at zero nodes. Simulate, lint and doctor share it.

GPU resources come from :func:`gpupool.design.node.advertised` (MIG strategy, time-slicing): the one
implementation ``plan`` uses too. Pure functions of the pool spec and the reservation parameters.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from gpupool import catalog
from gpupool.design.node import advertised, node_labels
from gpupool.errors import InputError
from gpupool.k8s import facts
from gpupool.spec.model import PoolSpec, Taint

GIB = 2**30


@dataclass(frozen=True)
class NodeShape:
    """One node of a pool (all nodes of a pool are alike), or the autoscaler's template for it."""

    pool: str
    vm_size: str
    capacity: dict[str, int]  # pods, cpu (millicores), memory (bytes), extended resources
    allocatable: dict[str, int]
    labels: dict[str, str]  # without the per-node hostname and zone labels
    taints: tuple[Taint, ...]
    zones: tuple[str, ...]
    location: str
    template: str = "node"  # node | aks-template (the autoscaler's view at zero nodes)
    notes: tuple[str, ...] = ()


def _size(pool: PoolSpec):  # type: ignore[no-untyped-def]
    size = catalog.vm_size(pool.vm_size)
    if size is None:
        close = catalog.close_vm_sizes(pool.vm_size)
        hint = f"did you mean {close[0]}?" if close else "gpupool check lists the sizes it knows"
        raise InputError(
            pool.where.path,
            pool.where.line_of("vmSize"),
            f"pool {pool.name}: VM size {pool.vm_size} is not in gpupool's catalog; "
            "simulate needs its vCPU, memory and GPU count",
            hint,
        )
    return size


def max_pods(pool: PoolSpec, default_max_pods: int | None = None) -> int:
    if pool.max_pods is not None:
        return pool.max_pods
    return default_max_pods if default_max_pods is not None else facts.default_max_pods().value


def node_shape(
    pool: PoolSpec,
    reservations: facts.Reservations,
    version: tuple[int, int, int],
    default_max_pods: int | None = None,
) -> NodeShape:
    """The node as kube-scheduler sees it once the GPU stack runs."""
    size = _size(pool)
    pods = max_pods(pool, default_max_pods)
    cpu = size.vcpu * 1000
    memory = round(size.memory_gib * GIB)
    adv = advertised(pool)
    capacity = {"pods": pods, "cpu": cpu, "memory": memory, **adv.resources}
    alloc = dict(capacity)
    alloc["cpu"] = max(0, cpu - reservations.cpu_milli(size.vcpu))
    alloc["memory"] = max(0, memory - reservations.memory_bytes(memory, pods, version, pool.is_windows))
    location = pool.location or ""
    labels = dict(node_labels(pool))
    if location:
        labels["topology.kubernetes.io/region"] = location
    if not pool.zones:
        labels["topology.kubernetes.io/zone"] = "0"
    return NodeShape(
        pool.name,
        size.name,
        capacity,
        alloc,
        labels,
        pool.effective_taints,
        pool.zones,
        location,
        "node",
        tuple(adv.notes),
    )


def node_name(pool: PoolSpec, index: int) -> str:
    """AKS-style VMSS node name: aks-<pool>-<8 digits>-vmss<6 base-36 digits>."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    n, suffix = index, ""
    for _ in range(6):
        n, r = divmod(n, 36)
        suffix = digits[r] + suffix
    return f"aks-{pool.name}-{cluster_hash(pool)}-vmss{suffix}"


def cluster_hash(pool: PoolSpec) -> str:
    """A stable 8-digit stand-in for the number AKS puts in VMSS names (it differs per real cluster)."""
    return f"{zlib.crc32(f'{pool.resource_group}/{pool.cluster_name}'.encode()) % 10**8:08d}"


def group_id(pool: PoolSpec) -> str:
    return facts.autoscaler().group_id_format.format(pool=pool.name, hash=cluster_hash(pool))


def per_node_labels(shape: NodeShape, name: str, index: int) -> dict[str, str]:
    """Labels that differ per node: hostname, and the zone when the pool spans zones."""
    out = {"kubernetes.io/hostname": name}
    if shape.zones:
        z = shape.zones[index % len(shape.zones)]
        zone = f"{shape.location}-{z}" if shape.location else z
        out["topology.kubernetes.io/zone"] = zone
        out["topology.disk.csi.azure.com/zone"] = zone
    return out


def aks_template(pool: PoolSpec) -> NodeShape:
    """The node the cluster autoscaler builds for an AKS pool with no node to copy (scale from zero).

    Source: kubernetes/autoscaler cloudprovider/azure/azure_template.go buildNodeFromTemplate: pods 110, cpu
    and memory of the SKU, ``nvidia.com/gpu`` = the SKU's GPU count, allocatable = capacity (no reservations),
    labels and taints from the pool; no MIG and no time-slicing, so MIG-mixed and ``.shared`` resources are
    absent.
    """
    a = facts.autoscaler()
    size = _size(pool)
    capacity = {
        "pods": a.template_pods,
        "cpu": size.vcpu * 1000,
        "memory": round(a.template_memory_gib(pool.vm_size, size.memory_gib) * GIB),
        a.gpu_resource: size.gpu_devices,
    }
    labels = dict(a.template_labels)
    labels["kubernetes.io/os"] = pool.os_type.lower()
    labels["node.kubernetes.io/instance-type"] = pool.vm_size
    labels["topology.kubernetes.io/region"] = (pool.location or "").lower()
    if pool.zones:
        zone = f"{(pool.location or '').lower()}-{pool.zones[0]}"
        labels["topology.kubernetes.io/zone"] = zone
        labels["topology.disk.csi.azure.com/zone"] = zone
    else:
        labels["topology.kubernetes.io/zone"] = "0"
    for key in a.agentpool_labels:
        labels[key] = pool.name
    if a.accelerator_label(pool.vm_size):
        labels["kubernetes.azure.com/accelerator"] = "nvidia"
        labels["accelerator"] = "nvidia"
    labels.update(pool.node_labels)
    notes = [
        f"allocatable = capacity; {a.gpu_resource}: {size.gpu_devices} from the SKU; pods {a.template_pods}"
    ]
    return NodeShape(
        pool.name,
        size.name,
        capacity,
        dict(capacity),
        labels,
        pool.effective_taints,
        (),
        pool.location or "",
        "aks-template",
        tuple(notes),
    )
