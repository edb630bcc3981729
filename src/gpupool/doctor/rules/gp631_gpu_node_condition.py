"""GP631 gpu-node-condition: AKS node-problem-detector reports a GPU problem on a node.

What it checks: node conditions of the GPU types AKS's node-problem-detector sets, judged on `type` and
`status` (`True` is the problem): `GPUMissing`, `XIDErrors`, `NVLinkStatusInactive`,
`IBLinkFlapping`, `GPUClockThrottling` and, on managed GPU pools, `UnhealthyNvidiaDevicePlugin` and
`UnhealthyNvidiaDCGMServices`. Throttling and IB flapping are warnings; the rest errors.

Why: these conditions are the node's own report of a failed or degraded GPU; NPD does not remediate.

Fix: cordon and drain the node, then reimage or redeploy it; check the VM's health in the portal.

Source: AKS docs node-problem-detector.md, gpu-health-monitoring.md, aks-managed-gpu-nodes.md (checked
2026-12-02); doctor/data/signals.yaml nodeConditions.

Failing example:

    {type: XIDErrors, status: "True", reason: XIDErrors, message: "XID errors present in kernel log"}

Passing example:

    {type: XIDErrors, status: "False", reason: NoXIDErrors}
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor import facts
from gpupool.doctor.context import Context, finding
from gpupool.findings import Finding, Severity

ID = "GP631"
NAME = "gpu-node-condition"
SEVERITY = Severity.ERROR
READS = ("nodes",)  # kinds it must read to conclude (doctor.engine)
SUMMARY = "AKS node-problem-detector reports a GPU condition (GPUMissing, XIDErrors, ...) as True"


def check(ctx: Context) -> Iterator[Finding]:
    types: dict[str, str] = facts.signals()["nodeConditions"]["types"]
    for n in ctx.view.nodes:
        for cond in n.obj.get("status", {}).get("conditions") or []:
            if not isinstance(cond, dict) or cond.get("type") not in types or cond.get("status") != "True":
                continue
            t = str(cond["type"])
            yield finding(
                ID,
                Severity(types[t]),
                f"(pool {n.pool}) {t} is True" + (f": {cond.get('message')}" if cond.get("message") else ""),
                n.object,
                "resources",
                [
                    f"condition {t}: status True, reason {cond.get('reason', '')}, since "
                    f"{cond.get('lastTransitionTime', '?')}"
                ],
                "cordon and drain the node, then reimage or replace it (az aks nodepool upgrade "
                "--node-image-only "
                "or delete the VMSS instance)",
            )
