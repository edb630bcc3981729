"""GP140 size-os-sku: the VM size is supported on other OS SKUs only.

What it checks: sizes whose catalog row limits the OS SKUs AKS installs a GPU driver for: the
NC RTX PRO 6000 BSE v6 family (GRID v20 driver) on Ubuntu only.

Why: AKS's RTX PRO 6000 support is "Ubuntu only": AgentBaker's Azure Linux install script has no GRID
v20 driver path and rejects it, so on Azure Linux the pool's GPUs get no driver. A primary source (the
code that provisions the node) proves it cannot work: an error. A size whose OS limit no such source
proves (`osSkusProof` absent in the catalog row) gets a warning.

Fix: use `osSku: Ubuntu` (or `Ubuntu2204`/`Ubuntu2404`).

Source: Azure/AKS CHANGELOG 2026-06-19 (RTX PRO 6000 BSE: managed GPU, GRID driver, Ubuntu only);
Azure/AgentBaker pkg/agent/datamodel/gpu_components.go, parts/linux/cloud-init/artifacts/mariner/
cse_install_mariner.sh (06836ee2301e, 2026-08-21); as of 2026-08-21.

Failing example:

    spec:
      vmSize: Standard_NC36ds_xl_RTXPRO6000BSE_v6
      osSku: AzureLinux

Passing example:

    spec:
      vmSize: Standard_NC36ds_xl_RTXPRO6000BSE_v6
      osSku: Ubuntu
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP140"
NAME = "size-os-sku"
SEVERITY = Severity.ERROR
SUMMARY = "VM size supported on other OS SKUs only (RTX PRO 6000: Ubuntu; error on Azure Linux)"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    size = ctx.size
    if size is None or not size.os_skus:
        return
    if pool.os_sku.lower() in {s.lower() for s in size.os_skus}:
        return
    proof = f" ({size.os_skus_proof})" if size.os_skus_proof else ""
    yield ctx.finding(
        ID,
        SEVERITY if size.os_skus_proof else Severity.WARNING,
        f"vmSize {size.name} is supported on {', '.join(size.os_skus)} only; osSku is {pool.os_sku}: no GPU "
        f"driver is installed there{proof}",
        at=("osSku", "vmSize"),
        fix=f"use osSku: {size.os_skus[0]}",
        osSkus=list(size.os_skus),
    )
