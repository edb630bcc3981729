"""GP670 unused-gpu-nodes: GPU nodes on which no pod requests a GPU, with what they cost per hour.

What it checks: Ready GPU nodes that advertise a GPU resource and run no pod requesting one; per pool, the
hourly cost from simulate's price table (the Spot price for Spot nodes).

Why: GPU VMs are billed by the hour whether or not a pod uses the GPU. Idle nodes come from a minCount or
node count above the need, from pods that cannot reach the pool, or from a scale-down blocked by system pods.

Fix: scale the pool down (`az aks nodepool scale` / lower `--min-count`), or fix the workloads that should
run there (GP610 says why they don't).

Source: gpupool simulate's price table (simulate/data/prices.yaml, recalled estimates unless
`--fetch-prices`); as of 2026-08-21.

Failing example:

    # pool gpunp: 3 Ready nodes with nvidia.com/gpu 1, one training pod -> 2 idle, 2 x 0.526 USD/h

Passing example:

    # every GPU node runs a pod that requests nvidia.com/gpu
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor import facts
from gpupool.doctor.context import Context, finding, group_by_pool, node_list
from gpupool.findings import Finding, Severity, agree, plural

ID = "GP670"
NAME = "unused-gpu-nodes"
SEVERITY = Severity.WARNING
READS = ("nodes", "pods")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "GPU nodes on which no pod requests a GPU, with their hourly cost"


def check(ctx: Context) -> Iterator[Finding]:
    idle = [
        n
        for n in ctx.view.gpu_nodes
        if n.ready and n.advertises_gpu and not any(v > 0 for v in n.gpu_requested.values())
    ]
    spot = facts.label("spotPriority")
    for pool, nodes in group_by_pool(idle).items():
        total, currency, unknown = 0.0, "", []
        for n in nodes:
            price = ctx.prices.get(n.vm_size) if n.vm_size else None
            if price is None:
                unknown.append(n.vm_size or "?")
                continue
            total += price.hourly(n.labels.get(spot["key"]) == spot["value"])
            currency = price.currency
        cost = f" ({total:.2f} {currency}/h)" if currency else ""
        ev = [f"nodes: {node_list(nodes)}"]
        if currency:
            ev.append(f"price table: {ctx.prices.source} ({ctx.prices.region}, as of {ctx.prices.as_of})")
        if unknown:
            ev.append(f"no price for {', '.join(sorted(set(unknown)))}")
        yield finding(
            ID,
            SEVERITY,
            f"{plural(len(nodes), 'GPU node')} {agree(len(nodes), 'runs', 'run')} no pod "
            f"that requests a GPU{cost}",
            f"pool {pool}",
            "pods",
            ev,
            "scale the pool down (az aks nodepool scale, or a lower --min-count), or fix the "
            "workloads meant to run there",
            nodes=[n.name for n in nodes],
            hourlyCost=round(total, 4) if currency else None,
        )
