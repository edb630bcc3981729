"""GP702 size-not-available-for-subscription: the subscription may not use the size in the region.

What it checks: the size's list-skus `restrictions`: a `Location` restriction for the region
(reason `NotAvailableForSubscription`, or any other reason code Azure gives).

Why: the region offers the size, but not to this subscription; `az aks nodepool add` fails. GPU sizes
are often restricted until a quota or access request is approved.

Fix: request access to the size in the region (a quota request for its family), or use another region.

Source: Azure Resource SKUs API `ResourceSkuRestrictions` (type Location | Zone, reasonCode
QuotaId | NotAvailableForSubscription; azure-mgmt-compute models); azure-cli 2.91.0
_vm_utils.is_sku_available; as of 2026-12-03.

Failing example (list-skus: `"restrictions": [{"type": "Location", "reasonCode":
"NotAvailableForSubscription", ...}]`):

    spec:
      vmSize: Standard_NC40ads_H100_v5

Passing example (no restriction for the region):

    spec:
      vmSize: Standard_NC4as_T4_v3
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.preflight.engine import PoolContext

ID = "GP702"
NAME = "size-not-available-for-subscription"
SEVERITY = Severity.ERROR
SUMMARY = "VM size restricted for the subscription in the region (NotAvailableForSubscription)"


def check(ctx: PoolContext) -> Iterator[Finding]:
    if ctx.sku is None or ctx.region is None:
        return
    r = ctx.sku.location_restriction(ctx.region)
    if r is None:
        return
    yield ctx.finding(
        ID,
        SEVERITY,
        f"vmSize {ctx.pool.vm_size} is restricted in {ctx.region} for this subscription "
        f"({r.reason or 'no reason given'})",
        at=("vmSize",),
        fix=f"request access to {ctx.sku.family or 'the size family'} in {ctx.region} "
        "(a quota request), or use another region",
        reason=r.reason,
        region=ctx.region,
    )
