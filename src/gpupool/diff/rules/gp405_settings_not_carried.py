"""GP405 settings-not-carried: the new pool will not get settings gpupool does not model.

What it checks: the change needs a new pool, CURRENT is `az aks nodepool show` JSON, and that JSON has
settings the pool spec has no field for (OS disk size and type, subnets, upgrade settings, tags, kubelet
or OS config, security profile, ...).

Why: the runbook creates the new pool from DESIRED (`az aks nodepool add` as `gpupool render` writes
it). Settings outside the spec are left at their defaults on the new pool: a smaller OS disk, another
subnet, default max-surge. They are listed so nothing is lost silently.

Fix: add the matching `az aks nodepool add` options to the runbook's create step (`--node-osdisk-size`,
`--node-osdisk-type`, `--vnet-subnet-id`, `--max-surge`, `--tags`, ...) before running it.

Source: Azure CLI 2.91.0 acs/_params.py ('aks nodepool add' options); azure-mgmt-containerservice AgentPool
model; as of 2026-08-21.

Failing example (CURRENT JSON):

    {"name": "gpunp", "vmSize": "Standard_NC4as_T4_v3", "osDiskSizeGb": 256, ...}

Passing example: CURRENT JSON with only default values outside the spec's fields.
"""

from __future__ import annotations

from gpupool.findings import Severity

ID = "GP405"
NAME = "settings-not-carried"
SEVERITY = Severity.WARNING
SUMMARY = "the new pool will not get CURRENT's settings that the pool spec does not model"

_LIMIT = 12


def check(ctx):
    az = ctx.current_az
    if not ctx.requires_new_pool or az is None or not az.unmodeled:
        return
    items = [f"{k}={v}" for k, v in az.unmodeled.items()]
    shown = ", ".join(items[:_LIMIT]) + (f" and {len(items) - _LIMIT} more" if len(items) > _LIMIT else "")
    yield ctx.finding(
        ID,
        SEVERITY,
        f"the new pool is created from DESIRED; settings of {az.pool.name} that gpupool does not model are "
        f"not carried over: {shown}",
        pool=az.pool,
        fix="add the matching az aks nodepool add options to the runbook's create step if the new pool "
        "needs them",
        settings=dict(az.unmodeled),
    )
