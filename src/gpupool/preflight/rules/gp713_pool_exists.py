"""GP713 pool-exists: a node pool of that name already exists in the cluster.

What it checks: `metadata.name` against the cluster's `agentPoolProfiles[].name` (`az aks show`).

Why: `az aks nodepool add` fails for a name the cluster already has (a node pool is the ARM child
resource `managedClusters/<cluster>/agentPools/<name>`). If the spec describes the existing pool, what
changes is `gpupool diff`'s job; and its nodes already count in the quota's `currentValue`, so the
quota rules (GP704-GP706) count them twice.

Fix: pick a new name, or compare with the existing pool: `az aks nodepool show ... -o json` then
`gpupool diff CURRENT SPEC`.

Source: Azure REST API `Microsoft.ContainerService/managedClusters/agentPools` (the pool name is the
resource name); azure-cli 2.91.0 `az aks show` output (agentPoolProfiles); as of 2026-12-03.

Failing example (the cluster has nodepool1):

    metadata:
      name: nodepool1

Passing example:

    metadata:
      name: gpunp
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.preflight.engine import PoolContext

ID = "GP713"
NAME = "pool-exists"
SEVERITY = Severity.WARNING
SUMMARY = "A node pool of that name already exists in the cluster (add would fail; use diff)"


def check(ctx: PoolContext) -> Iterator[Finding]:
    c = ctx.cluster
    if c is None or ctx.pool.name.lower() not in {n.lower() for n in c.pool_names}:
        return
    yield ctx.finding(
        ID,
        SEVERITY,
        f"cluster {c.name} already has a node pool named {ctx.pool.name}: az aks nodepool add fails, and its "
        "nodes already count in the quota usage",
        at=("name",),
        fix="use a new name, or gpupool diff against az aks nodepool show -o json",
        cluster=c.name,
    )
