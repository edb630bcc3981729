"""GP108 amd-gpu-path: the AMD MI300X size needs gpu.driver None, Ubuntu and no managed GPU.

What it checks: a GpuNodePool on `Standard_ND96isr_MI300X_v5` (AMD Instinct MI300X), the one AMD
size AKS supports. Errors:

* an OS SKU other than Ubuntu: the AMD path is Ubuntu only (not AzureLinux, Windows,
  AzureLinuxOSGuard or Flatcar);
* `gpu.managed: true`: the managed GPU experience is for NVIDIA sizes only.

Warnings:

* `gpu.driver` not `None` (the default is `Install`): AKS enforces `--gpu-driver none` for AMD
  GPUs, so the spec says something AKS will not do; the GPU stack comes from the AMD GPU Operator you
  install, which advertises `amd.com/gpu`. (Whether AKS rejects `Install` or overrides it is not
  documented, hence a warning.)
* `gpu.sharing.timeSlicing`: it configures the NVIDIA device plugin and does nothing for AMD GPUs.

Why: an unsupported OS or managed mode leaves the node without a working GPU stack; the rest makes the
spec disagree with what the nodes get.

Fix: `gpu: {driver: None}`, `osSku: Ubuntu`, no `managed`; then install the AMD GPU Operator.
RDMA ("r") sizes also need the `AKSInfinibandSupport` feature.

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-amd-gpus.md; aks-managed-gpu-nodes.md ("NVIDIA
GPU-enabled virtual machine (VM) sizes only"), commit fb060abe6a8f, as of 2026-08-21.

Failing example:

    kind: GpuNodePool
    spec:
      vmSize: Standard_ND96isr_MI300X_v5
      osSku: AzureLinux
      gpu: {driver: Install}

Passing example:

    kind: GpuNodePool
    spec:
      vmSize: Standard_ND96isr_MI300X_v5
      osSku: Ubuntu
      gpu: {driver: None}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.design.rules._common import size_text, ubuntu
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP108"
NAME = "amd-gpu-path"
SEVERITY = Severity.ERROR
SUMMARY = "AMD MI300X: Ubuntu only, no managed GPU; gpu.driver None (AMD GPU Operator)"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    size = ctx.size
    if not pool.is_gpu_pool or size is None or size.path != "amd" or not size.is_gpu:
        return
    if size.status == "unsupported":
        return  # NVv4: GP104 says it all
    g = pool.gpu_settings
    what = size_text(size)
    if g.driver != "None":
        given = "gpu.driver Install" if "gpu.driver" in pool.where.fields else "gpu.driver (default Install)"
        yield ctx.finding(
            ID,
            Severity.WARNING,
            f"{given} on AMD size {what}: AKS enforces --gpu-driver None for AMD GPUs and installs no "
            "driver; the driver and device plugin come from the AMD GPU Operator you install",
            at=("gpu.driver", "gpu", "vmSize"),
            fix="set gpu.driver: None, then install the AMD GPU Operator (it advertises amd.com/gpu)",
        )
    if not ubuntu(pool):
        yield ctx.finding(
            ID,
            SEVERITY,
            f"osSku {pool.os_sku} on AMD size {what}: AMD GPU pools are supported on Ubuntu only",
            at=("osSku", "vmSize"),
            fix="set osSku: Ubuntu",
        )
    if g.managed:
        yield ctx.finding(
            ID,
            SEVERITY,
            f"gpu.managed true on AMD size {what}: the managed GPU experience is for NVIDIA GPU sizes only",
            at=("gpu.managed", "gpu"),
            fix="remove gpu.managed (AMD pools use gpu.driver None plus the AMD GPU Operator)",
        )
    if g.time_slicing is not None:
        yield ctx.finding(
            ID,
            Severity.WARNING,
            f"gpu.sharing.timeSlicing on AMD size {what}: time-slicing configures the NVIDIA device plugin "
            "and has no effect on AMD GPUs",
            at=("gpu.sharing.timeSlicing", "gpu.sharing", "gpu"),
            fix="remove gpu.sharing; configure sharing in the AMD GPU Operator if you need it",
        )
