"""GP111 mig-strategy-none: MIG instanceProfile with migStrategy None.

What it checks: `gpu.instanceProfile` set together with `gpu.migStrategy: None` on a MIG-capable
size.

Why: AKS partitions every GPU into MIG instances, but with strategy `none` the NVIDIA device plugin
advertises whole GPUs (`nvidia.com/gpu` = number of physical GPUs) and no MIG devices: pods get a GPU
in MIG mode without the instance they need, and the partitioning is wasted. On managed GPU pools AKS's
plugin treats `None` like `Single` ([INFERRED] from Azure/AgentBaker `startNvidiaManagedExpServices`),
which is still not what the spec says.

Fix: set `gpu.migStrategy: Single` (each instance is `nvidia.com/gpu: 1`; existing manifests keep
working) or `Mixed` (`nvidia.com/mig-<profile>` names), or remove the profile.

Source: NVIDIA/k8s-device-plugin README "MIG strategies"; MicrosoftDocs/azure-aks-docs
articles/aks/gpu-multi-instance.md; Azure/AgentBaker cse_config.sh (06836ee2301e); as of 2026-08-21.

Failing example:

    spec:
      vmSize: Standard_NC24ads_A100_v4
      gpu: {instanceProfile: MIG1g, migStrategy: None}

Passing example:

    spec:
      vmSize: Standard_NC24ads_A100_v4
      gpu: {instanceProfile: MIG1g, migStrategy: Single}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity, plural

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP111"
NAME = "mig-strategy-none"
SEVERITY = Severity.WARNING
SUMMARY = "MIG profile with migStrategy None: whole GPUs exposed, MIG instances unused"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    g = pool.gpu_settings
    if not pool.is_gpu_pool or not g.instance_profile or g.mig_strategy != "None":
        return
    if ctx.size is None or not ctx.size.mig_capable:
        return  # GP109
    if g.managed:
        msg = (f"gpu.migStrategy None with gpu.instanceProfile {g.instance_profile}: on managed GPU pools "
               "AKS's device plugin then behaves like Single [INFERRED], not as written")
    else:
        msg = (f"gpu.migStrategy None with gpu.instanceProfile {g.instance_profile}: the device plugin "
               f"advertises {plural(ctx.size.gpu_devices, 'whole GPU')} in MIG mode and none of the MIG "
               "instances")
    yield ctx.finding(
        ID,
        SEVERITY,
        msg,
        at=("gpu.migStrategy", "gpu.instanceProfile", "gpu"),
        fix="set gpu.migStrategy: Single (instances as nvidia.com/gpu) or Mixed (nvidia.com/mig-<profile>)",
    )
