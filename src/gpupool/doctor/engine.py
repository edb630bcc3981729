"""Run the GP6xx rules over a snapshot and build doctor's result (findings, nodes, pending pods, summary)."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from gpupool.catalog.aks import default_kubernetes_version
from gpupool.cluster import Snapshot
from gpupool.doctor import placement
from gpupool.doctor import view as view_mod
from gpupool.doctor.context import STAGES, Context
from gpupool.findings import Finding, Severity
from gpupool.k8s import facts as sim_facts
from gpupool.simulate.cost import PriceTable, bundled


def rule_modules() -> tuple[ModuleType, ...]:
    from gpupool.rules import family

    return tuple(r.module for r in family("gpupool.doctor.rules"))


# what settles a rule that could not conclude: the read it needs
SETTLE = {
    "daemonsets": "list daemonsets.apps in all namespaces (kubectl get daemonsets -A)",
    "events": "list events in all namespaces (kubectl get events -A)",
    "configmaps": "list configmaps in kube-system and the GPU stack's namespaces",
    "clusterpolicies": "list clusterpolicies.nvidia.com (kubectl get clusterpolicies.nvidia.com)",
    "logs": "get pods/log of the GPU stack's pods (kubectl logs)",
    "nodes": "list nodes",
    "pods": "list pods in all namespaces",
    "nodeclaims": "list nodeclaims.karpenter.sh (kubectl get nodeclaims.karpenter.sh)",
    "karpenternodepools": "list nodepools.karpenter.sh (kubectl get nodepools.karpenter.sh)",
}


def cannot_tell(mod: ModuleType, missing: list[str], snap: Snapshot) -> Finding:
    """The one info a rule gives instead of a conclusion when a kind it reads could not be read."""
    why = "; ".join(snap.unread[k] for k in missing)
    return Finding(
        rule=mod.ID,
        severity=Severity.INFO,
        message=f"cannot tell: could not read {', '.join(missing)} ({mod.SUMMARY[:1].lower()}"
        f"{mod.SUMMARY[1:]}?)",
        object="cluster",
        fix="to settle it, let doctor " + " and ".join(SETTLE.get(k, k) for k in missing) + ", and run again",
        extra={"stage": "input", "evidence": [why], "cannotTell": list(missing)},
    )


def finding_key(f: Finding) -> tuple:
    stage = f.extra.get("stage", "pods")
    return (STAGES.index(stage) if stage in STAGES else len(STAGES), f.rule, f.object or "", f.message)


@dataclass
class DoctorResult:
    source: str
    findings: list[Finding]
    nodes: list[dict[str, Any]]
    pending: list[dict[str, Any]]
    summary: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "findings": [f.to_dict() for f in self.findings],
            "nodes": self.nodes,
            "pendingPods": self.pending,
            "summary": self.summary,
        }


def _node_row(n: view_mod.NodeView) -> dict[str, Any]:
    return {
        "name": n.name,
        "pool": n.pool,
        "vmSize": n.vm_size,
        "gpu": {
            "capacity": n.gpu("capacity"),
            "allocatable": n.gpu("allocatable"),
            "requested": dict(sorted(n.gpu_requested.items())),
        },
        "conditions": {
            str(c.get("type")): str(c.get("status"))
            for c in (n.obj.get("status") or {}).get("conditions") or []
            if isinstance(c, dict) and c.get("type")
        },
        "managed": n.managed,
    }


def diagnose(
    snap: Snapshot,
    prices: PriceTable | None = None,
    namespaces: list[str] | None = None,
    ignore: set[str] | None = None,
    pools: list | None = None,
) -> DoctorResult:
    """Diagnose ``snap``; ``pools``: designed pools (PoolSpec) to compare the nodes with (GP680)."""
    view = view_mod.build(snap, namespaces)
    ctx = Context(view, prices or bundled(), pools)
    findings: list[Finding] = []
    for mod in rule_modules():
        if ignore and mod.ID in ignore:
            continue
        missing = [k for k in mod.READS if k in snap.unread]
        if missing:
            findings.append(cannot_tell(mod, missing, snap))
            continue
        findings.extend(mod.check(ctx))
    findings.sort(key=finding_key)
    pending = []
    for p in ctx.pending:
        m = p.pod.get("metadata") or {}
        place = ctx.placement_of(p.pod)
        pending.append(
            {
                "pod": f"{m.get('namespace')}/{m.get('name')}",
                "owner": p.owner,
                "requests": p.requests,
                "scheduler": p.fit_text or None,
                "autoscaler": p.scale_up.text if p.scale_up else None,
                "simulated": place.message if place else None,
                "fitsNowOn": place.node if place else None,
                "wouldLandOn": place.would_land if place else None,
                "pools": {
                    name: {"nodes": v.nodes, "fit": v.fits, "reasons": dict(sorted(v.reasons.items()))}
                    for name, v in sorted(place.pools.items())
                }
                if place
                else {},
            }
        )
    gpu_nodes = view.gpu_nodes
    counts = {s.value: sum(1 for f in findings if f.severity is s) for s in Severity}
    summary = {
        "nodes": len(view.nodes),
        "gpuNodes": len(gpu_nodes),
        "gpuNodesAdvertising": sum(1 for n in gpu_nodes if n.advertises_gpu),
        "pods": len(snap.pods),
        "pendingGpuPods": len(ctx.pending),
        "findings": counts,
    }
    if snap.unread:
        summary["notRead"] = dict(sorted(snap.unread.items()))
    absent = (snap.meta or {}).get("notInstalled")
    if isinstance(absent, dict) and absent:  # optional APIs the cluster does not serve (a fact, not a gap)
        summary["notInstalled"] = sorted(str(k) for k in absent)
    s_ver = placement.cluster_version(view)
    summary["kubernetesVersion"] = sim_facts.version_text(placement.kubernetes_version(view))
    if s_ver is None:  # the cluster did not say: AKS's default was assumed for the scheduler's words
        summary["assumed"] = default_kubernetes_version().note()
    return DoctorResult(snap.source, findings, [_node_row(n) for n in gpu_nodes], pending, summary)
