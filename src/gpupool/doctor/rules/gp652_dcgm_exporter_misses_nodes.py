"""GP652 dcgm-exporter-misses-nodes: the DCGM exporter DaemonSet does not reach some GPU nodes.

What it checks: self-managed GPU nodes without a DCGM exporter pod when a DCGM exporter DaemonSet exists,
with the reason: a taint it does not tolerate (`sku=gpu`, the Spot taint) or a selector that does not match.

Why: those nodes' GPUs have no metrics; dashboards and alerts silently cover only part of the fleet.

Fix: add the printed tolerations, or fix the selector (e.g. `kubernetes.azure.com/accelerator: nvidia`).

Source: AKS docs monitor-gpu-metrics.md (exporter with nodeSelector `accelerator: nvidia` and the
`sku=gpu` toleration); NVIDIA/dcgm-exporter deployment values; checked 2026-12-02.

Failing example:

    # dcgm-exporter tolerates sku=gpu; Spot pool nodes carry kubernetes.azure.com/scalesetpriority=spot

Passing example:

    # one dcgm-exporter pod on every self-managed GPU node
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import (
    Context,
    describe_command,
    ds_misses,
    ds_ref,
    finding,
    group_by_pool,
    node_list,
    tolerations_fix,
)
from gpupool.findings import Finding, Severity, agree, plural
from gpupool.k8s import gpustack as comp

ID = "GP652"
NAME = "dcgm-exporter-misses-nodes"
SEVERITY = Severity.WARNING
READS = ("nodes", "pods", "daemonsets")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "The DCGM exporter DaemonSet does not tolerate or select some GPU nodes"


def check(ctx: Context) -> Iterator[Finding]:
    dss = ctx.view.daemonsets.get(comp.DCGM_EXPORTER) or []
    if not dss:
        return
    missing = [
        n
        for n in ctx.view.gpu_nodes
        if not n.managed and not any(ctx.view.role(p) == comp.DCGM_EXPORTER for p in n.pods)
    ]
    for pool, nodes in group_by_pool(missing).items():
        bad, sel = ds_misses(dss[0], nodes[0])
        if bad:
            why = "does not tolerate " + ", ".join(f"{t.key}={t.value}:{t.effect}" for t in bad)
            fix = tolerations_fix(bad)
        elif sel:
            why = "its node selector/affinity does not match"
            fix = "match the pool's labels (kubernetes.azure.com/accelerator: nvidia)"
        else:
            why = "no exporter pod is there (see the DaemonSet's events)"
            fix = describe_command(dss[0])
        yield finding(
            ID,
            SEVERITY,
            f"{plural(len(nodes), 'GPU node')} {agree(len(nodes), 'has', 'have')} no DCGM exporter: "
            f"{ds_ref(dss[0])} {why}",
            f"pool {pool}",
            "device-plugin",
            [f"nodes: {node_list(nodes)}"],
            fix,
            nodes=[n.name for n in nodes],
        )
