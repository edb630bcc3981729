"""GP101 unknown-vm-size: the VM size is not in gpupool's catalog.

What it checks: `spec.vmSize` of a GpuNodePool (or an N-series size in a NodePool) that gpupool's
catalog does not know. The finding lists the closest catalog sizes ("did you mean ...?").

Why: an unknown size is most often a typo (`Standard_NC4as_T4` for `Standard_NC4as_T4_v3`), which
AKS rejects when the pool is created. When the size is real but newer than the catalog, gpupool cannot
say how many GPUs it has, which driver AKS installs, or whether AKS supports it at all: AKS publishes
no list of supported GPU sizes, and sizes outside its internal list get no GPU software.

Fix: correct the name, or confirm the size exists in your region with
`az vm list-skus --location <region> --size <name> -o table` (and, with aks-preview,
`az aks list-vm-skus --location <region>`), then say so: pass that list-skus output with `--skus FILE`,
or declare the size in `.gpupool.yaml` (`sizes: [{name, vcpus, memoryGiB, gpus}]`), so check, plan,
render and simulate use its vCPUs, memory and GPUs (GP141 warns about what stays unknown). On a
GpuNodePool only GPU sizes are suggested.

Severity: an error. A size nobody can vouch for is most likely a typo, and a GPU pool on it renders
without its GPU manifests; the catalog lags Azure, so a real newer size is one declaration away.
General-purpose sizes (not `Standard_N*`) in a plain NodePool are not tracked and pass.

Source: gpupool catalog (catalog/data/vm_sizes.yaml, as of 2026-08-21); MicrosoftDocs/azure-aks-docs
articles/aks/use-nvidia-gpu.md and aks-list-skus.md (no published list of supported GPU sizes,
as of 2026-08-21).

Failing example:

    kind: GpuNodePool
    spec:
      vmSize: Standard_NC4as_T4      # missing the _v3 suffix

Passing example:

    kind: GpuNodePool
    spec:
      vmSize: Standard_NC4as_T4_v3
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.design.rules._common import did_you_mean
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP101"
NAME = "unknown-vm-size"
SEVERITY = Severity.ERROR
SUMMARY = "VM size not in the catalog (likely a typo); lists close matches"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if ctx.size is not None:
        return
    if not pool.is_gpu_pool and not pool.vm_size.lower().startswith("standard_n"):
        return  # general-purpose sizes gpupool does not track are fine in a NodePool
    close = catalog.close_vm_sizes(pool.vm_size, n=10)
    if pool.is_gpu_pool:  # a GPU pool is never meant to get a general-purpose size
        close = [c for c in close if catalog.vm_sizes()[c].is_gpu]
    close = close[:3]
    as_of = catalog.recommended_minimum()[2]
    skus = (
        f"pass --skus FILE (az vm list-skus -l REGION --size {pool.vm_size} --all -o json) or declare it in "
        ".gpupool.yaml (sizes: [{name, vcpus, memoryGiB, gpus}]) so its vCPUs, memory and GPUs are known"
    )
    msg = (
        f'vmSize "{pool.vm_size}" is not in gpupool\'s VM size catalog: its GPU count, driver and AKS '
        "support are unknown"
    )
    if close:
        msg += f"; {did_you_mean(close)}"
        fix = f"write vmSize: {close[0]} if that is what you meant; if the name is right, {skus}"
    else:
        fix = (
            f"check the name with `az vm list-skus --location <region> --size {pool.vm_size} -o table`; "
            f"if the size is newer than gpupool's catalog (sizes as of {as_of}), {skus}"
        )
    yield ctx.finding(ID, SEVERITY, msg, at=("vmSize",), fix=fix, candidates=close)
