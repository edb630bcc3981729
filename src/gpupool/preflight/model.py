"""What preflight knows about the subscription, region and cluster: plain, immutable data.

Built by :mod:`gpupool.preflight.inputs` from the JSON the Azure CLI prints, or by
:mod:`gpupool.preflight.live` from the Azure SDK's models; the rules read only these shapes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


def norm(text: str) -> str:
    """Names Azure compares case-insensitively, spaces ignored (quota family names vary in both)."""
    return "".join(str(text).split()).lower()


@dataclass(frozen=True)
class Restriction:
    """One entry of a SKU's ``restrictions``: ``Location`` or ``Zone``, with its reason code."""

    type: str
    reason: str
    locations: tuple[str, ...]
    zones: tuple[str, ...]


@dataclass(frozen=True)
class Sku:
    """One VM size of ``az vm list-skus`` (a ``ResourceSku`` with resourceType virtualMachines)."""

    name: str
    family: str | None
    locations: tuple[str, ...]
    zones: dict[str, tuple[str, ...]]  # location (lowercase) -> zones offered there
    restrictions: tuple[Restriction, ...]
    capabilities: dict[str, str]

    def capability(self, name: str) -> str | None:
        return self.capabilities.get(name)

    def number(self, name: str) -> float | None:
        v = self.capabilities.get(name)
        try:
            return float(v) if v is not None else None
        except ValueError:
            return None

    @property
    def vcpus(self) -> int | None:
        n = self.number("vCPUs")
        return int(n) if n is not None else None

    def offered_in(self, region: str) -> bool:
        return norm(region) in {norm(x) for x in self.locations}

    def zones_in(self, region: str) -> tuple[str, ...]:
        return self.zones.get(norm(region), ())

    def location_restriction(self, region: str) -> Restriction | None:
        for r in self.restrictions:
            if r.type.lower() == "location" and (
                not r.locations or norm(region) in {norm(x) for x in r.locations}
            ):
                return r
        return None

    def restricted_zones(self, region: str) -> set[str]:
        out: set[str] = set()
        for r in self.restrictions:
            if r.type.lower() == "zone" and (
                not r.locations or norm(region) in {norm(x) for x in r.locations}
            ):
                out.update(r.zones)
        return out


@dataclass(frozen=True)
class Skus:
    """The sizes of a list-skus file: raw rows by lowercase name, each made a :class:`Sku` on first use."""

    path: str
    rows: dict[str, list[dict]]  # lowercase name -> its rows (virtualMachines only)
    regions: frozenset[str]  # normalised regions the file covers
    build: Callable[[list[dict]], Sku]
    _built: dict[str, Sku] = field(default_factory=dict, compare=False, repr=False)

    def get(self, name: str) -> Sku | None:
        key = name.lower()
        if key not in self._built:
            rows = self.rows.get(key)
            if rows is None:
                return None
            self._built[key] = self.build(rows)
        return self._built[key]

    def all(self) -> list[Sku]:
        return [s for s in (self.get(k) for k in self.rows) if s is not None]


@dataclass(frozen=True)
class UsageRow:
    name: str  # name.value (e.g. standardNCASv3_T4Family, cores, lowPriorityCores)
    local_name: str
    current: int
    limit: int

    @property
    def free(self) -> int:
        return self.limit - self.current


@dataclass(frozen=True)
class Usage:
    path: str
    rows: dict[str, UsageRow]  # norm(name.value) -> row

    def get(self, name: str) -> UsageRow | None:
        return self.rows.get(norm(name))


@dataclass(frozen=True)
class VersionRow:
    minor: str
    patches: tuple[str, ...]
    preview: bool
    default: bool
    support_plans: tuple[str, ...]


@dataclass(frozen=True)
class Versions:
    path: str
    minors: dict[str, VersionRow]

    def newest(self) -> str | None:
        from gpupool.catalog import version_tuple

        ga = [m for m, r in self.minors.items() if not r.preview] or list(self.minors)
        return max(ga, key=version_tuple) if ga else None


@dataclass(frozen=True)
class Cluster:
    """What preflight needs of ``az aks show``."""

    path: str
    name: str
    resource_group: str | None
    location: str | None
    kubernetes_version: str | None  # currentKubernetesVersion, else kubernetesVersion
    network_plugin: str | None  # azure | kubenet | none
    network_plugin_mode: str | None  # overlay | None
    pod_subnet: bool  # an agent pool uses podSubnetId (Azure CNI with a pod subnet)
    pool_names: tuple[str, ...] = ()
    tier: str | None = None
    max_agent_pools: int | None = None  # the cluster's maxAgentPools (read-only API property)
    node_provisioning: str = "Manual"  # nodeProvisioningProfile.mode: Auto when NAP is on (nap.cluster)

    @property
    def network(self) -> str | None:
        """overlay, podSubnet, nodeSubnet, kubenet or none (keys of aks_limits.yaml maxPods.defaults);
        None for a plugin gpupool does not know (never taken for AKS's default)."""
        plugin = (self.network_plugin or "").lower()
        if plugin == "kubenet":
            return "kubenet"
        if plugin == "none":
            return "none"
        if plugin == "azure":
            if (self.network_plugin_mode or "").lower() == "overlay":
                return "overlay"
            return "podSubnet" if self.pod_subnet else "nodeSubnet"
        return None


@dataclass(frozen=True)
class AzVersion:
    path: str
    cli: str | None  # "azure-cli"
    extensions: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Inputs:
    """Everything preflight was given; a missing part skips the checks that need it."""

    skus: Skus | None = None
    usage: Usage | None = None
    versions: Versions | None = None
    clusters: dict[str, Cluster] = field(default_factory=dict)  # lowercase cluster name -> cluster
    az_version: AzVersion | None = None
    location: str | None = None  # --location, when the specs and the cluster say none
    source: str = "files"  # files | live

    def cluster(self, name: str) -> Cluster | None:
        return self.clusters.get(name.lower())
