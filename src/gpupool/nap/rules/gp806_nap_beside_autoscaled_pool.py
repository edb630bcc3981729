"""GP806 nap-beside-autoscaled-pool: Karpenter NodePools checked together with a cluster-autoscaled pool.

What it checks: the inputs hold Karpenter NodePools (the cluster uses Node Auto Provisioning) and a gpupool
pool
spec with `autoscaler` (an agent pool scaled by the cluster autoscaler). gpupool takes NodePools and pool
specs
given together to describe one cluster.

Why: AKS long refused the combination ("You can't enable NAP on clusters enabled with the cluster autoscaler",
in the NAP overview until 2026-07-15). Since then the migration guide lets both run only after registering the
preview feature `AllowClusterAutoscalerAndNAP`, warns that both react to the same pending pods (double
provisioning, unpredictable placement), and asks for the taint `autoscaling.azure.com/cas-block` on autoscaled
pools with tolerations on the workloads that stay there. Without the feature, pools of a NAP cluster are fixed
size.

Fix: drop `autoscaler` from the pool (a fixed `nodeCount`) and let NAP create the nodes; or register
`AllowClusterAutoscalerAndNAP`, taint the autoscaled pool `autoscaling.azure.com/cas-block=true:NoSchedule`
and
plan the migration.

Source: MicrosoftDocs/azure-aks-docs articles/aks/migrate-from-autoscaler-to-node-auto-provisioning.md
@09a18cc9f (2026-08-20); node-auto-provisioning.md @b83ca7937 (2026-07-15, the limitation removed); as of
2026-08-21. Severity warning, not error: AKS accepts it where the preview feature is registered, which gpupool
cannot see.

Failing example (with a NodePool among the inputs):

    apiVersion: gpupool/v1
    kind: GpuNodePool
    spec:
      autoscaler: {minCount: 0, maxCount: 4}

Passing example:

    apiVersion: gpupool/v1
    kind: GpuNodePool
    spec:
      nodeCount: 1
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.findings import Finding, Severity, about_pool

if TYPE_CHECKING:
    from gpupool.nap.check import NapContext

ID = "GP806"
NAME = "nap-beside-autoscaled-pool"
SEVERITY = Severity.WARNING
SUMMARY = "A cluster-autoscaled pool beside NAP NodePools: AKS needs AllowClusterAutoscalerAndNAP (preview)."


def check(ctx: NapContext) -> Iterator[Finding]:
    if ctx.pool is not ctx.inputs.node_pools[0]:
        return  # once per run, not per NodePool
    facts = catalog._data("nap.yaml")["autoscalerBeside"]
    for spec in ctx.pool_specs:
        if spec.autoscaler is None:
            continue
        tainted = any(t.key == facts["casBlockTaint"] for t in spec.node_taints)
        extra = "" if tainted else f" and the pool has no {facts['casBlockTaint']} taint"
        yield about_pool(
            spec, ID, SEVERITY,
            f"pool {spec.name} is scaled by the cluster autoscaler while NodePool {ctx.pool.name} uses NAP: "
            f"AKS allows both only with the preview feature {facts['feature']}{extra}",
            ["autoscaler"],
            fix=f"use a fixed nodeCount, or register {facts['feature']} and taint the pool "
            f"{facts['casBlockTaint']}=true:NoSchedule",
        )
