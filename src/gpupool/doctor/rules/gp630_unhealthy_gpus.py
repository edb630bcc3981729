"""GP630 unhealthy-gpus: nodes whose allocatable GPUs are fewer than their capacity.

What it checks: for each GPU resource (`nvidia.com/gpu`, `nvidia.com/mig-*`), allocatable below capacity.

Why: the device plugin marks a GPU unhealthy after a critical Xid (e.g. 79 "fallen off the bus", 48, 94) and
reports it to the kubelet, which removes it from allocatable: it stays so until the plugin restarts. The node
is billed for every GPU but schedules fewer.

Fix: cordon the node and check the hardware (`nvidia-smi`, kernel log for Xid); reimage or redeploy the VM
(`az vmss reimage`/delete the instance); restart the device plugin after a transient Xid.

Source: NVIDIA/k8s-device-plugin health checks (issues #1014, #234, #2038); AKS docs gpu-health-monitoring.md;
checked 2026-12-03.

Failing example:

    capacity: {nvidia.com/gpu: "8"}   allocatable: {nvidia.com/gpu: "7"}

Passing example:

    capacity: {nvidia.com/gpu: "8"}   allocatable: {nvidia.com/gpu: "8"}
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context, finding
from gpupool.findings import Finding, Severity

ID = "GP630"
NAME = "unhealthy-gpus"
SEVERITY = Severity.ERROR
READS = ("nodes",)  # kinds it must read to conclude (doctor.engine)
SUMMARY = "A node's allocatable GPUs are fewer than its capacity (GPUs marked unhealthy)"


def check(ctx: Context) -> Iterator[Finding]:
    for n in ctx.view.gpu_nodes:
        cap, alloc = n.gpu("capacity"), n.gpu("allocatable")
        short = {k: (v, alloc.get(k, 0)) for k, v in sorted(cap.items()) if alloc.get(k, 0) < v}
        if not short:
            continue
        text = ", ".join(f"{k} {a} of {c} allocatable" for k, (c, a) in short.items())
        yield finding(
            ID,
            SEVERITY,
            f"(pool {n.pool}) {text}: the device plugin marked GPUs unhealthy",
            n.object,
            "resources",
            [f"capacity {k}={c}, allocatable {k}={a}" for k, (c, a) in short.items()],
            "cordon the node, check nvidia-smi and the kernel log for Xid errors, then reimage or replace it",
        )
