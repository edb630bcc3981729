"""GP711 aks-preview-missing: a flag the rendered script uses needs the aks-preview extension.

What it checks: flags of the rendered `az aks nodepool add` that exist only in the aks-preview
extension (managed GPU: `--enable-managed-gpu`, `--gpu-mig-strategy`) against `az version -o json`
`extensions`: aks-preview must be installed, at the version preflight's data names (19.0.0b29).

Why: without the extension the CLI does not know the flags; with an older one the managed GPU fields
are not sent.

Fix: `az extension add --name aks-preview` (or `az extension update --name aks-preview`); the
rendered script does this in its prerequisites.

Source: MicrosoftDocs/azure-aks-docs articles/aks/aks-managed-gpu-nodes.md @fb060abe6a8f; catalog
images.yaml managedGpu (aks-preview >= 19.0.0b29); as of 2026-08-21.

Failing example (az version: no extensions):

    spec:
      gpu: {managed: true}

Passing example (extensions: aks-preview 19.0.0b29):

    spec:
      gpu: {managed: true}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.preflight.inputs import facts
from gpupool.preflight.rules._common import at_least, rendered_flags

if TYPE_CHECKING:
    from gpupool.preflight.engine import PoolContext

ID = "GP711"
NAME = "aks-preview-missing"
SEVERITY = Severity.ERROR
SUMMARY = "aks-preview extension missing or too old for a flag of the rendered script"


def check(ctx: PoolContext) -> Iterator[Finding]:
    az = ctx.inputs.az_version
    if az is None:
        return
    table = facts()["cliFlags"]
    have = az.extensions.get("aks-preview")
    for flag in rendered_flags(ctx.pool):
        need = table.get(flag, {}).get("aksPreview")
        if not need or at_least(have, need):
            continue
        what = f"has aks-preview {have}" if have else "has no aks-preview extension"
        yield ctx.finding(
            ID,
            SEVERITY,
            f"az aks nodepool add {flag} needs the aks-preview extension >= {need}; {az.path} {what}",
            at=("gpu.managed", "gpu"),
            fix="az extension add --name aks-preview (or az extension update --name aks-preview)",
            flag=flag,
            need=need,
            have=have,
        )
        return
