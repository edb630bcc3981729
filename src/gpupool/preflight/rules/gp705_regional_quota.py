"""GP705 regional-quota: the region's total vCPU quota is too small for the pools at their largest.

What it checks: `az vm list-usage` `cores` (Total Regional vCPUs): free vCPUs against the sum over
every Regular pool in the run of (`autoscaler.maxCount` or `nodeCount` + upgrade surge) x vCPUs.

Why: every VM of every family counts against the regional total as well as its family; either limit
stops a scale-up.

Fix: request a higher regional vCPU quota, or lower `maxCount`.

Source: Azure Compute Usage API (name.value `cores`); azure-cli 2.91.0 vm list-usage; as of 2026-12-03.

Failing example (cores: 90 of 100 used, 40 needed):

    spec:
      vmSize: Standard_NC8as_T4_v3
      autoscaler: {minCount: 0, maxCount: 4}

Passing example (cores: 10 of 100 used):

    spec:
      vmSize: Standard_NC8as_T4_v3
      autoscaler: {minCount: 0, maxCount: 4}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.preflight.inputs import facts
from gpupool.preflight.rules._common import quota_check

if TYPE_CHECKING:
    from gpupool.preflight.engine import PoolContext

ID = "GP705"
NAME = "regional-quota"
SEVERITY = Severity.ERROR
SUMMARY = "Regional vCPU quota (cores) short for all pools at maxCount plus surge"


def check(ctx: PoolContext) -> Iterator[Finding]:
    if ctx.pool.priority == "Spot":
        return
    yield from quota_check(ctx, ID, SEVERITY, facts()["quota"]["regional"], "regional")
