"""GP139 max-pods-range: `maxPods` is below AKS's minimum.

What it checks: `spec.maxPods` must be at least 10, and a pool with fewer than 30 pods per node must
still have room for 30 pods: `maxPods` x nodes (`autoscaler.minCount`, else `nodeCount`) >= 30.
A pool with `maxPods` of 30 or more, or with no nodes yet (scale from zero), always has that room.
(The upper bound, 250, is enforced when the spec is read.)

Why: "The minimum value in the previous table is strictly enforced by the AKS service. You cannot set a
value for maxPods that is lower than the minimum shown"; 10 is allowed "if and only if the configuration
of each node pool has space for a minimum of 30 pods".

Fix: raise `maxPods` (AKS's default is 250 on Azure CNI Overlay, the default network), or add nodes.

Source: MicrosoftDocs/azure-aks-docs articles/aks/concepts-network-ip-address-planning.md (Maximum pods
per node) @fb060abe6a8f; as of 2026-08-21.

Failing example:

    spec:
      nodeCount: 1
      maxPods: 10

Passing example:

    spec:
      nodeCount: 3
      maxPods: 10
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.catalog.aks import max_pods
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP139"
NAME = "max-pods-range"
SEVERITY = Severity.ERROR
SUMMARY = "maxPods below AKS's minimum (10, and room for 30 pods per pool)"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if pool.max_pods is None:
        return
    m = max_pods()
    if pool.max_pods < m.min:
        yield ctx.finding(
            ID,
            SEVERITY,
            f"maxPods {pool.max_pods} is below AKS's minimum of {m.min}",
            at=("maxPods",),
            fix=f"set maxPods to {m.min}-{m.max}",
            minimum=m.min,
        )
        return
    if pool.max_pods >= m.min_pods_per_pool:
        return  # one node already has room for the pool's minimum (a pool scaled to zero is fine)
    nodes = pool.autoscaler.min_count if pool.autoscaler else pool.node_count
    if 0 < pool.max_pods * nodes < m.min_pods_per_pool:
        need = -(-m.min_pods_per_pool // pool.max_pods)
        yield ctx.finding(
            ID,
            SEVERITY,
            f"maxPods {pool.max_pods} x {nodes} node{'' if nodes == 1 else 's'} leaves room for "
            f"{pool.max_pods * nodes} pods; AKS needs room for {m.min_pods_per_pool} in every pool",
            at=("maxPods",),
            fix=f"set {'autoscaler.minCount' if pool.autoscaler else 'nodeCount'}: {need} or more, or "
            f"maxPods: {m.min_pods_per_pool} or more",
            minimum=m.min_pods_per_pool,
        )
