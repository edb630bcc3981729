"""GP110 mig-strategy-without-profile: migStrategy Single or Mixed without a MIG instanceProfile.

What it checks: `gpu.migStrategy: Single` or `Mixed` while `gpu.instanceProfile` is not set.

Why: the MIG strategy only says how MIG instances are advertised (`nvidia.com/gpu` per instance, or
`nvidia.com/mig-<profile>`). Without a profile AKS does not partition the GPUs, so the setting does
nothing and workloads written for MIG resource names (`nvidia.com/mig-1g.10gb`) never schedule. It
usually means the profile was forgotten; the profile cannot be added after creation.

Fix: add `gpu.instanceProfile` (MIG1g, MIG2g, MIG3g, MIG4g or MIG7g) on an A100/H100/H200 size, or
remove `gpu.migStrategy`.

Source: MicrosoftDocs/azure-aks-docs articles/aks/gpu-multi-instance.md, aks-managed-gpu-nodes.md
(`--gpu-mig-strategy` with `--gpu-instance-profile`); NVIDIA/k8s-device-plugin README "MIG
strategies"; as of 2026-08-21.

Failing example:

    spec:
      vmSize: Standard_NC24ads_A100_v4
      gpu: {migStrategy: Mixed}

Passing example:

    spec:
      vmSize: Standard_NC24ads_A100_v4
      gpu: {instanceProfile: MIG1g, migStrategy: Mixed}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP110"
NAME = "mig-strategy-without-profile"
SEVERITY = Severity.WARNING
SUMMARY = "migStrategy Single/Mixed set without gpu.instanceProfile: no effect"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    g = pool.gpu_settings
    if not pool.is_gpu_pool or g.instance_profile or g.mig_strategy not in ("Single", "Mixed"):
        return
    yield ctx.finding(
        ID,
        SEVERITY,
        f"gpu.migStrategy {g.mig_strategy} without gpu.instanceProfile: the GPUs are not MIG-partitioned, "
        "so the strategy has no effect and nvidia.com/mig-* resources never appear",
        at=("gpu.migStrategy", "gpu"),
        fix="add gpu.instanceProfile (MIG1g..MIG7g) on an A100/H100/H200 size, or remove gpu.migStrategy",
    )
