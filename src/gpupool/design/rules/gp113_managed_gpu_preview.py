"""GP113 managed-gpu-preview: the managed GPU experience is not generally available.

What it checks: `gpu.managed: true` on an NVIDIA GPU size (Linux).

Why: `--enable-managed-gpu` installs the driver, device plugin, DCGM exporter (port 19400) and GPU
health checks as host services. `gpuProfile.nvidia.managementMode` reached the stable API
`2026-08-01` (azure-mgmt-containerservice 41.8.0, 2026-10-19), but GA is not announced (targeted Q4
2026), `migStrategy` is still preview-only, and the core Azure CLI (2.91.0) has no
`--enable-managed-gpu`: the az path needs the aks-preview extension >= 19.0.0b29, Azure CLI >= 2.85.0
and the `ManagedGPUExperiencePreview` feature. Preview features have no SLA, and several limits apply
(no cluster autoscaler: GP114; no sharing config: GP116). A warning, as every preview is.

Fix: register the feature (`az feature register --namespace Microsoft.ContainerService --name
ManagedGPUExperiencePreview`) and install aks-preview before `gpupool render`'s az script is run (its
ARM and Terraform use the stable API where the pool sets no MIG strategy); or drop `gpu.managed` and
deploy the device plugin yourself (the default "driver only" mode).

Source: MicrosoftDocs/azure-aks-docs articles/aks/aks-managed-gpu-nodes.md; Azure/AKS CHANGELOG
2026-02-08; PyPI azure-mgmt-containerservice 41.8.0 changelog (stable 2026-08-01 adds
`GPUProfile.nvidia`); Azure/AKS#5035 (GA targeted Q4 2026); azure-cli 2.91.0 `acs` module (no
`--enable-managed-gpu`); catalog/data/images.yaml managedGpu; as of 2026-12-03.

Failing example:

    spec:
      vmSize: Standard_NC4as_T4_v3
      gpu: {managed: true}

Passing example:

    spec:
      vmSize: Standard_NC4as_T4_v3
      gpu: {driver: Install}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP113"
NAME = "managed-gpu-preview"
SEVERITY = Severity.WARNING
SUMMARY = "managed GPU is not GA: stable API 2026-08-01 has managementMode; az needs aks-preview"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if not ctx.gpu_pool_with_gpu_size or not ctx.nvidia or pool.is_windows or not pool.gpu_settings.managed:
        return
    m = catalog.managed_gpu()
    yield ctx.finding(
        ID,
        SEVERITY,
        f"gpu.managed is not generally available: managementMode is in the stable API "
        f"{m['stableApiVersion']} "
        f"(migStrategy only in {m['apiVersion']} and later previews), but GA is not announced and the core "
        f"Azure CLI has no --enable-managed-gpu: the az path needs feature {m['feature']}, Azure CLI >= "
        f"{m['minCli']} and aks-preview >= {m['minAksPreview']}",
        at=("gpu.managed", "gpu"),
        fix=f"az feature register --namespace Microsoft.ContainerService --name {m['feature']}; "
        "az extension add --name aks-preview",
    )
