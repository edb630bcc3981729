"""GP706 spot-quota: the low-priority (Spot) vCPU quota is too small for the Spot pools.

What it checks: `az vm list-usage` `lowPriorityCores` (Total Regional Low-priority vCPUs): free
vCPUs against the sum over every Spot pool in the run of (`autoscaler.maxCount` or `nodeCount` +
upgrade surge) x vCPUs. Spot VMs count against this quota, not the family's. A list without a
`lowPriorityCores` row (older subscriptions: the Azure CLI's 2019 test recording of `az vm list-usage`
has none) is not
a quota of 0: a warning says the quota cannot be checked.

Why: the default low-priority quota is small; Spot GPU pools fail to scale past it.

Fix: request more "Total Regional Low-priority vCPUs", or lower `maxCount`.

Source: MicrosoftDocs/azure-aks-docs articles/aks/spot-node-pool.md; Azure Compute Usage API
(name.value `lowPriorityCores`); Azure/azure-cli vm/tests/latest/recordings/test_vm_usage.yaml
(westus, 2019: no lowPriorityCores row); as of 2026-12-03.

Failing example (lowPriorityCores: 0 of 10 used; 3 nodes + 1 surge x 24 vCPUs needed):

    spec:
      priority: Spot
      vmSize: Standard_NC24ads_A100_v4
      autoscaler: {minCount: 0, maxCount: 3}

Passing example (limit 200):

    spec:
      priority: Spot
      vmSize: Standard_NC24ads_A100_v4
      autoscaler: {minCount: 0, maxCount: 3}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.preflight.inputs import facts
from gpupool.preflight.rules._common import quota_check

if TYPE_CHECKING:
    from gpupool.preflight.engine import PoolContext

ID = "GP706"
NAME = "spot-quota"
SEVERITY = Severity.ERROR
SUMMARY = "Low-priority (Spot) vCPU quota short for the Spot pools"


def check(ctx: PoolContext) -> Iterator[Finding]:
    if ctx.pool.priority != "Spot":
        return
    yield from quota_check(ctx, ID, SEVERITY, facts()["quota"]["spot"], "Spot")
