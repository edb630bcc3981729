"""GP133 mixed-gpu-stacks: a GPU Operator pool next to managed or driver-only GPU pools in one cluster.

What it checks: within one cluster (same `resourceGroup` and `clusterName`), a Linux NVIDIA pool
with `gpu.driver: None` (the NVIDIA GPU Operator's pool) together with other Linux NVIDIA GPU pools
that bring their own stack: managed pools (AKS's device plugin) or driver-only pools (AKS's driver plus
your device plugin). Reported once per cluster, on the first GPU Operator pool.

Why: "never run two device plugins on the same nodes". The GPU Operator is installed per cluster and,
by default, deploys its driver, toolkit and device plugin to every node with an NVIDIA GPU ([INFERRED]
from its node-feature-discovery based selection), so it would land on the other pools' nodes too: two
device plugins, or a second driver over the one AKS installed. A warning, because the Operator can be
kept off those nodes.

Fix: use one GPU stack per cluster, or keep the Operator off the other pools: give them the node label
`nvidia.com/gpu.deploy.operands: "false"` (`spec.nodeLabels`), which the GPU Operator honours.

Source: MicrosoftDocs/azure-aks-docs articles/aks/best-practices-ml-ops.md (one device plugin per node),
nvidia-gpu-operator.md (commit fb060abe6a8f); NVIDIA GPU Operator docs (`nvidia.com/gpu.deploy.operands`);
as of 2026-08-21.

Failing example:

    # one file, two pools of cluster aks
    metadata: {name: gpuop}
    spec: {vmSize: Standard_NC24ads_A100_v4, gpu: {driver: None}}
    ---
    metadata: {name: gpumanaged}
    spec: {vmSize: Standard_NC4as_T4_v3, gpu: {managed: true}}

Passing example:

    metadata: {name: gpumanaged}
    spec:
      vmSize: Standard_NC4as_T4_v3
      nodeLabels: {nvidia.com/gpu.deploy.operands: "false"}
      gpu: {managed: true}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.design.rules._common import operator_pool
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP133"
NAME = "mixed-gpu-stacks"
SEVERITY = Severity.WARNING
SUMMARY = "GPU Operator pool (driver None) next to managed/driver-only GPU pools in one cluster"

OPT_OUT_LABEL = "nvidia.com/gpu.deploy.operands"


def _cluster(p):
    return (p.resource_group.lower(), p.cluster_name.lower())


def _own_stack(p) -> str | None:
    """'managed' or 'driver-only' for a Linux NVIDIA GPU pool with its own stack, not opted out."""
    size = catalog.vm_size(p.vm_size)
    if not p.is_gpu_pool or size is None or not size.is_gpu or size.path != "nvidia" or p.is_windows:
        return None
    if p.node_labels.get(OPT_OUT_LABEL, "").lower() == "false":
        return None
    g = p.gpu_settings
    if g.managed:
        return "managed"
    if g.driver == "Install":
        return "driver-only"
    return None


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if not operator_pool(pool, ctx.size):
        return
    cluster = _cluster(pool)
    same = [p for p in ctx.pools if _cluster(p) == cluster]
    first_operator = next(p for p in same if operator_pool(p, catalog.vm_size(p.vm_size)))
    if first_operator is not pool:
        return
    others = [(p, kind) for p in same if p is not pool and (kind := _own_stack(p))]
    if not others:
        return
    listed = ", ".join(f"{p.name} ({kind})" for p, kind in others)
    yield ctx.finding(
        ID,
        SEVERITY,
        f"gpu.driver None means the NVIDIA GPU Operator runs in cluster {pool.cluster_name}; by default it "
        f"also deploys its driver and device plugin to the GPU nodes of {listed}, giving them two GPU stacks "
        "[INFERRED]",
        at=("gpu.driver", "gpu"),
        fix=f'give those pools nodeLabels {{{OPT_OUT_LABEL}: "false"}} so the Operator skips them, or use '
        "one GPU stack per cluster",
        pools=[p.name for p, _ in others],
    )
