"""GP115 managed-gpu-driver-none: gpu.driver None on a managed GPU pool is ignored.

What it checks: `gpu.managed: true` together with `gpu.driver: None`.

Why: the managed GPU experience needs the driver AKS installs; with `--enable-managed-gpu=true` the
`--gpu-driver None` setting is ignored. The spec says two contradicting things: if you meant to bring
your own driver (GPU Operator), a managed pool is the wrong choice; if you meant managed, `None` is
noise that misleads readers.

Fix: remove `gpu.driver` (managed), or remove `gpu.managed` (bring your own stack with the NVIDIA GPU
Operator).

Source: MicrosoftDocs/azure-aks-docs articles/aks/aks-managed-gpu-nodes.md ("Override": driver None is
ignored with --enable-managed-gpu=true), commit fb060abe6a8f, as of 2026-08-21.

Failing example:

    spec:
      gpu: {managed: true, driver: None}

Passing example:

    spec:
      gpu: {managed: true}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP115"
NAME = "managed-gpu-driver-none"
SEVERITY = Severity.WARNING
SUMMARY = "gpu.driver None on a managed GPU pool is ignored"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    g = pool.gpu_settings
    if not pool.is_gpu_pool or not g.managed or g.driver != "None":
        return
    if ctx.size is not None and ctx.size.path == "amd":
        return  # GP108
    yield ctx.finding(
        ID,
        SEVERITY,
        "gpu.driver None with gpu.managed true: a managed GPU pool always gets the AKS driver, so "
        "driver None is ignored",
        at=("gpu.driver", "gpu.managed", "gpu"),
        fix="remove gpu.driver to keep the managed stack, or remove gpu.managed to bring your own "
        "driver with the NVIDIA GPU Operator",
    )
