"""GP104 unsupported-vm-size: AKS does not support this GPU VM size (NVv4).

What it checks: a `spec.vmSize` whose family the catalog marks `unsupported`: the NVv4 series
(AMD Radeon Instinct MI25, partial GPUs: `Standard_NV4as_v4` ... `Standard_NV32as_v4`).

Why: the AKS GPU docs say the NVv4 series is not supported. AKS installs no GPU software for it and
the pool gets no support. (The AMD MI300X size `Standard_ND96isr_MI300X_v5` is a different,
supported path: see GP108.)

Fix: use an NVIDIA size (AKS recommends at least `Standard_NC4as_T4_v3`) or, for AMD,
`Standard_ND96isr_MI300X_v5`.

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md ("NVv4 series ... not
supported"), commit fb060abe6a8f, as of 2026-08-21.

Failing example:

    spec:
      vmSize: Standard_NV32as_v4

Passing example:

    spec:
      vmSize: Standard_NC4as_T4_v3
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.design.rules._common import recommended_size, size_text
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP104"
NAME = "unsupported-vm-size"
SEVERITY = Severity.ERROR
SUMMARY = "GPU VM size AKS does not support (NVv4)"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    size = ctx.size
    if size is None or size.status != "unsupported":
        return
    yield ctx.finding(
        ID,
        SEVERITY,
        f"vmSize {size_text(size)} is not supported for GPUs on AKS; AKS installs no GPU software for it "
        f"(source: {size.source}, as of {size.as_of})",
        at=("vmSize",),
        fix=f"use an NVIDIA size such as {recommended_size()}, or Standard_ND96isr_MI300X_v5 for AMD GPUs",
    )
