"""GP680 design-drift: the nodes of a pool differ from the pool's design (`--pool SPEC`).

What it checks: with `--pool SPEC...`, for each designed pool that has nodes in the cluster (matched by
`kubernetes.azure.com/agentpool`): the VM size, the `NoSchedule`/`NoExecute` taints (the spec's plus
the Spot taint AKS adds; the node lifecycle taints `node.kubernetes.io/*` are left out) and the GPU
resources each node advertises, against what `gpupool plan` says the design gives
(`gpupool.design.node.advertised`, the one implementation plan and simulate use). Nodes that advertise
no GPU at all are left to GP601-GP606, which say why. A designed pool without nodes is reported as info.

Why: the cluster drifts from the design (a pool recreated by hand, a taint changed in place, a MIG strategy
or time-slicing config that did not apply); the design's checks and simulation then say nothing about
the cluster that runs.

Fix: bring the pool back to the design (`gpupool diff` prints the commands and whether a new pool is
needed), or update the design to what runs.

Source: gpupool plan (advertised resources per pool: MIG strategy, instance profile, time-slicing, from
catalog/data/gpus.yaml and the device plugin README); as of 2026-12-03.

Failing example:

    # spec: vmSize Standard_NC24ads_A100_v4, gpu.instanceProfile MIG1g, migStrategy Mixed
    # node: capacity nvidia.com/gpu: "1" (MIG not applied)

Passing example:

    # node: capacity nvidia.com/mig-1g.10gb: "7"
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.design.node import advertised
from gpupool.doctor.context import Context, finding, node_list
from gpupool.findings import Finding, Severity

ID = "GP680"
NAME = "design-drift"
SEVERITY = Severity.WARNING
READS = ("nodes",)  # kinds it must read to conclude (doctor.engine)
SUMMARY = "With --pool: the nodes of a pool differ from its design (VM size, taints, advertised GPUs)"

LIFECYCLE_TAINT_PREFIX = "node.kubernetes.io/"


def check(ctx: Context) -> Iterator[Finding]:
    for pool in ctx.pools:
        nodes = [n for n in ctx.view.nodes if n.pool == pool.name]
        if not nodes:
            yield finding(
                ID,
                Severity.INFO,
                f"designed pool {pool.name} ({pool.vm_size}) has no nodes in the cluster",
                f"pool {pool.name}",
                "nodes",
                [f"design: {pool.where.path}:{pool.where.line}"],
                "create the pool (gpupool plan prints the az command), or scale it up if it "
                "autoscales from 0",
            )
            continue
        want_taints = {
            (t.key, t.value, t.effect) for t in pool.effective_taints if t.effect != "PreferNoSchedule"
        }
        want_gpu = {k: v for k, v in advertised(pool).resources.items() if v}
        evidence = []
        odd_size = [n for n in nodes if n.vm_size and n.vm_size.lower() != pool.vm_size.lower()]
        if odd_size:
            evidence.append(f"VM size {odd_size[0].vm_size} (design {pool.vm_size}) on {node_list(odd_size)}")
        odd_taints = []
        for n in nodes:
            have = {
                (t.key, t.value, t.effect)
                for t in n.taints
                if t.effect != "PreferNoSchedule" and not t.key.startswith(LIFECYCLE_TAINT_PREFIX)
            }
            if have != want_taints:
                odd_taints.append((n, have))
        if odd_taints:
            n, have = odd_taints[0]
            fmt = lambda ts: ", ".join(sorted(f"{k}={v}:{e}" for k, v, e in ts)) or "none"  # noqa: E731
            evidence.append(
                f"taints {fmt(have)} (design {fmt(want_taints)}) on {node_list([x for x, _ in odd_taints])}"
            )
        odd_gpu = [
            n for n in nodes if n.advertises_gpu and {k: v for k, v in n.gpu().items() if v} != want_gpu
        ]
        if odd_gpu:
            have = {k: v for k, v in odd_gpu[0].gpu().items() if v}
            evidence.append(f"advertised {have} (design {want_gpu or 'no GPU'}) on {node_list(odd_gpu)}")
        if evidence:
            yield finding(
                ID,
                SEVERITY,
                f"the nodes differ from the design of pool {pool.name}",
                f"pool {pool.name}",
                "nodes",
                [*evidence, f"design: {pool.where.path}:{pool.where.line}"],
                "gpupool diff <az aks nodepool show -o json> <spec> prints what to change, or update "
                "the spec",
            )
