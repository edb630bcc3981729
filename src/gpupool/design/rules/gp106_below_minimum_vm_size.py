"""GP106 below-minimum-vm-size: the GPU size is older than AKS's recommended minimum.

What it checks: a `spec.vmSize` whose family the catalog marks `below-minimum`: K80 (`Standard_NC6`
...), M60 (`Standard_NV6` ...), P40 (`Standard_ND6s` ...) and P100 (`Standard_NC6s_v2` ...).

Why: AKS recommends `Standard_NC4as_T4_v3` as the minimum GPU size (since 2026-07-02). These older
sizes dropped out of AKS's GPU lists in October 2024; their GPUs are capped at old CUDA versions
(K80 runs a 470 driver) and their families are retired or retiring in Azure.

Fix: use `Standard_NC4as_T4_v3` or a newer GPU family.

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md (commit 45344e330, 2026-07-02);
Azure/AgentBaker pkg/agent/common/gpu.go at da0350bcfa^ (historical nvidiaEnabledSKUs, removed
2024-10); as of 2026-08-21.

Failing example:

    spec:
      vmSize: Standard_NC6s_v2

Passing example:

    spec:
      vmSize: Standard_NC4as_T4_v3
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.design.rules._common import size_text
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP106"
NAME = "below-minimum-vm-size"
SEVERITY = Severity.WARNING
SUMMARY = "GPU size older than the recommended minimum (Standard_NC4as_T4_v3)"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    size = ctx.size
    if size is None or size.status != "below-minimum":
        return
    if (size.retirement() or ("",))[0] == "retired":
        return  # GP105: retired says it all
    minimum, source, since = catalog.recommended_minimum()
    yield ctx.finding(
        ID,
        SEVERITY,
        f"vmSize {size_text(size)} is older than AKS's recommended minimum GPU size {minimum} "
        f"(since {since}) and no longer in AKS's GPU size lists",
        at=("vmSize",),
        fix=f"use {minimum} or a newer GPU family (source: {source})",
    )
