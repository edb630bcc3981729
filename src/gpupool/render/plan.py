"""``gpupool plan``: the check, then per pool what each node advertises, what is final at creation, and
the commands that create it. Pure: pools in, a :class:`Plan` out; the CLI prints it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpupool import catalog
from gpupool.catalog.aks import default_kubernetes_version
from gpupool.design.node import Advertised, advertised, node_labels
from gpupool.findings import Finding, Severity
from gpupool.spec.model import PoolSpec


@dataclass(frozen=True)
class FinalSetting:
    field: str
    value: str
    reason: str
    source: str


@dataclass
class PoolPlan:
    pool: PoolSpec
    advertised: Advertised
    labels: dict[str, str]
    final: list[FinalSetting]
    commands: list[list[str]]
    findings: list[Finding] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        p = self.pool
        size = catalog.vm_size(p.vm_size)
        lo, hi = node_range(p)
        return {
            "name": p.name,
            "kind": p.kind,
            "cluster": p.cluster_name,
            "resourceGroup": p.resource_group,
            "vmSize": p.vm_size,
            "gpuModel": size.gpu.model if size and size.gpu else None,
            "gpusPerNode": size.gpus_number() if size else None,
            "gpusPerNodeText": size.gpus_text() if size else None,
            "vcpu": size.vcpu if size else None,
            "memoryGiB": size.memory_gib if size else None,
            "kubernetesVersion": p.kubernetes_version or default_kubernetes_version().minor,
            "kubernetesVersionAssumed": not p.kubernetes_version,
            "mode": p.mode,
            "osSku": p.os_sku,
            "priority": p.priority,
            "nodes": {"min": lo, "max": hi, "initial": p.node_count},
            "taints": [str(t) for t in p.effective_taints],
            "advertised": dict(self.advertised.resources),
            "advertisedTotal": {
                "min": {k: v * lo for k, v in self.advertised.resources.items()},
                "max": {k: v * hi for k, v in self.advertised.resources.items()},
            },
            "devicePlugin": self.advertised.plugin,
            "notes": list(self.advertised.notes),
            "labels": self.labels,
            "finalAtCreation": [s.__dict__ for s in self.final],
            "commands": self.commands,
        }


@dataclass
class Plan:
    pools: list[PoolPlan]
    findings: list[Finding]
    refused: bool = False  # an error finding: no commands (render writes nothing either)


def node_range(pool: PoolSpec) -> tuple[int, int]:
    if pool.autoscaler is not None:
        return pool.autoscaler.min_count, pool.autoscaler.max_count
    return pool.node_count, pool.node_count


IDENTITY_FIELDS = ("name", "resourceGroup", "clusterName", "location")


def _spec_value(pool: PoolSpec, fld: str) -> str:
    g = pool.gpu_settings
    values = {
        "vmSize": pool.vm_size,
        "osSku": pool.os_sku,
        "priority": pool.priority,
        "gpu.driver": g.driver,
        "gpu.managed": str(g.managed).lower(),
        "gpu.instanceProfile": g.instance_profile or "none",
        "gpu.migStrategy": g.effective_mig_strategy,
        "maxPods": str(pool.max_pods) if pool.max_pods else "AKS default",
        "zones": ",".join(pool.zones) if pool.zones else "none (regional)",
        "spotMaxPrice": (
            "-1 (up to the on-demand price)" if pool.spot_max_price == -1 else f"{pool.spot_max_price:g}"
        ),
        "evictionPolicy": pool.eviction_policy,
    }
    return values.get(fld, "")


def final_settings(pool: PoolSpec) -> list[FinalSetting]:
    """The spec's values that cannot change without a new pool, per the diff mutability table
    (``catalog/data/mutability.yaml``: one source of truth for plan and diff)."""
    from gpupool.catalog import mutability as table

    out = []
    for fld in table.fields():
        if fld in IDENTITY_FIELDS:
            continue
        if fld.startswith("gpu.") and not pool.is_gpu_pool:
            continue
        if fld in ("spotMaxPrice", "evictionPolicy") and pool.priority != "Spot":
            continue  # Spot-only settings: nothing to fix on a Regular pool
        if fld == "gpu.migStrategy":
            rule = table.rule(fld, "managed" if pool.gpu_settings.managed else "plugin")
        elif fld == "osSku":
            rule = table.rule(fld, "other")
        else:
            cases = [r for (f, _), r in table.table().items() if f == fld]
            if not cases or any(r.action != table.RECREATE for r in cases):
                continue
            rule = cases[0]
        if rule.action != table.RECREATE:
            continue
        out.append(FinalSetting(fld, _spec_value(pool, fld), rule.reason, rule.source_text))
    return out


def plan_pools(
    pools: list[PoolSpec], settle: Callable[[list[Finding]], list[Finding]] | None = None
) -> Plan:
    """``settle``: what the caller's config makes of the findings (levels, ignores) before a spec with an
    error is refused."""
    from gpupool.design.check import check_pools
    from gpupool.render.az import nodepool_add_argv

    findings = check_pools(pools)
    if settle is not None:
        findings = settle(findings)
    # A spec with an error is refused as render refuses it: no command that would create a pool AKS rejects
    # or that cannot work (the findings say why).
    refused = any(f.severity is Severity.ERROR for f in findings)
    plans = []
    for pool in pools:
        plans.append(
            PoolPlan(
                pool=pool,
                advertised=advertised(pool),
                labels=node_labels(pool),
                final=final_settings(pool),
                commands=[] if refused else [nodepool_add_argv(pool)],
                findings=[f for f in findings if f.object and f.object.endswith(f" {pool.name}")],
            )
        )
    return Plan(plans, findings, refused)
