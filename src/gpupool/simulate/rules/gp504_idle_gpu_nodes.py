"""GP504 idle-gpu-nodes: GPU nodes that no GPU pod uses, and what they cost.

What it checks: after the simulation, the nodes of GPU pools on which no pod requests a GPU resource.

Why: GPU VMs are billed by the hour whether or not a pod uses the GPU. Idle GPU nodes come from a nodeCount or
minCount above what the workloads need, from pods that can't reach the pool (a missing toleration, a selector
that does not match), or from pods that request no GPU landing on an untainted GPU pool.

Fix: lower nodeCount or autoscaler.minCount, let the autoscaler scale the pool down (minCount 0, see GP128
for the trade-off), or fix the workloads that should run there (the Pending messages say why they don't).

Source: gpupool simulate (node placement and the price table, simulate/data/prices.yaml); as of 2026-08-21.

Failing example:

    # GPU pool nodeCount: 3, a Deployment of 1 one-GPU pod -> 2 GPU nodes idle

Passing example:

    # nodeCount: 1 (or an autoscaler) for the same Deployment
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.design.node import is_gpu_resource
from gpupool.findings import Finding, Severity, agree, plural
from gpupool.simulate.rules._common import hourly, money

if TYPE_CHECKING:
    from gpupool.simulate.engine import RuleContext

ID = "GP504"
NAME = "idle-gpu-nodes"
SEVERITY = Severity.INFO
SUMMARY = "GPU nodes on which no pod uses a GPU (billed all the same)"


def check(ctx: RuleContext) -> Iterator[Finding]:
    sim, cluster = ctx.simulation, ctx.run.cluster
    for i, pool in enumerate(sim.pools):
        ps = cluster.pools[i]
        gpu_idx = [
            sim.registry.index[k]
            for k, v in sim.shapes_real[i].allocatable.items()
            if is_gpu_resource(k) and v
        ]
        if not ps.nodes or not gpu_idx:
            continue
        idle = sum(n for st, n in cluster.pool_states(ps) if not any(st.vec[j] for j in gpu_idx))
        if not idle:
            continue
        price = ctx.prices.get(pool.vm_size)
        cost = f" ({money(idle * hourly(price, pool), price.currency)}/h)" if price else ""
        yield ctx.finding(
            ID,
            SEVERITY,
            f"{idle} of {plural(len(ps.nodes), 'node')} of pool {pool.name} {agree(idle, 'runs', 'run')} "
            f"no pod that requests a GPU{cost}",
            at_pool=pool,
            fix="lower nodeCount or autoscaler.minCount, or fix the workloads meant to run there",
            idleNodes=idle,
        )
