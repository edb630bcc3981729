"""GP602 device-plugin-untolerated-taint: the device plugin DaemonSet does not tolerate the GPU pool's taints.

What it checks: GPU nodes without a GPU resource and without a device plugin pod, where every device plugin
DaemonSet misses a `NoSchedule`/`NoExecute` taint of the node (`sku=gpu`, `nvidia.com/gpu`, or the
`kubernetes.azure.com/scalesetpriority=spot` taint AKS adds to Spot pools) after the DaemonSet
controller's own tolerations.

Why: the DaemonSet controller makes no pod for a node whose taints its pods do not tolerate, so nothing
advertises the GPUs. The upstream static manifest tolerates only `nvidia.com/gpu`, the AKS doc manifest only
`sku=gpu`: neither tolerates the Spot taint.

Fix: add the printed tolerations to the DaemonSet's pod template (or `operator: Exists`).

Source: AKS docs use-nvidia-gpu.md (manifest v0.18.0) and spot-node-pool.md; NVIDIA/k8s-device-plugin
deployments/static/nvidia-device-plugin.yml; Azure/AKS#4418; checked 2026-12-02.

Failing example:

    # pool spotgpu (Spot): taint kubernetes.azure.com/scalesetpriority=spot:NoSchedule
    tolerations: [{key: sku, operator: Equal, value: gpu, effect: NoSchedule}]

Passing example:

    tolerations:
    - {key: sku, operator: Equal, value: gpu, effect: NoSchedule}
    - {key: kubernetes.azure.com/scalesetpriority, operator: Equal, value: spot, effect: NoSchedule}
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context
from gpupool.doctor.rules._chain import per_pool
from gpupool.findings import Finding, Severity

ID = "GP602"
NAME = "device-plugin-untolerated-taint"
SEVERITY = Severity.ERROR
READS = ("nodes", "pods", "daemonsets")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "The device plugin DaemonSet does not tolerate a GPU pool's taints (the Spot taint too)"


def check(ctx: Context) -> Iterator[Finding]:
    yield from per_pool(ctx, ID, SEVERITY)
