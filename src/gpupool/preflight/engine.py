"""The preflight engine: pool specs + what Azure says (model.Inputs) -> findings (GP7xx).

Every rule is a module in :mod:`gpupool.preflight.rules` with ``check(ctx)``. The engine works out, once,
each pool's region, cluster, VM size (list-skus first, the catalog second), the nodes it may run at most
(``autoscaler.maxCount`` or ``nodeCount``) plus the upgrade surge, and the vCPUs every quota counter
needs summed over all pools (pools of one family share the family's quota). A check whose input is
missing is skipped and named in :attr:`Result.skipped`. Pure: no I/O, no clock.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gpupool import catalog
from gpupool.errors import InputError
from gpupool.findings import Finding, Severity, about_pool, sort_key
from gpupool.preflight.inputs import facts
from gpupool.preflight.model import Cluster, Inputs, Sku, norm
from gpupool.rules import RuleInfo, family
from gpupool.spec.model import PoolSpec

RULES_PACKAGE = "gpupool.preflight.rules"


@dataclass(frozen=True)
class QuotaNeed:
    """vCPUs a quota counter must have free for every pool that uses it."""

    counter: str  # name.value in list-usage (a family, cores, lowPriorityCores)
    vcpus: int
    pools: tuple[str, ...]  # "gpunp (4 nodes + 1 surge) x 8 vCPUs"
    shares: tuple[dict[str, Any], ...] = ()  # the same per pool: pool, nodes, surge, vcpusPerNode, vcpus
    first: PoolSpec | None = None  # the pool the finding is reported on (pool names may repeat across files)


@dataclass(frozen=True)
class PoolContext:
    pool: PoolSpec
    inputs: Inputs
    region: str | None
    cluster: Cluster | None
    sku: Sku | None  # list-skus row
    size: catalog.VmSize | None  # catalog row
    nodes: int  # most nodes the pool runs
    surge: int  # extra nodes during an upgrade
    vcpus: int | None  # per node
    quota_family: str | None
    quota_family_from: str  # list-skus | catalog (a catalog family name may be [UNVERIFIED]) | none
    needs: dict[str, QuotaNeed] = field(default_factory=dict)  # norm(counter) -> summed need (all pools)
    new_pools_of_cluster: tuple[str, ...] = ()  # names of the run's pools in this pool's cluster, in order

    @property
    def kubernetes_version(self) -> str | None:
        """The pool's version: the spec's, else the cluster's (a new pool follows the control plane)."""
        if self.pool.kubernetes_version:
            return self.pool.kubernetes_version
        return self.cluster.kubernetes_version if self.cluster else None

    @property
    def version_from(self) -> str:
        return "spec" if self.pool.kubernetes_version else "cluster"

    def finding(
        self,
        rule: str,
        severity: Severity,
        message: str,
        at: Iterable[str] = (),
        fix: str | None = None,
        **extra: Any,
    ) -> Finding:
        return about_pool(self.pool, rule, severity, message, at, fix, **extra)


@dataclass
class Result:
    findings: list[Finding]
    pools: int
    skipped: list[str]
    quota: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {"skipped": list(self.skipped), "quota": list(self.quota)}


def preflight_rules() -> tuple[RuleInfo, ...]:
    return family(RULES_PACKAGE)


def surge_nodes(nodes: int) -> int:
    s = facts()["surge"]
    return max(int(s["minimum"]), math.ceil(nodes * int(s["percent"]) / 100))


def _region(pool: PoolSpec, cluster: Cluster | None, inputs: Inputs) -> str | None:
    for r in (pool.location, cluster.location if cluster else None, inputs.location):
        if r:
            return r
    if inputs.skus is not None and len(inputs.skus.regions) == 1:
        return next(iter(inputs.skus.regions))
    return None


def contexts(pools: list[PoolSpec], inputs: Inputs) -> list[PoolContext]:
    q = facts()["quota"]
    needs: dict[str, QuotaNeed] = {}  # every context shares it; filled once all pools are known
    by_cluster: dict[str, list[str]] = {}
    for p in pools:
        by_cluster.setdefault(p.cluster_name.lower(), []).append(p.name)
    out: list[PoolContext] = []
    for p in pools:
        cluster = inputs.cluster(p.cluster_name)
        if cluster and cluster.location and p.location and norm(cluster.location) != norm(p.location):
            raise InputError(
                p.where.path,
                p.where.line_of("location", "name"),
                f"pool {p.name} names {p.location}, but cluster {cluster.name} ({cluster.path}) is in "
                f"{cluster.location}: a node pool is always in its cluster's region",
                f"write location: {cluster.location}, or give the az aks show output of the pool's cluster",
            )
        region = _region(p, cluster, inputs)
        if (
            inputs.skus is not None
            and region
            and inputs.skus.regions
            and norm(region) not in inputs.skus.regions
        ):
            raise InputError(
                p.where.path,
                p.where.line_of("location", "name"),
                f"pool {p.name} is in {region}, but {inputs.skus.path} lists sizes of "
                f"{', '.join(sorted(inputs.skus.regions))} only",
                "make the az files of the pool's region (see --print-commands); one region per run",
            )
        sku = inputs.skus.get(p.vm_size) if inputs.skus else None
        size = catalog.vm_size(p.vm_size)
        vcpus = sku.vcpus if sku and sku.vcpus else (size.vcpu if size else None)
        family_name = (sku.family if sku else None) or (size.quota_family if size else None)
        nodes = p.autoscaler.max_count if p.autoscaler else p.node_count
        out.append(
            PoolContext(
                p,
                inputs,
                region,
                cluster,
                sku,
                size,
                nodes,
                surge_nodes(nodes) if nodes else 0,
                vcpus,
                family_name,
                "list-skus" if sku and sku.family else ("catalog" if family_name else "none"),
                needs,
                tuple(by_cluster[p.cluster_name.lower()]),
            )
        )

    def add(counter: str, vcpus: int, why: str, share: dict[str, Any], pool: PoolSpec) -> None:
        k = norm(counter)
        old = needs.get(k)
        needs[k] = QuotaNeed(
            counter,
            (old.vcpus if old else 0) + vcpus,
            (*(old.pools if old else ()), why),
            (*(old.shares if old else ()), share),
            old.first if old else pool,
        )

    for c in out:
        p, vcpus, fam, nodes, surge = c.pool, c.vcpus, c.quota_family, c.nodes, c.surge
        if not vcpus or not nodes:
            continue
        total = (nodes + surge) * vcpus
        why = f"{p.name} ({nodes} node{'' if nodes == 1 else 's'} + {surge} surge) x {vcpus} vCPUs"
        share = {"pool": p.name, "nodes": nodes, "surge": surge, "vcpusPerNode": vcpus, "vcpus": total}
        if p.priority == "Spot":
            add(q["spot"], total, why, share, p)
        else:
            add(q["regional"], total, why, share, p)
            if fam:
                add(fam, total, why, share, p)
    return out


def _skipped(inputs: Inputs, pools: list[PoolSpec]) -> list[str]:
    out = []
    if inputs.skus is None:
        out.append("sizes in the region and zones (no az vm list-skus output)")
    if inputs.usage is None:
        out.append("vCPU quota (no az vm list-usage output)")
    if inputs.versions is None:
        out.append("Kubernetes versions offered in the region (no az aks get-versions output)")
    missing = sorted({p.cluster_name for p in pools if inputs.cluster(p.cluster_name) is None})
    if missing:
        given = sorted(c.name for c in inputs.clusters.values())
        have = f"; the az aks show output given is for {', '.join(given)}" if given else ""
        out.append(f"cluster version and network (no az aks show output for {', '.join(missing)}{have})")
    for c in sorted(inputs.clusters.values(), key=lambda c: c.name.lower()):
        if not any(inputs.cluster(p.cluster_name) is c for p in pools):
            continue
        if c.network is None:
            out.append(
                f"pods per node of cluster {c.name} (network plugin {c.network_plugin!r} is not one gpupool "
                f"knows; {c.path})"
            )
        if c.kubernetes_version is None:
            out.append(f"the control plane's Kubernetes version of cluster {c.name} ({c.path} gives none)")
    if inputs.az_version is None:
        out.append("Azure CLI and aks-preview versions (no az version output)")
    return out


def run(pools: list[PoolSpec], inputs: Inputs) -> Result:
    ctxs = contexts(pools, inputs)
    findings: list[Finding] = []
    rules = preflight_rules()
    for ctx in ctxs:
        for rule in rules:
            findings.extend(rule.module.check(ctx))
    quota = []
    if ctxs and inputs.usage is not None:
        for need in ctxs[0].needs.values():
            row = inputs.usage.get(need.counter)
            quota.append(
                {
                    "counter": need.counter,
                    "need": need.vcpus,
                    "used": row.current if row else None,
                    "limit": row.limit if row else None,
                    "pools": [dict(x) for x in need.shares],
                }
            )
    findings = sorted(findings, key=sort_key)
    return Result(findings=findings, pools=len(pools), skipped=_skipped(inputs, pools), quota=quota)
