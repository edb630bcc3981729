"""GP605 gpu-driver-missing: the device plugin on a GPU node finds no NVIDIA driver.

What it checks: GPU nodes without a GPU resource whose device plugin logs say the driver is missing, in any
of its wordings: `Failed to initialize NVML: could not load NVML library` (older plugins), `Incompatible
strategy detected auto` and `invalid device discovery strategy` (v0.16+), or `No devices found. Waiting
indefinitely.` (a plugin with `FAIL_ON_INIT_ERROR=false`, as in the AKS doc manifest, never crashes: it
runs idle). The pool's `gpuProfile.driver` and the absence of a GPU Operator driver are shown when known.
The same lines on a node without a GPU are noise and are not reported.

Why: a pool created with `--gpu-driver None` gets no driver from AKS; without the GPU Operator's driver the
plugin has nothing to talk to, and no GPU is ever advertised.

Fix: install the GPU Operator with its driver and toolkit, or recreate the pool without `--gpu-driver None`.

Source: NVIDIA/k8s-device-plugin issues #1220, #1574, #1134, #1470, #1080, #906; AKS docs use-nvidia-gpu.md
(`--gpu-driver`, FAIL_ON_INIT_ERROR=false); checked 2026-12-03.

Failing example:

    E1204 07:31:31.765318  1 factory.go:112] Incompatible strategy detected auto
    E1204 07:31:31.765339  1 factory.go:113] If this is a GPU node, did you configure the NVIDIA Container
    Toolkit?
    I1204 07:31:31.765411  1 main.go:381] No devices found. Waiting indefinitely.

Passing example:

    I1204 07:31:31.912345  1 server.go:204] Registered device plugin for 'nvidia.com/gpu' with Kubelet
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context
from gpupool.doctor.rules._chain import per_pool
from gpupool.findings import Finding, Severity

ID = "GP605"
NAME = "gpu-driver-missing"
SEVERITY = Severity.ERROR
READS = ("nodes", "pods", "logs")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "The device plugin finds no NVIDIA driver on a GPU node"


def check(ctx: Context) -> Iterator[Finding]:
    yield from per_pool(ctx, ID, SEVERITY)
