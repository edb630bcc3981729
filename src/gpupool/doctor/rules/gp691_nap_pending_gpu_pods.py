"""GP691 nap-pending-gpu-pods: Pending GPU pods that Karpenter says it cannot provision a node for.

What it checks: Pending pods requesting GPUs with Karpenter's events (component `karpenter`): a
`FailedScheduling` event "Failed to schedule pod, ..." (no NodePool can take the pod: a taint, requirements,
limits, no size that fits), or a `Nominated` event "Pod should schedule on: nodeclaim/NAME" for a NodeClaim
that is stuck (GP690) or gone.

Why: with Node Auto Provisioning the cluster autoscaler's events are absent; Karpenter's words are the only
account of why no GPU node comes. Its message names each NodePool's reason, joined by "; ".

Fix: what the message names: tolerate the NodePool's taint, select on a label the NodePool defines, raise its
`limits`, admit a larger GPU size (`gpupool simulate` with the NodePools and the workload reproduces the
verdict; `gpupool plan` lists what each NodePool can create).

Source: kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling/events.go (PodFailedToScheduleEvent,
NominatePodEvent), scheduler.go, pkg/events/reason.go @2266468104f3; as of 2026-08-21. Warning: Karpenter
retries every pass, and the cause may be one of the moment (limits spent by nodes being removed).

Failing example:

    # Pod ml/trainer-...: Pending, nvidia.com/gpu: 1; event FailedScheduling from karpenter:
    #   Failed to schedule pod, did not tolerate taint (taint=nvidia.com/gpu=true:NoSchedule)

Passing example:

    # the same pod tolerating the taint: Nominated "Pod should schedule on: nodeclaim/gpu-x7k2p", then Running
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context, finding
from gpupool.doctor.rules._nap import condition, facts, karpenter_events, last_words
from gpupool.findings import Finding, Severity, plural

ID = "GP691"
NAME = "nap-pending-gpu-pods"
SEVERITY = Severity.WARNING
READS = ("nodes", "pods", "events")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "Pending GPU pods that Node Auto Provisioning (Karpenter) cannot provision a node for"


def _stuck_claims(ctx: Context) -> dict[str, str] | None:
    claims = ctx.view.snap.nodeclaims
    if claims is None:
        return None
    out = {}
    for obj in claims:
        name = str((obj.get("metadata") or {}).get("name") or "")
        launched = condition(obj, "Launched")
        registered = condition(obj, "Registered")
        bad = next((c for c in (launched, registered) if c is not None and c.get("status") != "True"), None)
        out[name] = f"{bad.get('type')}={bad.get('status')} {bad.get('reason') or ''}".strip() if bad else ""
    return out


def check(ctx: Context) -> Iterator[Finding]:
    ev = facts()["events"]
    claims = _stuck_claims(ctx)
    groups: dict[tuple[str, str], list[str]] = {}
    for p in ctx.pending:
        events = karpenter_events(ctx, p.pod)
        if not events:
            continue
        failed = last_words(events, "FailedScheduling")
        nominated = last_words(events, "Nominated")
        name = str((p.pod.get("metadata") or {}).get("name"))
        if failed and events[-1].get("reason") == "FailedScheduling":
            groups.setdefault((p.owner, failed), []).append(name)
        elif nominated and claims is not None:
            claim = nominated.removeprefix(ev["nominatedPrefix"]).split(",")[0].removeprefix("nodeclaim/")
            state = claims.get(claim)
            if state is None:
                why = f"nominated to NodeClaim {claim}, which no longer exists"
            elif state:
                why = f"nominated to NodeClaim {claim}, which is stuck ({state})"
            else:
                continue
            groups.setdefault((p.owner, why), []).append(name)
    for (owner, why), pods in groups.items():
        if why.startswith("nominated"):
            fix = "settle the NodeClaim first (GP690: quota, size offered, capacity)"
        else:
            fix = (
                "change what the message names (taint, node selection, NodePool limits or sizes); "
                "gpupool simulate with the NodePools and the workload reproduces it"
            )
        yield finding(
            ID,
            SEVERITY,
            f"{plural(len(pods), 'Pending GPU pod')} of {owner}: Karpenter: {why}",
            owner,
            "pods",
            [f"pods: {', '.join(pods[:5])}" + (" ..." if len(pods) > 5 else "")],
            fix,
        )
