"""GP805 nodepool-gpu-consolidation: a GPU NodePool that consolidates underutilized nodes with no guard.

What it checks: a NodePool that can create GPU nodes with `disruption.consolidationPolicy`
`WhenEmptyOrUnderutilized` (the default when `disruption` is left out) or `Balanced`, a `consolidateAfter`
other than `Never`, no disruption budget that blocks the `Underutilized` reason (`nodes: "0"`, always active,
with no `reasons` or with `Underutilized`), and no `karpenter.sh/do-not-disrupt` annotation on the template
(which NAP puts on its nodes).

Why: consolidation deletes or replaces a node whose pods fit elsewhere or on a cheaper node. For a GPU node
that evicts the pods on it: a training job without checkpoints loses its progress, an inference server its
loaded model, and the replacement waits for a new GPU node and its driver. The default budget (`nodes: 10%`)
only limits how many nodes go at once.

Fix: one of

* `disruption.consolidationPolicy: WhenEmpty` (remove only empty GPU nodes);
* a budget `{nodes: "0", reasons: [Underutilized]}` (optionally with `schedule`/`duration` for a window);
* the annotation `karpenter.sh/do-not-disrupt: "true"` on the pods of long jobs (or on the template).

Expiration (`expireAfter`, 720h by default) is forceful and ignores budgets and the annotation; set
`expireAfter: Never` on NodePools for jobs longer than that.

Source: MicrosoftDocs/azure-aks-docs articles/aks/node-auto-provisioning-disruption.md @3e6497443
(2026-07-30);
Azure/karpenter-provider-azure pkg/apis/crds/karpenter.sh_nodepools.yaml @731b1f78 (defaults); as of
2026-08-21. Severity warning: disruption is documented behaviour; whether the pods can be moved is the
workload's.

Failing example:

    spec:
      disruption:
        consolidationPolicy: WhenEmptyOrUnderutilized
        consolidateAfter: 1m

Passing example:

    spec:
      disruption:
        consolidationPolicy: WhenEmptyOrUnderutilized
        consolidateAfter: 1m
        budgets:
          - nodes: "0"
            reasons: [Underutilized]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.nap.check import NapContext

ID = "GP805"
NAME = "nodepool-gpu-consolidation"
SEVERITY = Severity.WARNING
SUMMARY = "A GPU NodePool consolidates underutilized nodes with no budget or do-not-disrupt guard."


def check(ctx: NapContext) -> Iterator[Finding]:
    p = ctx.pool
    if not ctx.gpu or p.replicas is not None:
        return
    if p.consolidation_policy == "WhenEmpty" or p.consolidate_after == "Never":
        return
    for b in p.budgets or ():
        if b.blocks and b.always_active and (not b.reasons or "Underutilized" in b.reasons):
            return
    annotation = catalog._data("nap.yaml")["disruption"]["doNotDisrupt"]
    if p.annotations.get(annotation) == "true":
        return
    given = "given" if "spec.disruption.consolidationPolicy" in p.where.fields else "the default"
    yield ctx.finding(
        ID, SEVERITY,
        f"the NodePool can create GPU nodes and consolidates underutilized ones "
        f"({p.consolidation_policy}, {given}) with no budget blocking it: running GPU pods may be evicted",
        ["spec.disruption.consolidationPolicy", "spec.disruption"],
        fix='add disruption.budgets: [{nodes: "0", reasons: [Underutilized]}], use consolidationPolicy: '
        'WhenEmpty, or annotate long jobs karpenter.sh/do-not-disrupt: "true"',
    )
