"""GP120 unknown-os-sku: the OS SKU is not one gpupool knows.

What it checks: `spec.osSku` against the OS SKUs in gpupool's catalog (Ubuntu, Ubuntu2204,
Ubuntu2404, AzureLinux, AzureLinux3, AzureContainerLinux, Windows2019/2022/2025, ...), case-insensitively,
and lists close matches.

Why: AKS accepts a fixed set of OS SKU names; a typo such as `Ubunto` or `AzureLinux4` is rejected
when the pool is created, and gpupool cannot tell whether the OS supports GPUs, MIG or the managed GPU
experience. A warning: a new SKU may be newer than the catalog.

Fix: use one of the listed names (`--os-sku` values of `az aks nodepool add`).

Source: azure-mgmt-containerservice 41.x models `OSSKU`; MicrosoftDocs/azure-aks-docs
articles/aks/upgrade-os-version.md; catalog/data/os_skus.yaml; as of 2026-08-21.

Failing example:

    spec:
      osSku: Ubunto

Passing example:

    spec:
      osSku: Ubuntu
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.design.rules._common import did_you_mean
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP120"
NAME = "unknown-os-sku"
SEVERITY = Severity.WARNING
SUMMARY = "OS SKU not known to gpupool (likely a typo); lists close matches"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if ctx.os is not None:
        return
    close = catalog.close_os_skus(pool.os_sku)
    msg = f'osSku "{pool.os_sku}" is not an AKS OS SKU gpupool knows'
    if close:
        msg += f"; {did_you_mean(close)}"
    fix = f"write osSku: {close[0]}" if close else "use one of: " + ", ".join(catalog.os_skus())
    yield ctx.finding(ID, SEVERITY, msg, at=("osSku",), fix=fix, candidates=close)
