"""GP314 request-exceeds-node-allocatable: the pod requests more CPU or memory than a node of any pool it can
land on has allocatable.

What it checks
  With pools given: the pod's effective CPU and memory requests (sum over containers, or the largest init
  container, plus overhead, as kube-scheduler computes them) must fit the allocatable of one node of at
  least one pool the pod can land on (nodeSelector, affinity and taints; for a GPU pod, a pool that
  advertises its GPUs; a GPU pod that lacks a toleration is judged against the pools it selects; a pod
  without GPUs only against pools it can land on, so a CPU pod that does not tolerate a tainted GPU pool is
  never judged against it). Allocatable is
  the VM size's vCPUs and memory less the AKS reservations (kube-reserved CPU by core count, kube-reserved
  memory and the eviction threshold by Kubernetes version), computed by the same code as `gpupool
  simulate` (`design.nodeshape.node_shape`). Ephemeral storage is not judged (the OS disk size is not in
  the pool spec). For a Karpenter NodePool, each size it admits (and the pod's selectors accept) is judged
  with the allocatable Karpenter counts: memory less NAP's 7.5 % VM overhead, less kube-reserved by its
  tax brackets and a 750Mi eviction threshold (Azure/karpenter-provider-azure
  `pkg/providers/instancetype/instancetype.go` @352646f59929, 2026-08-21).

Why
  The pod stays Pending with `Insufficient cpu` / `Insufficient memory` and the cluster autoscaler does
  not scale up for it: no node of the pool would ever fit it. A Standard_NC4as_T4_v3 has 4 vCPUs and 28 GiB,
  but a pod can ask for about 3.8 CPUs and 24 GiB.

Source
  AKS reservations: MicrosoftDocs/azure-aks-docs `node-resource-reservations.md` (ms.date 2026-06-11),
  data in `k8s/data/aks.yaml`; kube-scheduler NodeResourcesFit.

Fix
  Request less, or use a larger VM size.

Failing example (pool: Standard_NC4as_T4_v3):

    resources:
      requests: {cpu: "4", memory: 16Gi}
      limits: {nvidia.com/gpu: 1}

Passing example:

    resources:
      requests: {cpu: "3", memory: 16Gi}
      limits: {nvidia.com/gpu: 1}
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.k8s.quantity import format_quantity

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext

ID = "GP314"
NAME = "request-exceeds-node-allocatable"
SEVERITY = Severity.ERROR
SUMMARY = "The pod requests more CPU or memory than one node of any pool it can land on has allocatable."

_JUDGED = ("cpu", "memory")


def _show(resource: str, value) -> str:  # type: ignore[no-untyped-def]
    if resource == "cpu":
        return f"{format_quantity(value)} CPU"
    gib = value / 2**30
    return f"{float(gib):.1f} GiB memory"


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    if not ctx.views:
        return
    wanted = {r: q for r, q in ctx.node_requests.items() if r in _JUDGED}
    if not wanted:
        return
    eligible = ctx.candidates
    allocs = [(v, v.allocatable) for v in eligible]
    allocs = [(v, a) for v, a in allocs if a is not None]
    if not allocs or len(allocs) < len(eligible):
        return  # no pool to judge, or one we cannot size: give the benefit of the doubt
    unit = {"cpu": 1000}
    key = (ID, ctx.resources_key, tuple(id(v) for v, _ in allocs))
    fits = ctx.index.memo.get(key)
    if fits is None:
        fits = any(all(q * unit.get(r, 1) <= a.get(r, 0) for r, q in wanted.items()) for _, a in allocs)
        if len(ctx.index.memo) < 4096:
            ctx.index.memo[key] = fits
    if fits:
        return

    def overshoot(kv: tuple) -> float:
        return kv[1] * unit.get(kv[0], 1) / max(1, max(a.get(kv[0], 0) for _, a in allocs))

    r, q = max(wanted.items(), key=overshoot)
    view, alloc = max(allocs, key=lambda va: va[1].get(r, 0))
    have = Fraction(alloc.get(r, 0), unit.get(r, 1))
    msg = (
        f"requests {_show(r, q)} per pod, but one node of {view.describe()} has {_show(r, have)} allocatable "
        f'after {view.reservations}: the pod stays Pending ("Insufficient {r}") and {view.scaler} cannot help'
    )
    at = ctx.spec_path
    for cpath, req, lim in ctx.resource_sections():
        if r in req:
            at = (*cpath, "resources", "requests", r)
            break
        if r in lim:
            at = (*cpath, "resources", "limits", r)
            break
    yield ctx.finding(ID, SEVERITY, msg, at, fix=f"request at most {_show(r, have)}, or use a larger VM size",
                      pool=view.name)
