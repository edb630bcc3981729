"""GP603 device-plugin-selector-mismatch: the device plugin DaemonSet's selector misses the GPU pool.

What it checks: GPU nodes without a GPU resource and without a device plugin pod, where the DaemonSets
tolerate the taints but their `nodeSelector` or required node affinity does not match the node's labels.

Why: the Helm chart's default affinity wants NFD/GFD labels (`feature.node.kubernetes.io/pci-10de.present`,
`nvidia.com/gpu.present`) that a plain AKS node does not carry; hand-written selectors often name another
pool (`agentpool: gpunp` on a pool called `gpunp2`). The DaemonSet then schedules 0 pods there.

Fix: select on labels the pool has (`kubernetes.azure.com/accelerator: nvidia`), enable NFD/GFD, or label
the nodes the selector expects.

Source: NVIDIA/k8s-device-plugin deployments/helm values.yaml (affinity); Azure/AKS#4418;
kaito-project/kaito#1837; checked 2026-12-03.

Failing example:

    nodeSelector: {nvidia.com/gpu.present: "true"}   # no GFD on the cluster

Passing example:

    nodeSelector: {kubernetes.azure.com/accelerator: nvidia}
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context
from gpupool.doctor.rules._chain import per_pool
from gpupool.findings import Finding, Severity

ID = "GP603"
NAME = "device-plugin-selector-mismatch"
SEVERITY = Severity.ERROR
READS = ("nodes", "pods", "daemonsets")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "The device plugin DaemonSet's node selector or affinity misses a GPU pool"


def check(ctx: Context) -> Iterator[Finding]:
    yield from per_pool(ctx, ID, SEVERITY)
