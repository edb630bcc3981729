"""GP606 gpu-not-advertised: a GPU node advertises no GPU although a device plugin should serve it.

What it checks: GPU nodes without a GPU resource where the cause is none of GP601-GP605: a plugin pod runs
but its logs are not available or say nothing known; a plugin DaemonSet should cover the node but has no pod
there; or an AKS-managed GPU node (`kubernetes.azure.com/dcgm-exporter=enabled`, managementMode Managed),
whose plugin is the host service `nvidia-device-plugin.service` (no DaemonSet needed or wanted).

Why: whatever the cause, pods requesting `nvidia.com/gpu` cannot land on the node, and the cluster
autoscaler may treat it as unready (GP671).

Fix: read the plugin's logs; on managed pools look at the `UnhealthyNvidiaDevicePlugin` condition and
reimage or replace the node.

Source: AKS docs aks-managed-gpu-nodes.md (host services, conditions), checked 2026-12-02.

Failing example:

    # managed pool node: UnhealthyNvidiaDevicePlugin=True, capacity without nvidia.com/gpu

Passing example:

    # managed pool node: capacity nvidia.com/gpu: "1", no device plugin DaemonSet (fine on managed pools)
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context
from gpupool.doctor.rules._chain import per_pool
from gpupool.findings import Finding, Severity

ID = "GP606"
NAME = "gpu-not-advertised"
SEVERITY = Severity.ERROR
READS = ("nodes", "pods")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "A GPU node advertises no GPU resource although the plugin should run there"


def check(ctx: Context) -> Iterator[Finding]:
    yield from per_pool(ctx, ID, SEVERITY)
