"""GP212 invalid-quantity: a resource request or limit that is not a Kubernetes quantity.

What it checks
  Every value under `resources.requests` and `resources.limits` of a pod template's containers must be a
  quantity: a number with an optional suffix (`500m`, `2`, `16Gi`, `1e3`). The schema only says
  "string or number", so `cpu: "2 cores"` or `nvidia.com/gpu: one` pass every schema validator; the API
  server's decoder then refuses the whole object with the message mirrored here.

  A value holding a `$VAR` / `${VAR}` placeholder (a template not yet through `envsubst`) is the same
  error, but one finding per object names them all (at the first field), not one per field.

Source
  k8s.io/apimachinery/pkg/api/resource `ParseQuantity` (`quantities must match the regular expression
  '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`).

Fix
  Write a number with a valid suffix.

Failing example:

    resources:
      limits: {cpu: "2 cores", nvidia.com/gpu: one}

Passing example:

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
# A shell/envsubst variable left in the manifest ($CPU, ${GPU_COUNT}): one finding per object, not per field.
_PLACEHOLDER = re.compile(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?")
# Quantities written the common way ("500m", "2", "16Gi"), accepted without the exact parser.
_COMMON = re.compile(r"^[0-9]{1,18}(\.[0-9]{1,9})?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$")


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    placeholders: list[tuple[tuple, str]] = []
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
                    if isinstance(value, str) and _PLACEHOLDER.search(value):
                        placeholders.append((at, value))  # one finding for all of them, below
                        continue
                    yield ctx.finding(
                        ID,
                        SEVERITY,
                        f"{format_path(at)}: Invalid value: {show_value(safe(str(value)))}: "
                        "quantities must match the "
                        f"regular expression {_REGEX}",
                        at,
                        fix="write a number with an optional suffix, e.g. 500m, 2, 16Gi",
                    )
    if placeholders:
        at, value = placeholders[0]
        names = sorted({v for _, v in placeholders})
        more = len(placeholders) - 1
        msg = (
            f"{format_path(at)}: Invalid value: {show_value(safe(value))}: quantities must match the regular "
            f"expression {_REGEX}; the manifest holds unsubstituted placeholders "
            f"({', '.join(safe(n, 40) for n in names[:5])}{', ...' if len(names) > 5 else ''})"
        )
        if more:
            msg += f" in {more + 1} resource fields (this is the first)"
        yield ctx.finding(
            ID,
            SEVERITY,
            msg,
            at,
            fix="substitute the variables before applying (envsubst, kustomize replacements, helm values)",
            placeholders=len(placeholders),
        )
