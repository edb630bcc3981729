"""GP804 nodepool-limits-admit-no-node: NodePool `limits` smaller than every size it admits.

What it checks: for each admitted size, its capacity as Karpenter compares it with `spec.limits` (CPU = vCPUs;
memory = the VM's memory less NAP's 7.5 % overhead; `nvidia.com/gpu`/`amd.com/gpu` = its GPUs). Karpenter
never
launches a size whose capacity exceeds what is left under a limit. The rule reports a NodePool where no
admitted
size fits under the limits at all, or where sizes without GPUs fit but no GPU size does (for example
`nvidia.com/gpu: 0`, or `cpu: 16` with only 24-vCPU A100 sizes admitted).

Why: such a NodePool never creates the node it is for; the pods wait with "all available instance types exceed
limits for nodepool". A limit is meant to cap the total, not to rule out the first node.

Fix: raise the limit to at least one node of the smallest size (`gpupool plan` lists the sizes and their
capacity), or admit smaller sizes.

Source: kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling/scheduler.go
(filterByRemainingResources) @226646810437; Azure/karpenter-provider-azure
pkg/providers/instancetype/instancetype.go
(computeCapacity), pkg/operator/options/options.go (vm-memory-overhead-percent 0.075) @352646f59929; AKS docs
node-auto-provisioning-node-pools.md ("Node pool limits") @fb060abe6a8f; as of 2026-08-21. Error: no node can
be created. Sizes whose capacity gpupool does not know are taken to fit.

Failing example:

    spec:
      limits:
        nvidia.com/gpu: 0
      template:
        spec:
          requirements:
            - {key: karpenter.azure.com/sku-gpu-name, operator: In, values: [A100]}

Passing example:

    spec:
      limits:
        nvidia.com/gpu: 8
      template:
        spec:
          requirements:
            - {key: karpenter.azure.com/sku-gpu-name, operator: In, values: [A100]}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.k8s.quantity import format_quantity
from gpupool.nap.sizes import NapSize

if TYPE_CHECKING:
    from gpupool.nap.check import NapContext

ID = "GP804"
NAME = "nodepool-limits-admit-no-node"
SEVERITY = Severity.ERROR
SUMMARY = "The NodePool's limits are below the capacity of every size it admits: no node is ever created."


def _exceeds(size: NapSize, limits: dict) -> str | None:
    """The first limit the size's capacity exceeds (None: it fits or its capacity is unknown)."""
    for res, limit in limits.items():
        cap = size.capacity(res)
        if cap is not None and cap > limit:
            return res
    return None


def check(ctx: NapContext) -> Iterator[Finding]:
    p, a = ctx.pool, ctx.admitted
    limits = {k: v for k, v in p.limits.items() if k != "nodes"}
    if not limits or a.none:
        return
    sizes = list(a.sure) + list(a.maybe)
    fits = [s for s in sizes if _exceeds(s, limits) is None]
    gpu_sizes = [s for s in sizes if s.advertised()]
    if not fits:
        smallest = sizes[0]
        res = _exceeds(smallest, limits) or next(iter(limits))
        cap = smallest.capacity(res)
        yield ctx.finding(
            ID, SEVERITY,
            f"limits {res} {format_quantity(limits[res])} is below every admitted size "
            f"(the smallest, {smallest.name}, has {res} {format_quantity(cap) if cap is not None else '?'}): "
            "no node is ever created",
            [f"spec.limits.{res}", "spec.limits"],
            fix=f"raise limits.{res} to at least one node of the smallest admitted size",
        )
        return
    if gpu_sizes and not any(s.advertised() for s in fits):
        smallest = gpu_sizes[0]
        res = _exceeds(smallest, limits) or next(iter(limits))
        cap = smallest.capacity(res)
        yield ctx.finding(
            ID, SEVERITY,
            f"limits {res} {format_quantity(limits[res])} is below every admitted GPU size "
            f"(the smallest, {smallest.name}, has {res} {format_quantity(cap) if cap is not None else '?'}): "
            "no GPU node is ever created",
            [f"spec.limits.{res}", "spec.limits"],
            fix=f"raise limits.{res} to at least one node of the smallest GPU size",
        )
