"""GP622 mig-config-failed: the GPU Operator's MIG manager failed to apply the MIG configuration.

What it checks: nodes labelled `nvidia.com/mig.config.state=failed` (set by the GPU Operator's MIG
manager when `nvidia.com/mig.config` could not be applied).

Why: the GPUs keep their previous partitioning (or none); the MIG resources pods ask for never appear.

Fix: read the `nvidia-mig-manager` pod's log on the node; check the profile exists for the GPU in the
`mig-parted` ConfigMap; GPUs must be idle (no pods, DCGM stopped) while being repartitioned.

Source: NVIDIA/gpu-operator (MIG manager, labels `nvidia.com/mig.config`, `nvidia.com/mig.config.state`
success|pending|rebooting|failed); NVIDIA/k8s-device-plugin
docs/gpu-feature-discovery/README.md; checked 2026-12-03.

Failing example:

    nvidia.com/mig.config: all-1g.10gb
    nvidia.com/mig.config.state: failed

Passing example:

    nvidia.com/mig.config.state: success
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor import facts
from gpupool.doctor.context import Context, finding, group_by_pool, node_list, plural
from gpupool.findings import Finding, Severity

ID = "GP622"
NAME = "mig-config-failed"
SEVERITY = Severity.ERROR
READS = ("nodes",)  # kinds it must read to conclude (doctor.engine)
SUMMARY = "The MIG manager could not apply the MIG configuration (nvidia.com/mig.config.state=failed)"


def check(ctx: Context) -> Iterator[Finding]:
    key = facts.label("migConfigState")
    failed = [n for n in ctx.view.nodes if n.labels.get(key) == "failed"]
    for pool, nodes in group_by_pool(failed).items():
        wanted = nodes[0].labels.get("nvidia.com/mig.config", "?")
        yield finding(
            ID,
            SEVERITY,
            f"{plural(len(nodes), 'node')}: MIG configuration {wanted} failed to apply",
            f"pool {pool}",
            "resources",
            [f"nodes: {node_list(nodes)}", f"label {key}=failed, nvidia.com/mig.config={wanted}"],
            "read the nvidia-mig-manager pod's log on the node; check the profile exists for this GPU",
            nodes=[n.name for n in nodes],
        )
