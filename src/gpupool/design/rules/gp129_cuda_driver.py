"""GP129 cuda-driver: the workload's CUDA version against the driver AKS installs for the size.

What it checks: `spec.workload.cudaVersion` against the NVIDIA driver AKS installs for the pool's VM
size (catalog/data/drivers.yaml: `cuda-lts` 580.159.04 for T4/A100/H100/H200, `grid` 570.211.01
for A10 vGPU sizes, as of 2026-08-21) using NVIDIA's CUDA toolkit -> minimum driver table:

* native support (driver >= the toolkit's minimum): no finding;
* only CUDA minor-version compatibility (same major, driver >= the major's floor: 13.x >= 580,
  12.x >= 525, 11.x >= 450): warning; newer PTX cannot be JIT-compiled, and images that set
  `NVIDIA_REQUIRE_CUDA` may refuse to start;
* below the major's floor, or a CUDA major the GPU architecture cannot run (V100/Pascal/Maxwell stop
  at 12.x): error, containers fail with "CUDA driver version is insufficient for CUDA runtime version";
* Azure Linux: the driver is not pinned (latest `cuda`/`cuda-open` RPM for the kernel), so the
  Ubuntu value is only an estimate; the message says so and an error becomes a warning;
* `gpu.driver: None` (you install the driver), sizes AKS installs no driver for, Windows, AMD, or a
  CUDA version not in the table: info, not checked.

Why: the driver comes with the node image and cannot be chosen in driver-only or managed mode; a
container built for a newer CUDA than the node driver supports fails at start or runs with limits.

Fix: build the image for the newest CUDA the driver runs natively (the finding names it), or create the
pool with `gpu.driver: None` and install a newer driver with the NVIDIA GPU Operator.

Source: NVIDIA CUDA Toolkit Release Notes Table 3; NVIDIA "Minor Version Compatibility"; CUDA 13.4 U1
release notes; Azure/AgentBaker parts/common/components.json, gpu_components.go,
mariner/cse_install_mariner.sh (06836ee2301e); as of 2026-08-21.

Failing example:

    spec:
      vmSize: Standard_NV36ads_A10_v5      # GRID driver 570.211.01
      workload: {cudaVersion: "13.0"}       # needs >= 580.65.06

Passing example:

    spec:
      vmSize: Standard_NC4as_T4_v3          # cuda-lts 580.159.04
      workload: {cudaVersion: "12.4"}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP129"
NAME = "cuda-driver"
SEVERITY = Severity.ERROR
SUMMARY = "workload CUDA version vs the driver AKS installs (error / warning under minor-version compat)"

_AT = ("workload.cudaVersion",)


def _native_min(cuda: str) -> str | None:
    return catalog.cuda_support(cuda, "0").native_min_driver


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    cuda = pool.cuda_version
    if not cuda or not ctx.gpu_pool_with_gpu_size:
        return
    size = ctx.size
    g = pool.gpu_settings
    if size.path != "nvidia":
        msg = f"workload.cudaVersion {cuda} on {size.name}: CUDA does not apply to AMD GPUs; not checked"
        yield ctx.finding(ID, Severity.INFO, msg, at=_AT)
        return
    if pool.is_windows:
        msg = f"workload.cudaVersion {cuda}: the Windows GPU driver is not in gpupool's catalog; not checked"
        yield ctx.finding(ID, Severity.INFO, msg, at=_AT)
        return
    if g.driver == "None" and not g.managed:
        need = _native_min(cuda)
        need_text = f" (CUDA {cuda} needs >= {need} natively)" if need else ""
        msg = (f"workload.cudaVersion {cuda} with gpu.driver None: you install the driver, so gpupool "
               f"cannot check it{need_text}")
        yield ctx.finding(ID, Severity.INFO, msg, at=_AT,
                          fix="pin a driver at least that new in the GPU Operator (driver.version)")
        return
    major = catalog.version_tuple(cuda)[0]
    arch = size.gpu.architecture if size.gpu else ""
    cap = catalog.last_cuda_major(arch)
    if cap is not None and major > cap:
        yield ctx.finding(
            ID, SEVERITY,
            f"workload.cudaVersion {cuda}: {size.gpu.model} ({arch}) supports CUDA up to {cap}.x; CUDA "
            f"{major} does not run on it",
            at=_AT,
            fix=f"build for CUDA {cap}.x, or use a newer GPU such as T4 or A100 "
            f"(source: {catalog.last_cuda_major_source()})",
        )
        return
    drv = catalog.driver_for(size)
    if drv is None:
        msg = (f"workload.cudaVersion {cuda}: gpupool's catalog records no driver AKS installs for "
               f"{size.name}; not checked")
        yield ctx.finding(ID, Severity.INFO, msg, at=_AT)
        return
    sup = catalog.cuda_support(cuda, drv.version)
    if sup.level == "native":
        return
    if sup.level == "unknown":
        yield ctx.finding(ID, Severity.INFO, f"workload.cudaVersion {cuda} is not in gpupool's CUDA table "
                          f"({sup.source}); not checked", at=_AT)
        return
    pinning = catalog.driver_pinning(pool.os_sku)
    newest = catalog.newest_native_cuda(drv.version)
    installs = f"AKS installs {drv.version} ({drv.flavour} driver, as of {drv.as_of})"
    if pinning == "unpinned":
        installs = (f"on {pool.os_sku} the driver is not pinned (latest RPM for the kernel); gpupool "
                    f"compares with the Ubuntu value {drv.version} ({drv.flavour}, as of {drv.as_of}) as an "
                    "estimate")
    elif pinning == "unknown":
        installs = (f"the driver on {pool.os_sku} is not documented; gpupool compares with the Ubuntu "
                    f"value {drv.version} ({drv.flavour}, as of {drv.as_of}) as an estimate")
    fix = "use gpu.driver None with the NVIDIA GPU Operator and a newer driver"
    if newest:
        fix = f"build for CUDA {newest} or older (the newest that {drv.version} runs natively), or " + fix
    if sup.level == "minor-compat" and catalog.cuda_min_driver_unverified(cuda):
        yield ctx.finding(
            ID, Severity.INFO,
            f"workload.cudaVersion {cuda}: its minimum driver is not confirmed by a source gpupool read "
            f"(placeholder {sup.native_min_driver}); {installs}, which runs CUDA {cuda} at least under "
            "minor-version compatibility",
            at=_AT, fix=fix, driver=drv.version, needs=sup.native_min_driver, level=sup.level,
        )
        return
    if sup.level == "minor-compat":
        yield ctx.finding(
            ID, Severity.WARNING,
            f"workload.cudaVersion {cuda} needs driver >= {sup.native_min_driver} natively; {installs}, "
            f"which runs CUDA {cuda} only under minor-version compatibility (no JIT of newer PTX; images "
            "with NVIDIA_REQUIRE_CUDA may refuse to start)",
            at=_AT, fix=fix, driver=drv.version, needs=sup.native_min_driver, level=sup.level,
        )
        return
    severity = SEVERITY if pinning == "pinned" else Severity.WARNING
    yield ctx.finding(
        ID, severity,
        f"workload.cudaVersion {cuda} needs driver >= {sup.native_min_driver}; {installs}, too old even for "
        "minor-version compatibility: containers fail with \"CUDA driver version is insufficient for CUDA "
        "runtime version\"",
        at=_AT, fix=fix, driver=drv.version, needs=sup.native_min_driver, level=sup.level,
    )
