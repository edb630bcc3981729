"""GP112 time-slicing-with-mig: time-slicing on a MIG pool whose strategy is Single or None.

What it checks: `gpu.sharing.timeSlicing` together with `gpu.instanceProfile` when the effective MIG
strategy is `Single` (the default with a profile) or `None`, on a self-managed pool (managed pools:
GP116).

Why: NVIDIA's device plugin time-slices `nvidia.com/gpu` and MIG-mixed resource types. With
`Single` every MIG instance is already one `nvidia.com/gpu`; slicing it again advertises
GPUs x instances x replicas devices (e.g. 8 x 7 x 4 = 224 on ND96asr_v4), each a time share of a
small instance, and the cluster autoscaler's zero-node template knows none of it. With `None` whole
GPUs in MIG mode are sliced, which gives pods nothing usable. Both are usually a design mistake; this is
a warning because the plugin accepts the configuration ([INFERRED] consequences).

Fix: choose one way to share: MIG alone (`migStrategy: Single`) or time-slicing alone; to slice MIG
instances on purpose, use `migStrategy: Mixed` so the sliced resource is named
(`nvidia.com/mig-1g.10gb`).

Source: NVIDIA/k8s-device-plugin README "Shared Access to GPUs" and "MIG strategies",
`api/config/v1/replicas.go` (as of 2026-08-21).

Failing example:

    spec:
      vmSize: Standard_NC24ads_A100_v4
      gpu:
        instanceProfile: MIG1g
        sharing: {timeSlicing: {replicas: 4}}

Passing example:

    spec:
      vmSize: Standard_NC24ads_A100_v4
      gpu:
        instanceProfile: MIG1g
        migStrategy: Mixed
        sharing: {timeSlicing: {replicas: 4}}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP112"
NAME = "time-slicing-with-mig"
SEVERITY = Severity.WARNING
SUMMARY = "time-slicing on a MIG pool with strategy Single/None"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    g = pool.gpu_settings
    ts = g.time_slicing
    if not pool.is_gpu_pool or ts is None or not g.instance_profile or g.managed:
        return
    size = ctx.size
    if size is None or not size.mig_capable:
        return
    strategy = g.effective_mig_strategy
    if strategy == "Mixed":
        return
    if strategy == "Single":
        per_gpu = catalog.mig_instances_per_gpu()[g.instance_profile]
        total = size.gpu_devices * per_gpu * ts.replicas
        msg = (f"gpu.sharing.timeSlicing (x{ts.replicas}) on MIG profile {g.instance_profile} with strategy "
               f"Single: each of the {size.gpu_devices * per_gpu} MIG instances is time-sliced again, "
               f"advertising {total} nvidia.com/gpu per node")
    else:
        msg = (f"gpu.sharing.timeSlicing (x{ts.replicas}) with MIG strategy None: whole GPUs in MIG mode are "
               "time-sliced and no MIG instance is usable")
    yield ctx.finding(
        ID,
        SEVERITY,
        msg,
        at=("gpu.sharing.timeSlicing", "gpu.sharing", "gpu"),
        fix="share with MIG or with time-slicing, not both; to slice MIG instances on purpose, set "
        "gpu.migStrategy: Mixed",
    )
