"""GP806 nap-beside-autoscaled-pool: an agent pool scaled by the cluster autoscaler on a cluster where Node
Auto Provisioning is on.

What it checks: whether NAP is on comes from the cluster itself when `az aks show -o json` is given
(`gpupool check --cluster FILE`): `nodeProvisioningProfile.mode` is `Auto` (absent or null: `Manual`, NAP
off). Then every agent pool of that cluster with `enableAutoScaling`, and every gpupool pool spec of that
cluster with `autoscaler`, is reported. Without the file, Karpenter NodePools among the inputs are taken to
mean NAP is on for the pool specs checked beside them (gpupool takes them to describe one cluster).

Why: AKS long refused the combination ("You can't enable NAP on clusters enabled with the cluster autoscaler",
in the NAP overview until 2026-07-15). Since then the migration guide lets both run only after registering the
preview feature `AllowClusterAutoscalerAndNAP`, warns that both react to the same pending pods (double
provisioning, unpredictable placement), and asks for the taint `autoscaling.azure.com/cas-block` on autoscaled
pools with tolerations on the workloads that stay there. Without the feature, pools of a NAP cluster are fixed
size.

Fix: drop `autoscaler` from the pool (a fixed `nodeCount`) and let NAP create the nodes; or register
`AllowClusterAutoscalerAndNAP`, taint the autoscaled pool `autoscaling.azure.com/cas-block=true:NoSchedule`
and plan the migration.

Source: MicrosoftDocs/azure-aks-docs articles/aks/migrate-from-autoscaler-to-node-auto-provisioning.md
@09a18cc9f (2026-08-20); node-auto-provisioning.md @b83ca7937 (2026-07-15, the limitation removed);
use-node-auto-provisioning.md (`--node-provisioning-mode Auto`, `Manual`) @fb060abe6a8f; as of 2026-08-21.
Severity warning, not error: AKS accepts it where the preview feature is registered, which gpupool cannot
see.

Failing example (with a NodePool among the inputs, or `--cluster` naming a cluster whose
`nodeProvisioningProfile.mode` is `Auto`):

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
from typing import TYPE_CHECKING, Any

from gpupool import catalog
from gpupool.findings import Finding, Severity, about_pool

if TYPE_CHECKING:
    from gpupool.nap.check import NapContext
    from gpupool.nap.cluster import ClusterNap

ID = "GP806"
NAME = "nap-beside-autoscaled-pool"
SEVERITY = Severity.WARNING
SUMMARY = "A cluster-autoscaled pool where NAP is on: AKS needs AllowClusterAutoscalerAndNAP (preview)."


def check(ctx: NapContext) -> Iterator[Finding]:
    if ctx.clusters:
        return  # the cluster says whether NAP is on: check_clusters
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


def check_clusters(clusters: tuple[ClusterNap, ...], pool_specs: tuple[Any, ...]) -> Iterator[Finding]:
    """With ``az aks show`` given: its agent pools and the pool specs of that cluster, where NAP is on."""
    facts = catalog._data("nap.yaml")["autoscalerBeside"]
    fix = (f"use a fixed nodeCount, or register {facts['feature']} and taint the pool "
           f"{facts['casBlockTaint']}=true:NoSchedule")
    for c in clusters:
        if not c.on:
            continue
        said = "nodeProvisioningProfile.mode Auto"
        for name in c.autoscaled:
            yield Finding(
                rule=ID, severity=SEVERITY, path=c.path, line=c.line, object=c.label, fix=fix,
                message=f"agent pool {name} of cluster {c.name} is scaled by the cluster autoscaler while "
                f"NAP is on ({said}): AKS allows both only with the preview feature {facts['feature']}",
                extra={"pool": name},
            )
        for spec in pool_specs:
            if spec.autoscaler is None or spec.cluster_name != c.name or spec.name in c.autoscaled:
                continue
            tainted = any(t.key == facts["casBlockTaint"] for t in spec.node_taints)
            extra = "" if tainted else f" and the pool has no {facts['casBlockTaint']} taint"
            yield about_pool(
                spec, ID, SEVERITY,
                f"pool {spec.name} is scaled by the cluster autoscaler while cluster {c.name} has NAP on "
                f"({said}, {c.path}): AKS allows both only with the preview feature "
                f"{facts['feature']}{extra}",
                ["autoscaler"], fix=fix,
            )
