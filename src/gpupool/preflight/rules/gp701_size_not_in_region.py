"""GP701 size-not-in-region: the VM size is not offered in the pool's region.

What it checks: `spec.vmSize` against `az vm list-skus -l REGION --resource-type virtualMachines
--all -o json`: the size must be listed for the region.

Why: `az aks nodepool add` fails with a "VM size not available in location" error only after the rest
of a pipeline has run. Without `--all`, list-skus also leaves out sizes the subscription may not use
(GP702), so a missing size may be either.

Fix: pick a region that offers the size (`az vm list-skus --size NAME --all -o table`), or another size.

Source: azure-cli 2.91.0 vm/custom.py list_skus and _vm_utils.is_sku_available (what --all changes);
Azure Resource SKUs API; as of 2026-12-03.

Failing example (list-skus of eastus has no Standard_ND96isr_H200_v5):

    spec:
      location: eastus
      vmSize: Standard_ND96isr_H200_v5

Passing example:

    spec:
      location: eastus
      vmSize: Standard_NC4as_T4_v3
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.preflight.engine import PoolContext

ID = "GP701"
NAME = "size-not-in-region"
SEVERITY = Severity.ERROR
SUMMARY = "VM size not offered in the region (az vm list-skus)"


def check(ctx: PoolContext) -> Iterator[Finding]:
    skus = ctx.inputs.skus
    if skus is None or ctx.region is None:
        return
    if ctx.sku is not None and ctx.sku.offered_in(ctx.region):
        return
    yield ctx.finding(
        ID,
        SEVERITY,
        f"vmSize {ctx.pool.vm_size} is not offered in {ctx.region} (not in {skus.path}; without --all, "
        "list-skus also hides sizes the subscription may not use)",
        at=("vmSize", "location"),
        fix="pick a region that offers it, or another size "
        f"(az vm list-skus -l {ctx.region} --size {ctx.pool.vm_size} --all -o table)",
        region=ctx.region,
    )
