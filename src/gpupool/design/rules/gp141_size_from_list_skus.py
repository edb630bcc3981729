"""GP141 size-from-list-skus: the VM size is known only from the user's list-skus output or declaration.

What it checks: pools whose size the catalog lacks but `--skus FILE` (list-skus JSON) or a `sizes:`
entry of `.gpupool.yaml` describes. The
pool is checked and simulated with list-skus's facts (vCPUs, memory, GPU count, quota family); the
AKS-specific facts gpupool keeps per size are unknown for it: the GPU model, the driver AKS installs (if
any), MIG support, and whether AKS supports the size at all. Info for plain sizes, warning for GPU sizes.

Why: instead of "unknown size, did you mean ...", the real size is used; but a GPU size AKS does not
support gets no driver or device plugin, and nothing here can tell.

Fix: confirm AKS support (`az aks list-vm-skus` with aks-preview, or the AKS GPU docs); if AKS installs
no driver, set `gpu.driver: None` and install the NVIDIA GPU Operator.

Severity: a warning for GPU sizes, like GP107 (not in the AKS GPU docs: AKS support unverified); info for
plain sizes.

Source: Azure Resource SKUs API capabilities `vCPUs`, `MemoryGB`, `GPUs` (azure-cli 2.91.0 `az vm
list-skus`); as of 2026-12-03.

Failing example (with `--skus skus.json` listing Standard_ND40rs_v2):

    spec:
      vmSize: Standard_ND40rs_v2

Passing example:

    spec:
      vmSize: Standard_NC4as_T4_v3
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP141"
NAME = "size-from-list-skus"
SEVERITY = Severity.WARNING
SUMMARY = "VM size known only from the user's list-skus output: AKS facts (driver, MIG) unknown"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    size = ctx.size
    if size is None or size.origin not in ("list-skus", "declared"):
        return
    gpus = f", {size.gpus_text()} GPU{'' if size.gpus == 1 else 's'}" if size.is_gpu else ""
    yield ctx.finding(
        ID,
        SEVERITY if size.is_gpu else Severity.INFO,
        f"vmSize {size.name} is not in gpupool's catalog; using {size.source}: {size.vcpu} vCPUs, "
        f"{size.memory_gib:g} GiB{gpus}; AKS-specific facts (GPU model, driver AKS installs, MIG, AKS "
        "support) are unknown",
        at=("vmSize",),
        fix="confirm AKS supports the size (az aks list-vm-skus, AKS GPU docs)" if size.is_gpu else None,
        origin=size.origin,
    )
