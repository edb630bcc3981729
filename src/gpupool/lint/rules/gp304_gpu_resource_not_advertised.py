"""GP304 gpu-resource-not-advertised: the pod requests a GPU resource name that no pool advertises.

What it checks
  With pools given (`--pool` or pool specs among the inputs): each GPU resource the pod requests
  (`nvidia.com/gpu`, `nvidia.com/gpu.shared`, `nvidia.com/mig-<profile>`, `amd.com/gpu`,
  `microsoft.com/directx`) must be advertised by some pool, as gpupool computes it from the VM size,
  MIG profile and strategy, time-slicing and install mode (`gpupool plan` shows it). Typical mistakes:
  `nvidia.com/gpu` on a MIG pool with strategy Mixed (it advertises `nvidia.com/mig-1g.10gb`...), the MIG
  name of another profile or another GPU (`mig-1g.5gb` is A100 40GB; A100 80GB is `mig-1g.10gb`),
  `nvidia.com/gpu.shared` on a time-sliced pool without `renameByDefault`.

Why
  Nothing rejects the pod: it stays Pending with `Insufficient nvidia.com/mig-1g.5gb` and the cluster
  autoscaler never scales a pool up for it.

Source
  Advertised names: NVIDIA/k8s-device-plugin README (MIG strategies, shared access / renameByDefault);
  MicrosoftDocs/azure-aks-docs `gpu-multi-instance.md`; MIG device names per GPU in catalog `gpus.yaml`.

Fix
  Request the name the pool advertises (the message lists it), or change the pool.

Failing example (pool: Standard_NC24ads_A100_v4, MIG1g, strategy Mixed):

    resources:
      limits: {nvidia.com/gpu: 1}

Passing example:

    resources:
      limits: {nvidia.com/mig-1g.10gb: 1}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.lint.schema import safe

if TYPE_CHECKING:
    from gpupool.lint.gpu import PoolView, WorkloadContext

ID = "GP304"
NAME = "gpu-resource-not-advertised"
SEVERITY = Severity.ERROR
SUMMARY = "The pod requests a GPU resource name (MIG profile, .shared, ...) that no pool advertises."


def _hint(resource: str, views: list[PoolView]) -> str:
    for v in views:
        if not hasattr(v.pool, "gpu_settings"):
            continue  # a NodePool's size (NAP has no MIG or time-slicing settings)
        g = v.pool.gpu_settings
        ts = v.time_slicing
        if resource.endswith(".shared") and ts is not None and not ts.rename_by_default:
            return f"pool {v.name} time-slices without renameByDefault, so shared GPUs keep their plain name"
        if resource == "nvidia.com/gpu" and any(k.endswith(".shared") for k in v.resources):
            return f"pool {v.name} sets renameByDefault, so it advertises .shared names only"
        if resource == "nvidia.com/gpu" and g.instance_profile and g.effective_mig_strategy == "Mixed":
            return f"MIG strategy Mixed on pool {v.name} advertises per-profile names, not nvidia.com/gpu"
        if resource.startswith("nvidia.com/mig-") and g.instance_profile:
            if g.effective_mig_strategy != "Mixed":
                return (
                    f"pool {v.name} uses MIG strategy {g.effective_mig_strategy}, which advertises "
                    "nvidia.com/gpu"
                )
            return f"pool {v.name} partitions every GPU with {g.instance_profile}"
        if resource.startswith("nvidia.com/mig-") and v.is_gpu:
            return f"pool {v.name} has no MIG profile"
    return ""


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    if not ctx.requests or not ctx.views:
        return
    landing = [f.view for f in ctx.fits if f.lands and f.view.is_gpu]
    candidates = landing or [v for v in ctx.views if v.is_gpu]
    missing = [r for r in ctx.requests if not ctx.offering(r)]
    for r in missing:
        msg = f"requests {safe(r)}, which no pool advertises"
        if candidates:
            which = "the GPU pool it can land on" if landing else "the GPU pools given"
            msg += f"; {which}: " + "; ".join(v.offer_text() for v in candidates[:3])
        else:
            msg += " (none of the pools given has GPUs)"
        hint = _hint(r, candidates)
        if hint:
            msg += f" ({hint})"
        names = sorted({n for v in candidates for n in v.resources})
        if len(names) == 1:
            fix = f"request {names[0]} instead, or create a pool that advertises {safe(r)}"
        elif names:
            fix = f"request one of {', '.join(names)}, or create a pool that advertises {safe(r)}"
        else:
            fix = "add a GPU pool (kind GpuNodePool) to the pools, or remove the GPU request"
        yield ctx.finding(ID, SEVERITY, msg, ctx.where_requested(r), fix=fix, resource=r)
    if not missing and len(ctx.requests) > 1 and not any(f.offers_all for f in ctx.fits):
        wanted = ", ".join(sorted(ctx.requests))
        yield ctx.finding(
            ID,
            SEVERITY,
            f"requests {wanted}, but no single pool advertises all of them (a pod runs on one node)",
            ctx.where_requested(sorted(ctx.requests)[0]),
            fix="split the pod, or request only the resources one pool advertises",
        )
