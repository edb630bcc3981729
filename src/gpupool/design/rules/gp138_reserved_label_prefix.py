"""GP138 reserved-label-prefix: a node label uses a prefix AKS reserves.

What it checks: every key of `spec.nodeLabels` against the prefixes AKS reserves for itself:
`kubernetes.azure.com/` and `kubernetes.io/`.

Why: "The following prefixes are AKS reserved prefixes and can't be used for any node"; since the
2021-08-19 release AKS refuses changes to its reserved labels, so `az aks nodepool add --labels`
fails. AKS sets the labels it owns itself (`kubernetes.azure.com/agentpool`, `.../scalesetpriority`
on Spot pools, `.../accelerator` ...).

Fix: use your own prefix (`example.com/gpu-team: ml`) or none (`team: ml`); select AKS's own labels
in workloads without setting them.

Source: MicrosoftDocs/azure-aks-docs articles/aks/use-labels.md (Reserved system labels, Reserved
prefixes) @fb060abe6a8f; as of 2026-08-21.

Failing example:

    spec:
      nodeLabels:
        kubernetes.azure.com/accelerator: nvidia

Passing example:

    spec:
      nodeLabels:
        team: ml
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.catalog.aks import reserved_prefix
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP138"
NAME = "reserved-label-prefix"
SEVERITY = Severity.ERROR
SUMMARY = "Node label with a prefix AKS reserves (kubernetes.azure.com/, kubernetes.io/)"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    for key in pool.node_labels:
        prefix = reserved_prefix(key)
        if prefix is None:
            continue
        yield ctx.finding(
            ID,
            SEVERITY,
            f"node label {key} uses the prefix {prefix}, which AKS reserves",
            at=(f"nodeLabels.{key}", "nodeLabels"),
            fix="use a label without that prefix (e.g. your own domain)",
            label=key,
            prefix=prefix,
        )
