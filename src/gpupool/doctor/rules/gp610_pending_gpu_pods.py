"""GP610 pending-gpu-pods: GPU pods kube-scheduler cannot place, why, and where they would land.

What it checks: Pending pods that request a GPU resource and have a `PodScheduled=False` condition or a
`FailedScheduling` event. Per workload (owner) it shows the scheduler's FitError (every wording since 1.25:
`untolerated taint {key: value}` and `untolerated taint(s)`, the preemption suffix, the 1.34+ DRA
fragment), the cluster autoscaler's latest event (`TriggeredScaleUp`, `NotTriggerScaleUp` with its
reasons such as `max node group size reached`) and its status ConfigMap, and per AKS pool what simulate's
scheduler filters say on the snapshot's real nodes with the running pods in place: which pool admits the pod
(taints, selector) and what it lacks there.

Why: `kubectl describe pod` gives a count of reasons over all nodes; it does not say which pool was meant or
whether the autoscaler will help.

With Node Auto Provisioning, a pod no agent pool admits is Karpenter's to provision: when a Karpenter NodePool
of the snapshot is compatible with it (taints, requirements, a GPU size that advertises what it requests) or
Karpenter's events are on it (`FailedScheduling` from `karpenter`, `Nominated`), GP610 defers (info): the
scheduler's FitError is expected until the node comes, and GP690-GP692 give Karpenter's verdict.

Fix: the fix for the blocking reason: a toleration for the pool's taint, a selector that matches, a GPU
resource name the nodes advertise, room (scale the pool, raise maxCount), or a working device plugin.

Source: kube-scheduler framework/types.go FitError and plugin reasons; cluster-autoscaler
eventing_scale_up_processor.go, skippedreasons.go, status ConfigMap (PR #6375); kube-scheduler
`FitError.Error()` (kubernetes/kubernetes pkg/scheduler/framework/types.go); checked 2026-12-03.
kubernetes-sigs/karpenter pkg/controllers/provisioning/provisioner.go (it provisions for pods the scheduler
marked unschedulable), scheduling/events.go @2266468104f3; as of 2026-08-21. Error; info when deferred to
Node Auto Provisioning.

Failing example:

    0/3 nodes are available: 1 node(s) had untolerated taint {sku: gpu}, 2 Insufficient nvidia.com/gpu.
    preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims
    found for incoming pod.

Passing example:

    # the pod tolerates sku=gpu:NoSchedule and a node of pool gpunp has a free nvidia.com/gpu
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from gpupool.doctor import placement
from gpupool.doctor.context import Context, Pending, finding, plural, pod_ref
from gpupool.doctor.view import event_message
from gpupool.findings import Finding, Severity, agree
from gpupool.k8s.taints import format_toleration
from gpupool.spec.model import Taint

ID = "GP610"
NAME = "pending-gpu-pods"
SEVERITY = Severity.ERROR
READS = ("nodes", "pods")  # kinds it must read to conclude (doctor.engine)
SUMMARY = (
    "GPU pods are Pending: the scheduler's reasons, the autoscaler's answer, the pool they would land on"
)


def specific(ctx: Context, p: Pending) -> Finding | None:
    """A specific rule's finding that explains why ``p`` is Pending (GP620, GP621): GP610's fix is then that
    rule's fix, never generic advice that contradicts it (e.g. "scale the pool" for a resource name no
    node will ever advertise)."""
    from gpupool.doctor.rules import gp620_mig_strategy_mismatch, gp621_mig_name_not_advertised

    for mod in (gp620_mig_strategy_mismatch, gp621_mig_name_not_advertised):
        f = mod.explain(ctx, p)
        if f is not None:
            return f
    return None


def _fix(ctx: Context, p: Pending, place: placement.Placement | None) -> str:
    why = specific(ctx, p)
    if why is not None:
        return f"{why.fix} (see {why.rule}: {why.message})"
    if place is not None and place.node:
        return (
            f"it fits now on node {place.node}: the condition is stale or capacity was freed; "
            "wait, or delete the pod"
        )
    landing = place.would_land if place else None
    if landing is not None:
        big = _too_big(ctx, p, landing)
        if big:
            return f"{big}: request at most that per pod, or use a larger VM size"
        v = place.pools[landing]  # type: ignore[union-attr]
        lacks = sorted({r for reason in v.reasons for r in reason.split(", ")})
        gpu_short = [r for r in lacks if r.startswith("Insufficient nvidia.com/")]
        info = ctx.view.pool_info(landing) or {}
        if gpu_short and any(
            ctx.plugin_diagnosis.get(n.name) for n in ctx.view.gpu_nodes if n.pool == landing
        ):
            return f"pool {landing} advertises no GPU: fix its device plugin first (see GP601-GP606)"
        if info.get("enableAutoScaling") and info.get("count", 0) >= (info.get("maxCount") or 0):
            return (
                f"pool {landing} is at its maxCount {info.get('maxCount')}: raise it "
                "(az aks nodepool update --update-cluster-autoscaler --max-count N)"
            )
        room = ", ".join(lacks) or "no room"
        return f"free or add room in pool {landing} ({room}): scale the pool or move pods"
    # nothing admits it: name the first blocker of the GPU pools
    gpu_pools = sorted({n.pool for n in ctx.view.gpu_nodes})
    for pool in gpu_pools:
        nodes = [n for n in ctx.view.gpu_nodes if n.pool == pool]
        tols = (p.pod.get("spec") or {}).get("tolerations") or []
        from gpupool.k8s.taints import untolerated

        bad = untolerated(nodes[0].taints, tols)
        if bad:
            return (
                "add to the pod template: tolerations: ["
                + ", ".join(format_toleration(t) for t in _uniq(bad))
                + "]"
            )
    return (
        "make the pod's nodeSelector/affinity match a GPU pool's labels "
        "(kubernetes.azure.com/agentpool: <pool>)"
    )


def _uniq(taints: list[Taint]) -> list[Taint]:
    return list(dict.fromkeys(taints))


def _too_big(ctx: Context, p: Pending, pool: str) -> str | None:
    """The pod asks for more of a GPU resource than any node of ``pool`` has at all."""
    for k, want in sorted(p.requests.items()):
        most = max((n.gpu().get(k, 0) for n in ctx.view.nodes if n.pool == pool), default=0)
        if 0 < most < want:
            return f"each node of pool {pool} has {most} {k}, the pod asks for {want}"
    return None


def _where(place: placement.Placement | None) -> str:
    if place is None:
        return "no node to place it on"
    if place.node:
        return f"it fits now on node {place.node}"
    if place.would_land is None:
        return "no GPU pool admits it (taints, selector)"
    v = place.pools[place.would_land]
    if not v.offers:
        return f"pool {place.would_land} admits it but its nodes advertise none of what it requests"
    lacks = sorted({r for reason in v.reasons for r in reason.split(", ")})
    return f"pool {place.would_land} admits it but lacks room: {', '.join(lacks)}"


def nap_deferral(
    ctx: Context, p: Pending, place: placement.Placement | None
) -> tuple[str, list[str], str] | None:
    """(why, evidence, fix) when ``p`` is Node Auto Provisioning's to provision: no agent pool admits it,
    and a Karpenter NodePool is compatible with it or Karpenter's events are on it; else None."""
    from gpupool.doctor.rules._nap import compatible_pools, facts, karpenter_events

    if place is None or place.node or place.would_land is not None or specific(ctx, p) is not None:
        return None
    compatible = compatible_pools(ctx, p.pod, p.requests)
    events = karpenter_events(ctx, p.pod)
    if not compatible and not events:
        return None
    evidence = []
    named = f"{'NodePool' if len(compatible) == 1 else 'NodePools'} {', '.join(compatible)}"
    if compatible:
        evidence.append(
            f"Karpenter {named} {agree(len(compatible), 'is', 'are')} compatible with it "
            "(taints, requirements, a size that advertises its GPU request)"
        )
    pools = " and GP692 (NodePools no Pending GPU pod can use)" if ctx.view.snap.karpenter_nodepools else ""
    last = events[-1] if events else None
    if last is not None:
        evidence.append(f"Karpenter: {last.get('reason')}: {event_message(last)}")
    if last is not None and last.get("reason") == "FailedScheduling":
        why = "Karpenter cannot provision it: see GP691"
        fix = f"change what Karpenter's message names: see GP691 (its words){pools}"
    elif last is not None and last.get("reason") == "Nominated":
        claim = event_message(last).removeprefix(facts()["events"]["nominatedPrefix"])
        why = f"Karpenter nominated it to {claim}"
        fix = f"wait for {claim} to launch and register; if it is stuck, see GP690 and GP691"
    elif compatible:
        why = f"{named} {agree(len(compatible), 'is', 'are')} compatible"
        fix = (
            f"Karpenter creates its node from {named}: if none comes, see GP690 (NodeClaims) and GP691 "
            "(Karpenter's events)"
        )
    else:
        why = "Karpenter's events are on it"
        fix = f"see GP691 (what Karpenter says of the pod){pools}"
    return f"no agent pool admits it; it is Node Auto Provisioning's to provision ({why})", evidence, fix


def check(ctx: Context) -> Iterator[Finding]:
    groups: dict[tuple[str, str], list[Pending]] = defaultdict(list)
    for p in ctx.pending:
        groups[(p.owner, p.fit_text)].append(p)
    status = ctx.autoscaler_status
    for (owner, fit_text), pods in sorted(groups.items()):
        first = pods[0]
        place = ctx.placement_of(first.pod)
        refs = [pod_ref(q.pod) for q in pods]
        wants = ", ".join(f"{k}: {v}" for k, v in sorted(first.requests.items()))
        evidence = [f"pods: {', '.join(refs[:5])}" + (" ..." if len(refs) > 5 else "")]
        if fit_text:
            evidence.append(f"scheduler: {fit_text}")
        if first.scale_up is not None:
            evidence.append(f"autoscaler: {first.scale_up.text}")
        if status is not None and status.scale_up:
            backoff = [g for g in status.groups.values() if g.scale_up == "Backoff"]
            evidence.append(
                f"autoscaler status: health {status.health or '?'}, scale-up {status.scale_up}"
                + "".join(f"; group {g.name} in backoff: {g.backoff}" for g in backoff)
            )
        if place is not None:
            evidence.append(f"now (simulate's filters on the snapshot's nodes): {place.message}")
            evidence += placement.by_pool(place.pools)
        deferred = nap_deferral(ctx, first, place)
        if deferred is not None:
            why, nap_evidence, fix = deferred
            yield finding(
                ID,
                Severity.INFO,
                f"{plural(len(pods), 'pod')} Pending, each requesting {wants}: {why}",
                owner,
                "pods",
                evidence + nap_evidence,
                fix,
                pods=refs,
                wouldLandOn=None,
                deferredTo="nap",
            )
            continue
        yield finding(
            ID,
            SEVERITY,
            f"{plural(len(pods), 'pod')} Pending, each requesting {wants}: "
            + (
                (place and place.would_land and not place.node and _too_big(ctx, first, place.would_land))
                or _where(place)
            ),
            owner,
            "pods",
            evidence,
            _fix(ctx, first, place),
            pods=refs,
            wouldLandOn=place.would_land if place else None,
        )
