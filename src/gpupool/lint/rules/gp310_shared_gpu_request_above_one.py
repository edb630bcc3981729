"""GP310 shared-gpu-request-above-one: more than one time-sliced GPU where the plugin refuses it.

What it checks
  With pools given: a container that requests more than 1 of a GPU resource served by a time-sliced pool
  whose device plugin sets `failRequestsGreaterThanOne: true`. The plugin then refuses the allocation at
  the kubelet, after the pod was scheduled.

Why
  The pod fails with `UnexpectedAdmissionError ... request for 'nvidia.com/gpu: 2' too large: maximum
  request size for shared resources is 1`. (Without the flag, 2 shared GPUs are accepted but give no more
  compute than one.) Error when every pool the pod can land on sets the flag, warning when some do.

Source
  NVIDIA/k8s-device-plugin README "Shared Access to GPUs" (`failRequestsGreaterThanOne`).

Fix
  Request 1 shared GPU per container, or use a pool without time-slicing for multi-GPU work.

Failing example (pool time-sliced x4 with failRequestsGreaterThanOne):

    resources:
      limits: {nvidia.com/gpu: 2}

Passing example:

    resources:
      limits: {nvidia.com/gpu: 1}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.k8s.quantity import format_quantity, try_quantity

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext

ID = "GP310"
NAME = "shared-gpu-request-above-one"
SEVERITY = Severity.ERROR
SUMMARY = "A container asks for more than 1 time-sliced GPU on a pool with failRequestsGreaterThanOne."


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    if not ctx.requests or not ctx.views:
        return
    eligible = [f.view for f in ctx.fits if f.eligible]
    if not any(
        v.time_slicing is not None and v.time_slicing.fail_requests_greater_than_one for v in eligible
    ):
        return
    for cpath, req, lim in ctx.resource_sections():
        for r in ctx.requests:  # the pod's GPU resources; a container's request defaults to its limit
            raw = req.get(r, lim.get(r))
            q = try_quantity(raw) if raw is not None else None
            if q is None or q <= 1:
                continue
            serving = [v for v in eligible if v.resources.get(r, 0) > 0]
            strict = [
                v
                for v in serving
                if v.time_slicing is not None and v.time_slicing.fail_requests_greater_than_one
            ]
            if not strict:
                continue
            severity = SEVERITY if len(strict) == len(serving) else Severity.WARNING
            names = ", ".join(v.name for v in strict)
            section = "limits" if r in lim else "requests"
            yield ctx.finding(
                ID,
                severity,
                f"requests {format_quantity(q)} {r} in one container on time-sliced pool {names} with "
                f"failRequestsGreaterThanOne: the pod fails admission (\"request for '{r}: "
                f"{format_quantity(q)}' "
                'too large: maximum request size for shared resources is 1")',
                (*cpath, "resources", section, r),
                fix="request 1 shared GPU per container, or use a pool without time-slicing",
                pool=strict[0].name,
            )
