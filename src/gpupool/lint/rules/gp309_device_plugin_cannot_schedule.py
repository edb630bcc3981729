"""GP309 device-plugin-cannot-schedule: a device plugin DaemonSet that cannot run on a GPU pool.

What it checks
  With pools given: a DaemonSet running the NVIDIA device plugin (`k8s-device-plugin` image; not GPU
  Feature Discovery, which runs from the same image with command `gpu-feature-discovery`: GP312) must
  tolerate every `NoSchedule`/`NoExecute` taint of each GPU pool its nodeSelector/affinity selects among
  those that need a self-deployed plugin (driver installed by AKS, not the managed GPU preview, not driver
  `None` with the GPU Operator); and it must select at least one of them. A DaemonSet scoped to one pool
  (as `gpupool render` writes one per pool, since pools differ in MIG strategy and sharing config) is not
  faulted for the pools it leaves to another DaemonSet, nor is one that selects only GPU Operator pools (the
  Operator's own plugin, scoped by `nvidia.com/gpu.deploy.device-plugin`). The upstream manifest tolerates
  `nvidia.com/gpu`, not the `sku=gpu` taint of the AKS docs.

Why
  Without the plugin on the node, `nvidia.com/gpu` never appears in the node's capacity and every GPU pod
  stays Pending (`Insufficient nvidia.com/gpu`) although the node is up and billed.

Source
  MicrosoftDocs/azure-aks-docs `use-nvidia-gpu.md` (the DaemonSet carries the pool's toleration);
  NVIDIA/k8s-device-plugin `deployments/static/nvidia-device-plugin.yml`.

Fix
  Add the toleration printed in the fix line (or relax the selector).

Failing example (pool taint `sku=gpu:NoSchedule`):

    spec:
      template:
        spec:
          tolerations:
          - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}
          containers:
          - {name: nvidia-device-plugin-ctr, image: nvcr.io/nvidia/k8s-device-plugin:v0.18.0}

Passing example: tolerations `[{key: sku, operator: Equal, value: gpu, effect: NoSchedule}]`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.k8s.gpustack import classify
from gpupool.lint.rules._stack_daemonset import reach_findings

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext

ID = "GP309"
NAME = "device-plugin-cannot-schedule"
SEVERITY = Severity.ERROR
SUMMARY = "A device plugin DaemonSet (k8s-device-plugin image) that cannot run on a GPU pool that needs it."


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    if ctx.workload.kind != "DaemonSet" or not ctx.views:
        return
    comp = classify(c for p, c in ctx.containers() if p[-2] == "containers")
    if comp is None or comp.id != "device-plugin":
        return  # GPU Feature Discovery runs from the same image: GP312 judges it
    yield from reach_findings(
        ctx,
        ID,
        SEVERITY,
        [f for f in ctx.fits if f.view.plugin == "self-managed"],
        "device plugin",
        "that need it",
        "no nvidia.com/gpu is advertised there and GPU pods stay Pending",
        " (or kubernetes.azure.com/accelerator: nvidia for every NVIDIA pool)",
    )
