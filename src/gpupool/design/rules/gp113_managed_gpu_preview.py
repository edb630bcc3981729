"""GP113 managed-gpu-preview: the managed GPU experience is a preview feature.

What it checks: ``gpu.managed: true`` on an NVIDIA GPU size (Linux).

Why: ``--enable-managed-gpu`` installs the driver, device plugin, DCGM exporter (port 19400) and GPU
health checks as host services, but it is a preview: it needs Azure CLI >= 2.85.0, the aks-preview
extension >= 19.0.0b29, the ``ManagedGPUExperiencePreview`` feature registered on the subscription and
API ``2026-01-02-preview`` or later. Preview features have no SLA, and several limits apply (no cluster
autoscaler: GP114; no sharing config: GP116). An info finding: nothing is wrong with the spec.

Fix: register the feature (``az feature register --namespace Microsoft.ContainerService --name
ManagedGPUExperiencePreview``) and install aks-preview before ``gpupool render`` output is run; or drop
``gpu.managed`` and deploy the device plugin yourself (the default "driver only" mode).

Source: MicrosoftDocs/azure-aks-docs articles/aks/aks-managed-gpu-nodes.md; Azure/AKS CHANGELOG
2026-02-08; catalog/data/images.yaml managedGpu; as of 2026-08-21.

Failing example::

    spec:
      vmSize: Standard_NC4as_T4_v3
      gpu: {managed: true}

Passing example::

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
SEVERITY = Severity.INFO
SUMMARY = "managed GPU is preview: feature flag, aks-preview and preview API needed"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if not ctx.gpu_pool_with_gpu_size or not ctx.nvidia or pool.is_windows or not pool.gpu_settings.managed:
        return
    m = catalog.managed_gpu()
    yield ctx.finding(
        ID,
        SEVERITY,
        f"gpu.managed is a preview: it needs feature {m['feature']}, Azure CLI >= {m['minCli']}, aks-preview "
        f">= {m['minAksPreview']} and API {m['apiVersion']} or later",
        at=("gpu.managed", "gpu"),
        fix=f"az feature register --namespace Microsoft.ContainerService --name {m['feature']}; "
        "az extension add --name aks-preview",
    )
