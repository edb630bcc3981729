"""GP604 device-plugin-crashloop: the device plugin pod on a GPU node is crash-looping.

What it checks: GPU nodes without a GPU resource whose device plugin pod is in `CrashLoopBackOff` or has
restarted 3 or more times, when its logs do not show a missing driver (that is GP605). Config errors from
the log (`unable to load config`, `number of replicas must be >= 2`, `unknown MIG strategy`) are shown.

Why: a plugin that keeps restarting never registers `nvidia.com/gpu` with the kubelet.

Fix: read `kubectl logs -p` of the pod; fix the ConfigMap (time-slicing, MIG strategy) or the image.

Source: NVIDIA/k8s-device-plugin api/config/v1 (config errors), cmd/nvidia-device-plugin/main.go; checked
2026-12-03.

Failing example:

    nvidia-device-plugin-daemonset-x7k2p  0/1  CrashLoopBackOff  6 restarts  (on aks-gpunp-...-vmss000000)

Passing example:

    nvidia-device-plugin-daemonset-x7k2p  1/1  Running  0 restarts
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context
from gpupool.doctor.rules._chain import per_pool
from gpupool.findings import Finding, Severity

ID = "GP604"
NAME = "device-plugin-crashloop"
SEVERITY = Severity.ERROR
READS = ("nodes", "pods")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "The device plugin pod on a GPU node is crash-looping"


def check(ctx: Context) -> Iterator[Finding]:
    yield from per_pool(ctx, ID, SEVERITY)
