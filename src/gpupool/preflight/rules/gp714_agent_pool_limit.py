"""GP714 agent-pool-limit: the cluster has no room for the new node pools.

What it checks: the cluster's node pools (`az aks show` `agentPoolProfiles`) plus the pools of the
run that it does not have yet, against the cluster's own limit `maxAgentPools` (a read-only property
of the managed cluster, 100 today).

Why: `az aks nodepool add` fails once the cluster has `maxAgentPools` node pools.

Fix: delete unused node pools, or put the new pool in another cluster.

Source: Azure REST API ManagedCluster `properties.maxAgentPools` (azure-mgmt-containerservice
`ManagedCluster.max_agent_pools`: "The max number of agent pools for the managed cluster"), as `az
aks show` prints it; as of 2026-12-03.

Failing example (maxAgentPools 100, 100 pools already):

    metadata:
      name: gpunp

Passing example (3 pools):

    metadata:
      name: gpunp
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity, plural

if TYPE_CHECKING:
    from gpupool.preflight.engine import PoolContext

ID = "GP714"
NAME = "agent-pool-limit"
SEVERITY = Severity.ERROR
SUMMARY = "Cluster at its maxAgentPools: no room for the new node pools"


def check(ctx: PoolContext) -> Iterator[Finding]:
    c = ctx.cluster
    if c is None or c.max_agent_pools is None:
        return
    have = {n.lower() for n in c.pool_names}
    if ctx.pool.name.lower() in have:
        return
    new = [n for n in ctx.new_pools_of_cluster if n.lower() not in have]
    if len(have) + len(new) <= c.max_agent_pools:
        return
    room = max(0, c.max_agent_pools - len(have))
    if ctx.pool.name in new[:room]:
        return  # this pool still fits; the later ones do not
    yield ctx.finding(
        ID,
        SEVERITY,
        f"cluster {c.name} has {len(have)} node pools of at most {c.max_agent_pools}; "
        f"{plural(len(new), 'new pool')} in this run, {room} fit",
        at=("name",),
        fix="delete unused node pools, or use another cluster",
        maxAgentPools=c.max_agent_pools,
    )
