"""GP601 no-device-plugin: GPU nodes advertise no GPU resource because no NVIDIA device plugin runs.

What it checks: GPU nodes (an NVIDIA GPU VM size, `kubernetes.azure.com/accelerator=nvidia` or
`nvidia.com/gpu.present=true`) whose capacity has no `nvidia.com/gpu` or `nvidia.com/mig-*`, on a pool
that is not AKS-managed, in a cluster with no device plugin DaemonSet or pod at all.

Why: AKS installs only the driver by default ("Driver only"): "No nvidia.com/gpu resource is advertised until
you deploy a device plugin". Every GPU pod stays Pending with `Insufficient nvidia.com/gpu`.

Fix: deploy the NVIDIA device plugin DaemonSet tolerating the pool's taints (`gpupool render` writes one),
or install the GPU Operator, or create the pool with `--enable-managed-gpu`.

Source: AKS docs use-nvidia-gpu.md and aks-managed-gpu-nodes.md (install profiles), checked 2026-12-02;
MicrosoftDocs/azure-docs#17730.

Failing example:

    Node aks-gpunp-...-vmss000000: kubernetes.azure.com/accelerator=nvidia, capacity {cpu, memory, pods}
    # no DaemonSet nvidia-device-plugin-daemonset anywhere

Passing example:

    # DaemonSet gpu-resources/nvidia-device-plugin-daemonset tolerating sku=gpu:NoSchedule;
    # the node's capacity lists nvidia.com/gpu: "1"
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context
from gpupool.doctor.rules._chain import per_pool
from gpupool.findings import Finding, Severity

ID = "GP601"
NAME = "no-device-plugin"
SEVERITY = Severity.ERROR
READS = ("nodes", "pods", "daemonsets")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "GPU nodes advertise no GPU resource because no NVIDIA device plugin runs"


def check(ctx: Context) -> Iterator[Finding]:
    yield from per_pool(ctx, ID, SEVERITY)
