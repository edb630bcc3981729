"""GP641 duplicate-device-plugin: two NVIDIA device plugins serve the same node.

What it checks: GPU nodes with device plugin pods from two DaemonSets (a hand-deployed plugin and the GPU
Operator's), or an AKS-managed GPU node (whose plugin is a host service) that also runs a plugin pod.

Why: two plugins register the same resource with the kubelet; the last one wins, allocations disagree, and
pods can be given GPUs already in use. AKS: "never run two device plugins on the same nodes".

Fix: remove one: on managed pools delete the plugin DaemonSet (or keep it off those nodes); with the GPU
Operator remove the hand-deployed plugin (or set the Operator's devicePlugin.enabled=false).

Source: AKS docs best-practices-ml-ops.md, aks-managed-gpu-nodes.md; checked 2026-12-02.

Failing example:

    # node aks-gpunp-...: pods gpu-resources/nvidia-device-plugin-daemonset-abc12 and
    # gpu-operator/nvidia-device-plugin-daemonset-def34

Passing example:

    # one device plugin pod per GPU node (none on managed GPU nodes)
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context, finding, group_by_pool, node_list, pod_ref
from gpupool.findings import Finding, Severity, agree, plural

ID = "GP641"
NAME = "duplicate-device-plugin"
SEVERITY = Severity.ERROR
READS = ("nodes", "pods")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "Two NVIDIA device plugins serve the same node (two DaemonSets, or a DaemonSet on a managed node)"


def check(ctx: Context) -> Iterator[Finding]:
    hits = [
        n
        for n in ctx.view.gpu_nodes
        if len(ctx.plugin_pods_on(n)) >= 2 or (n.managed and ctx.plugin_pods_on(n))
    ]
    for pool, nodes in group_by_pool(hits).items():
        pods = ctx.plugin_pods_on(nodes[0])
        ev = [f"nodes: {node_list(nodes)}"] + [f"on {nodes[0].name}: Pod {pod_ref(p)}" for p in pods]
        if nodes[0].managed:
            ev.append("managed GPU pool: nvidia-device-plugin.service runs on the host")
        yield finding(
            ID,
            SEVERITY,
            f"{plural(len(nodes), 'GPU node')} {agree(len(nodes), 'is', 'are')} "
            f"served by {len(pods) + (1 if nodes[0].managed else 0)} "
            "device plugins each",
            f"pool {pool}",
            "device-plugin",
            ev,
            "keep one plugin: remove the DaemonSet from managed nodes, or the hand-deployed one next "
            "to the GPU Operator",
            nodes=[n.name for n in nodes],
        )
