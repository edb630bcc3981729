"""GP311 cuda-image-newer-than-driver: a CUDA image newer than the driver of the pool it runs on.

What it checks
  With pools given: for a GPU pod, each container image from NVIDIA's CUDA repository (`nvidia/cuda`,
  `nvcr.io/nvidia/cuda`; the tag starts with the CUDA version, e.g. `12.8.0-runtime-ubuntu22.04`) against
  the NVIDIA driver AKS installs on the pools the pod can land on (catalog `drivers.yaml`; only where AKS
  pins the driver: Ubuntu nodes, driver Install or managed). Error when the driver is below the CUDA major's
  minor-version-compatibility floor; warning when the toolkit runs only under minor-version compatibility
  (no JIT of newer PTX) or is newer than every toolkit gpupool knows.

Why
  The container fails at start with `CUDA driver version is insufficient for CUDA runtime version`.

Source
  NVIDIA CUDA Toolkit Release Notes, Table 3 and "Minor Version Compatibility" (catalog `cuda.yaml`);
  AKS driver versions: Azure/AgentBaker `parts/common/components.json` (catalog `drivers.yaml`).

Fix
  Use an image built for a CUDA version the driver supports natively (the message names the newest), or a
  pool whose driver is newer (driver `None` with the GPU Operator lets you choose it).

Failing example (pool: Standard_NV36ads_A10_v5, GRID driver 570.211.01: CUDA <= 12.8 natively, 12.9 only
under minor-version compatibility (warning), 13.x not at all (error)):

    containers:
    - {name: c, image: nvidia/cuda:13.0.0-base-ubuntu24.04, resources: {limits: {nvidia.com/gpu: 1}}}

Passing example: `image: nvidia/cuda:12.8.0-base-ubuntu22.04`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.findings import Finding, Severity
from gpupool.lint.schema import safe

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext

ID = "GP311"
NAME = "cuda-image-newer-than-driver"
SEVERITY = Severity.ERROR
SUMMARY = "A CUDA image (nvidia/cuda:<version>-...) newer than the NVIDIA driver of the pool it runs on."

_TAG = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?(?:[-_.]|$)")


def cuda_version_of(image: object) -> str | None:
    """``nvcr.io/nvidia/cuda:12.8.0-runtime-ubuntu22.04`` -> ``12.8.0``; None for other images."""
    if not isinstance(image, str):
        return None
    return _cuda_version_of(image)


@lru_cache(maxsize=4096)
def _cuda_version_of(image: str) -> str | None:
    ref = image.split("@", 1)[0]
    last = ref.rsplit("/", 1)[-1]
    if ":" not in last:
        return None
    repo, tag = ref.rsplit(":", 1)
    if not repo.endswith("nvidia/cuda"):
        return None
    m = _TAG.match(tag)
    if not m:
        return None
    return ".".join(g for g in m.groups() if g is not None)


@cache
def _support(cuda: str, driver: str) -> str:
    return catalog.cuda_support(cuda, driver).level


@cache
def _newest_known() -> str | None:
    return catalog.newest_native_cuda("9999")


@cache
def _newest_native(driver: str) -> str | None:
    return catalog.newest_native_cuda(driver)


@cache
def _newer_than_known(cuda: str) -> bool:
    newest = _newest_known()
    return newest is not None and catalog.version_tuple(cuda)[:2] > catalog.version_tuple(newest)


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    if not ctx.requests or not ctx.views:
        return
    from gpupool.lint.gpu import cuda_driver

    eligible = [f.view for f in ctx.fits if f.eligible and f.view.driver is not None]
    if not eligible:
        return
    for cpath, c in ctx.containers():
        cuda = cuda_version_of(c.get("image"))
        if cuda is None:
            continue
        worst: tuple[int, str, str, str] | None = None  # (rank, level, pool, driver)
        for v in eligible:
            drv = cuda_driver(v)
            if drv is None:
                continue
            level = _support(cuda, drv[0])
            if level == "unknown":
                if not _newer_than_known(cuda):
                    continue
                level = "newer-than-known"
            rank = {"unsupported": 2, "minor-compat": 1, "newer-than-known": 1}.get(level, 0)
            if rank and (worst is None or rank > worst[0]):
                worst = (rank, level, v.name, drv[0])
        if worst is None:
            continue
        rank, level, pool, driver = worst
        native = _newest_native(driver) or "none"
        image = safe(str(c.get("image")), 100)
        if level == "unsupported":
            msg = (
                f"image {image} needs CUDA {cuda}, but pool {pool}'s NVIDIA driver {driver} "
                "supports CUDA up to "
                f"{native} (and not {cuda.split('.')[0]}.x even under minor-version "
                "compatibility): the container "
                'fails with "CUDA driver version is insufficient for CUDA runtime version"'
            )
            severity = Severity.ERROR
        elif level == "minor-compat":
            msg = (
                f"image {image} is CUDA {cuda}, newer than pool {pool}'s NVIDIA driver {driver} "
                "supports natively "
                f"(up to {native}): it runs only under CUDA minor-version compatibility (no JIT of newer PTX)"
            )
            severity = Severity.WARNING
        else:
            msg = (
                f"image {image} is CUDA {cuda}, newer than any CUDA toolkit gpupool knows; pool "
                f"{pool}'s NVIDIA "
                f"driver {driver} supports CUDA up to {native} natively"
            )
            severity = Severity.WARNING
        yield ctx.finding(
            ID,
            severity,
            msg,
            (*cpath, "image"),
            fix=f"use a CUDA {native} image, or a pool whose driver supports CUDA {cuda}",
            pool=pool,
        )
