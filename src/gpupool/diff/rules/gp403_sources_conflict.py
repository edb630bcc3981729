"""GP403 sources-conflict: the change's classification rests on sources that disagree.

What it checks: a changed field whose update/recreate classification is marked [CONFLICT] in gpupool's
field table (`catalog/data/mutability.yaml`): `gpu.driver` (Azure CLI 2.91.0 has `--gpu-driver` on
`az aks nodepool update`; the AKS docs say the setting is fixed) and `gpu.managed` (AgentBaker calls the
legacy managed-GPU tag mutable; the docs say fixed).

Why: gpupool follows the newest primary source, the AKS documentation, and plans a new pool. The finding
says so, so nobody is surprised when the CLI appears to accept an in-place update (which, for the driver,
would affect only nodes created afterwards).

Fix: none needed; read the conflict and decide. Re-check the docs before relying on an in-place change.

Source: MicrosoftDocs/azure-aks-docs articles/aks/aks-managed-gpu-nodes.md (Immutability),
use-nvidia-gpu.md; Azure CLI 2.91.0 acs/_params.py (`az aks nodepool update --gpu-driver`); Azure/AgentBaker
(managed-GPU tag); as of 2026-08-21.

Failing example (reported):

    spec:
      gpu: {driver: None}     # CURRENT: Install

Passing example (not reported):

    spec:
      gpu: {driver: Install}  # CURRENT: Install
"""

from __future__ import annotations

from gpupool.diff.spelling import spec_text
from gpupool.findings import Severity

ID = "GP403"
NAME = "sources-conflict"
SEVERITY = Severity.INFO
SUMMARY = "the change is classified per the AKS docs, but other sources disagree"


def check(ctx):
    for c in ctx.changes:
        if not c.rule.conflict:
            continue
        yield ctx.finding(
            ID,
            SEVERITY,
            f"{c.field} {spec_text(c.before)} -> {spec_text(c.after)} is planned as {c.action} per the "
            f"AKS docs; sources disagree: {c.rule.conflict}",
            at=(c.field, c.field.split(".")[0]),
            field=c.field,
        )
