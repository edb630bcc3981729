"""Sizes from the user's own ``az vm list-skus -o json`` (``--skus FILE`` on check, plan, simulate).

A size the catalog lacks but list-skus describes is used with the facts list-skus gives (capabilities
``vCPUs``, ``MemoryGB``, ``GPUs``; the quota ``family``), status ``list-skus``. What list-skus does not
say stays unknown and is never guessed into an error: the GPU model, whether AKS installs a driver for it
(driver: none recorded), MIG (none), AKS support (GP141 says so). The GPU vendor is read from the size
name for AMD sizes (MI300X, V620, V710) [INFERRED]; every other GPU size is taken as NVIDIA.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from gpupool.catalog import Gpu, VmSize, add_user_sizes

_AMD = re.compile(r"(MI\d{3}|V620|V710)", re.IGNORECASE)


def size_from_sku(sku, source: str) -> VmSize | None:  # type: ignore[no-untyped-def]
    """A :class:`VmSize` from one list-skus row (``gpupool.preflight.model.Sku``); None without vCPUs."""
    vcpus = sku.vcpus
    if not vcpus:
        return None
    memory = sku.number("MemoryGB") or 0.0
    gpus = int(sku.number("GPUs") or 0)
    amd = bool(_AMD.search(sku.name))
    gpu = None
    if gpus:
        gpu = Gpu(
            id="unknown",
            vendor="amd" if amd else "nvidia",
            model=f"unknown {'AMD' if amd else 'NVIDIA'} GPU (az vm list-skus gives no model)",
            memory_gb=0,
            architecture="unknown",
            mig={},
            source=source,
            as_of="list-skus",
        )
    return VmSize(
        name=sku.name,
        family=sku.family or "unknown",
        vcpu=vcpus,
        memory_gib=float(memory),
        gpus=Fraction(gpus),
        gpu=gpu,
        status="list-skus",
        path=("amd" if amd else "nvidia") if gpus else "none",
        driver=None,
        quota_family=sku.family,
        arch="arm64" if (sku.capability("CpuArchitectureType") or "").lower() == "arm64" else "x64",
        fabric_manager=False,
        retired=None,
        source=source,
        as_of="list-skus",
        origin="list-skus",
    )


def use_list_skus(path: str | Path) -> list[VmSize]:
    """Read list-skus JSON and add the sizes the catalog lacks; returns them."""
    from gpupool.preflight.inputs import load_skus

    skus = load_skus(path)
    source = f"az vm list-skus output {path}"
    sizes = [s for s in (size_from_sku(k, source) for k in skus.all()) if s is not None]
    return add_user_sizes(sizes)
