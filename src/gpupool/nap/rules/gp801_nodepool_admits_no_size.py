"""GP801 nodepool-admits-no-size: a NodePool whose requirements admit no VM size NAP would create.

What it checks: the NodePool's `spec.template.spec.requirements` matched against every size NAP offers that
gpupool knows (the catalog's sizes less those NAP drops, plus the GPU sizes of NAP's GPU registry), under the
NodePool's AKSNodeClass (image family, `gpu.mode`). A size is admitted when every requirement on a label the
size carries accepts its value, as Karpenter intersects requirements (NotIn and DoesNotExist accept a missing
label; keys that no size defines are custom node labels and do not filter).

Why: Karpenter launches a node only from an instance type the NodePool admits; with none, every pod that needs
this NodePool stays Pending ("no instance type satisfied resources ... and requirements"). Typical causes: a
GPU
name spelled differently from the size name (`sku-gpu-name In [A100-80GB]`: the label is `A100`), a GPU size
outside NAP's GPU registry (NCC H100 confidential sizes, NVv4), AMD sizes under `gpu.mode: Driver` (NAP
installs
drivers for NVIDIA only), a GPU size whose driver NAP does not install on the image family (RTX PRO 6000 on
AzureLinux).

Severity: error when the requirements admit GPU sizes only (a `sku-gpu-*` requirement, or `sku-family In
[N]`):
the catalog holds every GPU size AKS documents and every size of NAP's GPU registry, so none exists. Warning
otherwise: gpupool's catalog holds only a few general-purpose families, and Azure has many more. A
requirement on
a label gpupool cannot know per size (zone, region, disk or network capability) never excludes a size.

Fix: loosen the requirement (name the GPU as NAP labels it: `A100`, `H100`, `T4`, `A10`...; or select by
`karpenter.azure.com/sku-name`), pick another image family, or `gpu.mode: None` with your own driver stack
for AMD sizes. `gpupool plan` lists what each NodePool admits.

Source: Azure/karpenter-provider-azure pkg/providers/instancetype/instancetype.go (computeRequirements),
instancetypes.go (isSupported, isInstanceTypeSupportedByImageFamily, isInstanceTypeSupportedByGPUDriverMode),
pkg/utils/supported-gpus.yaml @352646f59929; kubernetes-sigs/karpenter pkg/scheduling/requirements.go
(Intersects) @226646810437; as of 2026-08-21.

Failing example:

    spec:
      template:
        spec:
          requirements:
            - key: karpenter.azure.com/sku-gpu-name
              operator: In
              values: ["A100-80GB"]

Passing example:

    spec:
      template:
        spec:
          requirements:
            - key: karpenter.azure.com/sku-gpu-name
              operator: In
              values: ["A100"]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.nap.rules._common import names
from gpupool.nap.sizes import gpu_scoped

if TYPE_CHECKING:
    from gpupool.nap.check import NapContext

ID = "GP801"
NAME = "nodepool-admits-no-size"
SEVERITY = Severity.ERROR
SUMMARY = "The NodePool's requirements admit no VM size NAP would create (its pods stay Pending)."


def check(ctx: NapContext) -> Iterator[Finding]:
    a = ctx.admitted
    if not a.none:
        return
    scoped = gpu_scoped(ctx.pool)
    severity = Severity.ERROR if scoped else Severity.WARNING
    what = "no size" if scoped else "no size of gpupool's catalog"
    msg = f"the requirements admit {what} NAP would create"
    if a.filtered:
        nc = ctx.node_class.label if ctx.node_class else "the default AKSNodeClass"
        sizes = [s for s, _ in a.filtered]
        msg += f"; {names(sizes)} match but {nc} rules them out: {a.filtered[0][1]}"
    yield ctx.finding(
        ID, severity, msg, ["spec.template.spec.requirements"],
        fix="loosen the requirements (GPU names as NAP labels them: A100, H100, T4, A10) or change the "
        "AKSNodeClass; gpupool plan lists what each NodePool admits",
    )
