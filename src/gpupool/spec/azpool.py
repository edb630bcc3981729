"""One AKS node pool as the Azure CLI prints it -> :class:`AzPool` (a pool spec, plus what gpupool does not
model). The files that hold such pools (show, list, ``az aks show``) are read by :mod:`gpupool.spec.azjson`.

The JSON is what the Azure CLI prints for an AKS agent pool (azure-mgmt-containerservice ``AgentPool``
serialised with camelCase keys): ``name``, ``count``, ``vmSize``, ``osType``, ``osSku``, ``mode``,
``enableAutoScaling``/``minCount``/``maxCount``, ``nodeTaints`` (null or a list of ``key=value:Effect``),
``nodeLabels``, ``scaleSetPriority`` (null, ``Regular`` or ``Spot``), ``gpuInstanceProfile``,
``gpuProfile`` (``{"driver": "Install", "driverType": "", "nvidia": {"managementMode": "Managed",
"migStrategy": null}}``, as Azure/azure-cli's ``az aks nodepool show`` recordings print it),
``orchestratorVersion``, ``maxPods``,
``availabilityZones``, ``id``, ``resourceGroup``, ``typePropertiesType`` and read-only state.
``az aks show -o json`` (a cluster with ``agentPoolProfiles``) is accepted too.

The file is read with :mod:`gpupool.yamlio` (JSON is YAML), so every error is one line ``file:line``.
Settings gpupool does not model (OS disk, subnets, upgrade settings, tags, ...) are kept in
:attr:`AzPool.unmodeled` so that ``gpupool import`` can list them and ``gpupool diff`` can say they are
not carried to a new pool.

A pool of another mode than User or System (AgentPoolMode Gateway, ManagedSystem, Machines, or one newer
than gpupool) raises :class:`NotImported`: the file's reader leaves it out with a note. A
VirtualMachines pool may print ``count: null`` (its nodes are counted per size in
``virtualMachinesProfile.scale.manual``): nodeCount is their sum, and a note says so; never a silent 1.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from gpupool import catalog, yamlio
from gpupool.errors import InputError, safe_text
from gpupool.spec.load import parse_pool
from gpupool.spec.model import (
    API_VERSION,
    INSTANCE_PROFILES,
    MIG_STRATEGIES,
    SPOT_TAINT_KEY,
    PoolSpec,
    Taint,
    Where,
)

AGENT_POOL_TYPE = "Microsoft.ContainerService/managedClusters/agentPools"
VMSS = "VirtualMachineScaleSets"

_ID_RE = re.compile(
    r"^/subscriptions/(?P<sub>[^/]+)/resourceGroups/(?P<rg>[^/]+)/providers/Microsoft\.ContainerService"
    r"/managedClusters/(?P<cluster>[^/]+)(?:/agentPools/(?P<pool>[^/]+))?/?$",
    re.IGNORECASE,
)

# az keys that become spec fields (or say which pool this is); everything else is "unmodeled".
_MODELED = {
    "name",
    "vmSize",
    "count",
    "enableAutoScaling",
    "minCount",
    "maxCount",
    "nodeTaints",
    "nodeLabels",
    "scaleSetPriority",
    "mode",
    "osType",
    "osSku",
    "orchestratorVersion",
    "maxPods",
    "availabilityZones",
    "gpuInstanceProfile",
    "gpuProfile.driver",
    "gpuProfile.nvidia.managementMode",
    "gpuProfile.nvidia.migStrategy",
    "spotMaxPrice",
    "scaleSetEvictionPolicy",
}
# Identity and read-only state: never reported.
_STATE = {
    "id",
    "type",
    "typePropertiesType",
    "agentPoolType",
    "resourceGroup",
    "provisioningState",
    "powerState",
    "currentOrchestratorVersion",
    "nodeImageVersion",
    "eTag",
    "systemData",
    "status",
    "virtualMachineNodesStatus",
}
# Values that are the API/CLI defaults: not worth a comment.
_DEFAULTS: dict[str, Any] = {
    "scaleDownMode": "Delete",
    "kubeletDiskType": "OS",
    "workloadRuntime": "OCIContainer",
    "securityProfile.sshAccess": "LocalUser",
    "upgradeSettings.undrainableNodeBehavior": "Schedule",
}

# Spec field (dotted, as in Where.fields) -> az key path whose line locates it.
_SPEC_TO_AZ: dict[str, tuple[str, ...]] = {
    "name": ("name",),
    "vmSize": ("vmSize",),
    "nodeCount": ("count",),
    "autoscaler": ("enableAutoScaling",),
    "autoscaler.minCount": ("minCount",),
    "autoscaler.maxCount": ("maxCount",),
    "nodeTaints": ("nodeTaints",),
    "nodeLabels": ("nodeLabels",),
    "priority": ("scaleSetPriority",),
    "spotMaxPrice": ("spotMaxPrice",),
    "evictionPolicy": ("scaleSetEvictionPolicy",),
    "mode": ("mode",),
    "osSku": ("osSku",),
    "kubernetesVersion": ("orchestratorVersion",),
    "maxPods": ("maxPods",),
    "zones": ("availabilityZones",),
    "gpu": ("gpuProfile",),
    "gpu.driver": ("gpuProfile", "driver"),
    "gpu.managed": ("gpuProfile", "nvidia", "managementMode"),
    "gpu.migStrategy": ("gpuProfile", "nvidia", "migStrategy"),
    "gpu.instanceProfile": ("gpuInstanceProfile",),
    "resourceGroup": ("resourceGroup",),
    "clusterName": ("id",),
}


def _safe(text: object, limit: int = 80) -> str:
    return safe_text(text, limit)


@dataclass(frozen=True)
class ResourceId:
    subscription: str
    resource_group: str
    cluster: str
    pool: str | None


@dataclass(frozen=True)
class AzPool:
    """One node pool read from Azure CLI JSON."""

    pool: PoolSpec
    resource_group: str
    cluster_name: str
    subscription: str | None
    path: str
    line: int
    unmodeled: dict[str, Any] = field(default_factory=dict)  # dotted az key -> value
    notes: tuple[str, ...] = ()
    pool_type: str = VMSS
    provisioning_state: str | None = None
    power_state: str | None = None
    current_version: str | None = None


def parse_resource_id(value: Any) -> ResourceId | None:
    """``/subscriptions/<s>/resourceGroups/<rg>/providers/Microsoft.ContainerService/managedClusters/<c>
    [/agentPools/<p>]`` (case-insensitive segment names, as Azure treats them); None when it is not one."""
    if not isinstance(value, str):
        return None
    m = _ID_RE.match(value.strip())
    if not m:
        return None
    return ResourceId(m.group("sub"), m.group("rg"), m.group("cluster"), m.group("pool"))


def is_az_nodepool(data: Any) -> bool:
    """True for what ``az aks nodepool show -o json`` prints (an agent pool object)."""
    if not isinstance(data, dict) or "vmSize" not in data or "apiVersion" in data:
        return False
    rid = parse_resource_id(data.get("id"))
    return (
        (rid is not None and rid.pool is not None)
        or data.get("type") == AGENT_POOL_TYPE
        or any(k in data for k in ("typePropertiesType", "count", "orchestratorVersion", "enableAutoScaling"))
    )


def is_az_cluster(data: Any) -> bool:
    """True for ``az aks show -o json`` (a managed cluster with ``agentPoolProfiles``)."""
    return (
        isinstance(data, dict)
        and isinstance(data.get("agentPoolProfiles"), list)
        and "apiVersion" not in data
    )


def is_az_json(data: Any) -> bool:
    if isinstance(data, list):
        return bool(data) and all(is_az_nodepool(x) for x in data)
    return is_az_nodepool(data) or is_az_cluster(data)


# ---- reading one pool ----------------------------------------------------------------------------


def _line(obj: Any, *keys: str, default: int) -> int:
    pos = yamlio.locate(obj, keys)
    return pos[0] if pos else default


class _Reader:
    def __init__(self, data: dict, path: str, line: int) -> None:
        self.data = data
        self.path = path
        self.line = line

    def err(self, keys: tuple[str, ...], message: str, hint: str | None = None) -> InputError:
        return InputError(self.path, _line(self.data, *keys, default=self.line), message, hint)

    def get(self, *keys: str, kind: type | tuple[type, ...], required: bool = False) -> Any:
        node: Any = self.data
        for i, k in enumerate(keys):
            if not isinstance(node, dict):
                where = ".".join(keys[:i])
                raise self.err(
                    keys[:i], f"az JSON: {where}: expected an object, got {yamlio.type_name(node)}"
                )
            node = node.get(k)
            if node is None:
                if required:
                    raise self.err(
                        keys[:i] or keys,
                        f'az JSON: missing "{".".join(keys)}"',
                        "is this `az aks nodepool show -o json` output?",
                    )
                return None
        ok = isinstance(node, kind) and not (isinstance(node, bool) and bool not in _as_tuple(kind))
        if not ok:
            want = "/".join(yamlio.type_name(t()) if t is not type(None) else "null" for t in _as_tuple(kind))
            raise self.err(keys, f"az JSON: {'.'.join(keys)}: expected {want}, got {yamlio.type_name(node)}")
        return node


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _enum(r: _Reader, keys: tuple[str, ...], value: str, choices: tuple[str, ...]) -> str:
    for c in choices:
        if value.lower() == c.lower():
            return c
    raise r.err(keys, f'az JSON: {".".join(keys)}: "{_safe(value)}" is not one of {", ".join(choices)}')


def _flatten(data: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(data, dict) and data:
        for k, v in data.items():
            yield from _flatten(v, f"{prefix}.{k}" if prefix else str(k))
    else:
        yield prefix, data


def _unmodeled(data: dict) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in _flatten(data):
        top = key.split(".", 1)[0]
        if key in _MODELED or top in _MODELED or top in _STATE:
            continue
        if value is None or value is False or value == "" or value == {} or value == []:
            continue
        if key in _DEFAULTS and _DEFAULTS[key] == value:
            continue
        out[key] = yamlio.to_plain(value)
    return out


# AgentPoolMode values other than User and System (azure-mgmt-containerservice; Microsoft Learn
# AgentPoolMode, 2025): pools gpupool does not model. An unknown future mode is skipped too.
_OTHER_MODES = {
    "gateway": "a Gateway pool (nodes for the static egress gateway, not for workloads)",
    "managedsystem": "a ManagedSystem pool (a system pool AKS manages and scales itself)",
    "machines": "a Machines pool (its machines are managed with the AKS machine API)",
}


def _other_mode(mode: str) -> str:
    return _OTHER_MODES.get(mode.lower(), f'mode "{_safe(mode)}" (gpupool knows User, System, Gateway, '
                            "ManagedSystem and Machines)")


class NotImported(Exception):
    """A pool that is read but not imported (a mode gpupool does not model); the file goes on."""

    def __init__(self, name: str, path: str, line: int, reason: str) -> None:
        super().__init__(reason)
        self.name, self.path, self.line, self.reason = name, path, line, reason

    @property
    def note(self) -> str:
        return f"pool {_safe(self.name)} ({self.path}:{self.line}) not imported: {self.reason}; " \
            "gpupool models User and System pools"

    def error(self, others: list[str] | None = None) -> InputError:
        return InputError(
            self.path,
            self.line,
            f"az JSON: pool {_safe(self.name)} is {self.reason}: gpupool imports User and System pools only",
            f"the file's other pools: {', '.join(others)}" if others else "the file holds no other pool",
        )


def _manual_scale(r: _Reader) -> list[tuple[str, int | None]]:
    """(size, count) of a VirtualMachines pool's ``virtualMachinesProfile.scale.manual`` entries."""
    manual = r.get("virtualMachinesProfile", "scale", "manual", kind=list) or []
    out = []
    for i, m in enumerate(manual):
        if not isinstance(m, dict):
            raise r.err(("virtualMachinesProfile", "scale", "manual"),
                        f"az JSON: virtualMachinesProfile.scale.manual[{i}]: expected an object, "
                        f"got {yamlio.type_name(m)}")
        size, count = m.get("size"), m.get("count")
        if not isinstance(size, str) or not (count is None or (isinstance(count, int)
                                                               and not isinstance(count, bool))):
            raise r.err(("virtualMachinesProfile", "scale", "manual"),
                        f"az JSON: virtualMachinesProfile.scale.manual[{i}]: expected a size (string) "
                        "and a count (integer)")
        out.append((size, count))
    return out


def _null_count(manual: list[tuple[str, int | None]], lo: int | None, notes: list[str]) -> int:
    """nodeCount for a pool whose ``count`` is null (VirtualMachines pools count nodes per size)."""
    counts = [c for _, c in manual if c is not None]
    if counts:
        notes.append(f"count is null: nodeCount {sum(counts)} from virtualMachinesProfile.scale.manual")
        return sum(counts)
    if lo is not None:
        notes.append(f"count is null: nodeCount {lo} (the autoscaler's minCount)")
        return lo
    notes.append("count is null and no node count is given (virtualMachinesProfile.scale is empty): "
                 "nodeCount 1 written; set the pool's real count")
    return 1


def parse_az_pool(
    data: Any,
    path: str,
    line: int | None = None,
    *,
    resource_group: str | None = None,
    cluster_name: str | None = None,
    location: str | None = None,
) -> AzPool:
    """One ``az aks nodepool show`` object -> :class:`AzPool`. Raises InputError (file:line) when unusable.

    ``resource_group`` / ``cluster_name`` override what the JSON says (``resourceGroup``, or the ``id``).
    """
    line = line or (data.line if isinstance(data, yamlio.LineDict) and data.line else 1)
    if not isinstance(data, dict):
        raise InputError(
            path,
            line,
            f"az JSON: expected a node pool object, got {yamlio.type_name(data)}",
            "pass what `az aks nodepool show -o json` or `az aks nodepool list -o json` prints",
        )
    r = _Reader(data, path, line)
    if not is_az_nodepool(data):
        raise r.err(
            (),
            'az JSON: not a node pool object (no "vmSize" with "id", "count" or "orchestratorVersion")',
            "pass what `az aks nodepool show -o json` prints",
        )
    name = r.get("name", kind=str, required=True)
    notes: list[str] = []
    mode = r.get("mode", kind=str)
    if mode and mode.lower() not in ("user", "system"):
        raise NotImported(name, path, _line(data, "mode", default=line), _other_mode(mode))
    if mode:
        mode = _enum(r, ("mode",), mode, ("User", "System"))
    else:
        mode = "User"
        notes.append(
            "mode is null (older API versions print none): written as User; set System for the cluster's "
            "system pool"
        )
    manual = _manual_scale(r)
    vm_size = r.get("vmSize", kind=str)
    if vm_size is None:
        sizes = sorted({size for size, _ in manual})
        if len(sizes) != 1:
            raise r.err(
                ("vmSize",),
                "az JSON: missing \"vmSize\""
                + (f" and several sizes in virtualMachinesProfile ({', '.join(sizes)})" if sizes else ""),
                "gpupool models one VM size per pool; is this `az aks nodepool show -o json` output?",
            )
        vm_size = sizes[0]
        notes.append(f"vmSize is null: {vm_size} from virtualMachinesProfile.scale.manual")
    size = catalog.vm_size(vm_size)
    if size is not None:
        vm_size = size.name  # Azure reports sizes in any case ("standard_d4_v3"); use the catalog's spelling

    pool_type = (
        data.get("typePropertiesType")
        or data.get("agentPoolType")
        or (data.get("type") if data.get("type") != AGENT_POOL_TYPE else None)
        or VMSS
    )
    if not isinstance(pool_type, str):
        raise r.err(("typePropertiesType",), "az JSON: typePropertiesType: expected a string")
    if pool_type != VMSS:
        notes.append(f"pool type {_safe(pool_type)}: gpupool models {VMSS} pools; commands may differ")

    count = r.get("count", kind=int)
    autoscale = r.get("enableAutoScaling", kind=bool)
    lo = r.get("minCount", kind=int)
    hi = r.get("maxCount", kind=int)
    autoscaler = None
    if autoscale:
        if lo is None or hi is None:
            raise r.err(
                ("enableAutoScaling",), "az JSON: enableAutoScaling is true but minCount/maxCount are null"
            )
        autoscaler = {"minCount": lo, "maxCount": hi}

    os_type = r.get("osType", kind=str) or "Linux"
    os_sku = r.get("osSku", kind=str)
    if os_sku is None:
        os_sku = "Windows2019" if os_type.lower() == "windows" else "Ubuntu"
        notes.append(f"osSku is null; assumed {os_sku} (the default for osType {os_type})")

    priority = r.get("scaleSetPriority", kind=str)
    priority = _enum(r, ("scaleSetPriority",), priority, ("Regular", "Spot")) if priority else "Regular"

    taints_raw = r.get("nodeTaints", kind=list) or []
    taints: list[str] = []
    for i, t in enumerate(taints_raw):
        tline = taints_raw.item_pos[i][0] if isinstance(taints_raw, yamlio.LineList) else line
        if not isinstance(t, str):
            raise InputError(
                path, tline, f"az JSON: nodeTaints[{i}]: expected a string, got {yamlio.type_name(t)}"
            )
        try:
            parsed = Taint.parse(t)
        except ValueError as e:
            raise InputError(path, tline, f"az JSON: nodeTaints[{i}]: {_safe(e, 200)}") from None
        if priority == "Spot" and parsed.key == SPOT_TAINT_KEY:
            notes.append(f"dropped taint {parsed}: AKS adds it to every Spot pool (priority: Spot)")
            continue
        taints.append(str(parsed))

    labels_raw = r.get("nodeLabels", kind=dict) or {}
    labels: dict[str, Any] = {}
    for k, v in labels_raw.items():
        if priority == "Spot" and k == SPOT_TAINT_KEY:
            notes.append(f"dropped label {k}={_safe(v)}: AKS adds it to every Spot pool (priority: Spot)")
            continue
        labels[k] = v

    version = r.get("orchestratorVersion", kind=str)
    max_pods = r.get("maxPods", kind=int)
    zones_raw = r.get("availabilityZones", kind=list)
    zones = [str(z) for z in zones_raw] if zones_raw else None

    profile = r.get("gpuInstanceProfile", kind=str)
    if profile:
        profile = _enum(r, ("gpuInstanceProfile",), profile, INSTANCE_PROFILES)
    r.get("gpuProfile", kind=dict)
    driver = r.get("gpuProfile", "driver", kind=str)
    driver = _enum(r, ("gpuProfile", "driver"), driver, ("Install", "None")) if driver else None
    r.get("gpuProfile", "nvidia", kind=dict)
    management = r.get("gpuProfile", "nvidia", "managementMode", kind=str)
    if management:
        management = _enum(
            r, ("gpuProfile", "nvidia", "managementMode"), management, ("Managed", "Unmanaged")
        )
    mig_strategy = r.get("gpuProfile", "nvidia", "migStrategy", kind=str)
    if mig_strategy:
        mig_strategy = _enum(r, ("gpuProfile", "nvidia", "migStrategy"), mig_strategy, MIG_STRATEGIES)

    rid = parse_resource_id(data.get("id"))
    if data.get("id") is not None and rid is None:
        notes.append(f"id {_safe(data.get('id'))!r} is not an AKS agent pool resource ID")
    rg = resource_group or r.get("resourceGroup", kind=str) or (rid.resource_group if rid else None)
    cluster = cluster_name or (rid.cluster if rid else None)
    if not rg:
        raise r.err(
            ("id",),
            f"az JSON: pool {_safe(name)}: no resource group (no resourceGroup and no id)",
            "pass --resource-group",
        )
    if not cluster:
        raise r.err(
            ("id",), f"az JSON: pool {_safe(name)}: no cluster name (the id has none)", "pass --cluster-name"
        )

    is_gpu = (size is not None and size.is_gpu) or bool(profile) or management is not None
    if size is None and not is_gpu and vm_size.lower().startswith("standard_n"):
        is_gpu = True
        notes.append(f"{vm_size} is not in gpupool's catalog; treated as a GPU size (N-series)")
    kind = "GpuNodePool" if is_gpu else "NodePool"
    if not is_gpu and (driver == "None" or profile):
        notes.append("gpuProfile/gpuInstanceProfile on a size without GPUs: ignored")

    spec: dict[str, Any] = {"resourceGroup": rg, "clusterName": cluster}
    if location:
        spec["location"] = location
    if version:
        spec["kubernetesVersion"] = version
    spec["vmSize"] = vm_size
    spec["mode"] = mode
    spec["osSku"] = os_sku
    spec["priority"] = priority
    if count is None:
        count = _null_count(manual, lo, notes)
    spec["nodeCount"] = count
    if autoscaler:
        spec["autoscaler"] = autoscaler
    if taints:
        spec["nodeTaints"] = taints
    if labels:
        spec["nodeLabels"] = labels
    if max_pods is not None:
        spec["maxPods"] = max_pods
    if priority == "Spot":
        price = r.get("spotMaxPrice", kind=(int, float))
        if price is not None and price != -1:
            spec["spotMaxPrice"] = price
        eviction = r.get("scaleSetEvictionPolicy", kind=str)
        if eviction:
            eviction = _enum(r, ("scaleSetEvictionPolicy",), eviction, ("Delete", "Deallocate"))
            if eviction != "Delete":
                spec["evictionPolicy"] = eviction
    if zones:
        spec["zones"] = zones
    if is_gpu:
        gpu: dict[str, Any] = {"driver": driver or "Install", "managed": management == "Managed"}
        if profile:
            gpu["instanceProfile"] = profile
        if management == "Managed" and mig_strategy:
            gpu["migStrategy"] = mig_strategy
        spec["gpu"] = gpu
    doc = {"apiVersion": API_VERSION, "kind": kind, "metadata": {"name": name}, "spec": spec}
    try:
        pool = parse_pool(doc, path, line)
    except InputError as e:
        raise _remap(e, data, path, line) from None

    fields = {}
    for spec_key, az_keys in _SPEC_TO_AZ.items():
        pos = yamlio.locate(data, az_keys)
        if pos and spec_key in pool.where.fields:
            fields[spec_key] = pos[0]
    fields["name"] = _line(data, "name", default=line)
    pool = replace(pool, where=Where(path, line, fields))

    power = data.get("powerState")
    return AzPool(
        pool=pool,
        resource_group=rg,
        cluster_name=cluster,
        subscription=rid.subscription if rid else None,
        path=path,
        line=line,
        unmodeled=_unmodeled(data),
        notes=tuple(notes),
        pool_type=pool_type,
        provisioning_state=data.get("provisioningState")
        if isinstance(data.get("provisioningState"), str)
        else None,
        power_state=power.get("code")
        if isinstance(power, dict) and isinstance(power.get("code"), str)
        else None,
        current_version=data.get("currentOrchestratorVersion")
        if isinstance(data.get("currentOrchestratorVersion"), str)
        else None,
    )


def _remap(err: InputError, data: dict, path: str, line: int) -> InputError:
    """A spec validation error on the converted document -> the az JSON key and line it came from."""
    msg = err.message
    best = None
    for spec_key, az_keys in sorted(_SPEC_TO_AZ.items(), key=lambda kv: -len(kv[0])):
        token = f"spec.{spec_key}" if spec_key != "name" else "metadata.name"
        if token in msg:
            best = (token, ".".join(az_keys), az_keys)
            break
    if best is None:
        return InputError(path, line, f"az JSON: {msg}", err.hint)
    token, az_name, az_keys = best
    return InputError(
        path, _line(data, *az_keys, default=line), f"az JSON: {msg.replace(token, az_name, 1)}", err.hint
    )
