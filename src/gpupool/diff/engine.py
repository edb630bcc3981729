"""Field-by-field diff of a node pool: what changes, and whether each change is an in-place ``update`` or
needs a new pool (``recreate``).

The classification comes from ``catalog/data/mutability.yaml`` (every row with its reason, source and
asOf); this module only decides which row applies to a change and builds the exact command. Warnings
about the changes (taints added in place, workloads that would not follow, ...) are rules GP4xx in
:mod:`gpupool.diff.rules`. Nothing here prints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from gpupool import catalog
from gpupool.catalog import mutability as table
from gpupool.catalog.mutability import RECREATE, UPDATE, FieldRule
from gpupool.design.node import plugin_mig_strategy
from gpupool.diff.adapters import command_line
from gpupool.findings import Finding, sort_key
from gpupool.rules import family
from gpupool.spec.azjson import AzPool
from gpupool.spec.model import SPOT_TAINT_KEY, PoolSpec, TimeSlicing

RULES_PACKAGE = "gpupool.diff.rules"
UPDATE_OS_SKUS = table.update_os_skus()
"""OS SKUs `az aks nodepool update --os-sku` takes (mutability.yaml updateOsSkus, from the Azure CLI)."""


@dataclass(frozen=True)
class Target:
    """The existing Azure node pool the commands address."""

    resource_group: str
    cluster_name: str
    name: str

    def base(self, verb: str) -> list[str]:
        return [
            "az",
            "aks",
            "nodepool",
            verb,
            "--resource-group",
            self.resource_group,
            "--cluster-name",
            self.cluster_name,
            "--name",
            self.name,
        ]


@dataclass(frozen=True)
class Change:
    field: str
    before: Any
    after: Any
    rule: FieldRule
    argv: tuple[str, ...] | None = None  # the in-place command, for updates done with az
    preview_argv: tuple[str, ...] | None = None
    note: str | None = None

    @property
    def action(self) -> str:
        return self.rule.action

    @property
    def command(self) -> str | None:
        return command_line(self.argv, 4) if self.argv else None

    @property
    def preview(self) -> str | None:
        """The preview-only in-place path, spelled out as such (never the default)."""
        pv = self.rule.preview
        if pv is None:
            return None
        if self.preview_argv is None:
            return f"not applicable here: {self.note or pv.note}"
        return f"{command_line(self.preview_argv, 4)}  # {pv.note}"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "field": self.field,
            "from": self.before,
            "to": self.after,
            "action": self.action,
            "reason": self.rule.reason,
            "source": self.rule.source_text,
            "asOf": self.rule.as_of,
            "command": self.command,
        }
        if self.rule.how:
            d["how"] = self.rule.how
        if self.rule.preview:
            d["preview"] = self.preview
        if self.rule.conflict:
            d["conflict"] = self.rule.conflict
        notes = [n for n in (self.note, self.rule.note) if n]
        if self.rule.min_cli:
            notes.append(f"needs Azure CLI >= {self.rule.min_cli}")
        if notes:
            d["note"] = "; ".join(notes)
        return d


@dataclass(frozen=True)
class DiffContext:
    """What the GP4xx rules look at."""

    current: PoolSpec
    desired: PoolSpec
    changes: tuple[Change, ...]
    current_az: AzPool | None = None
    follows: tuple[Any, ...] | None = None  # workloads.Follow, when --workloads was given
    migration: Any = None  # runbook.Migration

    @property
    def requires_new_pool(self) -> bool:
        return any(c.action == RECREATE for c in self.changes)

    def change(self, fld: str) -> Change | None:
        return next((c for c in self.changes if c.field == fld), None)

    def finding(
        self,
        rule: str,
        severity: Any,
        message: str,
        at: Iterable[str] = (),
        fix: str | None = None,
        pool: PoolSpec | None = None,
        **extra: Any,
    ) -> Finding:
        p = pool or self.desired
        return Finding(
            rule=rule,
            severity=severity,
            message=message,
            path=p.where.path,
            line=p.where.line_of(*at),
            object=f"pool {p.name}",
            fix=fix,
            extra=dict(extra),
        )


@dataclass(frozen=True)
class DiffResult:
    current: PoolSpec
    desired: PoolSpec
    target: Target
    changes: tuple[Change, ...]
    findings: tuple[Finding, ...] = ()
    not_compared: tuple[str, ...] = ()
    current_az: AzPool | None = None
    migration: Any = None  # runbook.Migration when a new pool is needed (and possible)
    follows: tuple[Any, ...] | None = None  # workloads.Follow per workload given with --workloads

    @property
    def requires_new_pool(self) -> bool:
        return any(c.action == RECREATE for c in self.changes)

    @property
    def has_changes(self) -> bool:
        return bool(self.changes)

    def commands(self) -> list[str]:
        """What takes CURRENT to DESIRED: the in-place commands, or the main steps of the migration."""
        if self.requires_new_pool:
            if self.migration is None:
                return []
            return [command_line(a, _words(a)) for a in self.migration.main_argvs()]
        seen: list[str] = []
        for c in self.changes:
            cmd = c.command
            if cmd and cmd not in seen:
                seen.append(cmd)
        return seen

    def to_dict(self) -> dict[str, Any]:
        return {
            "requiresNewPool": self.requires_new_pool,
            "pool": {
                "name": self.target.name,
                "resourceGroup": self.target.resource_group,
                "clusterName": self.target.cluster_name,
            },
            "changes": [c.to_dict() for c in self.changes],
            "commands": self.commands(),
            "newPool": self.migration.new.name if self.migration is not None else None,
            "notCompared": list(self.not_compared),
            "findings": [f.to_dict() for f in sorted(self.findings, key=sort_key)],
        }


def _words(argv: Sequence[str]) -> int:
    """Command words before the first option (az aks nodepool add -> 4, kubectl drain -> 2)."""
    n = 0
    for t in argv:
        if t.startswith("-"):
            break
        n += 1
    return n if argv[0] == "az" else min(n, 2)


# ---- comparing -----------------------------------------------------------------------------------


def _given(pool: PoolSpec, key: str) -> bool:
    return key in pool.where.fields


def _taints(pool: PoolSpec) -> list[str]:
    return [str(t) for t in pool.node_taints]


def _labels(pool: PoolSpec) -> dict[str, str]:
    return {
        k: v for k, v in pool.node_labels.items() if not (pool.priority == "Spot" and k == SPOT_TAINT_KEY)
    }


def _autoscaler(pool: PoolSpec) -> dict[str, int] | None:
    a = pool.autoscaler
    return {"minCount": a.min_count, "maxCount": a.max_count} if a else None


def _ts(ts: TimeSlicing | None) -> dict[str, Any] | None:
    if ts is None:
        return None
    return {
        "replicas": ts.replicas,
        "renameByDefault": ts.rename_by_default,
        "failRequestsGreaterThanOne": ts.fail_requests_greater_than_one,
    }


def _version(text: str) -> tuple[int, ...]:
    return catalog.version_tuple(text)


def _norm(text: str | None) -> str:
    return (text or "").strip().lower()


Compare = Callable[[PoolSpec, PoolSpec, Target, bool], "list[Change] | str | None"]


def _vm_size(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    if _norm(cur.vm_size) == _norm(des.vm_size):
        return []
    rule = table.rule("vmSize")
    old, new = catalog.vm_size(cur.vm_size), catalog.vm_size(des.vm_size)
    adding_gpu = new is not None and new.is_gpu and not (old is not None and old.is_gpu)
    preview = None if adding_gpu else tuple([*t.base("update"), "--node-vm-size", des.vm_size])
    note = "the preview resize cannot add a GPU VM size to an existing pool" if adding_gpu else None
    if old is not None and new is not None and old.arch != new.arch:
        preview, note = None, f"{old.name} ({old.arch}) -> {new.name} ({new.arch}): another architecture"
    return [Change("vmSize", cur.vm_size, des.vm_size, rule, preview_argv=preview, note=note)]


def _identity(fld: str, attr: str) -> Compare:
    def compare(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
        a, b = getattr(cur, attr), getattr(des, attr)
        same = a == b if fld == "name" else _norm(a) == _norm(b)
        return [] if same else [Change(fld, a, b, table.rule(fld))]

    return compare


def _location(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change] | str:
    if not des.location:
        return []
    if not cur.location:
        return "location (not in `az aks nodepool` JSON)" if from_az else []
    a, b = _norm(cur.location).replace(" ", ""), _norm(des.location).replace(" ", "")
    return [] if a == b else [Change("location", cur.location, des.location, table.rule("location"))]


def _k8s(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    if not des.kubernetes_version or not cur.kubernetes_version:
        return []
    want = _version(des.kubernetes_version)
    have = _version(cur.kubernetes_version)[: len(want)]
    if have == want:
        return []
    if want > have:
        argv = tuple([*t.base("upgrade"), "--kubernetes-version", des.kubernetes_version])
        return [
            Change(
                "kubernetesVersion",
                cur.kubernetes_version,
                des.kubernetes_version,
                table.rule("kubernetesVersion", "upgrade"),
                argv=argv,
            )
        ]
    return [
        Change(
            "kubernetesVersion",
            cur.kubernetes_version,
            des.kubernetes_version,
            table.rule("kubernetesVersion", "downgrade"),
        )
    ]


def _mode(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    if cur.mode == des.mode:
        return []
    note = "keep at least one other System pool in the cluster" if des.mode == "User" else None
    return [
        Change(
            "mode",
            cur.mode,
            des.mode,
            table.rule("mode"),
            argv=tuple([*t.base("update"), "--mode", des.mode]),
            note=note,
        )
    ]


def _os_sku(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    if not _given(des, "osSku") or _norm(cur.os_sku) == _norm(des.os_sku):
        return []
    ok = {s.lower() for s in UPDATE_OS_SKUS}
    if _norm(cur.os_sku) in ok and _norm(des.os_sku) in ok:
        return [
            Change(
                "osSku",
                cur.os_sku,
                des.os_sku,
                table.rule("osSku", "migrate"),
                argv=tuple([*t.base("update"), "--os-sku", des.os_sku]),
            )
        ]
    return [Change("osSku", cur.os_sku, des.os_sku, table.rule("osSku", "other"))]


def _priority(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    if cur.priority == des.priority:
        return []
    return [Change("priority", cur.priority, des.priority, table.rule("priority"))]


def _spot_max_price(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    if not _given(des, "spotMaxPrice") or cur.priority != "Spot" or des.priority != "Spot":
        return []
    if cur.spot_max_price == des.spot_max_price:
        return []
    return [Change("spotMaxPrice", cur.spot_max_price, des.spot_max_price, table.rule("spotMaxPrice"))]


def _eviction_policy(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    if not _given(des, "evictionPolicy") or cur.priority != "Spot" or des.priority != "Spot":
        return []
    if cur.eviction_policy == des.eviction_policy:
        return []
    return [Change("evictionPolicy", cur.eviction_policy, des.eviction_policy, table.rule("evictionPolicy"))]


def _autoscale(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    a, b = _autoscaler(cur), _autoscaler(des)
    if a == b:
        return []
    rule = table.rule("autoscaler")
    if b is None:
        argv = [*t.base("update"), "--disable-cluster-autoscaler"]
        note = "the pool keeps its current node count; scale it with az aks nodepool scale"
    else:
        flag = "--enable-cluster-autoscaler" if a is None else "--update-cluster-autoscaler"
        argv = [*t.base("update"), flag, "--min-count", str(b["minCount"]), "--max-count", str(b["maxCount"])]
        note = None
        if des.is_gpu_pool and des.gpu_settings.managed:
            note = "managed GPU pools (preview) take no cluster autoscaler: AKS will refuse this"
    return [Change("autoscaler", a, b, rule, argv=tuple(argv), note=note)]


def _node_count(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    if des.autoscaler is not None or not _given(des, "nodeCount") or cur.node_count == des.node_count:
        return []
    argv = [
        "az",
        "aks",
        "nodepool",
        "scale",
        "--resource-group",
        t.resource_group,
        "--cluster-name",
        t.cluster_name,
        "--name",
        t.name,
        "--node-count",
        str(des.node_count),
    ]
    note = None
    if des.node_count < cur.node_count:
        note = "scaling in removes nodes: their pods are evicted (PodDisruptionBudgets are respected)"
    return [
        Change(
            "nodeCount", cur.node_count, des.node_count, table.rule("nodeCount"), argv=tuple(argv), note=note
        )
    ]


def _node_labels(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    a, b = _labels(cur), _labels(des)
    if a == b:
        return []
    argv = [*t.base("update"), "--labels", *(f"{k}={v}" for k, v in b.items())]
    note = "--labels replaces every label of the pool" + (
        "; given with no value it clears them" if not b else ""
    )
    return [Change("nodeLabels", a, b, table.rule("nodeLabels"), argv=tuple(argv), note=note)]


def _node_taints(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    a, b = _taints(cur), _taints(des)
    if set(map(str, cur.effective_taints)) == set(map(str, des.effective_taints)):
        return []
    argv = [*t.base("update"), "--node-taints", ",".join(b)]
    note = "an empty value clears every taint" if not b else None
    return [Change("nodeTaints", a, b, table.rule("nodeTaints"), argv=tuple(argv), note=note)]


def _max_pods(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    if des.max_pods is None or cur.max_pods is None or cur.max_pods == des.max_pods:
        return []
    return [Change("maxPods", cur.max_pods, des.max_pods, table.rule("maxPods"))]


def _zones(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    if not _given(des, "zones") or sorted(cur.zones) == sorted(des.zones):
        return []
    return [Change("zones", list(cur.zones), list(des.zones), table.rule("zones"))]


def _gpu_any(cur: PoolSpec, des: PoolSpec) -> bool:
    return cur.is_gpu_pool or des.is_gpu_pool


def _gpu_driver(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    a, b = cur.gpu_settings.driver, des.gpu_settings.driver
    if not _gpu_any(cur, des) or a == b:
        return []
    return [Change("gpu.driver", a, b, table.rule("gpu.driver"))]


def _gpu_managed(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    a, b = cur.gpu_settings.managed, des.gpu_settings.managed
    if not _gpu_any(cur, des) or a == b:
        return []
    return [Change("gpu.managed", a, b, table.rule("gpu.managed"))]


def _gpu_profile(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change]:
    a, b = cur.gpu_settings.instance_profile, des.gpu_settings.instance_profile
    if not _gpu_any(cur, des) or a == b:
        return []
    return [Change("gpu.instanceProfile", a, b, table.rule("gpu.instanceProfile"))]


def _gpu_mig_strategy(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change] | str:
    if not _gpu_any(cur, des):
        return []
    cg, dg = cur.gpu_settings, des.gpu_settings
    managed = cg.managed or dg.managed
    if not managed and from_az:
        return "gpu.migStrategy (a device plugin setting on pools that are not managed; not in az JSON)"
    # Compared by what the device plugin does (single/mixed/none), so equivalent spellings are no change.
    if plugin_mig_strategy(cur) == plugin_mig_strategy(des):
        return []
    case = "managed" if managed else "plugin"
    note = None if managed else "re-render the device plugin from DESIRED (gpupool render) and apply it"
    return [
        Change(
            "gpu.migStrategy",
            cg.effective_mig_strategy,
            dg.effective_mig_strategy,
            table.rule("gpu.migStrategy", case),
            note=note,
        )
    ]


def _gpu_time_slicing(cur: PoolSpec, des: PoolSpec, t: Target, from_az: bool) -> list[Change] | str:
    if not _gpu_any(cur, des):
        return []
    a, b = _ts(cur.gpu_settings.time_slicing), _ts(des.gpu_settings.time_slicing)
    if from_az:
        return "gpu.sharing.timeSlicing (device plugin config; not in az JSON)" if b else []
    if a == b:
        return []
    return [
        Change(
            "gpu.sharing.timeSlicing",
            a,
            b,
            table.rule("gpu.sharing.timeSlicing"),
            note="re-render the device plugin config from DESIRED (gpupool render) and apply it",
        )
    ]


COMPARERS: dict[str, Compare] = {
    "name": _identity("name", "name"),
    "resourceGroup": _identity("resourceGroup", "resource_group"),
    "clusterName": _identity("clusterName", "cluster_name"),
    "location": _location,
    "vmSize": _vm_size,
    "kubernetesVersion": _k8s,
    "mode": _mode,
    "osSku": _os_sku,
    "priority": _priority,
    "spotMaxPrice": _spot_max_price,
    "evictionPolicy": _eviction_policy,
    "autoscaler": _autoscale,
    "nodeCount": _node_count,
    "nodeLabels": _node_labels,
    "nodeTaints": _node_taints,
    "maxPods": _max_pods,
    "zones": _zones,
    "gpu.driver": _gpu_driver,
    "gpu.managed": _gpu_managed,
    "gpu.instanceProfile": _gpu_profile,
    "gpu.migStrategy": _gpu_mig_strategy,
    "gpu.sharing.timeSlicing": _gpu_time_slicing,
}


def compare(
    current: PoolSpec, desired: PoolSpec, target: Target, from_az: bool = False
) -> tuple[list[Change], list[str]]:
    """Every changed field (in table order) and the fields that could not be compared."""
    changes: list[Change] = []
    skipped: list[str] = []
    for fld in table.fields():
        fn = COMPARERS.get(fld)
        if fn is None:  # pragma: no cover - a data row without code is a packaging bug
            raise RuntimeError(f"mutability.yaml classifies {fld} but diff has no comparer for it")
        out = fn(current, desired, target, from_az)
        if isinstance(out, str):
            skipped.append(out)
        elif out:
            changes.extend(out)
    return changes, skipped


def target_of(
    current: PoolSpec,
    current_az: AzPool | None = None,
    resource_group: str | None = None,
    cluster_name: str | None = None,
) -> Target:
    rg = resource_group or (current_az.resource_group if current_az else current.resource_group)
    cluster = cluster_name or (current_az.cluster_name if current_az else current.cluster_name)
    return Target(rg, cluster, current.name)


def run_rules(ctx: DiffContext) -> list[Finding]:
    out: list[Finding] = []
    for info in family(RULES_PACKAGE):
        out.extend(info.module.check(ctx))
    return sorted(out, key=sort_key)


__all__ = [
    "RECREATE",
    "UPDATE",
    "Change",
    "DiffContext",
    "DiffResult",
    "Target",
    "compare",
    "run_rules",
    "target_of",
]
