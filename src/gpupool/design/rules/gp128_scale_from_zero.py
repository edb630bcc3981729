"""GP128 scale-from-zero: a GPU pool that can sit at zero nodes.

What it checks: a GPU pool with `autoscaler.minCount: 0`, or with `nodeCount: 0` and no autoscaler.

Why: scaling to zero saves GPU hours, but the first GPU pod then waits for a VM to be created, the
driver to install and the device plugin to register (typically several minutes). While the pool is at
zero the cluster autoscaler decides from a template built from the VM size: it knows the physical GPU
count as `nvidia.com/gpu` only. Pods that request MIG-mixed names (`nvidia.com/mig-1g.10gb`) or
renamed time-sliced resources (`nvidia.com/gpu.shared`) then may never trigger a scale-up, and for MIG
Single or time-slicing it over-estimates the nodes needed. That case is a warning ([INFERRED] from the
autoscaler's Azure template code, reported in Azure/AKS#4216); the plain case is info. Without an
autoscaler a pool at zero stays empty until you scale it.

Fix: accept the start-up delay, or keep `minCount: 1` so a real node becomes the autoscaler's
template (needed for MIG-mixed or renamed shared resources).

Source: kubernetes/autoscaler cluster-autoscaler/cloudprovider/azure/azure_template.go; Azure/AKS#4216;
MicrosoftDocs/azure-aks-docs articles/aks/scale-cluster.md (User pools may scale to zero);
NVIDIA/gpu-operator#693; as of 2026-08-21.

Failing example:

    spec:
      autoscaler: {minCount: 0, maxCount: 3}
      nodeCount: 0

Passing example:

    spec:
      autoscaler: {minCount: 1, maxCount: 3}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.design.node import advertised
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP128"
NAME = "scale-from-zero"
SEVERITY = Severity.WARNING
SUMMARY = "GPU pool at zero nodes: first pod waits; autoscaler template has physical GPUs only"


def _template_blind(pool) -> list[str]:
    """Resource names the autoscaler's zero-node template cannot know."""
    names = advertised(pool).resources
    return sorted(n for n in names if n.startswith("nvidia.com/mig-") or n.endswith(".shared"))


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if not ctx.gpu_pool_with_gpu_size or pool.gpu_settings.managed:
        return  # managed pools cannot autoscale (GP114)
    a = pool.autoscaler
    if a is None:
        if pool.node_count == 0:
            yield ctx.finding(
                ID, Severity.INFO,
                "nodeCount 0 without autoscaler: the pool has no GPU nodes until you scale it, so GPU pods "
                "stay Pending",
                at=("nodeCount",),
                fix="scale with `az aks nodepool scale --node-count N` when needed, or add autoscaler "
                "{minCount: 0, maxCount: N}",
            )
        return
    if a.min_count != 0:
        return
    blind = _template_blind(pool)
    g = pool.gpu_settings
    if blind:
        yield ctx.finding(
            ID, SEVERITY,
            f"autoscaler.minCount 0: at zero nodes the autoscaler's template knows only nvidia.com/gpu, "
            f"not {', '.join(blind)}, so pods requesting {'them' if len(blind) > 1 else 'it'} may never "
            "trigger a scale-up [INFERRED]",
            at=("autoscaler.minCount", "autoscaler"),
            fix="set autoscaler.minCount: 1 so a real node becomes the template, or request nvidia.com/gpu",
        )
        return
    extra = ""
    if (g.instance_profile and ctx.size.mig_capable) or g.time_slicing is not None:
        extra = ("; with MIG or time-slicing it plans from physical GPUs and may add more nodes than "
                 "needed")
    yield ctx.finding(
        ID, Severity.INFO,
        "autoscaler.minCount 0: the first GPU pod waits several minutes for a node (VM, driver, device "
        f"plugin); at zero the autoscaler plans from a template of the VM size{extra}",
        at=("autoscaler.minCount", "autoscaler"),
        fix="fine for batch work; keep minCount: 1 if GPU pods must start quickly",
    )
