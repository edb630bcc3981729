"""GP710 cli-too-old: the installed Azure CLI lacks a flag the rendered script uses.

What it checks: the `az aks nodepool add` command gpupool renders for the pool (render's az script)
against `az version -o json` (`azure-cli`): each flag's minimum version from preflight's data, e.g.
`--gpu-driver` needs 2.72.2, `--enable-managed-gpu` 2.85.0, Spot flags 2.14.

Why: an older CLI stops with `unrecognized arguments: --gpu-driver none` after the rest of the script
has run.

Fix: `az upgrade`.

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md ("Azure CLI version 2.72.2 or later
installed to set the --gpu-driver field"), aks-managed-gpu-nodes.md, gpu-multi-instance.md,
spot-node-pool.md @fb060abe6a8f; as of 2026-08-21.

Failing example (az version: azure-cli 2.70.0):

    spec:
      gpu: {driver: None}

Passing example (azure-cli 2.91.0):

    spec:
      gpu: {driver: None}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.preflight.inputs import facts
from gpupool.preflight.rules._common import at_least, rendered_flags

if TYPE_CHECKING:
    from gpupool.preflight.engine import PoolContext

ID = "GP710"
NAME = "cli-too-old"
SEVERITY = Severity.ERROR
SUMMARY = "Azure CLI older than a flag of the rendered az aks nodepool add needs"


def check(ctx: PoolContext) -> Iterator[Finding]:
    az = ctx.inputs.az_version
    if az is None or not az.cli:
        return
    table = facts()["cliFlags"]
    for flag in rendered_flags(ctx.pool):
        need = table.get(flag, {}).get("azureCli")
        if need and not at_least(az.cli, need):
            yield ctx.finding(
                ID,
                SEVERITY,
                f"az aks nodepool add {flag} needs Azure CLI >= {need}; {az.path} has {az.cli}",
                at=("gpu", "priority", "vmSize"),
                fix="az upgrade",
                flag=flag,
                need=need,
                have=az.cli,
                source=table[flag]["source"],
            )
