"""GP312 gpu-stack-daemonset-cannot-schedule: a GPU stack DaemonSet (GFD, DCGM exporter, MIG manager, GPU
Operator validator) that cannot run on a GPU pool it is meant for.

What it checks
  With pools given: a DaemonSet recognised as GPU Feature Discovery, the DCGM exporter, the MIG manager or the
  GPU Operator validator (by command, container name or image; facts in catalog `gpu_operator.yaml`) must
  select, and tolerate every `NoSchedule`/`NoExecute` taint of, the GPU pools it serves: GFD and the DCGM
  exporter serve NVIDIA pools whose GPU stack you deploy (driver installed by AKS with your device plugin, or
  driver `None` with the GPU Operator; managed GPU pools run AKS's own exporter and no GFD), the MIG manager
  and the validator serve GPU Operator pools. The NVIDIA device plugin itself is GP309. GFD runs from the
  device plugin's image with command `gpu-feature-discovery`: it is not taken for the device plugin.
  A DaemonSet scoped to one pool is not faulted for the others when it selects at least one.

Why
  Each component's pods stay Pending on those nodes, with its own consequence: without GFD the node gets no
  `nvidia.com/gpu.*` labels (pods selecting them stay Pending); without the DCGM exporter no GPU metrics;
  without the MIG manager the `nvidia.com/mig.config` layout is never applied; without the validator the
  Operator's other operands never start. Upstream GFD also requires NFD labels
  (`feature.node.kubernetes.io/pci-10de.present`) that only GPU Operator pools carry.

Source
  NVIDIA/k8s-device-plugin `deployments/static/gpu-feature-discovery-daemonset.yaml`; NVIDIA/gpu-operator
  `assets/state-*` and `values.yaml` (`daemonsets.tolerations` default `nvidia.com/gpu` only), checked
  2026-12-03; NVIDIA/gpu-operator `cmd/nvidia-validator/main.go`.

Fix
  Add the toleration printed in the fix line, or select the pool.

Failing example (GPU Operator pool with taint `sku=gpu:NoSchedule`):

    kind: DaemonSet
    spec:
      template:
        spec:
          tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
          containers:
          - {name: nvidia-dcgm-exporter, image: nvcr.io/nvidia/k8s/dcgm-exporter:4.2.3-4.1.3-ubuntu22.04}

Passing example: tolerations `[{key: sku, operator: Exists, effect: NoSchedule}]`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.k8s.gpustack import classify
from gpupool.lint.rules._stack_daemonset import reach_findings

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext

ID = "GP312"
NAME = "gpu-stack-daemonset-cannot-schedule"
SEVERITY = Severity.WARNING
SUMMARY = "A GFD / DCGM exporter / MIG manager / validator DaemonSet that cannot run on a GPU pool it serves."

SERVES = {
    "gpu-feature-discovery": ("self-managed", "gpu-operator"),
    "dcgm-exporter": ("self-managed", "gpu-operator"),
    "mig-manager": ("gpu-operator",),
    "operator-validator": ("gpu-operator",),
}


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    if ctx.workload.kind != "DaemonSet" or not ctx.views:
        return
    comp = classify(c for p, c in ctx.containers() if p[-2] == "containers")
    if comp is None or comp.id not in SERVES:
        return
    yield from reach_findings(
        ctx,
        ID,
        SEVERITY,
        [f for f in ctx.fits if f.view.plugin in SERVES[comp.id]],
        comp.what,
        "it serves",
        comp.consequence,
        component=comp.id,
    )
