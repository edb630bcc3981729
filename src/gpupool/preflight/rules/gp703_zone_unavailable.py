"""GP703 zone-unavailable: a zone of the spec does not offer the size (or is restricted).

What it checks: every zone in `spec.zones` against the size's list-skus `locationInfo[].zones` for the
region and its `Zone` restrictions (`restrictionInfo.zones`).

Why: a pool spread over zones gets nodes in each; a zone without the size (common for GPU sizes) or one
restricted for the subscription makes `az aks nodepool add --zones` fail.

Fix: list only the zones that offer the size (`az vm list-skus -l REGION --size NAME --zone -o table`),
or leave `zones` out.

Source: Azure Resource SKUs API (`ResourceSkuLocationInfo.zones`, `ResourceSkuRestrictionInfo.zones`;
azure-mgmt-compute models); azure-cli 2.91.0 _vm_utils.is_sku_available; as of 2026-12-03.

Failing example (the size is in zones 1 and 2 only):

    spec:
      zones: [1, 2, 3]

Passing example:

    spec:
      zones: [1, 2]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.preflight.engine import PoolContext

ID = "GP703"
NAME = "zone-unavailable"
SEVERITY = Severity.ERROR
SUMMARY = "Availability zone without the VM size, or restricted for the subscription"


def check(ctx: PoolContext) -> Iterator[Finding]:
    sku, region = ctx.sku, ctx.region
    if sku is None or region is None or not ctx.pool.zones or not sku.offered_in(region):
        return
    offered = set(sku.zones_in(region))
    restricted = sku.restricted_zones(region)
    usable = sorted(offered - restricted)
    for z in ctx.pool.zones:
        if z in offered and z not in restricted:
            continue
        why = "is restricted for this subscription" if z in restricted else "does not offer it"
        yield ctx.finding(
            ID,
            SEVERITY,
            f"zone {z} of {region} {why} (vmSize {ctx.pool.vm_size})",
            at=("zones",),
            fix=f"use zones: [{', '.join(usable)}]" if usable else "leave zones out (no zone offers it)",
            zone=z,
            usableZones=usable,
        )
