"""GP690 nodeclaim-stuck: Karpenter NodeClaims that did not launch or whose node never registered.

What it checks: with NodeClaims in the snapshot (`nodeclaims.json`: `kubectl get nodeclaims.karpenter.sh -o
json`), each NodeClaim whose `Launched` condition is not True with a failure reason of the Azure provider
(`SubscriptionQuotaReached`, `SKUNotAvailable`, `AllocationFailure`, `ZonalAllocationFailure`, ...,
`LaunchFailed`), or that launched but whose `Registered` condition is not True (`NodeNotFound`).

Why: Node Auto Provisioning creates a NodeClaim per node it plans; the pods nominated to it wait until it
launches, registers and initializes. A quota or size the subscription is not offered stops every retry until
someone acts; capacity failures are retried, other sizes may be tried; a node that never registers is deleted
after 15 minutes and replaced, often with the same result (image, network or GPU driver trouble).

Fix: for `SubscriptionQuotaReached` request quota for the size's family in the region (`gpupool preflight`
checks it beforehand); for `SKUNotAvailable` admit other sizes or zones in the NodePool; for capacity failures
admit more sizes or zones; for `NodeNotFound` read the VM's boot diagnostics and the AKSNodeClass.

Source: kubernetes-sigs/karpenter pkg/apis/v1/nodeclaim_status.go,
pkg/controllers/nodeclaim/lifecycle/launch.go, registration.go, liveness.go @2266468104f3;
Azure/karpenter-provider-azure pkg/providers/instance/offerings/commonerrorhandlers.go @352646f59929; as of
2026-08-21. Error for quota and sizes not offered (Azure refuses until something changes); warning for
capacity and the other reasons, which Karpenter retries. Without `nodeclaims.json` in a cluster with
Karpenter's nodes or events: cannot tell (info).

Failing example:

    # NodeClaim gpu-x7k2p: Launched=Unknown, reason SubscriptionQuotaReached

Passing example:

    # NodeClaim gpu-x7k2p: Launched=True, Registered=True, Initialized=True
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context, finding
from gpupool.doctor.rules._nap import condition, facts, nap_in_use
from gpupool.findings import Finding, Severity

ID = "GP690"
NAME = "nodeclaim-stuck"
SEVERITY = Severity.ERROR
READS = ("nodes", "nodeclaims")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "Karpenter NodeClaims that did not launch, or whose node never registered"


def check(ctx: Context) -> Iterator[Finding]:
    claims = ctx.view.snap.nodeclaims
    if claims is None:
        if nap_in_use(ctx):
            yield finding(
                ID,
                Severity.INFO,
                "cannot tell: Karpenter's NodeClaims were not read (nodeclaims.json)",
                "cluster",
                "input",
                ["nodes or events of Karpenter in the snapshot, no nodeclaims.json"],
                "add: kubectl get nodeclaims.karpenter.sh -o json > nodeclaims.json, and run again",
            )
        return
    nc = facts()["nodeClaim"]
    for obj in claims:
        meta = obj.get("metadata") or {}
        name = str(meta.get("name") or "?")
        pool = str((meta.get("labels") or {}).get("karpenter.sh/nodepool") or "?")
        size = str((meta.get("labels") or {}).get("node.kubernetes.io/instance-type") or "")
        launched = condition(obj, "Launched")
        registered = condition(obj, "Registered")
        if launched is not None and launched.get("status") != "True":
            reason = str(launched.get("reason") or "")
            known = nc["launchReasons"].get(reason)
            if known is None:
                continue
            sev = Severity.ERROR if known[0] == "error" else Severity.WARNING
            yield finding(
                ID,
                sev,
                f"NodeClaim {name} of NodePool {pool} did not launch: {reason}: {known[1]}",
                f"NodeClaim {name}",
                "nodes",
                [
                    f"Launched={launched.get('status')} reason={reason}: "
                    f"{launched.get('message') or ''}".strip()
                ]
                + ([f"instance type {size}"] if size else []),
                _fix(reason),
                nodePool=pool,
                reason=reason,
            )
        elif launched is not None and registered is not None and registered.get("status") != "True":
            reason = str(registered.get("reason") or "")
            known = nc["registeredReasons"].get(reason)
            if known is None:
                continue
            yield finding(
                ID,
                Severity.WARNING,
                f"NodeClaim {name} of NodePool {pool} launched but its node did not register: {reason} "
                f"(Karpenter deletes it after {nc['registrationTimeoutMinutes']} minutes)",
                f"NodeClaim {name}",
                "nodes",
                [f"Registered={registered.get('status')} reason={reason}: {registered.get('message') or ''}"],
                _fix(reason),
                nodePool=pool,
                reason=reason,
            )


def _fix(reason: str) -> str:
    return {
        "SubscriptionQuotaReached": "request vCPU quota for the size's family in the region "
        "(gpupool preflight checks it), or admit sizes of another family",
        "SKUNotAvailable": "admit other sizes or zones in the NodePool: this one is not offered to the "
        "subscription",
        "NodeNotFound": "read the VM's boot diagnostics and the AKSNodeClass (image, subnet, GPU driver)",
    }.get(reason, "admit more sizes or zones in the NodePool so Karpenter has other offerings to try")
