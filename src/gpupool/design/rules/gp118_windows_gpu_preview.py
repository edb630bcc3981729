"""GP118 windows-gpu-preview: Windows GPU node pools are a preview feature.

What it checks: a GpuNodePool with a Windows OS SKU (`Windows2019`, `Windows2022`, ...) on an NVIDIA
GPU size.

Why: Windows GPU pools need the `WindowsGPUPreview` feature and the aks-preview extension. AKS
installs the driver (CUDA for NC/ND, GRID for NV) and the DirectX device plugin: pods request
`microsoft.com/directx`, not `nvidia.com/gpu`, and the NVIDIA device plugin, GPU Operator, MIG and
the managed GPU experience are not available. An info finding; GP119 reports what cannot work.

Fix: `az feature register --namespace Microsoft.ContainerService --name WindowsGPUPreview` and
`az extension add --name aks-preview`; write Windows GPU workloads against `microsoft.com/directx`.

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-windows-gpu.md, commit fb060abe6a8f, as of
2026-08-21.

Failing example:

    metadata: {name: gpuwin}
    spec:
      osSku: Windows2022
      vmSize: Standard_NC4as_T4_v3

Passing example:

    spec:
      osSku: Ubuntu
      vmSize: Standard_NC4as_T4_v3
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP118"
NAME = "windows-gpu-preview"
SEVERITY = Severity.WARNING
SUMMARY = "Windows GPU pools are preview (WindowsGPUPreview, DirectX device plugin)"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if not pool.is_windows or not ctx.gpu_pool_with_gpu_size or not ctx.nvidia:
        return
    w = catalog.windows_gpu()
    yield ctx.finding(
        ID,
        SEVERITY,
        f"osSku {pool.os_sku}: Windows GPU pools are a preview (feature {w['feature']}, aks-preview); AKS "
        f"installs the DirectX device plugin, so pods request {w['resource']}, not nvidia.com/gpu",
        at=("osSku",),
        fix=f"az feature register --namespace Microsoft.ContainerService --name {w['feature']}; "
        "az extension add --name aks-preview",
    )
