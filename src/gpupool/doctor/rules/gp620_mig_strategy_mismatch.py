"""GP620 mig-strategy-mismatch: a GPU pod asks for a resource name of the other MIG strategy.

What it checks: Pending pods that request `nvidia.com/mig-<profile>` while the MIG nodes advertise their
MIG devices as `nvidia.com/gpu` (strategy single: `nvidia.com/mig.strategy=single`, or MIG capable nodes
with `nvidia.com/gpu` and no `nvidia.com/mig-*`), and pods that request `nvidia.com/gpu` while every
MIG node advertises only `nvidia.com/mig-*` (strategy mixed, all GPUs partitioned).

Why: with `single` each MIG device is an `nvidia.com/gpu`; with `mixed` each profile has its own
resource and `nvidia.com/gpu` counts only GPUs without MIG. The wrong name is `Insufficient` forever.

Fix: request the name the nodes advertise: `nvidia.com/gpu` on single, `nvidia.com/mig-<g>g.<mem>gb`
on mixed (`gpupool plan` prints it per pool).

Source: NVIDIA/k8s-device-plugin README "MIG strategies"; AKS docs gpu-multi-instance.md; NVIDIA/gpu-operator
issues #637, #693; checked 2026-12-02.

Failing example:

    resources: {limits: {nvidia.com/mig-1g.10gb: 1}}
    # nodes: nvidia.com/gpu: 7, nvidia.com/mig.strategy=single

Passing example:

    resources: {limits: {nvidia.com/gpu: 1}}
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.design.node import GPU_RESOURCE, MIG_PREFIX
from gpupool.doctor import facts
from gpupool.doctor.context import Context, Pending, finding, pod_ref
from gpupool.doctor.view import NodeView
from gpupool.findings import Finding, Severity

ID = "GP620"
NAME = "mig-strategy-mismatch"
SEVERITY = Severity.ERROR
READS = ("nodes", "pods")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "A pod requests a MIG resource name of the other MIG strategy than the nodes use"


def strategy(n: NodeView) -> str | None:
    """single | mixed for MIG nodes (label, else what is advertised); None for nodes without MIG."""
    label = n.labels.get(facts.label("migStrategy"))
    gpu = n.gpu()
    if any(k.startswith(MIG_PREFIX) and v for k, v in gpu.items()):
        return "mixed"
    if label in ("single", "mixed"):
        return label
    phys = n.physical_gpus
    mig_size = n.size is not None and n.size.mig_capable
    not_shared = n.labels.get(facts.label("gpuReplicas"), "1") in ("", "1")
    if phys and gpu.get(GPU_RESOURCE, 0) > phys and mig_size and not_shared:
        return "single"
    return None


def check(ctx: Context) -> Iterator[Finding]:
    for p in ctx.pending:
        f = explain(ctx, p)
        if f is not None:
            yield f


def explain(ctx: Context, p: Pending) -> Finding | None:
    """GP620's finding for the Pending pod ``p``, or None (GP610 defers to it: its fix is the fix)."""
    mig_nodes = [(n, strategy(n)) for n in ctx.view.gpu_nodes]
    mig_nodes = [(n, s) for n, s in mig_nodes if s]
    if not mig_nodes:
        return None
    single = [n for n, s in mig_nodes if s == "single"]
    mixed = [n for n, s in mig_nodes if s == "mixed"]
    asks_mig = sorted(k for k in p.requests if k.startswith(MIG_PREFIX))
    if asks_mig and single and not mixed:
        return finding(
            ID,
            SEVERITY,
            f"requests {', '.join(asks_mig)} but the MIG nodes use strategy single "
            "and advertise their MIG devices as nvidia.com/gpu",
            f"Pod {pod_ref(p.pod)}",
            "pods",
            [
                f"Node {n.name}: nvidia.com/gpu {n.gpu().get(GPU_RESOURCE, 0)}, mig strategy single"
                for n in single[:3]
            ],
            "request nvidia.com/gpu instead of " + ", ".join(asks_mig),
        )
    if GPU_RESOURCE in p.requests and mixed and all(n.gpu().get(GPU_RESOURCE, 0) == 0 for n in mixed):
        names = sorted({k for n in mixed for k, v in n.gpu().items() if k.startswith(MIG_PREFIX) and v})
        if any(n.gpu().get(GPU_RESOURCE, 0) for n in ctx.view.gpu_nodes):
            return None  # other GPU nodes offer whole GPUs: a plain capacity question (GP610)
        return finding(
            ID,
            SEVERITY,
            f"requests nvidia.com/gpu but the MIG nodes use strategy mixed and "
            f"advertise only {', '.join(names)}",
            f"Pod {pod_ref(p.pod)}",
            "pods",
            [
                f"Node {n.name}: " + ", ".join(f"{k}: {v}" for k, v in sorted(n.gpu().items()) if v)
                for n in mixed[:3]
            ],
            f"request one of {', '.join(names)}",
        )
    return None
