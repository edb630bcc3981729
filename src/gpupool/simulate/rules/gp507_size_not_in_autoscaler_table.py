"""GP507 autoscaler-size-unknown: a VM size missing from the cluster autoscaler's static size table.

What it checks: autoscaled pools whose VM size the autoscaler's static instance-type table lacks (the K80,
M60, P40 and P100 sizes, the GB200 and GB300 sizes, all 15 RTX PRO 6000 BSE v6 sizes).

Why: with no node to copy, the autoscaler builds a pool's template from that table. For a size it lacks there
is no template. Up to cluster-autoscaler 1.34 (on AKS its minor follows the cluster's Kubernetes minor),
computing the cluster's total resources for a scale-up then fails (`could not compute total resources: No
node info for: <node group>`): while such a pool has zero nodes, no pool in the cluster scales up, not only
this one. From 1.35 the limits come from a quota tracker over the existing nodes, and only this pool is
skipped (`not ready for scale-up` among the pod's `NotTriggerScaleUp` reasons). With nodes the pool works
until it scales down to zero.

Fix: give the pool `autoscaler.minCount: 1` (a real node is then the template), turn its autoscaler off, or
pick a size the autoscaler knows.

Source: kubernetes/autoscaler cluster-autoscaler/cloudprovider/azure/azure_instance_types.go (the static
table; also ND96amsr_A100_v4 at 1800 GiB memory, Azure says 1900), core/scaleup/resource/manager.go
(ResourcesLeft, cluster-autoscaler-1.31.0), core/scaleup/orchestrator/orchestrator.go
(cluster-autoscaler-1.35.0: NewQuotasTracker, filterValidScaleUpNodeGroups); the error text recorded from
the real CA 1.31.5 with AKS's template builder; as of 2026-12-03.

Failing example:

    # pool: Standard_ND128isr_NDR_GB200_v6, nodeCount 0, autoscaler {minCount: 0, maxCount: 2}

Passing example:

    # the same pool with autoscaler {minCount: 1, maxCount: 2}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity, agree, plural

if TYPE_CHECKING:
    from gpupool.simulate.engine import RuleContext

ID = "GP507"
NAME = "autoscaler-size-unknown"
SEVERITY = Severity.ERROR
SUMMARY = "An autoscaled pool's VM size is missing from the autoscaler's static table: no scale-up at zero"


def check(ctx: RuleContext) -> Iterator[Finding]:
    run = ctx.aks
    if run is None:
        return
    sim = ctx.simulation
    for i, pool in enumerate(sim.pools):
        if pool.autoscaler is None or sim.ca.in_static_table(pool.vm_size):
            continue
        at_zero = run.initial[i] == 0
        if not at_zero and pool.autoscaler.min_count > 0:
            continue
        pending = sum(1 for p in run.pending if not p.ds and p.status is None)
        aborts = sim.ca.no_node_info_aborts(sim.version)
        if aborts:
            what = (
                f"while pool {pool.name} has zero nodes every scale-up in the cluster fails "
                f'("{sim.ca.no_node_info.format(group=run_group(pool))}")'
                + (f"; {plural(pending, 'Pending pod')} {agree(pending, 'gets', 'get')} no node"
                   if pending else "")
                if at_zero
                else f"once pool {pool.name} scales down to zero (minCount 0) every scale-up in the cluster "
                "fails"
            )
        else:
            what = (
                f"while pool {pool.name} has zero nodes the autoscaler skips it "
                f'("{sim.ca.not_ready_reason}") and never scales it up'
                if at_zero
                else f"once pool {pool.name} scales down to zero (minCount 0) the autoscaler never scales it "
                "up again"
            )
        yield ctx.finding(
            ID,
            SEVERITY if at_zero else Severity.WARNING,
            f"the cluster autoscaler's static size table has no {pool.vm_size}: " + what,
            at_pool=pool,
            fix=f"set autoscaler.minCount: 1 on pool {pool.name}, turn its autoscaler off, "
            "or use another size",
            pool=pool.name,
        )


def run_group(pool) -> str:  # type: ignore[no-untyped-def]
    from gpupool.design.nodeshape import group_id

    return group_id(pool)
