"""Facts of kube-scheduler, the kubelet on AKS and the cluster autoscaler, by version, from
``k8s/data/*.yaml`` (each block cites its source and asOf); simulate, lint and doctor read them.

- :func:`messages` kube-scheduler / cluster-autoscaler texts by Kubernetes version (``scheduler.yaml``)
- :class:`Reservations` AKS kube-reserved and eviction thresholds -> node allocatable (``aks.yaml``)
- :func:`autoscaler` how the cluster autoscaler builds an AKS node template at zero (``aks.yaml``)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from gpupool import yamlio
from gpupool.errors import InputError

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MIB = 2**20
GIB = 2**30
LATEST_PATCH = 10**6  # "1.34" reads as the newest patch of 1.34
_VERSION_RE = re.compile(r"^v?(\d+)\.(\d+)(?:\.(\d+))?$")


@cache
def _data(name: str) -> Any:
    text = resources.files("gpupool.k8s").joinpath("data", name).read_text(encoding="utf-8")
    return yaml.load(text, Loader=_Loader)


def parse_version(text: str) -> tuple[int, int, int]:
    """``"1.34"`` -> (1, 34, LATEST_PATCH); ``"1.34.1"`` -> (1, 34, 1). Raises ValueError."""
    m = _VERSION_RE.match(str(text).strip())
    if not m:
        raise ValueError(f"{text!r} is not a Kubernetes version such as 1.35 or 1.34.1")
    patch = int(m.group(3)) if m.group(3) is not None else LATEST_PATCH
    return int(m.group(1)), int(m.group(2)), patch


def version_text(v: tuple[int, int, int]) -> str:
    return f"{v[0]}.{v[1]}" if v[2] == LATEST_PATCH else f"{v[0]}.{v[1]}.{v[2]}"


def _from(text: str) -> tuple[int, int, int]:
    """A threshold "1.28" means 1.28.0."""
    m = _VERSION_RE.match(text)
    assert m, text
    return int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)


# ---- messages --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Messages:
    """The texts one Kubernetes version prints."""

    version: tuple[int, int, int]
    no_nodes: str
    fit_error: str
    unschedulable: str
    node_affinity: str
    affinity_conflict: str
    absent_nodes: str
    too_many_pods: str
    insufficient: str
    taint_text: str
    taint_generic: bool
    preemption_prefix: str
    not_helpful: str
    no_victims: str
    never: str
    double_period: bool
    dra_post_filter: str | None  # DynamicResources' PostFilter reason, printed before "preemption: "
    fit_unresolvable: bool  # a node that can never hold the request is not a preemption candidate
    ca_triggered: str
    ca_triggered_group: str
    ca_not_triggered: str
    ca_max_size: str
    ordered_ties: bool = False  # equal best scores: the heap's pre-order first (1.35+), not at random
    ordered_ties_below: int = 100  # ... where the scheduler filters every node (fewer nodes than this)

    def taint(self, key: str, value: str) -> str:
        if self.taint_generic:
            return self.taint_text
        return self.taint_text.format(key=key, value=value)

    def insufficient_of(self, resource: str) -> str:
        return self.insufficient.format(resource=resource)


def newest_version() -> tuple[int, int, int]:
    """The newest Kubernetes minor AKS's calendar lists as GA today (catalog data): the top of the range
    simulate renders, never a default."""
    from gpupool import catalog

    return parse_version(catalog.newest_kubernetes_version())


def default_version() -> tuple[int, int, int]:
    """The version a run assumes when nothing says one: AKS's default (catalog.aks.default_kubernetes_version,
    the same for every command)."""
    from gpupool.catalog import aks

    return parse_version(aks.default_kubernetes_version().minor)


def scheduler_version(
    explicit: str | None, pool_versions: Any = (), cluster: tuple[int, int, int] | None = None
) -> tuple[int, int, int]:
    """The version whose scheduler words a run quotes: the one given (``--kubernetes-version``), else the
    cluster's own (``--live``/``--snapshot``), else the newest a pool states, else :func:`default_version`.
    Raises ValueError on a malformed version."""
    if explicit:
        return parse_version(explicit)
    if cluster is not None:
        return cluster
    given = [parse_version(v) for v in pool_versions if v]
    return max(given) if given else default_version()


def version_assumed(explicit: str | None, pool_versions: Any = (), cluster: Any = None) -> bool:
    """True when :func:`scheduler_version` fell back to AKS's default (nothing stated a version)."""
    return not explicit and cluster is None and not any(pool_versions)


def oldest_version() -> tuple[int, int, int]:
    return _from(_data("scheduler.yaml")["oldestVersion"])


@cache
def messages(version: tuple[int, int, int]) -> Messages:
    d = _data("scheduler.yaml")
    taint = next((t for t in d["taint"] if version >= _from(t["fromVersion"])), d["taint"][-1])
    r, p, a = d["reasons"], d["preemption"], d["autoscaler"]
    return Messages(
        version=version,
        no_nodes=d["noNodes"],
        fit_error=d["fitError"],
        unschedulable=r["unschedulable"],
        node_affinity=r["nodeAffinity"],
        affinity_conflict=r["affinityConflict"],
        absent_nodes=r["absentNodes"],
        too_many_pods=r["tooManyPods"],
        insufficient=r["insufficient"],
        taint_text=taint["text"],
        taint_generic="{" not in taint["text"],
        preemption_prefix=p["prefix"],
        not_helpful=p["notHelpful"],
        no_victims=p["noVictims"],
        never=p["never"],
        double_period=version < _from(d["postFilterDoublePeriodBefore"]),
        dra_post_filter=d["draPostFilter"]["text"]
        if version >= _from(d["draPostFilter"]["fromVersion"])
        else None,
        fit_unresolvable=version >= _from(d["fitUnresolvable"]["fromVersion"]),
        ordered_ties=version >= _from(d["orderedTieBreak"]["fromVersion"]),
        ordered_ties_below=int(d["orderedTieBreak"]["allNodesBelow"]),
        ca_triggered=a["triggered"],
        ca_triggered_group=a["triggeredGroup"],
        ca_not_triggered=a["notTriggered"],
        ca_max_size=a["maxNodeGroupSize"],
    )


def builtin_priorities() -> dict[str, int]:
    return dict(_data("scheduler.yaml")["priorities"]["builtin"])


def daemonset_tolerations(host_network: bool) -> list[dict[str, str]]:
    d = _data("scheduler.yaml")["daemonSetTolerations"]
    out = [dict(t) for t in d["always"]]
    if host_network:
        out += [dict(t) for t in d["hostNetwork"]]
    return out


@dataclass(frozen=True)
class Scoring:
    non_zero_cpu_milli: int
    non_zero_memory: int
    w_fit: int
    w_balanced: int
    w_taint: int
    w_affinity: int
    w_spread: int = 2
    spread_defaults: tuple[tuple[str, int], ...] = ()  # (topologyKey, maxSkew), system defaults
    spread_owners: frozenset[str] = frozenset()  # workload kinds whose pods spread by default


@cache
def scoring() -> Scoring:
    s = _data("scheduler.yaml")["scoring"]
    w = s["weights"]
    return Scoring(
        int(s["nonZeroCpuMilli"]),
        int(s["nonZeroMemoryBytes"]),
        int(w["NodeResourcesFit"]),
        int(w["NodeResourcesBalancedAllocation"]),
        int(w["TaintToleration"]),
        int(w["NodeAffinity"]),
        int(w["PodTopologySpread"]),
        tuple((str(c["topologyKey"]), int(c["maxSkew"])) for c in s["defaultSpread"]),
        frozenset(str(k) for k in s["spreadOwners"]),
    )


# ---- reservations ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MemoryRule:
    from_version: tuple[int, int, int]
    per_pod_mib: int | None = None
    base_mib: int | None = None
    max_fraction: Fraction | None = None
    tiers: tuple[tuple[int | None, Fraction], ...] = ()
    eviction_mib: int = 0


@dataclass(frozen=True)
class Reservations:
    """AKS node reservations: capacity -> allocatable; ``Reservations.none()``: allocatable = capacity."""

    cpu_tiers: tuple[tuple[int | None, int], ...]
    memory: tuple[MemoryRule, ...]
    windows_extra_gib: int
    source: str
    as_of: str
    formula: str

    @staticmethod
    def none() -> Reservations:
        return Reservations((), (), 0, "none (allocatable = capacity)", "", "allocatable = capacity")

    def cpu_milli(self, vcpu: int) -> int:
        """kube-reserved CPU in millicores for a node with ``vcpu`` cores."""
        left, total = vcpu, 0
        for cores, per_core in self.cpu_tiers:
            n = left if cores is None else min(left, cores)
            total += n * per_core
            left -= n
            if left <= 0:
                break
        return total

    def memory_bytes(
        self, memory: int, max_pods: int, version: tuple[int, int, int], windows: bool = False
    ) -> int:
        """kube-reserved + eviction threshold (+ Windows system reserve) in bytes."""
        rule = next((r for r in self.memory if version >= r.from_version), None)
        total = 0
        if rule is not None:
            if rule.per_pod_mib is not None:
                by_pods = (rule.per_pod_mib * max_pods + (rule.base_mib or 0)) * MIB
                cap = int(memory * rule.max_fraction) if rule.max_fraction is not None else by_pods
                total += min(by_pods, cap)
            else:
                left, acc = Fraction(memory), Fraction(0)
                for gib, frac in rule.tiers:
                    chunk = left if gib is None else min(left, Fraction(gib * GIB))
                    acc += chunk * frac
                    left -= chunk
                    if left <= 0:
                        break
                total += int(acc)
            total += rule.eviction_mib * MIB
        if windows:
            total += self.windows_extra_gib * GIB
        return total

    def to_dict(self) -> dict[str, Any]:
        return {"formula": self.formula, "source": self.source, "asOf": self.as_of}


def _reservations_from(d: Any, where: str, line_of: Any = None) -> Reservations:
    def bad(msg: str) -> InputError:
        return InputError(where, line_of(d) if line_of else None, f"reservations: {msg}")

    if not isinstance(d, dict):
        raise bad("expected a mapping with cpu and memory")
    for key in d:
        if key not in ("source", "asOf", "formula", "cpu", "memory", "windowsExtraGiB"):
            raise bad(f'unknown field "{key}"')
    try:
        cpu = d.get("cpu") or {}
        tiers = tuple((None if c is None else int(c), int(m)) for c, m in (cpu.get("tiers") or []))
        rules = []
        for r in d.get("memory") or []:
            kr = r.get("kubeReserved")
            tiers_m = tuple(
                (None if g is None else int(g), Fraction(str(f)))
                for g, f in (r.get("kubeReservedTiers") or [])
            )
            if kr is None and not tiers_m and "evictionHardMiB" not in r:
                raise ValueError("a memory rule needs kubeReserved, kubeReservedTiers or evictionHardMiB")
            rules.append(
                MemoryRule(
                    from_version=_from(str(r.get("fromVersion", "1.0"))),
                    per_pod_mib=int(kr["perPodMiB"]) if kr else None,
                    base_mib=int(kr.get("baseMiB", 0)) if kr else None,
                    max_fraction=Fraction(str(kr["maxFraction"]))
                    if kr and kr.get("maxFraction") is not None
                    else None,
                    tiers=tiers_m,
                    eviction_mib=int(r.get("evictionHardMiB", 0)),
                )
            )
        rules.sort(key=lambda r: r.from_version, reverse=True)
        if any(c is not None and c < 0 for c, _ in tiers) or any(m < 0 for _, m in tiers):
            raise ValueError("cpu tiers must not be negative")
        return Reservations(
            cpu_tiers=tiers,
            memory=tuple(rules),
            windows_extra_gib=int(d.get("windowsExtraGiB", 0) or 0),
            source=str(d.get("source") or where),
            as_of=str(d.get("asOf") or ""),
            formula=" ".join(str(d.get("formula") or "").split()),
        )
    except InputError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, AssertionError) as e:
        raise bad(f"malformed ({type(e).__name__}: {e})") from None


@cache
def default_reservations() -> Reservations:
    return _reservations_from(_data("aks.yaml")["reservations"], "gpupool/k8s/data/aks.yaml")


def load_reservations(path: str | Path) -> Reservations:
    """A reservations override file: the ``reservations:`` block of aks.yaml, or the block itself."""
    docs = [d for d in yamlio.load_file(path) if d.data is not None]
    if len(docs) != 1:
        raise InputError(str(path), None, "expected one YAML document with the reservation parameters")
    data = docs[0].data
    if isinstance(data, dict) and "reservations" in data:
        data = data["reservations"]

    def line_of(obj: Any) -> int | None:
        return getattr(obj, "line", None) or docs[0].line

    return _reservations_from(data, docs[0].path, line_of)


def cpu_reservation_table() -> dict[int, int]:
    return {int(k): int(v) for k, v in _data("aks.yaml")["reservations"]["cpu"]["table"].items()}


@dataclass(frozen=True)
class DefaultMaxPods:
    value: int
    source: str


def default_max_pods() -> DefaultMaxPods:
    d = _data("aks.yaml")["defaultMaxPods"]
    return DefaultMaxPods(int(d["value"]), " ".join(str(d["source"]).split()))


# ---- autoscaler template ---------------------------------------------------------------------------


@dataclass(frozen=True)
class AutoscalerFacts:
    template_pods: int
    gpu_resource: str
    template_labels: dict[str, str]
    agentpool_labels: tuple[str, ...]
    nvidia_enabled: frozenset[str]
    max_nodes_per_scale_up: int
    group_id_format: str
    source: str
    kube_proxy_cpu_milli: int = 0
    gpu_label: str = "kubernetes.azure.com/accelerator"
    ok_total_unready: int = 3
    max_unready_percent: float = 45.0
    missing_sizes: frozenset[str] = frozenset()
    memory_gib: tuple[tuple[str, float], ...] = ()
    no_node_info: str = ""
    no_node_info_aborts_until: tuple[int, int] = (1, 34)  # CA minor versions whose scale-up it aborts
    not_ready_reason: str = "not ready for scale-up"
    max_node_startup_s: float = 900.0  # MaxNodeStartupTime: a ResourceUnready node younger is upcoming
    unmanaged_aborts_from: tuple[int, int] = (1, 35)  # CA minor from which an unmanaged one aborts
    unmanaged_error: str = ""

    def no_node_info_aborts(self, version: tuple[int, ...]) -> bool:
        """CA (its minor follows the cluster's Kubernetes minor on AKS) fails every scale-up on a group with
        no template; later versions skip that group."""
        return tuple(version[:2]) <= self.no_node_info_aborts_until

    def unmanaged_aborts(self, version: tuple[int, ...]) -> bool:
        return tuple(version[:2]) >= self.unmanaged_aborts_from

    def in_static_table(self, vm_size: str) -> bool:
        return vm_size.lower() not in self.missing_sizes

    def template_memory_gib(self, vm_size: str, catalog_gib: float) -> float:
        return dict(self.memory_gib).get(vm_size.lower(), catalog_gib)

    def accelerator_label(self, vm_size: str) -> bool:
        name = vm_size.lower()
        name = name.removesuffix("_promo")
        return name in self.nvidia_enabled


@cache
def autoscaler() -> AutoscalerFacts:
    a = _data("aks.yaml")["autoscaler"]
    return AutoscalerFacts(
        template_pods=int(a["templatePods"]),
        gpu_resource=str(a["gpuResource"]),
        template_labels=dict(a["templateLabels"]),
        agentpool_labels=tuple(a["agentpoolLabels"]),
        nvidia_enabled=frozenset(str(s).lower() for s in a["nvidiaEnabledSkus"]),
        max_nodes_per_scale_up=int(a["maxNodesPerScaleUp"]),
        group_id_format=str(a["groupIdFormat"]),
        source=" ".join(str(a["source"]).split()),
        kube_proxy_cpu_milli=int(a["kubeProxyPod"]["cpuMilli"]),
        gpu_label=str(a["resourceUnready"]["gpuLabel"]),
        ok_total_unready=int(a["resourceUnready"]["okTotalUnreadyCount"]),
        max_unready_percent=float(a["resourceUnready"]["maxTotalUnreadyPercentage"]),
        missing_sizes=frozenset(str(s).lower() for s in a["staticTable"]["missing"]),
        memory_gib=tuple((str(k).lower(), float(v)) for k, v in a["staticTable"]["memoryGiB"].items()),
        no_node_info=str(a["staticTable"]["noNodeInfo"]),
        no_node_info_aborts_until=_minor(a["staticTable"]["noNodeInfoAbortsUntil"]),
        not_ready_reason=str(a["staticTable"]["notReadyReason"]),
        max_node_startup_s=60.0 * float(a["resourceUnready"]["maxNodeStartupMinutes"]),
        unmanaged_aborts_from=_minor(a["resourceUnready"]["unmanagedAbortsFrom"]),
        unmanaged_error=" ".join(str(a["resourceUnready"]["unmanagedError"]).split()),
    )


def _minor(text: object) -> tuple[int, int]:
    major, minor = str(text).split(".")[:2]
    return int(major), int(minor)
