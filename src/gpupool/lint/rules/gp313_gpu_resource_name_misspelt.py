"""GP313 gpu-resource-name-misspelt: an extended resource name that looks like a misspelt GPU resource.

What it checks
  Every extended resource under `resources.limits` / `requests` that is not a GPU resource gpupool knows
  (`nvidia.com/gpu`, `nvidia.com/gpu.shared`, `nvidia.com/mig-<profile>`, `amd.com/gpu`,
  `microsoft.com/directx`) but differs from one only in letter case or by a small edit: `nvidia.com/gpus`,
  `nvidia.com/GPU`, `nvidia/gpu`, `nvidia.com/mig-1g5gb`. Candidates are the names above, the MIG device
  names of every GPU in the catalog, and what the given pools advertise. Runs with or without pools.

Why
  The API server accepts any well-formed extended resource name, so nothing complains: the pod stays Pending
  (`Insufficient nvidia.com/gpus`) because no device plugin advertises that name. Resource names are case
  sensitive. It is a warning, not an error: other device plugins advertise their own names (HAMi's
  `nvidia.com/gpumem`, for one), which gpupool cannot tell from a typo.

Source
  Kubernetes extended resources (kubernetes.io/docs/tasks/configure-pod-container/extended-resource/); NVIDIA
  device plugin resource names (NVIDIA/k8s-device-plugin README); MIG names in catalog `gpus.yaml`.

Fix
  Use the name the fix line suggests.

Failing example:

    resources:
      limits: {nvidia.com/gpus: 1}

Passing example:

    resources:
      limits: {nvidia.com/gpu: 1}
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.design.node import AMD_RESOURCE, DIRECTX_RESOURCE, GPU_RESOURCE, MIG_PREFIX, is_gpu_resource
from gpupool.findings import Finding, Severity
from gpupool.lint.schema import safe

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext

ID = "GP313"
NAME = "gpu-resource-name-misspelt"
SEVERITY = Severity.WARNING
SUMMARY = "An extended resource name that looks like a misspelt GPU resource (nvidia.com/gpus, ...GPU)."

_CUTOFF = 0.86
# Names other device plugins advertise, close to NVIDIA's but not typos: HAMi (Project-HAMi/HAMi README,
# "nvidia.com/gpumem", "nvidia.com/gpucores", "nvidia.com/gpumem-percentage"; checked 2026-12-03).
_OTHER_PLUGINS = frozenset({"nvidia.com/gpumem", "nvidia.com/gpucores", "nvidia.com/gpumem-percentage"})


@cache
def _known() -> tuple[str, ...]:
    names = {GPU_RESOURCE, GPU_RESOURCE + ".shared", AMD_RESOURCE, DIRECTX_RESOURCE}
    for g in catalog.gpus().values():
        for device in g.mig.values():
            names.add(MIG_PREFIX + device)
    return tuple(sorted(names))


def suggestion(name: str, advertised: tuple[str, ...] = ()) -> str | None:
    """The GPU resource ``name`` was probably meant to be, or None when it is not close to one."""
    if is_gpu_resource(name) or name in advertised or name in _OTHER_PLUGINS:
        return None
    candidates = tuple(dict.fromkeys((*advertised, *_known())))
    lower = name.lower()
    for c in candidates:
        if c.lower() == lower:
            return c
    domain = name.split("/", 1)[0].lower()
    if not any(v in domain for v in ("nvidia", "amd", "microsoft", "gpu")):
        return None  # another vendor's resource (example.com/foo): not ours to judge
    close = difflib.get_close_matches(lower, [c.lower() for c in candidates], n=1, cutoff=_CUTOFF)
    if not close:
        return None
    return next(c for c in candidates if c.lower() == close[0])


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    entries = ctx.extended_entries
    if not entries:
        return
    advertised = tuple(sorted({r for v in ctx.views for r in v.resources}))
    seen: set[str] = set()
    for cpath, section, name, _value in entries:
        if name in seen:
            continue
        seen.add(name)
        meant = suggestion(name, advertised)
        if meant is None:
            continue
        yield ctx.finding(
            ID,
            SEVERITY,
            f"{safe(name)} is not a GPU resource any device plugin gpupool knows advertises; did you mean "
            f"{meant}? (names are case sensitive; the pod would stay Pending: 'Insufficient {safe(name)}')",
            (*cpath, "resources", section, name),
            fix=f"{meant}: <count>",
            resource=name,
            meant=meant,
        )
