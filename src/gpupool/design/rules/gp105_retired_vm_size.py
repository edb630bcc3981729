"""GP105 retired-vm-size: the VM size is retired (NCv3, V100, retired 2025-09-30).

What it checks: a ``spec.vmSize`` whose family the catalog marks ``retired`` with a retirement date:
the NCv3 series (``Standard_NC6s_v3``, ``NC12s_v3``, ``NC24s_v3``, ``NC24rs_v3``; NVIDIA V100).

Why: Azure retired NCv3 on 2025-09-30; new VMs of a retired size cannot be created, so the pool cannot
be created or scaled. Older AKS docs (and ``use-windows-gpu.md``) still show ``Standard_NC6s_v3`` as
the minimum, which is why it is still copied into new designs.

Fix: use ``Standard_NC4as_T4_v3`` (AKS's recommended minimum since 2026-07-02) or a newer family such
as ``Standard_NC24ads_A100_v4``.

Source: MicrosoftDocs/azure-compute-docs articles/virtual-machines/sizes/gpu-accelerated/ncv3-series.md
(retired 2025-09-30); MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md (commit 45344e330),
as of 2026-08-21.

Failing example::

    spec:
      vmSize: Standard_NC6s_v3

Passing example::

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

ID = "GP105"
NAME = "retired-vm-size"
SEVERITY = Severity.ERROR
SUMMARY = "Retired VM size (NCv3 retired 2025-09-30): cannot be created"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    size = ctx.size
    if size is None or size.status != "retired":
        return
    when = f" on {size.retired}" if size.retired else ""
    yield ctx.finding(
        ID,
        SEVERITY,
        f"vmSize {size_text(size)} was retired{when}: Azure no longer creates VMs of this size, so the pool "
        f"cannot be created or scaled (source: {size.source})",
        at=("vmSize",),
        fix=f"use {recommended_size()} (AKS's recommended minimum) or a current family such as "
        "Standard_NC24ads_A100_v4",
        retired=size.retired,
    )
