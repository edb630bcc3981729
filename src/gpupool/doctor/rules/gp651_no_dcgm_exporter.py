"""GP651 no-dcgm-exporter: no DCGM exporter runs for the self-managed GPU nodes (no GPU metrics).

What it checks: GPU nodes of pools that are not AKS-managed, in a cluster with no DCGM exporter DaemonSet or
pod (`dcgm-exporter` by name or image). Managed GPU pools run DCGM and its exporter as host services.

Why: without DCGM there are no GPU utilisation, memory, temperature or Xid metrics: idle or failing GPUs go
unnoticed.

Fix: `helm install dcgm-exporter gpu-helm-charts/dcgm-exporter` with tolerations for the GPU pools'
taints, or enable it in the GPU Operator; AKS Managed Prometheus scrapes it.

Source: AKS docs monitor-gpu-metrics.md, aks-managed-gpu-nodes.md; NVIDIA/dcgm-exporter README; checked
2026-12-02.

Failing example:

    # pool gpunp (self-managed plugin), no dcgm-exporter DaemonSet

Passing example:

    # DaemonSet gpu-resources/dcgm-exporter tolerating sku=gpu:NoSchedule, one pod per GPU node
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context, finding, group_by_pool, plural
from gpupool.findings import Finding, Severity
from gpupool.k8s import gpustack as comp

ID = "GP651"
NAME = "no-dcgm-exporter"
SEVERITY = Severity.INFO
READS = ("nodes", "pods", "daemonsets")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "No DCGM exporter runs for the self-managed GPU nodes: no GPU metrics"


def check(ctx: Context) -> Iterator[Finding]:
    nodes = [n for n in ctx.view.gpu_nodes if not n.managed]
    if (
        not nodes
        or ctx.view.daemonsets.get(comp.DCGM_EXPORTER)
        or ctx.view.component_pods.get(comp.DCGM_EXPORTER)
    ):
        return
    pools = group_by_pool(nodes)
    yield finding(
        ID,
        SEVERITY,
        f"no DCGM exporter in the cluster for {plural(len(nodes), 'self-managed GPU node')} "
        f"(pools {', '.join(pools)}): no GPU metrics",
        "cluster",
        "device-plugin",
        ["no DaemonSet or pod named or imaged dcgm-exporter"],
        "install the DCGM exporter (Helm chart gpu-helm-charts/dcgm-exporter) tolerating the GPU "
        "pools' taints",
    )
