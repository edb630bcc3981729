"""GP130 driver-none-operator: gpu.driver None leaves the GPU stack to you (GPU Operator).

What it checks: a GpuNodePool on an NVIDIA size with `gpu.driver: None` and no `gpu.managed`.

Why: with `--gpu-driver None` AKS installs no NVIDIA driver, container toolkit or device plugin: the
nodes advertise no GPUs until you install the NVIDIA GPU Operator (Linux) or the Windows GPU device
plugin yourself. Microsoft "doesn't support or manage" the driver then, and Node Problem Detector's GPU
health checks do not run. The setting is fixed at creation. An info finding: it is a valid choice.

Fix: install the NVIDIA GPU Operator after creating the pool; `gpupool render` writes the Helm
commands (`helm install gpu-operator nvidia/gpu-operator -n gpu-operator --create-namespace`). On
Windows deploy the AKS Windows GPU device plugin DaemonSet. The GPU Operator is not supported on
Windows, Flatcar or AzureLinuxOSGuard.

Source: MicrosoftDocs/azure-aks-docs articles/aks/nvidia-gpu-operator.md, use-nvidia-gpu.md,
gpu-health-monitoring.md, use-windows-gpu.md (commit fb060abe6a8f); NVIDIA/cloud-native-docs
gpu-operator/microsoft-aks.rst; as of 2026-08-21.

Failing example:

    spec:
      vmSize: Standard_NC24ads_A100_v4
      gpu: {driver: None}

Passing example:

    spec:
      vmSize: Standard_NC24ads_A100_v4
      gpu: {driver: Install}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP130"
NAME = "driver-none-operator"
SEVERITY = Severity.INFO
SUMMARY = "gpu.driver None: install the GPU Operator yourself (gpupool render writes the commands)"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    g = pool.gpu_settings
    if not ctx.gpu_pool_with_gpu_size or not ctx.nvidia or g.driver != "None" or g.managed:
        return
    if pool.is_windows:
        msg = ("gpu.driver None on Windows: AKS installs no GPU driver or device plugin; deploy the AKS "
               "Windows GPU device plugin DaemonSet yourself (the GPU Operator does not support Windows)")
        fix = ("deploy mcr.microsoft.com/aks/aks-windows-gpu-device-plugin after creating the pool, or "
               "remove gpu.driver")
    else:
        msg = ("gpu.driver None: AKS installs no NVIDIA driver or device plugin, so no GPU is advertised "
               "until you install the NVIDIA GPU Operator; Microsoft does not support that driver and NPD "
               "GPU health checks do not run")
        fix = "install the NVIDIA GPU Operator after creating the pool (`gpupool render` writes the Helm " \
            "commands)"
    yield ctx.finding(ID, SEVERITY, msg, at=("gpu.driver", "gpu"), fix=fix)
