"""GP802 nodepool-gpu-untainted: a NodePool that can create GPU nodes without a NoSchedule taint.

What it checks: a NodePool that admits a GPU size (one that advertises `nvidia.com/gpu` or `amd.com/gpu`)
whose
`spec.template.spec.taints` have no taint with effect `NoSchedule` or `NoExecute`. `startupTaints` do not
count:
they are removed once the node is initialised.

Why: Karpenter picks, for each pending pod, among the NodePools the pod tolerates, by weight and then price.
Without a taint, a CPU-only pod may get (or be consolidated onto) an expensive GPU node, fill its CPU and
memory
so GPU pods no longer fit, and keep it from being consolidated away. With a taint, only pods that tolerate it
(the GPU workloads) use the NodePool.

Fix: add a taint such as `nvidia.com/gpu=true:NoSchedule` (or `sku=gpu:NoSchedule` as AKS's GPU docs use) to
`spec.template.spec.taints`, and the matching toleration to GPU workloads and to the GPU DaemonSets.

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md, use-node-taints.md,
node-auto-provisioning-node-pools.md ("NAP works best with mutually exclusive NodePools") @fb060abe6a8f;
kubernetes-sigs/karpenter scheduling (taints filter NodePools per pod) @226646810437; as of 2026-08-21.
Severity warning: it works, at a cost gpupool cannot size.

Failing example:

    spec:
      template:
        spec:
          requirements:
            - {key: karpenter.azure.com/sku-gpu-manufacturer, operator: In, values: [nvidia]}

Passing example:

    spec:
      template:
        spec:
          taints:
            - {key: nvidia.com/gpu, value: "true", effect: NoSchedule}
          requirements:
            - {key: karpenter.azure.com/sku-gpu-manufacturer, operator: In, values: [nvidia]}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.nap.check import NapContext

ID = "GP802"
NAME = "nodepool-gpu-untainted"
SEVERITY = Severity.WARNING
SUMMARY = "A NodePool that can create GPU nodes has no NoSchedule taint: any pod may land on them."


def check(ctx: NapContext) -> Iterator[Finding]:
    if not ctx.gpu or ctx.pool.blocking_taints:
        return
    yield ctx.finding(
        ID, SEVERITY,
        "the NodePool can create GPU nodes but has no NoSchedule or NoExecute taint: CPU-only "
        "pods may be placed on them",
        ["spec.template.spec.taints", "spec.template.spec.requirements"],
        fix="add spec.template.spec.taints: [{key: nvidia.com/gpu, value: \"true\", effect: NoSchedule}] and "
        "the toleration to GPU workloads",
    )
