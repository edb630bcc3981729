# ruff: noqa: E501 - fixture data: log lines, FitError and API texts are kept whole
"""Write the snapshot fixtures in tests/doctor/snapshots/<case>/ (run: python tests/doctor/build_snapshots.py).

Each case is a small AKS cluster built from aks.py's objects; test_snapshots.py checks that the committed
files are exactly what this writes, and the findings doctor gives on each.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import aks
from aks import configmap, daemonset, event, kube_list, node, nodepool, pod

ROOT = Path(__file__).resolve().parent / "snapshots"
T4 = "Standard_NC4as_T4_v3"
SYS = "Standard_D4s_v5"
SKU_GPU = ("sku", "gpu", "NoSchedule")
TOL_SKU = {"effect": "NoSchedule", "key": "sku", "operator": "Equal", "value": "gpu"}
TOL_SPOT = {
    "effect": "NoSchedule",
    "key": "kubernetes.azure.com/scalesetpriority",
    "operator": "Equal",
    "value": "spot",
}
PLUGIN_IMAGE = "nvcr.io/nvidia/k8s-device-plugin:v0.18.0"
DCGM_IMAGE = "nvcr.io/nvidia/k8s/dcgm-exporter:4.2.3-4.1.3-ubuntu22.04"
TRAIN_IMAGE = "nvcr.io/nvidia/pytorch:25.01-py3"
GPU1 = {"nvidia.com/gpu": "1"}

PLUGIN_OK = """I1202 09:41:12.051839       1 main.go:239] "Starting NVIDIA Device Plugin" version=<
	3c9ffca9
	commit: 3c9ffca9491f0d2d362a7064138dfcd71bb57592
 >
I1202 09:41:12.051881       1 main.go:242] Starting FS watcher for /var/lib/kubelet/device-plugins
I1202 09:41:12.051912       1 main.go:249] Starting OS watcher.
I1202 09:41:12.052133       1 main.go:264] Starting Plugins.
I1202 09:41:12.052150       1 main.go:321] Loading configuration.
I1202 09:41:12.052690       1 main.go:346] Updating config with default resource matching patterns.
I1202 09:41:12.052810       1 main.go:360] Retrieving plugins.
I1202 09:41:12.081526       1 server.go:198] Starting GRPC server for 'nvidia.com/gpu'
I1202 09:41:12.082301       1 server.go:142] Starting to serve 'nvidia.com/gpu' on /var/lib/kubelet/device-plugins/nvidia-gpu.sock
I1202 09:41:12.085123       1 server.go:149] Registered device plugin for 'nvidia.com/gpu' with Kubelet
"""
PLUGIN_NO_DEVICES = """I1202 09:41:12.051839       1 main.go:239] "Starting NVIDIA Device Plugin" version=<
	3c9ffca9
	commit: 3c9ffca9491f0d2d362a7064138dfcd71bb57592
 >
I1202 09:41:12.051881       1 main.go:242] Starting FS watcher for /var/lib/kubelet/device-plugins
I1202 09:41:12.051912       1 main.go:249] Starting OS watcher.
I1202 09:41:12.052133       1 main.go:264] Starting Plugins.
I1202 09:41:12.052150       1 main.go:321] Loading configuration.
I1202 09:41:12.052690       1 main.go:346] Updating config with default resource matching patterns.
I1202 09:41:12.052810       1 main.go:360] Retrieving plugins.
E1202 09:41:12.052977       1 factory.go:112] Incompatible strategy detected auto
E1202 09:41:12.052990       1 factory.go:113] If this is a GPU node, did you configure the NVIDIA Container Toolkit?
E1202 09:41:12.052996       1 factory.go:114] You can check the prerequisites at: https://github.com/NVIDIA/k8s-device-plugin#prerequisites
E1202 09:41:12.053001       1 factory.go:115] You can learn how to set the runtime at: https://github.com/NVIDIA/k8s-device-plugin#quick-start
E1202 09:41:12.053005       1 factory.go:116] If this is not a GPU node, you should set up a toleration or nodeSelector to only deploy this plugin on GPU nodes
I1202 09:41:12.053013       1 main.go:381] No devices found. Waiting indefinitely.
"""
PLUGIN_NVML = """2026/12/02 09:41:12 Starting FS watcher.
2026/12/02 09:41:12 Starting OS watcher.
2026/12/02 09:41:12 Starting Plugins.
2026/12/02 09:41:12 Loading configuration.
2026/12/02 09:41:12 Initializing NVML.
2026/12/02 09:41:12 Failed to initialize NVML: could not load NVML library.
2026/12/02 09:41:12 If this is a GPU node, did you set the docker default runtime to `nvidia`?
2026/12/02 09:41:12 You can check the prerequisites at: https://github.com/NVIDIA/k8s-device-plugin#prerequisites
2026/12/02 09:41:12 You can learn how to set the runtime at: https://github.com/NVIDIA/k8s-device-plugin#quick-start
2026/12/02 09:41:12 If this is not a GPU node, you should set up a toleration or nodeSelector to only deploy this plugin on GPU nodes
2026/12/02 09:41:12 Error: failed to initialize NVML: could not load NVML library
"""
PLUGIN_BAD_CONFIG = """I1202 09:41:12.051839       1 main.go:239] "Starting NVIDIA Device Plugin" version=<
	3c9ffca9
	commit: 3c9ffca9491f0d2d362a7064138dfcd71bb57592
 >
I1202 09:41:12.052150       1 main.go:321] Loading configuration.
E1202 09:41:12.052406       1 main.go:173] error starting plugins: unable to load config: unable to finalize config: unable to parse config file: error parsing config file: unmarshal error: error unmarshaling JSON: while decoding JSON: number of replicas must be >= 2
"""
DRIVER_CONFLICT = """========== NVIDIA Software Installer ==========
Starting installation of NVIDIA driver version 570.172.08 for Linux kernel version 6.8.0-1041-azure

Stopping NVIDIA persistence daemon...
Unloading NVIDIA driver kernel modules...
nvidia_uvm           1982464  0
nvidia              11460608  1 nvidia_uvm
Could not unload NVIDIA driver kernel modules, driver is in use
Stopping NVIDIA persistence daemon...
"""


def plugin_ds(
    desired: int,
    *,
    tolerations: list[dict] | None = None,
    selector: dict | None = None,
    ns: str = "gpu-resources",
) -> dict:
    return daemonset(
        ns,
        "nvidia-device-plugin-daemonset",
        image=PLUGIN_IMAGE,
        container="nvidia-device-plugin-ctr",
        selector_label={"name": "nvidia-device-plugin-ds"},
        tolerations=tolerations if tolerations is not None else [TOL_SKU],
        node_selector=selector,
        env=[{"name": "FAIL_ON_INIT_ERROR", "value": "false"}],
        desired=desired,
    )


def plugin_pod(node: str, suffix: str, ns: str = "gpu-resources", **kw: Any) -> dict:
    return pod(
        ns,
        f"nvidia-device-plugin-daemonset-{suffix}",
        image=PLUGIN_IMAGE,
        node=node,
        owner=("DaemonSet", "nvidia-device-plugin-daemonset"),
        container="nvidia-device-plugin-ctr",
        labels={
            "controller-revision-hash": "6d8b5f7c9d",
            "name": "nvidia-device-plugin-ds",
            "pod-template-generation": "1",
        },
        tolerations=[TOL_SKU],
        priority=2000001000,
        priority_class="system-node-critical",
        **kw,
    )


def dcgm_ds(desired: int, tolerations: list[dict] | None = None) -> dict:
    return daemonset(
        "gpu-resources",
        "dcgm-exporter",
        image=DCGM_IMAGE,
        container="dcgm-exporter",
        selector_label={"app.kubernetes.io/name": "dcgm-exporter"},
        tolerations=tolerations if tolerations is not None else [TOL_SKU],
        node_selector={"kubernetes.azure.com/accelerator": "nvidia"},
        desired=desired,
        priority_class=None,
    )


def dcgm_pod(node: str, suffix: str) -> dict:
    return pod(
        "gpu-resources",
        f"dcgm-exporter-{suffix}",
        image=DCGM_IMAGE,
        node=node,
        owner=("DaemonSet", "dcgm-exporter"),
        container="dcgm-exporter",
        labels={"app.kubernetes.io/name": "dcgm-exporter", "controller-revision-hash": "7c6f9d5b8"},
        tolerations=[TOL_SKU],
    )


def train_pod(
    name: str, node: str | None, *, tolerate: bool = True, gpu: dict | None = None, **kw: Any
) -> dict:
    req = gpu or GPU1
    return pod(
        "ml",
        name,
        image=kw.pop("image", TRAIN_IMAGE),
        node=node,
        owner=("ReplicaSet", kw.pop("rs", "trainer-7d9c6b5f4")),
        requests={"cpu": "2", "memory": "8Gi", **req},
        limits=dict(req),
        tolerations=kw.pop("tolerations", [TOL_SKU] if tolerate else []),
        phase="Running" if node else "Pending",
        **kw,
    )


def system_cluster(n: int = 2) -> tuple[list[dict], list[dict]]:
    nodes = [node("nodepool1", i, SYS, mode="system") for i in range(n)]
    pods = [
        pod(
            "kube-system",
            f"coredns-6d5f8c8b59-{s}",
            image="mcr.microsoft.com/oss/v2/kubernetes/coredns:v1.12.1-1",
            node=nodes[i % n]["metadata"]["name"],
            owner=("ReplicaSet", "coredns-6d5f8c8b59"),
            requests={"cpu": "100m", "memory": "70Mi"},
            limits={"memory": "500Mi"},
            container="coredns",
            priority=2000000000,
            priority_class="system-cluster-critical",
        )
        for i, s in enumerate(["8kq2x", "vj4tn"])
    ]
    return nodes, pods


def fit(n: int, parts: str, pre: str) -> str:
    return f"0/{n} nodes are available: {parts}. preemption: 0/{n} nodes are available: {pre}."


Case = dict[str, Any]


def healthy_self_managed() -> Case:
    sysn, pods = system_cluster()
    gpu = [
        node(
            "gpunp",
            i,
            T4,
            gpus={"nvidia.com/gpu": 1},
            taints=[SKU_GPU],
            labels=aks.gfd_labels(T4, "580.159.04", "13.0", 1),
        )
        for i in range(2)
    ]
    logs = {}
    for i, n in enumerate(sysn + gpu):
        name = n["metadata"]["name"]
        pods.append(plugin_pod(name, f"p{i}x7k"))
        logs[
            ("gpu-resources", f"nvidia-device-plugin-daemonset-p{i}x7k", "nvidia-device-plugin-ctr", False)
        ] = (
            PLUGIN_OK if n in gpu else PLUGIN_NO_DEVICES  # the AKS doc manifest runs on CPU nodes too: noise
        )
    for i, n in enumerate(gpu):
        pods.append(dcgm_pod(n["metadata"]["name"], f"d{i}q9z"))
        pods.append(train_pod(f"trainer-7d9c6b5f4-{i}abcd", n["metadata"]["name"]))
    return {
        "nodes": sysn + gpu,
        "pods": pods,
        "daemonsets": [plugin_ds(4), dcgm_ds(2)],
        "events": [],
        "nodepools": [
            nodepool("nodepool1", SYS, 2, mode="System"),
            nodepool("gpunp", T4, 2, taints=["sku=gpu:NoSchedule"], autoscale=(1, 3)),
        ],
        "configmaps": [ca_status_yaml(3, 1, 3)],
        "logs": logs,
    }


def ca_status_yaml(
    gpu_total: int,
    gpu_min: int,
    gpu_max: int,
    *,
    scale_up: str = "NoActivity",
    resource_unready: int = 0,
    backoff: str | None = None,
) -> dict:
    group = f"aks-gpunp-{aks.CLUSTER_HASH}-vmss"
    status = f"""time: 2026-12-02 09:45:11.228431092 +0000 UTC
autoscalerStatus: Running
clusterWide:
  health:
    status: Healthy
    nodeCounts:
      registered:
        total: {gpu_total + 2}
        ready: {gpu_total + 2 - resource_unready}
        notStarted: 0
      longUnregistered: 0
      unregistered: 0
      unready:
        total: {resource_unready}
        resourceUnready: {resource_unready}
    lastProbeTime: "2026-12-02T09:45:11.228431092Z"
    lastTransitionTime: "2026-11-30T08:20:41.008562374Z"
  scaleUp:
    status: {scale_up}
    lastProbeTime: "2026-12-02T09:45:11.228431092Z"
    lastTransitionTime: "2026-12-02T09:30:02.519263701Z"
  scaleDown:
    status: NoCandidates
    lastProbeTime: "2026-12-02T09:45:11.228431092Z"
    lastTransitionTime: "2026-12-02T09:30:02.519263701Z"
nodeGroups:
- name: {group}
  health:
    status: Healthy
    nodeCounts:
      registered:
        total: {gpu_total}
        ready: {gpu_total - resource_unready}
        notStarted: 0
      longUnregistered: 0
      unregistered: 0
    cloudProviderTarget: {gpu_total}
    minSize: {gpu_min}
    maxSize: {gpu_max}
    lastProbeTime: "2026-12-02T09:45:11.228431092Z"
    lastTransitionTime: "2026-11-30T08:20:41.008562374Z"
  scaleUp:
    status: {"Backoff" if backoff else scale_up}
"""
    if backoff:
        status += f"""    backoffInfo:
      errorCode: {backoff.split(":")[0]}
      errorMessage: "{backoff.split(":", 1)[1].strip()}"
"""
    status += """    lastProbeTime: "2026-12-02T09:45:11.228431092Z"
    lastTransitionTime: "2026-12-02T09:30:02.519263701Z"
  scaleDown:
    status: NoCandidates
    lastProbeTime: "2026-12-02T09:45:11.228431092Z"
"""
    return configmap(
        "kube-system",
        "cluster-autoscaler-status",
        {"status": status},
        {"cluster-autoscaler.kubernetes.io/last-updated": "2026-12-02 09:45:11.228431092 +0000 UTC"},
    )


def ca_status_text(gpu_total: int, gpu_max: int) -> dict:
    group = f"aks-gpunp-{aks.CLUSTER_HASH}-vmss"
    status = f"""Cluster-autoscaler status at 2026-12-02 09:45:11.228431092 +0000 UTC:
Cluster-wide:
  Health:      Healthy (ready={gpu_total + 2} unready=0 (resourceUnready=0) notStarted=0 longNotStarted=0 registered={gpu_total + 2} longUnregistered=0)
               LastProbeTime:      2026-12-02 09:45:11.018235 +0000 UTC m=+263421.118237810
               LastTransitionTime: 2026-11-30 08:20:41.008562374 +0000 UTC m=+12.108565141
  ScaleUp:     NoActivity (ready={gpu_total + 2} registered={gpu_total + 2})
               LastProbeTime:      2026-12-02 09:45:11.018235 +0000 UTC m=+263421.118237810
               LastTransitionTime: 2026-11-30 08:20:41.008562374 +0000 UTC m=+12.108565141
  ScaleDown:   NoCandidates (candidates=0)
               LastProbeTime:      2026-12-02 09:45:11.018235 +0000 UTC m=+263421.118237810
               LastTransitionTime: 2026-11-30 08:20:41.008562374 +0000 UTC m=+12.108565141

NodeGroups:
  Name:        {group}
  Health:      Healthy (ready={gpu_total} unready=0 (resourceUnready=0) notStarted=0 longNotStarted=0 registered={gpu_total} longUnregistered=0 cloudProviderTarget={gpu_total} (minSize=1, maxSize={gpu_max}))
               LastProbeTime:      2026-12-02 09:45:11.018235 +0000 UTC m=+263421.118237810
               LastTransitionTime: 2026-11-30 08:20:41.008562374 +0000 UTC m=+12.108565141
  ScaleUp:     NoActivity (ready={gpu_total} cloudProviderTarget={gpu_total})
               LastProbeTime:      2026-12-02 09:45:11.018235 +0000 UTC m=+263421.118237810
               LastTransitionTime: 2026-11-30 08:20:41.008562374 +0000 UTC m=+12.108565141
  ScaleDown:   NoCandidates (candidates=0)
               LastProbeTime:      2026-12-02 09:45:11.018235 +0000 UTC m=+263421.118237810
               LastTransitionTime: 2026-11-30 08:20:41.008562374 +0000 UTC m=+12.108565141

"""
    return configmap(
        "kube-system",
        "cluster-autoscaler-status",
        {"status": status},
        {"cluster-autoscaler.kubernetes.io/last-updated": "2026-12-02 09:45:11.018235 +0000 UTC"},
    )


def healthy_managed() -> Case:
    sysn, pods = system_cluster()
    gpu = [
        node(
            "gpumanaged",
            i,
            T4,
            gpus={"nvidia.com/gpu": 1},
            taints=[SKU_GPU],
            labels={"kubernetes.azure.com/dcgm-exporter": "enabled"},
            conditions=[
                aks.condition(
                    "UnhealthyNvidiaDevicePlugin",
                    "False",
                    "HealthyNvidiaDevicePlugin",
                    "NVIDIA device plugin service is active",
                )
            ],
        )
        for i in range(2)
    ]
    for i, n in enumerate(gpu):
        pods.append(train_pod(f"trainer-7d9c6b5f4-{i}mnop", n["metadata"]["name"]))
    return {
        "nodes": sysn + gpu,
        "pods": pods,
        "daemonsets": [],
        "events": [],
        "nodepools": [
            nodepool("nodepool1", SYS, 2, mode="System"),
            nodepool("gpumanaged", T4, 2, taints=["sku=gpu:NoSchedule"], driver="Install", managed=True),
        ],
    }


def _broken_pool(**node_kw: Any) -> list[dict]:
    return [node("gpunp", i, T4, taints=[SKU_GPU], **node_kw) for i in range(2)]


def _dcgm_pods(nodes: list[dict]) -> list[dict]:
    return [dcgm_pod(n["metadata"]["name"], f"x{i}dc") for i, n in enumerate(nodes)]


def no_device_plugin() -> Case:
    sysn, pods = system_cluster()
    gpu = _broken_pool()
    msg = fit(4, "4 Insufficient nvidia.com/gpu", "4 No preemption victims found for incoming pod")
    pods.append(train_pod("trainer-7d9c6b5f4-x2p9q", None, pending_message=msg))
    return {
        "nodes": sysn + gpu,
        "pods": pods,
        "daemonsets": [],
        "events": [
            event("ml", "Pod", "trainer-7d9c6b5f4-x2p9q", "FailedScheduling", msg, count=14),
            event(
                "ml",
                "Pod",
                "trainer-7d9c6b5f4-x2p9q",
                "NotTriggerScaleUp",
                "pod didn't trigger scale-up: 1 Insufficient nvidia.com/gpu",
                type_="Normal",
                component="cluster-autoscaler",
                count=31,
            ),
        ],
        "nodepools": [
            nodepool("nodepool1", SYS, 2, mode="System"),
            nodepool("gpunp", T4, 2, taints=["sku=gpu:NoSchedule"], autoscale=(1, 3)),
        ],
        "configmaps": [ca_status_yaml(2, 1, 3, resource_unready=2)],
    }


def plugin_untolerated_spot() -> Case:
    sysn, pods = system_cluster()
    gpu = [node("spotgpu", i, T4, taints=[SKU_GPU], spot=True) for i in range(2)]
    msg = fit(4, "4 Insufficient nvidia.com/gpu", "4 No preemption victims found for incoming pod")
    pods.append(
        train_pod(
            "trainer-7d9c6b5f4-s8v2m",
            None,
            pending_message=msg,
            tolerations=[TOL_SKU, TOL_SPOT],
            tolerate=False,
        )
    )
    return {
        "nodes": sysn + gpu,
        "pods": pods + _dcgm_pods(gpu),
        "daemonsets": [plugin_ds(0), dcgm_ds(2, [TOL_SKU, TOL_SPOT])],
        "events": [event("ml", "Pod", "trainer-7d9c6b5f4-s8v2m", "FailedScheduling", msg, count=5)],
        "nodepools": [
            nodepool("nodepool1", SYS, 2, mode="System"),
            nodepool("spotgpu", T4, 2, taints=["sku=gpu:NoSchedule"], spot=True),
        ],
    }


def plugin_selector_miss() -> Case:
    sysn, pods = system_cluster()
    gpu = _broken_pool()
    helm_tol = [
        {"key": "CriticalAddonsOnly", "operator": "Exists"},
        {"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"},
        TOL_SKU,
    ]
    ds = plugin_ds(
        0, tolerations=helm_tol, selector={"nvidia.com/gpu.present": "true"}, ns="nvidia-device-plugin"
    )
    return {
        "nodes": sysn + gpu,
        "pods": pods + _dcgm_pods(gpu),
        "daemonsets": [ds, dcgm_ds(2)],
        "events": [],
    }


def plugin_crashloop() -> Case:
    sysn, pods = system_cluster()
    gpu = _broken_pool()
    logs = {}
    for i, n in enumerate(gpu):
        name = n["metadata"]["name"]
        suffix = f"c{i}r5t"
        pods.append(
            plugin_pod(
                name,
                suffix,
                restarts=7,
                waiting=(
                    "CrashLoopBackOff",
                    f"back-off 5m0s restarting failed container=nvidia-device-plugin-ctr pod=nvidia-device-plugin-daemonset-{suffix}_gpu-resources",
                ),
                last_terminated=("Error", "", 1),
            )
        )
        logs[
            ("gpu-resources", f"nvidia-device-plugin-daemonset-{suffix}", "nvidia-device-plugin-ctr", True)
        ] = PLUGIN_BAD_CONFIG
    cm = configmap(
        "gpu-resources",
        "nvidia-device-plugin-config",
        {
            "config.yaml": "version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 1\n"
        },
    )
    return {
        "nodes": sysn + gpu,
        "pods": pods + _dcgm_pods(gpu),
        "daemonsets": [plugin_ds(2), dcgm_ds(2)],
        "events": [],
        "configmaps": [cm],
        "logs": logs,
    }


def driver_missing() -> Case:
    sysn, pods = system_cluster()
    gpu = _broken_pool()
    logs = {}
    pods.append(plugin_pod(gpu[0]["metadata"]["name"], "n0d7w"))
    logs[("gpu-resources", "nvidia-device-plugin-daemonset-n0d7w", "nvidia-device-plugin-ctr", False)] = (
        PLUGIN_NO_DEVICES
    )
    pods.append(
        plugin_pod(
            gpu[1]["metadata"]["name"],
            "n1m3k",
            restarts=4,
            waiting=("CrashLoopBackOff", "back-off 1m20s restarting failed container"),
            last_terminated=("Error", "", 1),
        )
    )
    logs[("gpu-resources", "nvidia-device-plugin-daemonset-n1m3k", "nvidia-device-plugin-ctr", True)] = (
        PLUGIN_NVML
    )
    return {
        "nodes": sysn + gpu,
        "pods": pods + _dcgm_pods(gpu),
        "daemonsets": [plugin_ds(2), dcgm_ds(2)],
        "events": [],
        "nodepools": [
            nodepool("nodepool1", SYS, 2, mode="System"),
            nodepool("gpunp", T4, 2, taints=["sku=gpu:NoSchedule"], driver="None"),
        ],
        "logs": logs,
    }


def _working_gpu_pool(
    n: int = 2, pool: str = "gpunp", vm: str = T4, **kw: Any
) -> tuple[list[dict], list[dict], dict]:
    gpus = kw.pop("gpus", {"nvidia.com/gpu": 1})
    gpu = [node(pool, i, vm, gpus=gpus, taints=[SKU_GPU], **kw) for i in range(n)]
    pods, logs = [], {}
    for i, nd in enumerate(gpu):
        pods.append(
            plugin_pod(
                nd["metadata"]["name"],
                f"{pool[:3]}{i}w",
            )
        )
        logs[
            (
                "gpu-resources",
                f"nvidia-device-plugin-daemonset-{pool[:3]}{i}w",
                "nvidia-device-plugin-ctr",
                False,
            )
        ] = PLUGIN_OK
        pods.append(dcgm_pod(nd["metadata"]["name"], f"{pool[:3]}{i}d"))
    return gpu, pods, logs


def pending_untolerated_taint() -> Case:
    sysn, pods = system_cluster()
    gpu, gp, logs = _working_gpu_pool()
    msg = fit(
        4,
        "2 Insufficient nvidia.com/gpu, 2 node(s) had untolerated taint {sku: gpu}",
        "2 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling",
    )
    pending = [
        train_pod(
            f"inference-5f7b9c6d8-{s}", None, tolerate=False, pending_message=msg, rs="inference-5f7b9c6d8"
        )
        for s in ("h2k4p", "q8w3e")
    ]
    return {
        "nodes": sysn + gpu,
        "pods": pods + gp + pending,
        "daemonsets": [plugin_ds(2), dcgm_ds(2)],
        "events": [
            e
            for p in pending
            for e in (
                event("ml", "Pod", p["metadata"]["name"], "FailedScheduling", msg, count=3),
                event(
                    "ml",
                    "Pod",
                    p["metadata"]["name"],
                    "NotTriggerScaleUp",
                    "pod didn't trigger scale-up: 1 node(s) had untolerated taint {sku: gpu}",
                    type_="Normal",
                    component="cluster-autoscaler",
                    count=12,
                ),
            )
        ],
        "nodepools": [
            nodepool("nodepool1", SYS, 2, mode="System"),
            nodepool("gpunp", T4, 2, taints=["sku=gpu:NoSchedule"], autoscale=(1, 3)),
        ],
        "configmaps": [ca_status_yaml(2, 1, 3)],
        "logs": logs,
    }


def pending_max_size() -> Case:
    sysn, pods = system_cluster()
    gpu, gp, logs = _working_gpu_pool(3, kubelet="v1.35.4")
    for n in sysn:
        n["status"]["nodeInfo"]["kubeletVersion"] = "v1.35.4"
    running = [train_pod(f"trainer-7d9c6b5f4-r{i}xyz", n["metadata"]["name"]) for i, n in enumerate(gpu)]
    # 1.35: the DRA PostFilter's words before "preemption:", and nodes that can never hold the request
    # (no GPU at all) are "not helpful" (knowledge base section 1.5)
    msg = fit(
        5,
        "3 Insufficient cpu, 5 Insufficient nvidia.com/gpu",
        "2 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod",
    )
    msg = msg.replace(". preemption: ", ". no new claims to deallocate, preemption: ")
    pending = train_pod("trainer-7d9c6b5f4-p4n6m", None, pending_message=msg)
    return {
        "nodes": sysn + gpu,
        "pods": pods + gp + running + [pending],
        "daemonsets": [plugin_ds(3), dcgm_ds(3)],
        "events": [
            event("ml", "Pod", "trainer-7d9c6b5f4-p4n6m", "FailedScheduling", msg, count=9),
            event(
                "ml",
                "Pod",
                "trainer-7d9c6b5f4-p4n6m",
                "NotTriggerScaleUp",
                "pod didn't trigger scale-up: 1 max node group size reached",
                type_="Normal",
                component="cluster-autoscaler",
                count=20,
            ),
        ],
        "nodepools": [
            nodepool("nodepool1", SYS, 2, mode="System"),
            nodepool("gpunp", T4, 3, taints=["sku=gpu:NoSchedule"], autoscale=(1, 3)),
        ],
        "configmaps": [ca_status_text(3, 3)],
        "logs": logs,
    }


A100 = "Standard_NC24ads_A100_v4"


def mig_single_mismatch() -> Case:
    sysn, pods = system_cluster()
    lab = aks.gfd_labels(
        A100,
        "580.159.04",
        "13.0",
        7,
        {"nvidia.com/mig.strategy": "single", "nvidia.com/gpu.product": "NVIDIA-A100-80GB-PCIe-MIG-1g.10gb"},
    )
    gpu, gp, logs = _working_gpu_pool(1, "a100mig", A100, gpus={"nvidia.com/gpu": 7}, labels=lab)
    running = [train_pod("notebook-6c8d9f7b5-a1b2c", gpu[0]["metadata"]["name"], rs="notebook-6c8d9f7b5")]
    msg = fit(3, "3 Insufficient nvidia.com/mig-1g.10gb", "3 No preemption victims found for incoming pod")
    pending = train_pod(
        "mig-job-8f6d4c2b1-k3j5h",
        None,
        gpu={"nvidia.com/mig-1g.10gb": "1"},
        pending_message=msg,
        rs="mig-job-8f6d4c2b1",
    )
    return {
        "nodes": sysn + gpu,
        "pods": pods + gp + running + [pending],
        "daemonsets": [plugin_ds(1), dcgm_ds(1)],
        "events": [event("ml", "Pod", "mig-job-8f6d4c2b1-k3j5h", "FailedScheduling", msg, count=4)],
        "nodepools": [
            nodepool("nodepool1", SYS, 2, mode="System"),
            nodepool("a100mig", A100, 1, taints=["sku=gpu:NoSchedule"], mig_profile="MIG1g"),
        ],
        "logs": logs,
    }


def mig_mixed_unadvertised() -> Case:
    sysn, pods = system_cluster()
    lab = aks.gfd_labels(
        A100,
        "580.159.04",
        "13.0",
        1,
        {"nvidia.com/mig.strategy": "mixed", "nvidia.com/mig-1g.10gb.count": "7"},
    )
    gpu, gp, logs = _working_gpu_pool(
        2, "a100mig", A100, gpus={"nvidia.com/gpu": 0, "nvidia.com/mig-1g.10gb": 7}, labels=lab
    )
    gpu[1]["metadata"]["labels"]["nvidia.com/mig.config"] = "all-3g.40gb"
    gpu[1]["metadata"]["labels"]["nvidia.com/mig.config.state"] = "failed"
    running = [
        train_pod(
            f"notebook-6c8d9f7b5-m{i}q",
            n["metadata"]["name"],
            gpu={"nvidia.com/mig-1g.10gb": "1"},
            rs="notebook-6c8d9f7b5",
        )
        for i, n in enumerate(gpu)
    ]
    msg = fit(4, "4 Insufficient nvidia.com/mig-1g.5gb", "4 No preemption victims found for incoming pod")
    pending = train_pod(
        "mig-job-8f6d4c2b1-z9x8c",
        None,
        gpu={"nvidia.com/mig-1g.5gb": "1"},
        pending_message=msg,
        rs="mig-job-8f6d4c2b1",
    )
    return {
        "nodes": sysn + gpu,
        "pods": pods + gp + running + [pending],
        "daemonsets": [plugin_ds(2), dcgm_ds(2)],
        "events": [event("ml", "Pod", "mig-job-8f6d4c2b1-z9x8c", "FailedScheduling", msg, count=2)],
        "logs": logs,
    }


ND = "Standard_ND96asr_v4"


def gpu_health() -> Case:
    sysn, pods = system_cluster()
    gpu, gp, logs = _working_gpu_pool(2, "ndv4", ND, gpus={"nvidia.com/gpu": 8})
    gpu[0]["status"]["allocatable"]["nvidia.com/gpu"] = "7"
    gpu[1]["status"]["conditions"].insert(
        10, aks.condition("XIDErrors", "True", "XIDErrors", "XID errors present in kernel log")
    )
    gpu[1]["status"]["conditions"].insert(
        10,
        aks.condition("GPUMissing", "False", "NoGPUMissing", "Observed GPU count matches expected GPU count"),
    )
    running = [
        train_pod(f"trainer-7d9c6b5f4-h{i}lt", n["metadata"]["name"], gpu={"nvidia.com/gpu": "4"})
        for i, n in enumerate(gpu)
    ]
    n1 = gpu[1]["metadata"]["name"]
    return {
        "nodes": sysn + gpu,
        "pods": pods + gp + running,
        "daemonsets": [plugin_ds(2), dcgm_ds(2)],
        "events": [
            event(
                "",
                "Node",
                n1,
                "XIDErrors",
                "NVRM: Xid (PCI:0001:00:00): 79, pid=0, name=python3, GPU has fallen off the bus.",
                component="custom-plugin-monitor",
                host=n1,
                count=1,
            ),
            event(
                "",
                "Node",
                n1,
                "XIDErrors",
                "NVRM: Xid (PCI:0002:00:00): 13, pid=48211, name=python3, Graphics Exception: ESR 0x514648=0x1000",
                component="custom-plugin-monitor",
                host=n1,
                count=3,
            ),
        ],
        "nodepools": [
            nodepool("nodepool1", SYS, 2, mode="System"),
            nodepool("ndv4", ND, 2, taints=["sku=gpu:NoSchedule"], driver="Install"),
        ],
        "logs": logs,
    }


def stack_conflict() -> Case:
    sysn, pods = system_cluster()
    gpu, gp, logs = _working_gpu_pool(2)
    op_tol = [{"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"}, TOL_SKU]
    op_plugin = daemonset(
        "gpu-operator",
        "nvidia-device-plugin-daemonset",
        image="nvcr.io/nvidia/k8s-device-plugin:v0.17.1",
        container="nvidia-device-plugin",
        selector_label={"app": "nvidia-device-plugin-daemonset"},
        tolerations=op_tol,
        node_selector={"nvidia.com/gpu.deploy.device-plugin": "true"},
        desired=2,
    )
    driver = daemonset(
        "gpu-operator",
        "nvidia-driver-daemonset",
        image="nvcr.io/nvidia/driver:570.172.08-ubuntu24.04",
        container="nvidia-driver-ctr",
        selector_label={"app": "nvidia-driver-daemonset"},
        tolerations=op_tol,
        node_selector={"nvidia.com/gpu.deploy.driver": "true"},
        desired=2,
        ready=0,
    )
    extra = []
    for i, n in enumerate(gpu):
        name = n["metadata"]["name"]
        n["metadata"]["labels"]["nvidia.com/gpu.deploy.device-plugin"] = "true"
        n["metadata"]["labels"]["nvidia.com/gpu.deploy.driver"] = "true"
        extra.append(
            pod(
                "gpu-operator",
                f"nvidia-device-plugin-daemonset-o{i}p2",
                image="nvcr.io/nvidia/k8s-device-plugin:v0.17.1",
                node=name,
                owner=("DaemonSet", "nvidia-device-plugin-daemonset"),
                container="nvidia-device-plugin",
                labels={"app": "nvidia-device-plugin-daemonset"},
                tolerations=op_tol,
            )
        )
        extra.append(
            pod(
                "gpu-operator",
                f"nvidia-driver-daemonset-v{i}c8x",
                image="nvcr.io/nvidia/driver:570.172.08-ubuntu24.04",
                node=name,
                owner=("DaemonSet", "nvidia-driver-daemonset"),
                container="nvidia-driver-ctr",
                labels={"app": "nvidia-driver-daemonset"},
                tolerations=op_tol,
                restarts=12,
                waiting=("CrashLoopBackOff", "back-off 5m0s restarting failed container"),
                last_terminated=("Error", "", 1),
            )
        )
        logs[("gpu-operator", f"nvidia-driver-daemonset-v{i}c8x", "nvidia-driver-ctr", True)] = (
            DRIVER_CONFLICT
        )
    running = [train_pod(f"trainer-7d9c6b5f4-c{i}fl", n["metadata"]["name"]) for i, n in enumerate(gpu)]
    return {
        "nodes": sysn + gpu,
        "pods": pods + gp + extra + running,
        "daemonsets": [plugin_ds(2), dcgm_ds(2), op_plugin, driver],
        "events": [],
        "nodepools": [
            nodepool("nodepool1", SYS, 2, mode="System"),
            nodepool("gpunp", T4, 2, taints=["sku=gpu:NoSchedule"], driver="Install"),
        ],
        "logs": logs,
    }


def time_slicing_not_applied() -> Case:
    sysn, pods = system_cluster()
    gpu, gp, logs = _working_gpu_pool(2, labels=aks.gfd_labels(T4, "580.159.04", "13.0", 1))
    running = [train_pod(f"trainer-7d9c6b5f4-t{i}sl", n["metadata"]["name"]) for i, n in enumerate(gpu)]
    cm = configmap(
        "gpu-resources",
        "time-slicing-config",
        {
            "any": "version: v1\nflags:\n  migStrategy: none\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 4\n"
        },
    )
    return {
        "nodes": sysn + gpu,
        "pods": pods + gp + running,
        "daemonsets": [plugin_ds(2), dcgm_ds(2)],
        "events": [],
        "configmaps": [cm],
        "logs": logs,
    }


def dcgm_misses_spot() -> Case:
    sysn, pods = system_cluster()
    gpu = [node("spotgpu", i, T4, gpus={"nvidia.com/gpu": 1}, taints=[SKU_GPU], spot=True) for i in range(2)]
    logs = {}
    for i, n in enumerate(gpu):
        pods.append(plugin_pod(n["metadata"]["name"], f"s{i}pt"))
        logs[
            ("gpu-resources", f"nvidia-device-plugin-daemonset-s{i}pt", "nvidia-device-plugin-ctr", False)
        ] = PLUGIN_OK
        pods.append(train_pod(f"trainer-7d9c6b5f4-s{i}gp", n["metadata"]["name"], tolerations=[TOL_SPOT]))
    return {
        "nodes": sysn + gpu,
        "pods": pods,
        "daemonsets": [plugin_ds(2, tolerations=[TOL_SKU, TOL_SPOT]), dcgm_ds(0)],
        "events": [],
        "nodepools": [
            nodepool("nodepool1", SYS, 2, mode="System"),
            nodepool("spotgpu", T4, 2, taints=["sku=gpu:NoSchedule"], spot=True),
        ],
        "logs": logs,
    }


A10 = "Standard_NV36ads_A10_v5"


def cuda_too_new() -> Case:
    sysn, pods = system_cluster()
    gpu, gp, logs = _working_gpu_pool(1, "a10", A10, labels=aks.gfd_labels(A10, "570.211.01", "12.8", 1))
    image = "nvcr.io/nvidia/cuda:13.1.0-runtime-ubuntu24.04"
    refusal = (
        "failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create "
        "failed: unable to start container process: error during container init: error running prestart hook #0: "
        "exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: requirement error: "
        "unsatisfied condition: cuda>=13.1, please update your driver to a newer version, or use an earlier cuda container"
    )
    bad = train_pod(
        "render-5b8c7d6f9-u7y6t",
        gpu[0]["metadata"]["name"],
        image=image,
        rs="render-5b8c7d6f9",
        restarts=5,
        waiting=("CrashLoopBackOff", "back-off 2m40s restarting failed container"),
        last_terminated=("StartError", refusal, 128),
    )
    return {
        "nodes": sysn + gpu,
        "pods": pods + gp + [bad],
        "daemonsets": [plugin_ds(1), dcgm_ds(1)],
        "events": [],
        "logs": logs,
    }


def idle_gpu_nodes() -> Case:
    sysn, pods = system_cluster()
    gpu, gp, logs = _working_gpu_pool(3)
    running = [train_pod("trainer-7d9c6b5f4-i0dl", gpu[0]["metadata"]["name"])]
    return {
        "nodes": sysn + gpu,
        "pods": pods + gp + running,
        "daemonsets": [plugin_ds(3), dcgm_ds(3)],
        "events": [],
        "nodepools": [
            nodepool("nodepool1", SYS, 2, mode="System"),
            nodepool("gpunp", T4, 3, taints=["sku=gpu:NoSchedule"]),
        ],
        "logs": logs,
    }


def ca_resource_unready() -> Case:
    sysn, pods = system_cluster()
    lab = aks.gfd_labels(A100, "580.159.04", "13.0", 1, {"nvidia.com/mig.strategy": "mixed"})
    gpu, gp, logs = _working_gpu_pool(2, "a100mig", A100, gpus={"nvidia.com/mig-1g.10gb": 7}, labels=lab)
    running = [
        train_pod(
            f"notebook-6c8d9f7b5-u{i}r",
            n["metadata"]["name"],
            gpu={"nvidia.com/mig-1g.10gb": "2"},
            rs="notebook-6c8d9f7b5",
        )
        for i, n in enumerate(gpu)
    ]
    return {
        "nodes": sysn + gpu,
        "pods": pods + gp + running,
        "daemonsets": [plugin_ds(2), dcgm_ds(2)],
        "events": [],
        "nodepools": [
            nodepool("nodepool1", SYS, 2, mode="System", autoscale=(2, 5)),
            nodepool("a100mig", A100, 2, taints=["sku=gpu:NoSchedule"], mig_profile="MIG1g"),
        ],
        "configmaps": [ca_status_yaml(2, 2, 5, resource_unready=2)],
        "logs": logs,
    }



# ---- Node Auto Provisioning (Karpenter) ----------------------------------------------------------------

NAP_TAINT = {"effect": "NoSchedule", "key": "nvidia.com/gpu", "value": "true"}


def karpenter_nodepool(name: str, *, taints: list[dict] | None = None) -> dict:
    """A karpenter.sh/v1 NodePool as `kubectl get nodepools.karpenter.sh -o json` prints it."""
    return {
        "apiVersion": "karpenter.sh/v1",
        "kind": "NodePool",
        "metadata": {
            "annotations": {"karpenter.sh/nodepool-hash": "6384728163212946412", "karpenter.sh/nodepool-hash-version": "v3"},
            "creationTimestamp": aks.T0,
            "generation": 1,
            "name": name,
            "resourceVersion": aks.rv("np", name),
            "uid": aks.uid("NodePool", "", name),
        },
        "spec": {
            "disruption": {"budgets": [{"nodes": "10%"}], "consolidateAfter": "0s", "consolidationPolicy": "WhenEmptyOrUnderutilized"},
            "limits": {"nvidia.com/gpu": "8"},
            "template": {
                "spec": {
                    "expireAfter": "Never",
                    "nodeClassRef": {"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"},
                    "requirements": [
                        {"key": "karpenter.azure.com/sku-gpu-name", "operator": "In", "values": ["A100"]},
                        {"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["on-demand"]},
                    ],
                    "taints": taints if taints is not None else [NAP_TAINT],
                }
            },
        },
        "status": {
            "conditions": [
                {"lastTransitionTime": aks.T0, "message": "", "observedGeneration": 1, "reason": "Ready", "status": "True", "type": "Ready"}
            ],
            "resources": {"cpu": "0", "memory": "0", "nodes": "0", "pods": "0"},
        },
    }


def nodeclaim(name: str, pool: str, size: str, launched: tuple[str, str, str], registered: tuple[str, str, str] | None = None) -> dict:
    """A karpenter.sh/v1 NodeClaim as `kubectl get nodeclaims.karpenter.sh -o json` prints it."""
    conds = [{"lastTransitionTime": aks.T1, "message": launched[2], "observedGeneration": 1, "reason": launched[1], "status": launched[0], "type": "Launched"}]
    if registered is not None:
        conds.append({"lastTransitionTime": aks.T1, "message": registered[2], "observedGeneration": 1, "reason": registered[1], "status": registered[0], "type": "Registered"})
    return {
        "apiVersion": "karpenter.sh/v1",
        "kind": "NodeClaim",
        "metadata": {
            "annotations": {"karpenter.sh/nodepool-hash": "6384728163212946412", "karpenter.sh/nodepool-hash-version": "v3"},
            "creationTimestamp": aks.T1,
            "finalizers": ["karpenter.sh/termination"],
            "generation": 1,
            "labels": {
                "karpenter.azure.com/sku-gpu-name": "A100",
                "karpenter.sh/capacity-type": "on-demand",
                "karpenter.sh/nodepool": pool,
                "kubernetes.io/arch": "amd64",
                "kubernetes.io/os": "linux",
                "node.kubernetes.io/instance-type": size,
            },
            "name": name,
            "ownerReferences": [{"apiVersion": "karpenter.sh/v1", "blockOwnerDeletion": True, "kind": "NodePool", "name": pool, "uid": aks.uid("NodePool", "", pool)}],
            "resourceVersion": aks.rv("nc", name),
            "uid": aks.uid("NodeClaim", "", name),
        },
        "spec": {
            "expireAfter": "Never",
            "nodeClassRef": {"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"},
            "requirements": [
                {"key": "node.kubernetes.io/instance-type", "operator": "In", "values": [size]},
                {"key": "karpenter.sh/nodepool", "operator": "In", "values": [pool]},
            ],
            "resources": {"requests": {"cpu": "2", "memory": "8Gi", "nvidia.com/gpu": "1", "pods": "1"}},
            "taints": [NAP_TAINT],
        },
        "status": {"conditions": conds},
    }


def nap_quota() -> Case:
    """A GPU pod nominated to a NodeClaim whose launch hits the subscription's quota."""
    sysn, pods = system_cluster()
    tol = [{"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"}]
    pending = [train_pod("trainer-7d9c6b5f4-n4m2k", None, tolerations=tol, pending_message=fit(2, "2 Insufficient nvidia.com/gpu", "2 No preemption victims found for incoming pod"))]
    name = pending[0]["metadata"]["name"]
    quota = (
        "creating instance, insufficient capacity, Operation could not be completed as it results in exceeding approved "
        "standardNCADSA100v4Family Cores quota. Additional details - Deployment Model: Resource Manager, Location: "
        "eastus, Current Limit: 0, Current Usage: 0, Additional Required: 24, (Minimum) New Limit Required: 24."
    )
    return {
        "nodes": sysn,
        "pods": pods + pending,
        "daemonsets": [],
        "events": [
            event("ml", "Pod", name, "FailedScheduling", pending[0]["status"]["conditions"][0]["message"], count=3),
            event("ml", "Pod", name, "Nominated", "Pod should schedule on: nodeclaim/gpu-x7k2p", type_="Normal", component="karpenter"),
        ],
        "nodeclaims": [nodeclaim("gpu-x7k2p", "gpu", "Standard_NC24ads_A100_v4", ("Unknown", "SubscriptionQuotaReached", quota))],
        "karpenter_nodepools": [karpenter_nodepool("gpu")],
    }


def nap_untolerated() -> Case:
    """GPU pods without the NodePool's nvidia.com/gpu toleration: Karpenter says so, and the NodePool matches none."""
    sysn, pods = system_cluster()
    msg = fit(2, "2 Insufficient nvidia.com/gpu", "2 No preemption victims found for incoming pod")
    pending = [
        train_pod(f"inference-5f7b9c6d8-{s}", None, tolerate=False, pending_message=msg, rs="inference-5f7b9c6d8")
        for s in ("h2k4p", "q8w3e")
    ]
    karp = "Failed to schedule pod, did not tolerate taint (taint=nvidia.com/gpu=true:NoSchedule)"
    return {
        "nodes": sysn,
        "pods": pods + pending,
        "daemonsets": [],
        "events": [
            e
            for p in pending
            for e in (
                event("ml", "Pod", p["metadata"]["name"], "FailedScheduling", msg, count=3),
                event("ml", "Pod", p["metadata"]["name"], "FailedScheduling", karp, component="karpenter", count=4),
            )
        ],
        "nodeclaims": [],
        "karpenter_nodepools": [karpenter_nodepool("gpu")],
    }

def nap_compatible() -> Case:
    """A NAP-only cluster: a GPU pod no agent pool admits, a Karpenter NodePool it is compatible with, and no word
    from Karpenter yet (GP610 defers to Node Auto Provisioning: info, not an error)."""
    sysn, pods = system_cluster()
    tol = [{"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"}]
    msg = fit(2, "2 Insufficient nvidia.com/gpu", "2 No preemption victims found for incoming pod")
    pending = [train_pod("trainer-7d9c6b5f4-w5r8t", None, tolerations=tol, pending_message=msg)]
    return {
        "nodes": sysn,
        "pods": pods + pending,
        "daemonsets": [],
        "events": [event("ml", "Pod", pending[0]["metadata"]["name"], "FailedScheduling", msg, count=2)],
        "nodeclaims": [],
        "karpenter_nodepools": [karpenter_nodepool("gpu")],
    }


CASES: dict[str, Callable[[], Case]] = {
    "healthy-self-managed": healthy_self_managed,
    "healthy-managed": healthy_managed,
    "no-device-plugin": no_device_plugin,
    "plugin-untolerated-spot": plugin_untolerated_spot,
    "plugin-selector-miss": plugin_selector_miss,
    "plugin-crashloop": plugin_crashloop,
    "driver-missing": driver_missing,
    "pending-untolerated-taint": pending_untolerated_taint,
    "pending-max-size": pending_max_size,
    "mig-single-mismatch": mig_single_mismatch,
    "mig-mixed-unadvertised": mig_mixed_unadvertised,
    "gpu-health": gpu_health,
    "stack-conflict": stack_conflict,
    "time-slicing-not-applied": time_slicing_not_applied,
    "dcgm-misses-spot": dcgm_misses_spot,
    "cuda-too-new": cuda_too_new,
    "idle-gpu-nodes": idle_gpu_nodes,
    "ca-resource-unready": ca_resource_unready,
    "nap-quota": nap_quota,
    "nap-untolerated": nap_untolerated,
    "nap-compatible": nap_compatible,
}


def render(case: Case) -> dict[str, str]:
    """file name -> exact text, as kubectl (4-space indent JSON) and az (2-space) print them."""
    files = {
        "nodes.json": kube_list(case["nodes"]),
        "pods.json": kube_list(case["pods"]),
        "daemonsets.json": kube_list(case["daemonsets"]),
        "events.json": kube_list(case["events"]),
    }
    if "configmaps" in case:
        files["configmaps.json"] = kube_list(case["configmaps"])
    if "nodeclaims" in case:
        files["nodeclaims.json"] = kube_list(case["nodeclaims"])
    if "karpenter_nodepools" in case:
        files["karpenter-nodepools.json"] = kube_list(case["karpenter_nodepools"])
    out = {k: json.dumps(v, indent=4, ensure_ascii=False) + "\n" for k, v in files.items()}
    if "nodepools" in case:
        out["nodepools.json"] = json.dumps(case["nodepools"], indent=2) + "\n"
    for (ns, p, c, prev), text in sorted(case.get("logs", {}).items()):
        out[f"logs/{ns}_{p}_{c}{'.previous' if prev else ''}.log"] = text
    return out


def write_all(root: Path = ROOT) -> None:
    import shutil

    for name, build in CASES.items():
        d = root / name
        if d.exists():
            shutil.rmtree(d)
        for rel, text in render(build()).items():
            p = d / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write_all()
