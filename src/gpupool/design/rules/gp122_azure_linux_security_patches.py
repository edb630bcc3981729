"""GP122 azure-linux-security-patches: Azure Linux GPU pools get no automatic security patches.

What it checks: a GPU pool on an OS SKU the catalog marks without automatic security patches for GPU
pools (`AzureLinux`, `AzureLinux3` and the legacy `CBLMariner`/`Mariner` names).

Why: on Azure Linux GPU node pools unattended upgrades are off and the `SecurityPatch` OS upgrade
channel is unsupported, so security fixes arrive only with node image upgrades you run (or the
`NodeImage` channel). The driver is also not pinned (latest `cuda`/`cuda-open` RPM for the
kernel). An info finding: Azure Linux is a supported choice.

Fix: keep the node OS upgrade channel on `NodeImage` (the default) and plan regular node image
upgrades (`az aks nodepool upgrade --node-image-only`), or use `osSku: Ubuntu`. Replace the legacy
`CBLMariner`/`Mariner` names with `AzureLinux`.

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md (no automatic security patches for
Azure Linux GPU pools), commit fb060abe6a8f; MicrosoftDocs/azure-management-docs
azure-linux-aks-overview.md; as of 2026-08-21.

Failing example:

    spec:
      vmSize: Standard_NC4as_T4_v3
      osSku: AzureLinux

Passing example:

    spec:
      vmSize: Standard_NC4as_T4_v3
      osSku: Ubuntu
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP122"
NAME = "azure-linux-security-patches"
SEVERITY = Severity.INFO
SUMMARY = "Azure Linux GPU pools get no automatic security patches"

_LEGACY = {"cblmariner", "mariner"}


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    os_ = ctx.os
    if os_ is None or os_.gpu == "unsupported" or os_.auto_security_patches or os_.os_type != "Linux":
        return
    if not ctx.is_gpu_size or ctx.size.path != "nvidia":
        return
    msg = (f"osSku {pool.os_sku}: Azure Linux GPU nodes get no automatic security patches (unattended "
           "upgrades off, SecurityPatch channel unsupported); fixes arrive only with node image upgrades")
    fix = "keep the NodeImage OS upgrade channel and upgrade node images regularly, or use osSku: Ubuntu"
    if pool.os_sku.lower() in _LEGACY:
        msg += f"; {pool.os_sku} is the legacy name of Azure Linux 2"
        fix = "use osSku: AzureLinux; " + fix
    yield ctx.finding(ID, SEVERITY, msg, at=("osSku",), fix=fix)
