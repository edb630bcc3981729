"""GP303 extended-resource-not-integer: a fractional (or negative) GPU count.

What it checks
  Extended resources (`nvidia.com/gpu`, MIG names, `amd.com/gpu`, ...) are counted in whole devices: every
  request and limit must be a non-negative integer. `0.5`, `500m` or `-1` pass the schema (a quantity)
  and are rejected by the API server. To share a GPU, use a pool with time-slicing (and request 1 of its
  `nvidia.com/gpu` or `nvidia.com/gpu.shared`) or a MIG profile.

Source
  kubernetes/kubernetes `pkg/apis/core/validation/validation.go` `ValidateResourceQuantityValue`
  (`must be an integer`, `must be greater than or equal to 0`).

Fix
  Request a whole number of devices.

Failing example:

    resources:
      limits: {nvidia.com/gpu: 0.5}

Passing example:

    resources:
      limits: {nvidia.com/gpu: 1}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.k8s.quantity import format_quantity, try_quantity
from gpupool.lint.schema import format_path

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext

ID = "GP303"
NAME = "extended-resource-not-integer"
SEVERITY = Severity.ERROR
SUMMARY = "A GPU/extended resource count that is not a non-negative integer (the API server rejects the pod)."


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    for cpath, section, name, value in ctx.extended_entries:
        q = value if type(value) is int else try_quantity(value)
        if q is None:
            continue  # not a quantity at all: GP212
        if q < 0:
            why = "must be greater than or equal to 0"
        elif q.denominator != 1:
            why = "must be an integer"
        else:
            continue
        at = (*cpath, "resources", section, name)
        yield ctx.finding(
            ID,
            SEVERITY,
            f'{format_path(at)}: Invalid value: "{format_quantity(q)}": {why}',
            at,
            fix="request whole devices; to share a GPU use a time-sliced or MIG pool",
        )
