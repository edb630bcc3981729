"""GP704 family-quota: the VM family's vCPU quota is too small for the pool at its largest.

What it checks: `az vm list-usage` for the size's family (list-skus `family`, else the catalog's
`quotaFamily`): free vCPUs (`limit - currentValue`) against what every Regular pool of that family
in the run needs at most: (`autoscaler.maxCount` or `nodeCount`, plus the upgrade surge) x vCPUs per
node. The surge is 10% of the nodes rounded up, at least 1 (AKS's default max surge).

Why: the autoscaler cannot add nodes past the quota (scale-up fails with a quota error), and an upgrade
that cannot surge stops. GPU families often start at 0 vCPUs.

Fix: request more quota for the family in the region, or lower `maxCount`.

Source: Azure Compute Usage API (`Usage`: currentValue, limit, name.value; azure-mgmt-compute);
azure-cli 2.91.0 vm list-usage; MicrosoftDocs/azure-aks-docs best-practices-performance-scale-large.md
(default max surge 10%) and resize-node-pool.md (default 1) [CONFLICT, the larger is used]; as of
2026-12-03.

Failing example (standardNCASv3_T4Family: 8 of 24 used; 4 nodes + 1 surge x 8 vCPUs = 40 needed):

    spec:
      vmSize: Standard_NC8as_T4_v3
      autoscaler: {minCount: 0, maxCount: 4}

Passing example (limit 64):

    spec:
      vmSize: Standard_NC8as_T4_v3
      autoscaler: {minCount: 0, maxCount: 4}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.preflight.rules._common import quota_check

if TYPE_CHECKING:
    from gpupool.preflight.engine import PoolContext

ID = "GP704"
NAME = "family-quota"
SEVERITY = Severity.ERROR
SUMMARY = "VM family vCPU quota short for maxCount nodes plus the upgrade surge"


def check(ctx: PoolContext) -> Iterator[Finding]:
    if ctx.pool.priority == "Spot":
        return
    yield from quota_check(ctx, ID, SEVERITY, ctx.quota_family, "family")
