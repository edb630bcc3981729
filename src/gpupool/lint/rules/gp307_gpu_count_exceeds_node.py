"""GP307 gpu-count-exceeds-node: the pod requests more of a GPU resource than one node has.

What it checks
  With pools given: the pod's effective request of each GPU resource (sum over containers, or the largest
  init container, as kube-scheduler computes it) must fit on one node of at least one pool the pod can land
  on (selector and taints) that advertises it; a pod that lacks a pool's toleration (GP305) or whose
  selector excludes every GPU pool (GP306) is still judged, against the pools it selects, else every pool
  that advertises the resource. A node of Standard_NC4as_T4_v3 has 1 `nvidia.com/gpu`; of
  Standard_ND96asr_v4 with MIG1g Mixed, 56 `nvidia.com/mig-1g.5gb`; time-slicing multiplies by replicas.
  A Karpenter NodePool counts as one node shape per size it admits (and the pod's selectors accept): NAP
  cannot create a node with more GPUs than its largest such size.

Why
  A pod never spans nodes: it stays Pending with `Insufficient nvidia.com/gpu` and the cluster autoscaler
  does not scale up (no new node would fit it either).

Source
  kube-scheduler NodeResourcesFit; advertised counts: gpupool.design.node (catalog vm_sizes.yaml, gpus.yaml).

Fix
  Request at most what one node has (split the job across pods), or use a larger VM size.

Failing example (pool: Standard_NC4as_T4_v3, 1 GPU per node):

    resources:
      limits: {nvidia.com/gpu: 4}

Passing example:

    resources:
      limits: {nvidia.com/gpu: 1}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.k8s.quantity import format_quantity

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext

ID = "GP307"
NAME = "gpu-count-exceeds-node"
SEVERITY = Severity.ERROR
SUMMARY = "The pod requests more of a GPU resource than one node of any pool it can land on has."


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    if not ctx.requests:
        return
    eligible = ctx.candidates
    if not eligible:
        return
    if any(all(q <= v.resources.get(r, 0) for r, q in ctx.requests.items()) for v in eligible):
        return
    # The resource that overshoots most, against the biggest node.
    r, q = max(
        ctx.requests.items(), key=lambda kv: kv[1] / max(1, max(v.resources.get(kv[0], 0) for v in eligible))
    )
    biggest = max(eligible, key=lambda v: v.resources.get(r, 0))
    have = biggest.resources.get(r, 0)
    msg = (
        f"requests {format_quantity(q)} {r} per pod, but one node of {biggest.describe()} has {have}: "
        f'the pod stays Pending ("Insufficient {r}") and {biggest.scaler} cannot help'
    )
    yield ctx.finding(
        ID,
        SEVERITY,
        msg,
        ctx.where_requested(r),
        fix=f"request at most {have} {r} per pod, or use a VM size with more GPUs",
        pool=biggest.name,
    )
