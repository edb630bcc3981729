"""GP640 duplicate-gpu-driver: the GPU Operator installs a driver on nodes where AKS already installed one.

What it checks: GPU Operator driver pods (`nvidia-driver-daemonset`) on nodes of a pool whose
`gpuProfile.driver` is `Install` (nodepools.json; absent means Install), or whose driver log says the
module is already loaded (`nvidia driver module is already loaded`, `Could not unload NVIDIA driver
kernel modules, driver is in use`).

Why: AKS pools install the driver unless created with `--gpu-driver None`; the Operator's driver container
then crash-loops or its requested version is ignored.

Fix: recreate the pool with `--gpu-driver None` for the Operator to own the driver, or install the
Operator with `driver.enabled=false` (NVIDIA's AKS page: also `toolkit.enabled=false`,
`operator.runtimeClass=nvidia-container-runtime`).

Source: AKS docs nvidia-gpu-operator.md; NVIDIA cloud-native-docs gpu-operator/microsoft-aks.rst;
NVIDIA/gpu-operator issues #525, #367; checked 2026-12-02.

Failing example:

    # pool gpunp gpuProfile.driver Install + pod gpu-operator/nvidia-driver-daemonset-abcde on its node

Passing example:

    # pool created with --gpu-driver None, or the Operator installed with driver.enabled=false
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context, finding, group_by_pool, node_list, pod_ref
from gpupool.findings import Finding, Severity, plural
from gpupool.k8s import gpustack as comp

ID = "GP640"
NAME = "duplicate-gpu-driver"
SEVERITY = Severity.ERROR
READS = ("nodes", "pods", "logs")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "The GPU Operator's driver runs on nodes where AKS already installed the driver"


def check(ctx: Context) -> Iterator[Finding]:
    hits = []
    evidence: dict[str, list[str]] = {}
    for n in ctx.view.gpu_nodes:
        pods = [p for p in n.pods if ctx.view.role(p) == comp.DRIVER]
        if not pods:
            continue
        lines = [line for p in pods for line in ctx.log_lines(p, "conflict", "driverLogs")]
        driver = ctx.view.pool_driver(n.pool)
        if driver == "Install" or lines:
            hits.append(n)
            evidence[n.name] = (
                [f"Pod {pod_ref(pods[0])} on node {n.name}"]
                + (
                    [f"pool {n.pool}: gpuProfile.driver=Install (AKS installs the driver)"]
                    if driver == "Install"
                    else []
                )
                + lines
            )
    for pool, nodes in group_by_pool(hits).items():
        yield finding(
            ID,
            SEVERITY,
            f"the GPU Operator's driver runs on {plural(len(nodes), 'node')} where AKS installed the driver",
            f"pool {pool}",
            "driver",
            [f"nodes: {node_list(nodes)}", *evidence[nodes[0].name]],
            "recreate the pool with --gpu-driver None for the Operator, or set the Operator's "
            "driver.enabled=false",
            nodes=[n.name for n in nodes],
        )
