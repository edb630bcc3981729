"""GP505 autoscaler-template-kube-proxy: a pod fits the zero-node template only without CA's kube-proxy pod.

What it checks: Pending pods that an autoscaled pool at zero nodes would take if the cluster autoscaler's
template were empty, but not with the kube-proxy pod (100m CPU, one pod slot) the autoscaler puts on every
template it builds from the VM size.

Why: scaling from zero, the autoscaler on AKS builds the node from the VM size (allocatable = capacity) and
adds a kube-proxy pod to it before it checks the pending pods. A pod asking for all of a size's vCPUs (`cpu:
4` on a 4-vCPU size) fits neither that template nor a real node (whose allocatable is lower still), so the
event is `pod didn't trigger scale-up: 1 Insufficient cpu` and the pod stays Pending with no node added.

Fix: ask for less CPU than the node's allocatable (`gpupool plan` prints it per pool), or pick a larger
size.

Source: kubernetes/autoscaler cluster-autoscaler/cloudprovider/azure/azure_scale_set.go (TemplateNodeInfo adds
`cloudprovider.BuildKubeProxy`), cloudprovider/util.go (kube-proxy pod, cpu 100m); measured against the real
CA 1.31.5 scale-up orchestrator with AKS's template builder (recorded in tests/data/oracle/autoscaler); still
in the 1.37 source; as of 2026-12-03.

Failing example:

    # pool: Standard_NC4as_T4_v3 (4 vCPU), nodeCount 0, autoscaler {minCount: 0, maxCount: 3}
    resources: {limits: {nvidia.com/gpu: 1, cpu: "4"}}

Passing example:

    resources: {limits: {nvidia.com/gpu: 1, cpu: 3500m}}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity, agree, plural
from gpupool.simulate.rules._common import pending_groups

if TYPE_CHECKING:
    from gpupool.simulate.engine import RuleContext

ID = "GP505"
NAME = "autoscaler-template-kube-proxy"
SEVERITY = Severity.WARNING
SUMMARY = "Pending pods the zero-node template would take but for the autoscaler's own kube-proxy pod"


def check(ctx: RuleContext) -> Iterator[Finding]:
    run = ctx.aks
    if run is None:
        return
    sim = ctx.simulation
    cpu = sim.ca.kube_proxy_cpu_milli
    for i, pool in enumerate(sim.pools):
        if pool.autoscaler is None or pool.autoscaler.max_count == 0 or run.initial[i] > 0:
            continue
        with_proxy = sim.template_of(run, i, "aks-template")
        bare = sim.template_of(run, i, "aks-template-bare")
        for w, shape, pods in pending_groups(sim, run):
            reasons = with_proxy.reasons(shape)
            if not reasons or bare.reasons(shape):
                continue
            yield ctx.finding(
                ID,
                SEVERITY,
                f"{plural(len(pods), 'pod')} {agree(len(pods), 'does', 'do')} not trigger a scale-up of "
                f"pool {pool.name}: the cluster autoscaler's "
                f"template for {pool.vm_size} carries a kube-proxy pod ({cpu}m CPU) and then fails them with "
                f'"{", ".join(reasons)}"; they fit only the template without it (and a real node has less '
                "allocatable still)",
                workload=w,
                fix="request less CPU than the node's allocatable (gpupool plan prints it) "
                "or use a larger size",
                pool=pool.name,
                templateReasons=list(reasons),
            )
