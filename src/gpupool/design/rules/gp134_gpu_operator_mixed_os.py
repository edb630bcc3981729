"""GP134 gpu-operator-mixed-os: GPU Operator pools of one cluster on different OS SKUs.

What it checks: within one cluster, two or more pools with `gpu.driver: None` (NVIDIA GPU Operator
pools, Linux, not managed) whose OS SKUs differ (e.g. `Ubuntu` and `AzureLinux`). Reported on each
later pool whose OS differs from the first one.

Why: the AKS docs state that the NVIDIA GPU Operator "is not compatible with multiple OS versions on the
same AKS cluster": its driver containers are built per OS, so one of the pools gets no working driver.

Fix: use the same `osSku` for all GPU Operator pools of a cluster.

Source: MicrosoftDocs/azure-aks-docs articles/aks/nvidia-gpu-operator.md (commit fb060abe6a8f), as of
2026-08-21.

Failing example:

    metadata: {name: gpuop1}
    spec: {osSku: Ubuntu, gpu: {driver: None}}
    ---
    metadata: {name: gpuop2}
    spec: {osSku: AzureLinux, gpu: {driver: None}}

Passing example:

    metadata: {name: gpuop2}
    spec: {osSku: Ubuntu, gpu: {driver: None}}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool import catalog
from gpupool.design.rules._common import operator_pool
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP134"
NAME = "gpu-operator-mixed-os"
SEVERITY = Severity.WARNING
SUMMARY = "GPU Operator pools of one cluster on different OS SKUs"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    if not operator_pool(pool, ctx.size):
        return
    cluster = (pool.resource_group.lower(), pool.cluster_name.lower())
    for other in ctx.earlier_pools:
        if (other.resource_group.lower(), other.cluster_name.lower()) != cluster:
            continue
        if not operator_pool(other, catalog.vm_size(other.vm_size)):
            continue
        if other.os_sku.lower() != pool.os_sku.lower():
            yield ctx.finding(
                ID,
                SEVERITY,
                f"osSku {pool.os_sku} differs from GPU Operator pool {other.name} ({other.os_sku}) in "
                f"cluster {pool.cluster_name}: the NVIDIA GPU Operator does not support multiple OS versions "
                "in one AKS cluster",
                at=("osSku", "gpu.driver"),
                fix=f"use osSku: {other.os_sku} for every GPU Operator pool of the cluster",
                other=other.name,
            )
        return
