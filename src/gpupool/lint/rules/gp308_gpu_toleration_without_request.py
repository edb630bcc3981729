"""GP308 gpu-toleration-without-request: tolerates a GPU pool's taints but requests no GPU.

What it checks
  With pools given: a workload (not a DaemonSet) that requests no GPU resource but tolerates every
  `NoSchedule`/`NoExecute` taint of a tainted GPU pool (and whose nodeSelector/affinity allows that pool)
  with a toleration of its own: a pod without tolerations is never reported.

Why
  A toleration allows a pod onto a node; it does not send it there. Such a pod can be scheduled onto an
  expensive GPU node, take its CPU and memory from GPU pods, and keep the node from scaling down - while
  getting no GPU itself: tolerate *and* request.

Fix
  Remove the toleration, or add the GPU request if the pod does need a GPU. If the pod must run there
  (a node agent), make it a DaemonSet or suppress this rule with a reason.

Failing example (pool taint `sku=gpu:NoSchedule`):

    spec:
      tolerations:
      - {key: sku, operator: Equal, value: gpu, effect: NoSchedule}
      containers:
      - {name: web, image: nginx}

Passing example: the same pod without the toleration.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.design.node import is_gpu_resource
from gpupool.findings import Finding, Severity
from gpupool.k8s.taints import tolerates

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext

ID = "GP308"
NAME = "gpu-toleration-without-request"
SEVERITY = Severity.WARNING
SUMMARY = "Tolerates a GPU pool's taints without requesting a GPU: it may take a GPU node."


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    if ctx.requests or not ctx.views or ctx.workload.kind == "DaemonSet":
        return
    if any(is_gpu_resource(name) for _, _, name, _ in ctx.extended_entries):
        return  # it names a GPU resource whose quantity is not a number ($GPUS): GP212's finding
    tols = ctx.pod_spec.get("tolerations")
    if not isinstance(tols, list) or not tols:
        return  # no toleration at all (a pod whose placement is decided elsewhere lands "everywhere")
    hits = [f for f in ctx.fits if f.view.is_gpu and f.view.hard_taints and f.lands]
    hits = [f for f in hits if any(tolerates(t, taint) for taint in f.view.hard_taints for t in tols)]
    if not hits:
        return
    at = ctx.spec_key("tolerations")
    if isinstance(tols, list):
        taint = hits[0].view.hard_taints[0]
        for i, tol in enumerate(tols):
            if tolerates(tol, taint):
                at = (*ctx.spec_path, "tolerations", i)
                break
    places = dict.fromkeys(f"{f.view.place} ({', '.join(str(t) for t in f.view.hard_taints)})" for f in hits)
    pools = ", ".join(list(places)[:3])  # a NodePool once, whatever sizes it admits
    msg = (
        f"tolerates the taints of GPU {pools} but requests no GPU: it may be scheduled onto a GPU "
        "node, use its CPU and memory and keep it from scaling down"
    )
    yield ctx.finding(
        ID,
        SEVERITY,
        msg,
        at,
        fix="remove the toleration, or request the GPU the pod needs",
        pool=hits[0].view.name,
    )
