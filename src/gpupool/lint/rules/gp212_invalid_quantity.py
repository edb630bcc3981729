"""GP212 invalid-quantity: a resource request or limit that is not a Kubernetes quantity.

What it checks
  Every value under ``resources.requests`` and ``resources.limits`` of a pod template's containers must be a
  quantity: a number with an optional suffix (``500m``, ``2``, ``16Gi``, ``1e3``). The schema only says
  "string or number", so ``cpu: "2 cores"`` or ``nvidia.com/gpu: one`` pass every schema validator; the API
  server's decoder then refuses the whole object with the message mirrored here.

Source
  k8s.io/apimachinery/pkg/api/resource ``ParseQuantity`` (``quantities must match the regular expression
  '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'``).

Fix
  Write a number with a valid suffix.

Failing example::

    resources:
      limits: {cpu: "2 cores", nvidia.com/gpu: one}

Passing example::

    resources:
      limits: {cpu: "2", nvidia.com/gpu: 1}
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.k8s.quantity import try_quantity
from gpupool.lint.schema import format_path, safe, show_value

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext

ID = "GP212"
NAME = "invalid-quantity"
SEVERITY = Severity.ERROR
SUMMARY = "A resource request or limit that is not a valid Kubernetes quantity (the API server rejects it)."

_REGEX = "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
# Quantities written the common way ("500m", "2", "16Gi"), accepted without the exact parser.
_COMMON = re.compile(r"^[0-9]{1,18}(\.[0-9]{1,9})?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$")


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    for cpath, req, lim in ctx.resource_sections():
        for section, values in (("requests", req), ("limits", lim)):
            for name, value in values.items():
                # Wrong types (booleans, lists, null) are the schema's finding (GP202).
                if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                    continue
                if isinstance(value, int) or (isinstance(value, str) and _COMMON.match(value)):
                    continue
                if try_quantity(value) is None:
                    at = (*cpath, "resources", section, name)
                    yield ctx.finding(
                        ID,
                        SEVERITY,
                        f"{format_path(at)}: Invalid value: {show_value(safe(str(value)))}: "
                        "quantities must match the "
                        f"regular expression {_REGEX}",
                        at,
                        fix="write a number with an optional suffix, e.g. 500m, 2, 16Gi",
                    )
