"""GP306 gpu-selector-excludes-pools: nodeSelector or node affinity rules out every pool with the GPU.

What it checks
  With pools given: a pod that requests GPU resources must have a `nodeSelector` and required node affinity
  (`requiredDuringSchedulingIgnoredDuringExecution`) that accept the node labels of at least one pool that
  advertises those resources. Node labels are the ones AKS sets (`kubernetes.azure.com/agentpool`,
  `agentpool`, `node.kubernetes.io/instance-type`, `kubernetes.azure.com/accelerator`, ...) plus the
  pool's `nodeLabels`. Affinity operators In, NotIn, Exists, DoesNotExist, Gt, Lt are evaluated as the
  scheduler does (terms ORed, expressions ANDed).

  Against a Karpenter NodePool the pod's requirements must be compatible with the NodePool's requirements,
  its template labels and `karpenter.sh/nodepool`, as Karpenter intersects them: a label the NodePool does
  not define is refused unless it is a well-known one (`karpenter.azure.com/sku-gpu-name`, `sku-gpu-count`,
  `sku-family`, `node.kubernetes.io/instance-type`, `karpenter.sh/capacity-type`, `kubernetes.io/arch`,
  zones ...) or the operator is NotIn/DoesNotExist, and some size the NodePool admits must carry the values
  asked for (a V100 asked of a NodePool of A100 sizes, Spot of an on-demand one). Zones and other labels
  gpupool does not know per size never exclude a size. The message names the NodePool and the reason.

Why
  The pod stays Pending: `node(s) didn't match Pod's node affinity/selector`.

Source
  k8s.io/component-helpers `nodeaffinity`; AKS node labels: MicrosoftDocs/azure-aks-docs `use-labels.md`.
  NodePools: kubernetes-sigs/karpenter `pkg/scheduling/requirements.go` (`Compatible`),
  `pkg/apis/v1/labels.go` @226646810437; Azure/karpenter-provider-azure `pkg/apis/v1beta1/labels.go`
  @352646f59929 (2026-08-21). For a NodePool, the pod stays Pending and NAP creates no node for it.

Fix
  Select the GPU pool (the fix line names a label that does).

Failing example (the GPU pool is `gpunp`):

    spec:
      nodeSelector: {agentpool: cpunp}
      containers:
      - {name: c, image: nvidia/cuda:12.4.1-base-ubuntu22.04, resources: {limits: {nvidia.com/gpu: 1}}}

Passing example: `nodeSelector: {agentpool: gpunp}`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.lint.schema import safe

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext

ID = "GP306"
NAME = "gpu-selector-excludes-pools"
SEVERITY = Severity.ERROR
SUMMARY = "nodeSelector / required node affinity excludes every pool that advertises the requested GPUs."


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    if not ctx.requests or not ctx.views:
        return
    offering = [f for f in ctx.fits if f.offers_all]
    if not offering or any(f.selector_ok for f in offering):
        return
    wanted = ", ".join(sorted(ctx.requests))
    sel = ctx.pod_spec.get("nodeSelector")
    what = []
    if isinstance(sel, dict) and sel:
        what.append(
            "nodeSelector {" + ", ".join(f"{safe(str(k))}: {safe(str(v))}" for k, v in sel.items()) + "}"
        )
    if ctx.pod_spec.get("affinity"):
        what.append("required node affinity")
    selected = list(dict.fromkeys(f.view.ref for f in ctx.fits if f.selector_ok))  # a NodePool once
    msg = (
        f"{' and '.join(what) or 'node selection'} excludes every pool that advertises {wanted} "
        f"({', '.join(dict.fromkeys(f.view.ref for f in offering))})"
    )
    msg += f"; it selects only {', '.join(selected)}" if selected else "; it selects no pool at all"
    target = offering[0].view
    why = target.mismatch(ctx.pod_spec) if hasattr(target, "mismatch") else None
    if why:  # a NodePool: Karpenter's reason (a label it does not define, no size with the value)
        msg += f" ({why})"
    fix = f"select {target.place}, e.g. {target.select_hint}, or relax the affinity"
    yield ctx.finding(ID, SEVERITY, msg, ctx.spec_key("nodeSelector", "affinity"), fix=fix, pool=target.name)
