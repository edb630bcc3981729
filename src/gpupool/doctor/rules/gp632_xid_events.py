"""GP632 xid-events: events report NVIDIA Xid errors on a node.

What it checks: events about a Node whose message names an Xid (`NVRM: Xid (PCI:...): 79, ...`, NPD's
`XIDErrors` events), other than the Xids the device plugin treats as application errors (13, 31, 43, 45,
68, 109).

Why: Xid errors are the driver's report of GPU faults; critical ones (48 double-bit ECC, 79 fallen off the
bus, 94/95 contained/uncontained ECC) make the GPU unusable until reset.

Fix: cordon the node, check `nvidia-smi -q` and the kernel log; reimage or replace the VM for hardware Xids.

Source: NVIDIA Xid catalog (docs.nvidia.com/deploy/xid-errors); NVIDIA/k8s-device-plugin (skipped Xids);
AKS docs gpu-health-monitoring.md; checked 2026-12-03.

Failing example:

    Warning  XIDErrors  node/aks-ndv4-...-vmss000001
             NVRM: Xid (PCI:0001:00:00): 79, pid=0, GPU has fallen off the bus.

Passing example:

    # no Xid events (or only Xid 13/31/43: application faults)
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gpupool.doctor import facts
from gpupool.doctor.context import Context, finding
from gpupool.doctor.view import event_message
from gpupool.findings import Finding, Severity

ID = "GP632"
NAME = "xid-events"
SEVERITY = Severity.WARNING
READS = ("nodes", "events")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "Events report NVIDIA Xid errors on a node"


def check(ctx: Context) -> Iterator[Finding]:
    sig = facts.signals()["xid"]
    pat = re.compile(sig["pattern"])
    app = set(sig["applicationXids"])
    for n in ctx.view.nodes:
        xids: dict[int, str] = {}
        for e in ctx.view.events_for("Node", "", n.name):
            msg = event_message(e)
            m = pat.search(msg)
            if m and int(m.group(1)) not in app:
                xids.setdefault(int(m.group(1)), msg.strip()[:200])
        if xids:
            yield finding(
                ID,
                SEVERITY,
                f"(pool {n.pool}) Xid {', '.join(str(x) for x in sorted(xids))} reported",
                n.object,
                "resources",
                [f"event: {m}" for _, m in sorted(xids.items())],
                "cordon the node, check nvidia-smi -q and the kernel log; reimage or replace it for "
                "hardware Xids",
            )
