"""GP302 extended-resource-request-not-limit: a GPU request that differs from its limit.

What it checks
  For every container of a pod template: when an extended resource (`nvidia.com/gpu`, MIG names,
  `amd.com/gpu`, ...) has both a request and a limit, they must be equal. GPUs cannot be overcommitted, so
  the API server rejects `requests: 1` with `limits: 2` (and the reverse).

Source
  kubernetes/kubernetes `pkg/apis/core/validation/validation.go` `ValidateResourceRequirements`:
  `must be equal to nvidia.com/gpu limit of 2`.

Fix
  Drop the request (the limit sets it) or make both the same.

Failing example:

    resources:
      requests: {nvidia.com/gpu: 1}
      limits: {nvidia.com/gpu: 2}

Passing example:

    resources:
      limits: {nvidia.com/gpu: 2}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.k8s.quantity import format_quantity, try_quantity
from gpupool.k8s.resources import is_extended_resource
from gpupool.lint.schema import format_path, safe

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext

ID = "GP302"
NAME = "extended-resource-request-not-limit"
SEVERITY = Severity.ERROR
SUMMARY = "A GPU/extended resource whose request differs from its limit (the API server rejects the pod)."


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    for cpath, req, lim in ctx.resource_sections():
        for name, value in req.items():
            if not (isinstance(name, str) and is_extended_resource(name) and name in lim):
                continue
            r, limit = try_quantity(value), try_quantity(lim[name])
            if r is None or limit is None or r == limit:
                continue
            at = (*cpath, "resources", "requests", name)
            yield ctx.finding(
                ID,
                SEVERITY,
                f'{format_path((*cpath, "resources", "requests"))}: Invalid value: "{format_quantity(r)}": '
                f"must be equal to {safe(name)} limit of {format_quantity(limit)}",
                at,
                fix=f"remove the request of {safe(name)} (the limit sets it) or make both "
                f"{format_quantity(limit)}",
            )
