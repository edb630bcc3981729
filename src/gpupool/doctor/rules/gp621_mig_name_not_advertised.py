"""GP621 requested-gpu-name-unadvertised: a GPU pod requests a resource name no node advertises.

What it checks: Pending pods that request an `nvidia.com/*` GPU resource (a MIG name such as
`nvidia.com/mig-1g.10gb`, `nvidia.com/gpu.shared`) that no node in the cluster has in its capacity, when
GP620 does not already explain it; the closest advertised names are suggested.

Why: MIG device names depend on the GPU (A100 40GB `1g.5gb`, A100 80GB and H100 `1g.10gb`), the AKS
doc once misspelt them (`nvidia.com/mig1g.5gb`), and `.shared` exists only with `renameByDefault`.

Fix: request a name from the nodes' capacity (`kubectl get nodes -o json | jq '.items[].status.capacity'`).

Source: AKS docs gpu-multi-instance.md; NVIDIA/k8s-device-plugin README (MIG, sharing); NVIDIA MIG user
guide "Supported MIG Profiles"; NVIDIA/mig-parted; checked 2026-12-02.

Failing example:

    resources: {limits: {nvidia.com/mig-1g.5gb: 1}}   # nodes advertise nvidia.com/mig-1g.10gb: 7

Passing example:

    resources: {limits: {nvidia.com/mig-1g.10gb: 1}}
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from gpupool.design.node import MIG_PREFIX
from gpupool.doctor.context import Context, Pending, finding, pod_ref
from gpupool.doctor.rules.gp620_mig_strategy_mismatch import strategy
from gpupool.findings import Finding, Severity

ID = "GP621"
NAME = "requested-gpu-name-unadvertised"
SEVERITY = Severity.ERROR
READS = ("nodes", "pods")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "A pod requests a GPU resource name (MIG, .shared) that no node advertises"


def check(ctx: Context) -> Iterator[Finding]:
    for p in ctx.pending:
        f = explain(ctx, p)
        if f is not None:
            yield f


def explain(ctx: Context, p: Pending) -> Finding | None:
    """GP621's finding for the Pending pod ``p``, or None (GP610 defers to it: its fix is the fix)."""
    advertised = ctx.advertised_anywhere()
    single_only = any(strategy(n) == "single" for n in ctx.view.gpu_nodes) and not any(
        strategy(n) == "mixed" for n in ctx.view.gpu_nodes
    )
    missing = sorted(k for k in p.requests if k.startswith("nvidia.com/") and k not in advertised)
    if single_only:
        missing = [k for k in missing if not k.startswith(MIG_PREFIX)]  # GP620 says it
    if not missing or not advertised:
        return None  # nothing advertised at all: the device plugin rules say why
    close = {k: difflib.get_close_matches(k, sorted(advertised), n=2, cutoff=0.6) for k in missing}
    hint = "; ".join(f"{k} -> {', '.join(v)}" for k, v in close.items() if v)
    return finding(
        ID,
        SEVERITY,
        f"requests {', '.join(missing)}, which no node advertises",
        f"Pod {pod_ref(p.pod)}",
        "pods",
        [f"advertised in the cluster: {', '.join(sorted(advertised))}"],
        f"request an advertised name ({hint})" if hint else "request a name the nodes advertise",
    )
