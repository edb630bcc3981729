"""GP109 mig-unsupported: a MIG instanceProfile on a GPU or size that AKS cannot partition.

What it checks: `gpu.instanceProfile` (MIG1g ... MIG7g) on a GPU VM size where AKS has no MIG:

* GPUs without MIG hardware at all (T4, V100, A10 - also the undocumented NC A10 v4 sizes -, older
  GPUs) and AMD GPUs: error, the hardware lacks the feature (NVIDIA MIG user guide, "Supported GPUs");
* GPUs with MIG hardware but no MIG on AKS's documented sizes: error;
* partial-GPU (vGPU) sizes such as `Standard_NV6ads_A10_v5` (1/6 of a GPU): error;
* sizes AKS does not document whose GPU has MIG (GB200/GB300, NCCads H100 v5) and sizes known only from
  list-skus or a declaration: warning, since AKS MIG support there is [UNVERIFIED];
* a Linux OS SKU for which AKS documents no MIG (the legacy `CBLMariner`/`Mariner` names): warning.

Windows pools are covered by GP119.

Why: "Multi-instance GPU is currently supported on NVIDIA A100, H100, and H200 series GPU VM sizes on
AKS." On other GPUs `nvidia-smi mig` fails during node provisioning, and the profile is immutable, so
the pool has to be recreated.

Fix: remove `gpu.instanceProfile` (share the GPU with time-slicing instead), or use an A100, H100 or
H200 size such as `Standard_NC24ads_A100_v4`.

Source: NVIDIA Multi-Instance GPU User Guide, "Supported GPUs" (A30, A100, H100, H200, Blackwell; read
by the audit of 2026-12-03); MicrosoftDocs/azure-aks-docs articles/aks/gpu-multi-instance.md (2026-05-22,
commit fb060abe6a8f); Azure/AgentBaker parts/linux/cloud-init/artifacts/mig-partition.sh (06836ee2301e); as of
2026-08-21.

Failing example:

    spec:
      vmSize: Standard_NC4as_T4_v3
      gpu: {instanceProfile: MIG1g}

Passing example:

    spec:
      vmSize: Standard_NC24ads_A100_v4
      gpu: {instanceProfile: MIG1g, migStrategy: Single}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.design.rules._common import size_text
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP109"
NAME = "mig-unsupported"
SEVERITY = Severity.ERROR
SUMMARY = "MIG instanceProfile on a GPU, size or OS without MIG on AKS"

_FIX = "remove gpu.instanceProfile (use time-slicing to share), or use an A100/H100/H200 size such as " \
    "Standard_NC24ads_A100_v4"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    g = pool.gpu_settings
    size = ctx.size
    if not pool.is_gpu_pool or not g.instance_profile or not ctx.is_gpu_size or pool.is_windows:
        return
    at = ("gpu.instanceProfile", "gpu")
    profile = g.instance_profile
    if not size.mig_capable:
        if size.path == "amd":
            msg = f"gpu.instanceProfile {profile} on {size_text(size)}: AMD GPUs have no (NVIDIA) MIG"
            yield ctx.finding(ID, SEVERITY, msg, at=at, fix="remove gpu.instanceProfile")
        elif size.is_fractional:
            msg = (f"gpu.instanceProfile {profile} on {size_text(size)}: a partial GPU (vGPU) cannot be "
                   "MIG-partitioned")
            yield ctx.finding(ID, SEVERITY, msg, at=at, fix=_FIX)
        elif size.gpu is not None and not size.gpu.mig_hardware:
            msg = (f"gpu.instanceProfile {profile} on {size_text(size)}: the {size.gpu.model} has no MIG at "
                   f"all (source: {catalog.mig_hardware_source()}); node provisioning fails")
            yield ctx.finding(ID, SEVERITY, msg, at=at, fix=_FIX)
        elif size.status in ("undocumented", "list-skus", "declared"):
            msg = (f"gpu.instanceProfile {profile} on {size_text(size)}: AKS documents MIG only for A100, "
                   "H100 and H200 sizes; MIG on this size is unverified")
            yield ctx.finding(ID, Severity.WARNING, msg, at=at, fix=_FIX)
        else:
            gpu = size.gpu.model if size.gpu else "this GPU"
            msg = (f"gpu.instanceProfile {profile} on {size_text(size)}: {gpu} has no MIG on AKS "
                   "(AKS supports MIG on A100, H100 and H200 sizes only); node provisioning fails and the "
                   "profile cannot be changed later")
            yield ctx.finding(ID, SEVERITY, msg, at=at, fix=_FIX)
        return
    if ctx.os is not None and ctx.os.gpu != "unsupported" and not ctx.os.mig:
        msg = (f"gpu.instanceProfile {profile} with osSku {pool.os_sku}: AKS documents no MIG for this "
               f"OS SKU ({ctx.os.source})")
        yield ctx.finding(ID, Severity.WARNING, msg, at=("osSku", *at),
                          fix="use osSku Ubuntu or AzureLinux for MIG pools")
