"""GP671 autoscaler-resource-unready: GPU-labelled nodes without GPU capacity block the cluster autoscaler.

What it checks: with the cluster autoscaler in use (an autoscaled pool in nodepools.json, or the
`kube-system/cluster-autoscaler-status` ConfigMap), Ready nodes labelled
`kubernetes.azure.com/accelerator` whose allocatable `nvidia.com/gpu` is 0 or missing; the status
ConfigMap's `resourceUnready` count is shown when present.

Why: the autoscaler's GPU processor counts such a node as ResourceUnready ("the device driver failing to
install a new resource"). For 15 minutes after the node's creation (MaxNodeStartupTime) it counts as still
starting: the autoscaler waits for it instead of scaling further. After that it is plain unready: the pool's
template comes from the VM size, the autoscaler scales the pool up again with nodes that will not serve the
pods either, and may delete the node as unready after 20 minutes; unready nodes beyond 3 and 45 % of the
cluster stop every scale-up. From cluster-autoscaler 1.35 (on AKS its minor follows the cluster's
Kubernetes minor), such a node in a pool the autoscaler does not manage aborts scale-up for every pool in
the cluster: the quota tracker asks each node's GPU count and has no template for it
(kubernetes/autoscaler#10301, AKS 1.35.7); up to 1.34 that path runs only with a GPU resource limit, not set
on AKS. MIG-mixed and renamed time-sliced nodes advertise no `nvidia.com/gpu` either and hit the same
check.

Fix: make the device plugin advertise `nvidia.com/gpu` on those nodes (GP601-GP606), or remove the unused
GPU pool; for MIG-mixed/`.shared` pools keep them out of autoscaling.

Source: kubernetes/autoscaler processors/customresources/gpu_processor.go, clusterstate/clusterstate.go
(MaxNodeStartupTime, IsClusterHealthy), resourcequotas/usage.go (cluster-autoscaler-1.35.0),
core/scaleup/resource/manager.go (cluster-autoscaler-1.31.0), FAQ ("resourceUnready"), issues #10301,
#8095, #7050; checked against the real CA 1.31.5's answers; 2026-12-03.

Failing example:

    # autoscaled cluster; node aks-gpunp-...: kubernetes.azure.com/accelerator=nvidia,
    # allocatable without nvidia.com/gpu

Passing example:

    # the same node with allocatable nvidia.com/gpu: "1"
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.design.node import GPU_RESOURCE
from gpupool.doctor.context import Context, finding, group_by_pool, node_list
from gpupool.doctor.placement import kubernetes_version
from gpupool.findings import Finding, Severity, agree, plural
from gpupool.k8s import facts as sim_facts
from gpupool.k8s import nodes as kn

ID = "GP671"
NAME = "autoscaler-resource-unready"
SEVERITY = Severity.ERROR
READS = ("nodes", "configmaps")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "GPU-labelled Ready nodes without allocatable nvidia.com/gpu block the cluster autoscaler"


def check(ctx: Context) -> Iterator[Finding]:
    if not ctx.autoscaler_on:
        return
    hits = [
        n
        for n in ctx.view.nodes
        if n.ready and kn.accelerator(n.obj) and n.allocatable.get(GPU_RESOURCE, 0) <= 0 and not n.windows
    ]
    status = ctx.autoscaler_status
    for pool, nodes in group_by_pool(hits).items():
        info = ctx.view.pool_info(pool) or {}
        managed = info.get("enableAutoScaling")
        ev = [f"nodes: {node_list(nodes)}: accelerator label, allocatable nvidia.com/gpu missing or 0"]
        if status is not None and status.resource_unready is not None:
            ev.append(f"cluster-autoscaler-status: resourceUnready={status.resource_unready}")
        if managed is False:
            version = kubernetes_version(ctx.view)
            if sim_facts.autoscaler().unmanaged_aborts(version):
                ev.append(
                    f"pool {pool} is not autoscaled: with Kubernetes {version[0]}.{version[1]} "
                    "(cluster-autoscaler 1.35+) this aborts scale-up for every pool "
                    "(kubernetes/autoscaler#10301)"
                )
            else:
                ev.append(
                    f"pool {pool} is not autoscaled: with Kubernetes {version[0]}.{version[1]} the "
                    "autoscaler only counts these nodes for the cluster's health (the abort of "
                    "kubernetes/autoscaler#10301 comes with 1.35)"
                )
        yield finding(
            ID,
            SEVERITY,
            f"{plural(len(nodes), 'GPU-labelled node')} without allocatable nvidia.com/gpu "
            f"{agree(len(nodes), 'is', 'are')} "
            "ResourceUnready to the cluster autoscaler",
            f"pool {pool}",
            "resources",
            ev,
            "make the device plugin advertise nvidia.com/gpu there (GP601-GP606) or remove the "
            "unused GPU pool",
            nodes=[n.name for n in nodes],
        )
