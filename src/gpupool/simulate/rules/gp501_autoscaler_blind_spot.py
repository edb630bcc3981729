"""GP501 autoscaler-blind-spot: Pending pods the cluster autoscaler cannot scale a pool up from zero for.

What it checks: for every autoscaled pool that starts at zero nodes, the Pending pods that a real node of the
pool would take but the autoscaler's zero-node template rejects. gpupool simulates twice: as the autoscaler
behaves on AKS, and with a template that knows the real node; this rule reports where the two disagree.

Why: with no node to copy, the cluster autoscaler on AKS builds its template from the VM size alone: the SKU's
physical GPU count as `nvidia.com/gpu`, allocatable = capacity, 110 pods, no MIG and no time-slicing. Pods
requesting MIG-mixed resources (`nvidia.com/mig-1g.10gb`) or renamed time-sliced ones
(`nvidia.com/gpu.shared`) fail its predicates (`Insufficient nvidia.com/mig-1g.10gb`), so the event is
`pod didn't trigger scale-up` and the pods stay Pending although the pool could run them. The
`kubernetes.azure.com/accelerator` label is missing from the template for sizes outside the autoscaler's
hard-coded NVIDIA list (H100, H200, A10), so a nodeSelector on it fails too.

Fix: keep `autoscaler.minCount: 1` (the autoscaler then copies a real node, with its real resources), or
request what the template knows: MIG strategy Single with `nvidia.com/gpu`, time-slicing with
`renameByDefault: false`, a nodeSelector on `agentpool` instead of the accelerator label.

Source: kubernetes/autoscaler cluster-autoscaler/cloudprovider/azure/azure_template.go (buildNodeFromTemplate)
and azure_instance_gpu_sku.go (NvidiaEnabledSKUs); processors/nodeinfosprovider/mixed_nodeinfos_processor.go
(a ready node is the template when one exists); NVIDIA/gpu-operator#693 (MIG-mixed at zero: "pod didn't
trigger scale-up: ... 1 Insufficient nvidia.com/mig-1g.10gb"); Azure/AKS#4216; as of 2026-08-21.

Failing example:

    # pool: Standard_ND96asr_v4, MIG1g, migStrategy Mixed, nodeCount 0, autoscaler {minCount: 0, maxCount: 2}
    resources:
      limits: {nvidia.com/mig-1g.5gb: 1}

Passing example:

    # the same pool with autoscaler {minCount: 1, maxCount: 2}: a real node is the template
    resources:
      limits: {nvidia.com/mig-1g.5gb: 1}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity, agree, plural
from gpupool.simulate.rules._common import gpu_text, pending_groups

if TYPE_CHECKING:
    from gpupool.simulate.engine import RuleContext

ID = "GP501"
NAME = "autoscaler-blind-spot"
SEVERITY = Severity.ERROR
SUMMARY = "Pending pods the autoscaler's zero-node template rejects although a real node would take them"


def _fix(reasons: tuple[str, ...], pool: str) -> str:
    fix = f"set autoscaler.minCount: 1 on pool {pool} so the autoscaler copies a real node"
    text = " ".join(reasons)
    if "nvidia.com/mig-" in text:
        fix += ", or use migStrategy Single and request nvidia.com/gpu"
    elif ".shared" in text:
        fix += ", or set timeSlicing.renameByDefault: false and request nvidia.com/gpu"
    elif "affinity/selector" in text:
        fix += ", or select the pool by its agentpool label"
    return fix


def check(ctx: RuleContext) -> Iterator[Finding]:
    if ctx.aks is None or ctx.exact is None:
        return
    sim = ctx.simulation
    for i, pool in enumerate(sim.pools):
        if pool.autoscaler is None or pool.autoscaler.max_count == 0 or ctx.aks.initial[i] > 0:
            continue
        at_zero = sim.template_of(ctx.aks, i, "aks-template")
        real = sim.template_of(ctx.aks, i, "node")
        for w, shape, pods in pending_groups(sim, ctx.aks):
            blind = at_zero.reasons(shape)
            if not blind or real.reasons(shape):
                continue
            yield ctx.finding(
                ID,
                SEVERITY,
                f"on AKS {plural(len(pods), 'pod')} {agree(len(pods), 'stays', 'stay')} Pending: "
                f"the cluster autoscaler can't scale pool "
                f"{pool.name} up from zero for them. Its template for {pool.vm_size} is built from the VM "
                f"size ({gpu_text(at_zero.shape)}, allocatable = capacity, no MIG or time-slicing) and "
                f'fails them with "{", ".join(blind)}"; a real node ({gpu_text(real.shape)}) would take them',
                workload=w,
                fix=_fix(blind, pool.name),
                pool=pool.name,
                templateReasons=list(blind),
            )
