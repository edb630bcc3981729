"""What a NAP node offers and the NodeClaimTemplates Karpenter provisions from: capacity and allocatable as
the Azure provider computes them, the DaemonSet overhead per instance type, the NodePools in Karpenter's
order, and the NodeClaim a pass plans."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gpupool.k8s.taints import untolerated
from gpupool.nap.model import NapInputs, NodeClass, NodePool, Requirement
from gpupool.nap.sizes import NapSize, admitted, match
from gpupool.simulate.nap.facts import GIB, MIB, facts
from gpupool.simulate.nap.requirements import incompatible, pod_requirement_sets, pool_requirements

if TYPE_CHECKING:
    from gpupool.simulate.pods import Pod
    from gpupool.simulate.runner import Runner as Simulation


# ---- what a NAP node offers ---------------------------------------------------------------------------


def _brackets(amount: float, tiers: list) -> float:
    total, left = 0.0, amount
    for width, rate in tiers:
        take = left if width is None else min(left, width)
        total += take * rate
        left -= take
        if left <= 0:
            break
    return total


def capacity(size: NapSize, max_pods: int) -> dict[str, int]:
    """Karpenter's capacity of the size: cpu (millicores), memory (bytes), GPUs, pods."""
    assert size.size is not None
    a = facts()["allocatable"]
    mem = int(size.size.memory_gib) * GIB
    mem -= math.ceil(mem * a["vmMemoryOverheadPercent"])
    out = {"cpu": size.size.vcpu * 1000, "memory": mem, "pods": max_pods}
    out.update(size.advertised())
    return out


def allocatable(size: NapSize, max_pods: int) -> dict[str, int]:
    """Capacity less kube-reserved and the eviction threshold (karpenter-provider-azure instancetype.go)."""
    assert size.size is not None
    a = facts()["allocatable"]
    cap = capacity(size, max_pods)
    cpu_reserved = int(1000 * _brackets(size.size.vcpu, a["cpuTaxPerCore"]))
    mem_reserved = int(1024 * _brackets(size.size.memory_gib, a["memoryTaxGiB"])) * MIB
    cap["cpu"] -= cpu_reserved
    cap["memory"] -= mem_reserved + a["evictionMemoryMiB"] * MIB
    return cap


def max_pods_of(nc: NodeClass | None) -> int:
    if nc is not None and nc.max_pods is not None:
        return nc.max_pods
    return int(facts()["allocatable"]["defaultMaxPods"])


def add_requests(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out


def fits_in(requests: dict[str, int], alloc: dict[str, int]) -> bool:
    return all(v <= alloc.get(k, 0) for k, v in requests.items() if v > 0)


@dataclass
class Template:
    """One NodePool as Karpenter's NodeClaimTemplate: its instance types and DaemonSet overhead per type."""

    pool: NodePool
    node_class: NodeClass | None
    requirements: list[Requirement]
    sizes: list[NapSize]  # admitted and offered, with catalog facts
    assumed: int  # of those, sizes admitted only if a label gpupool cannot know matches
    unknown: list[str]  # admitted sizes gpupool cannot fit (NAP's registry sizes the catalog lacks)
    max_pods: int
    alloc: dict[str, dict[str, int]] = field(default_factory=dict)  # size name -> allocatable
    cap: dict[str, dict[str, int]] = field(default_factory=dict)  # size name -> capacity
    overhead: dict[str, dict[str, int]] = field(default_factory=dict)  # size name -> DaemonSet requests

    @property
    def weight(self) -> int:
        return self.pool.weight or 0


@dataclass
class Claim:
    """A NodeClaim planned in this pass."""

    template: Template
    options: list[NapSize]
    requirements: list[Requirement]
    requests: dict[str, int] = field(default_factory=dict)
    pods: list[Pod] = field(default_factory=list)
    name: str = ""


def _daemon_overhead(sim: Simulation, t: Template) -> None:
    daemons = [w for w in sim.workloads if w.ds_shape is not None and w.problem is None]
    for s in t.sizes:
        total: dict[str, int] = {}
        for w in daemons:
            spec = w.input.workload.pod_spec
            if untolerated(t.pool.taints, spec.get("tolerations")):
                continue
            ok = False
            for reqs in pod_requirement_sets(spec):
                if (
                    incompatible(t.requirements, reqs) is None
                    and match(s, t.requirements + reqs, t.node_class or default_node_class()) is not False
                ):
                    ok = True
                    break
            if ok:
                total = add_requests(total, {**w.requests, "pods": 1})
        t.overhead[s.name] = total


def default_node_class() -> NodeClass:
    from gpupool.nap.model import DEFAULT_NODE_CLASS

    return DEFAULT_NODE_CLASS


def templates(sim: Simulation, nap: NapInputs) -> tuple[list[Template], list[tuple[NodePool, str]]]:
    """The NodePools Karpenter provisions from, in its order, and those it leaves out."""
    out, skipped = [], []
    for pool in nap.node_pools:
        nc = nap.node_class_of(pool)
        if pool.replicas is not None:
            skipped.append(
                (pool, "a static NodePool (replicas set): Karpenter does not provision for pods there")
            )
            continue
        a = admitted(pool, nc)
        sizes = [s for s in a.sure if s.size is not None]
        assumed = [s for s in a.maybe if s.size is not None]
        unknown = [s.name for s in list(a.sure) + list(a.maybe) if s.size is None]
        if not sizes and not assumed:
            skipped.append(
                (
                    pool,
                    facts()["events"]["noCompatibleInstanceTypes"]["message"]
                    + " (no size gpupool knows is admitted)",
                )
            )
            continue
        t = Template(
            pool, nc, pool_requirements(pool, nc), sizes + assumed, len(assumed), unknown, max_pods_of(nc)
        )
        for s in t.sizes:
            t.alloc[s.name] = allocatable(s, t.max_pods)
            t.cap[s.name] = capacity(s, t.max_pods)
        _daemon_overhead(sim, t)
        out.append(t)
    out.sort(key=lambda t: t.pool.name, reverse=True)
    out.sort(key=lambda t: t.weight, reverse=True)
    return out, skipped
