"""GP132 duplicate-pool: two specs define the same pool of the same cluster.

What it checks: across all files given to one `gpupool check` run, two pool specs with the same
`resourceGroup`, `clusterName` and `metadata.name`. (Within one file the loader already refuses
this.)

Why: a node pool name is unique within a cluster; the second `az aks nodepool add` fails ("already
exists") or, with ARM/Terraform, one definition silently overwrites the other.

Fix: rename one pool, or check the two variants in separate runs (`gpupool diff` compares them).

Source: MicrosoftDocs/azure-aks-docs articles/aks/create-node-pools.md (node pool names per cluster);
Azure REST API agentPools (name is the resource name under the cluster); as of 2026-08-21.

Failing example:

    # a.yaml and b.yaml both contain
    metadata: {name: gpunp}
    spec: {resourceGroup: rg, clusterName: aks}

Passing example:

    # b.yaml
    metadata: {name: gpunp2}
    spec: {resourceGroup: rg, clusterName: aks}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP132"
NAME = "duplicate-pool"
SEVERITY = Severity.ERROR
SUMMARY = "same pool name defined twice for one cluster (across files)"


def _key(p):
    return (p.resource_group.lower(), p.cluster_name.lower(), p.name.lower())


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    key = _key(pool)
    for other in ctx.earlier_pools:
        if _key(other) == key:
            where = f"{other.where.path}:{other.where.line_of('name')}"
            yield ctx.finding(
                ID,
                SEVERITY,
                f'pool "{pool.name}" of cluster {pool.cluster_name} is also defined at {where}; pool names '
                "are unique per cluster",
                at=("name",),
                fix="rename one of the pools, or check the two variants separately "
                "(gpupool diff compares them)",
                other=where,
            )
            return
