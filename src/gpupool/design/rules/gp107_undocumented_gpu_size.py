"""GP107 undocumented-gpu-size: the GPU size exists in Azure but AKS does not document it.

What it checks: a `spec.vmSize` whose family the catalog marks `undocumented`: ND GB200 v6 and
ND GB300 v6 (ARM64 Grace hosts) and NCCads H100 v5 (confidential VMs).

Why: the sizes are in the Azure compute docs but not in the AKS GPU docs, so whether AKS installs a
driver and device plugin for them, and supports them at all, is unverified. Azure Container Linux does
not support ARM64 GPU pools. This is a warning: the facts are [UNVERIFIED], not known failures.

Fix: confirm with `az aks list-vm-skus --location <region>` (aks-preview) before relying on the
size; if AKS installs no driver for it, create the pool with `gpu.driver: None` and install the NVIDIA
GPU Operator.

Source: MicrosoftDocs/azure-compute-docs nd-gb200-v6-series-specs.md, nd-gb300-v6-series-specs.md,
nccadsh100v5-series.md; MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md (these sizes are not
among the AKS supported GPU sizes: AKS support unverified), as of 2026-08-21.

Failing example:

    spec:
      vmSize: Standard_ND128isr_NDR_GB200_v6

Passing example:

    spec:
      vmSize: Standard_ND96isr_H100_v5
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.design.rules._common import size_text
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP107"
NAME = "undocumented-gpu-size"
SEVERITY = Severity.WARNING
SUMMARY = "GPU size not in the AKS docs: AKS support unverified"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    size = ctx.size
    if size is None or size.status != "undocumented":
        return
    arch = f"; {size.arch} host" if size.arch != "x64" else ""
    yield ctx.finding(
        ID,
        SEVERITY,
        f"vmSize {size_text(size)} is not in the AKS GPU docs{arch}: whether AKS installs a driver and "
        "device plugin for it, or supports it at all, is unverified",
        at=("vmSize",),
        fix="confirm with `az aks list-vm-skus --location <region>` (aks-preview) before relying on it; "
        "otherwise set gpu.driver: None and install the NVIDIA GPU Operator",
    )
