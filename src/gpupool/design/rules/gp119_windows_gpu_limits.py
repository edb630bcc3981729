"""GP119 windows-gpu-limits: GPU settings that Windows node pools cannot have.

What it checks, for a GpuNodePool with a Windows OS SKU:

* `gpu.managed: true`: error, no managed GPU on Windows ("because GPU metrics aren't supported");
* `mode: System`: error, system node pools must be Linux;
* `kubernetesVersion` 1.28 or older: error, Windows GPU is not available there;
* `gpu.instanceProfile` (MIG): warning, AKS documents no MIG on Windows ([UNVERIFIED] whether it is
  rejected);
* `gpu.sharing.timeSlicing`: warning, the DirectX device plugin takes no NVIDIA sharing config;
* a name longer than 6 characters is GP127.

Why: each setting is rejected by AKS or silently has no effect on Windows nodes.

Fix: remove the setting, or use a Linux OS SKU (Ubuntu) for the GPU pool.

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-windows-gpu.md, aks-managed-gpu-nodes.md,
use-system-pools.md (commit fb060abe6a8f); azure-mgmt-containerservice OSSKU ("Unsupported for system
node pools"); as of 2026-08-21.

Failing example:

    spec:
      osSku: Windows2022
      mode: System
      gpu: {managed: true}

Passing example:

    spec:
      osSku: Windows2022
      mode: User
      gpu: {driver: Install}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.design.rules._common import k8s_minor
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP119"
NAME = "windows-gpu-limits"
SEVERITY = Severity.ERROR
SUMMARY = "Windows GPU pool with managed GPU, System mode, K8s <= 1.28, MIG or time-slicing"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if not pool.is_windows or not pool.is_gpu_pool or not ctx.is_gpu_size:
        return
    if ctx.size.path == "amd":
        return  # GP108: AMD is Ubuntu only
    g = pool.gpu_settings
    w = catalog.windows_gpu()
    if g.managed:
        yield ctx.finding(
            ID, SEVERITY,
            f"gpu.managed true with osSku {pool.os_sku}: the managed GPU experience is not available on "
            "Windows node pools",
            at=("gpu.managed", "gpu"),
            fix="remove gpu.managed (AKS installs the Windows driver and DirectX device plugin), or use "
            "osSku Ubuntu",
        )
    limits = catalog.pool_limits()
    if pool.mode == "System" and limits.system_os_type != "Windows":
        yield ctx.finding(
            ID, SEVERITY,
            f"mode System with osSku {pool.os_sku}: system node pools must be {limits.system_os_type}",
            at=("mode",),
            fix="set mode: User (keep a Linux system pool for cluster add-ons)",
        )
    have, need = k8s_minor(ctx.kubernetes_version), k8s_minor(w["minKubernetes"])
    if have is not None and need is not None and have < need:
        yield ctx.finding(
            ID, SEVERITY,
            f"kubernetesVersion {pool.kubernetes_version}: Windows GPU pools need Kubernetes "
            f"{w['minKubernetes']} or newer",
            at=("kubernetesVersion",),
            fix=f'set kubernetesVersion to "{w["minKubernetes"]}" or newer',
        )
    if g.instance_profile:
        yield ctx.finding(
            ID, Severity.WARNING,
            f"gpu.instanceProfile {g.instance_profile} with osSku {pool.os_sku}: AKS documents MIG for Linux "
            "node pools only",
            at=("gpu.instanceProfile", "gpu"),
            fix="remove gpu.instanceProfile, or use osSku Ubuntu for a MIG pool",
        )
    if g.time_slicing is not None:
        yield ctx.finding(
            ID, Severity.WARNING,
            f"gpu.sharing.timeSlicing with osSku {pool.os_sku}: Windows nodes use the DirectX device plugin "
            f"({w['resource']}), which takes no NVIDIA time-slicing config",
            at=("gpu.sharing.timeSlicing", "gpu.sharing", "gpu"),
            fix="remove gpu.sharing, or use osSku Ubuntu",
        )
