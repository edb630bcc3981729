"""GP105 retired-vm-size: the VM size is retired, or retires within 90 days (dated data, judged on today).

What it checks: a `spec.vmSize` whose family (or row) the catalog gives a retirement date, judged on
today's date (`GPUPOOL_TODAY` pins it): on or after the date an error; within 90 days before it a
warning naming the date. Retired as of 2026-12-03: NCv3 (V100, 2025-09-30), NVv3 (M60, 2026-09-30),
NVv4 (MI25, 2026-09-30), and the RTX PRO 6000 BSE v6 *preview* sizes (`Standard_NC128ds_xl_...`,
`NC256(l)ds`, `NC320(l)ds`; no longer deployed since the GA sizes came on 2026-06-03).

Why: Azure creates no VMs of a retired size (existing ones are deallocated), so the pool cannot be created
or scaled. Older AKS docs (and `use-windows-gpu.md`) still show `Standard_NC6s_v3` as the minimum,
which is why it is still copied into new designs. A size retiring soon is worth moving off before the
date.

Fix: use `Standard_NC4as_T4_v3` (AKS's recommended minimum since 2026-07-02) or a newer family such
as `Standard_NC24ads_A100_v4`; for RTX PRO 6000 the GA names (`Standard_NC144lds_xl_RTXPRO6000BSE_v6`).

Source: MicrosoftDocs/azure-compute-docs articles/virtual-machines/sizes/gpu-accelerated/ncv3-series.md
(retired 2025-09-30), nvv4-retirement.md @1a043fb3 (NVv4 and NVv3, 2026-09-30); Azure/AgentBaker
pkg/agent/datamodel/gpu_components.go @06836ee2301e ("Azure no longer deploys the preview sizes");
Azure/AKS CHANGELOG @8d1c8909 (RTX PRO 6000 GA 2026-06-03); each date is in catalog vm_sizes.yaml with
its source; as of 2026-12-03.

Failing example:

    spec:
      vmSize: Standard_NC6s_v3

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

ID = "GP105"
NAME = "retired-vm-size"
SEVERITY = Severity.ERROR
SUMMARY = "Retired VM size (NCv3, NVv3, NVv4, RTX PRO 6000 preview names); warning 90 days before"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    size = ctx.size
    state = size.retirement() if size is not None else None
    if state is None:
        return
    fix = (
        f"use {recommended_size()} (AKS's recommended minimum) or a current family such as "
        "Standard_NC24ads_A100_v4"
    )
    if size.family.startswith("NC_RTXPRO6000BSE_v6"):
        fix = "use a GA size of the family, e.g. Standard_NC144lds_xl_RTXPRO6000BSE_v6"
    kind, days = state
    if kind == "retired":
        yield ctx.finding(
            ID,
            SEVERITY,
            f"vmSize {size_text(size)} was retired on {size.retired}: Azure no longer creates VMs of this "
            f"size, so the pool cannot be created or scaled (source: {size.source})",
            at=("vmSize",),
            fix=fix,
            retired=size.retired,
        )
    else:
        yield ctx.finding(
            ID,
            Severity.WARNING,
            f"vmSize {size_text(size)} retires on {size.retired} (in {days} days): after that date Azure "
            f"creates no VMs of this size (source: {size.source})",
            at=("vmSize",),
            fix=fix,
            retired=size.retired,
        )
