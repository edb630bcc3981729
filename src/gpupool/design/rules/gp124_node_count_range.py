"""GP124 node-count-range: node count or autoscaler range that AKS rejects.

What it checks:

* with `autoscaler`: `minCount <= maxCount`; both within [0, 1000] for User pools and [1, 1000]
  for System pools; `nodeCount` (default 1) within [minCount, maxCount];
* without `autoscaler`: `nodeCount` within [0, 1000] (User) or [1, 1000] (System).

Why: the Azure CLI and the resource provider refuse these values ("node-count is not in the range of
min-count and max-count"; System pools need at least one node), so the create command fails.

Fix: adjust the numbers; User pools may scale to zero, System pools may not.

Source: Azure CLI 2.91.0 acs/_help.py (--min-count/--max-count "[0, 1000] for user nodepool, and
[1,1000] for system nodepool"), acs/_validators.py, acs/agentpool_decorator.py ("node-count is not in
the range of min-count and max-count"); hashicorp/terraform-provider-azurerm kubernetes_cluster_node_pool
docs; catalog/data/aks_limits.yaml; as of 2026-08-21.

Failing example:

    spec:
      nodeCount: 5
      autoscaler: {minCount: 1, maxCount: 3}

Passing example:

    spec:
      nodeCount: 1
      autoscaler: {minCount: 1, maxCount: 3}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP124"
NAME = "node-count-range"
SEVERITY = Severity.ERROR
SUMMARY = "nodeCount / autoscaler min-max outside what AKS accepts"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    limits = catalog.pool_limits()
    lo, hi = limits.node_count[pool.mode]
    where = f"a {pool.mode} pool"
    given = "nodeCount" in pool.where.fields
    count_text = f"nodeCount {pool.node_count}" + ("" if given else " (the default)")
    a = pool.autoscaler
    if a is None:
        if not lo <= pool.node_count <= hi:
            yield ctx.finding(
                ID, SEVERITY,
                f"{count_text} is outside [{lo}, {hi}], the range AKS accepts for {where}",
                at=("nodeCount",),
                fix=f"set nodeCount between {lo} and {hi}",
            )
        return
    bad_bounds = False
    for label, value, field in (("minCount", a.min_count, "autoscaler.minCount"),
                                ("maxCount", a.max_count, "autoscaler.maxCount")):
        if not lo <= value <= hi:
            bad_bounds = True
            yield ctx.finding(
                ID, SEVERITY,
                f"autoscaler.{label} {value} is outside [{lo}, {hi}], the range AKS accepts for {where}",
                at=(field, "autoscaler"),
                fix=f"set autoscaler.{label} between {lo} and {hi}",
            )
    if a.min_count > a.max_count:
        yield ctx.finding(
            ID, SEVERITY,
            f"autoscaler.minCount {a.min_count} is greater than maxCount {a.max_count}",
            at=("autoscaler.minCount", "autoscaler"),
            fix="swap the values or raise maxCount",
        )
        return
    if not bad_bounds and not a.min_count <= pool.node_count <= a.max_count:
        yield ctx.finding(
            ID, SEVERITY,
            f"{count_text} is not within the autoscaler range [{a.min_count}, {a.max_count}]; AKS refuses "
            "a starting node count outside minCount..maxCount",
            at=("nodeCount", "autoscaler"),
            fix=f"set nodeCount between {a.min_count} and {a.max_count}",
        )
