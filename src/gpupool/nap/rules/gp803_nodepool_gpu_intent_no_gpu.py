"""GP803 nodepool-meant-for-gpus-admits-none: a NodePool set up for GPUs whose requirements admit no GPU size.

What it checks: a NodePool that says it is for GPUs — a `limits` entry for `nvidia.com/gpu` or `amd.com/gpu`,
or a taint keyed `nvidia.com/gpu`, `amd.com/gpu` or `sku=gpu` — whose requirements admit sizes, none of which
advertises a GPU (and none that gpupool cannot tell about is a GPU size).

Why: NAP creates only the sizes the requirements admit. A GPU pod that tolerates the NodePool's taint still
finds no size with `nvidia.com/gpu` there and stays Pending; the NodePool creates CPU nodes instead, for pods
that tolerate a GPU taint. A size without GPUs advertises `nvidia.com/gpu: 0` (NAP's capacity).

Fix: select GPU sizes (`karpenter.azure.com/sku-gpu-manufacturer In [nvidia]`, `sku-family In [N]`, or
`sku-gpu-name`), or drop the GPU limit and taint if the NodePool is meant for CPU work.

Source: Azure/karpenter-provider-azure pkg/providers/instancetype/instancetype.go (computeCapacity)
@352646f59929;
as of 2026-08-21. Severity warning: what the NodePool is meant for is inferred from its limit and taint.

Failing example:

    spec:
      limits:
        nvidia.com/gpu: 8
      template:
        spec:
          requirements:
            - {key: karpenter.azure.com/sku-family, operator: In, values: [D]}

Passing example:

    spec:
      limits:
        nvidia.com/gpu: 8
      template:
        spec:
          requirements:
            - {key: karpenter.azure.com/sku-family, operator: In, values: [N]}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.nap.model import GPU_RESOURCES
from gpupool.nap.rules._common import names

if TYPE_CHECKING:
    from gpupool.nap.check import NapContext

ID = "GP803"
NAME = "nodepool-meant-for-gpus-admits-none"
SEVERITY = Severity.WARNING
SUMMARY = "A NodePool with a GPU limit or GPU taint admits only sizes without GPUs."

_GPU_TAINT_KEYS = (*GPU_RESOURCES, "sku")


def check(ctx: NapContext) -> Iterator[Finding]:
    p, a = ctx.pool, ctx.admitted
    if a.none or ctx.gpu:
        return
    limit = next((r for r in GPU_RESOURCES if r in p.limits), None)
    taint = next(
        (t for t in p.taints if t.key in _GPU_TAINT_KEYS and (t.key != "sku" or t.value == "gpu")), None
    )
    if limit is None and taint is None:
        return
    why = f"limits {limit}" if limit else f"taint {taint}"
    at = [f"spec.limits.{limit}"] if limit else ["spec.template.spec.taints"]
    yield ctx.finding(
        ID, SEVERITY,
        f"the NodePool has {why} but admits only sizes without GPUs ({names(a.sure + a.maybe)})",
        [*at, "spec.template.spec.requirements"],
        fix="select GPU sizes: karpenter.azure.com/sku-gpu-manufacturer In [nvidia] (or sku-family In [N])",
    )
