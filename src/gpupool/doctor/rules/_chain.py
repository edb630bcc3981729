"""Shared by GP601-GP606: one finding per pool for the GPU nodes whose missing GPU resource has this cause."""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context, finding, group_by_pool, node_list, plural
from gpupool.findings import Finding, Severity


def per_pool(ctx: Context, rule: str, severity: Severity, stage: str = "device-plugin") -> Iterator[Finding]:
    diag = ctx.plugin_diagnosis
    hits = [n for n in ctx.view.gpu_nodes if n.name in diag and diag[n.name].rule == rule]
    for pool, nodes in group_by_pool(hits).items():
        d = diag[nodes[0].name]
        total = sum(1 for n in ctx.view.gpu_nodes if n.pool == pool)
        yield finding(
            rule,
            severity,
            f"{len(nodes)} of {plural(total, 'GPU node')} advertise no GPU resource: {d.cause}",
            f"pool {pool}",
            stage,
            [f"nodes: {node_list(nodes)} (capacity has no nvidia.com/gpu or nvidia.com/mig-*)", *d.evidence],
            d.fix,
            nodes=[n.name for n in nodes],
        )
