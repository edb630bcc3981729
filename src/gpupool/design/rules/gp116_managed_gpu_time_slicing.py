"""GP116 managed-gpu-time-slicing: time-slicing on a managed GPU pool has no effect.

What it checks: `gpu.managed: true` together with `gpu.sharing.timeSlicing`.

Why: on managed pools AKS runs the NVIDIA device plugin as a host systemd service that it configures
itself; it takes no sharing ConfigMap, so each GPU stays one `nvidia.com/gpu` and workloads sized for
`GPUs x replicas` stay Pending. AKS lists time-slicing as "user-managed" (via the GPU Operator). A
warning: that the managed plugin ignores sharing is [INFERRED] from AKS's node provisioning code.

Fix: remove `gpu.sharing` (or `gpu.managed`: driver-only mode with your own device plugin, or the
GPU Operator, supports time-slicing).

Source: Azure/AgentBaker parts/linux/cloud-init/artifacts/cse_config.sh `startNvidiaManagedExpServices`
(06836ee2301e); MicrosoftDocs/azure-aks-docs articles/aks/concepts-gpu-partitioning.md
("User-managed, AKS allowed"); as of 2026-08-21.

Failing example:

    spec:
      gpu:
        managed: true
        sharing: {timeSlicing: {replicas: 4}}

Passing example:

    spec:
      gpu:
        driver: Install
        sharing: {timeSlicing: {replicas: 4}}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP116"
NAME = "managed-gpu-time-slicing"
SEVERITY = Severity.WARNING
SUMMARY = "time-slicing on a managed GPU pool: the managed plugin takes no sharing config"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    g = pool.gpu_settings
    if not pool.is_gpu_pool or not g.managed or g.time_slicing is None:
        return
    if ctx.size is not None and ctx.size.path == "amd":
        return  # GP108
    yield ctx.finding(
        ID,
        SEVERITY,
        f"gpu.sharing.timeSlicing (x{g.time_slicing.replicas}) on a managed GPU pool: AKS's managed device "
        "plugin takes no sharing config [INFERRED], so each GPU stays one nvidia.com/gpu",
        at=("gpu.sharing.timeSlicing", "gpu.sharing", "gpu"),
        fix="remove gpu.sharing, or remove gpu.managed and share GPUs with your own device plugin or the "
        "GPU Operator",
    )
