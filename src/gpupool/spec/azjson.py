"""``az aks nodepool show -o json`` / ``list -o json`` -> :class:`~gpupool.spec.model.PoolSpec`.

The JSON is what the Azure CLI prints for an AKS agent pool (azure-mgmt-containerservice ``AgentPool``
serialised with camelCase keys): ``name``, ``count``, ``vmSize``, ``osType``, ``osSku``, ``mode``,
``enableAutoScaling``/``minCount``/``maxCount``, ``nodeTaints`` (null or a list of ``key=value:Effect``),
``nodeLabels``, ``scaleSetPriority`` (null, ``Regular`` or ``Spot``), ``gpuInstanceProfile``,
``gpuProfile`` (``{"driver": "Install", "driverType": "", "nvidia": {"managementMode": "Managed",
"migStrategy": null}}``; aks-gpu-facts §5 "nodepool show"), ``orchestratorVersion``, ``maxPods``,
``availabilityZones``, ``id``, ``resourceGroup``, ``typePropertiesType`` and read-only state.
``az aks show -o json`` (a cluster with ``agentPoolProfiles``) is accepted too.

The file is read with :mod:`gpupool.yamlio` (JSON is YAML), so every error is one line ``file:line``.
Settings gpupool does not model (OS disk, subnets, upgrade settings, tags, ...) are kept in
:attr:`AzPool.unmodeled` so that ``gpupool import`` can list them and ``gpupool diff`` can say they are
not carried to a new pool.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

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
    vm_size = r.get("vmSize", kind=str, required=True)
    size = catalog.vm_size(vm_size)
    if size is not None:
        vm_size = size.name  # Azure reports sizes in any case ("standard_d4_v3"); use the catalog's spelling
    notes: list[str] = []

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
    mode = r.get("mode", kind=str)
    mode = _enum(r, ("mode",), mode, ("User", "System")) if mode else "User"

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
    spec["nodeCount"] = count if count is not None else (lo if lo is not None else 1)
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


# ---- files ---------------------------------------------------------------------------------------


def pools_from_data(
    data: Any,
    path: str,
    line: int = 1,
    *,
    resource_group: str | None = None,
    cluster_name: str | None = None,
) -> list[AzPool]:
    """Every pool in one loaded JSON document (show: one, list: each item, ``az aks show``: its profiles)."""
    if isinstance(data, list):
        if not data:
            raise InputError(
                path,
                line,
                "az JSON: an empty list: no node pools",
                "check the cluster and resource group given to `az aks nodepool list`",
            )
        for i, item in enumerate(data):
            if not isinstance(item, dict):
                iline = (
                    data.item_pos[i][0]
                    if isinstance(data, yamlio.LineList) and i < len(data.item_pos)
                    else line
                )
                raise InputError(
                    path,
                    iline,
                    f"az JSON: item {i}: expected a node pool object, got {yamlio.type_name(item)}",
                )
        out = []
        for i, item in enumerate(data):
            iline = (
                data.item_pos[i][0] if isinstance(data, yamlio.LineList) and i < len(data.item_pos) else line
            )
            out.append(
                parse_az_pool(item, path, iline, resource_group=resource_group, cluster_name=cluster_name)
            )
        return out
    if is_az_cluster(data):
        rid = parse_resource_id(data.get("id"))
        rg = (
            resource_group
            or (data.get("resourceGroup") if isinstance(data.get("resourceGroup"), str) else None)
            or (rid.resource_group if rid else None)
        )
        cluster = cluster_name or (data.get("name") if isinstance(data.get("name"), str) else None)
        location = data.get("location") if isinstance(data.get("location"), str) else None
        profiles = data["agentPoolProfiles"]
        if not profiles:
            raise InputError(
                path,
                _line(data, "agentPoolProfiles", default=line),
                "az JSON: agentPoolProfiles is empty: no node pools",
            )
        out = []
        for i, item in enumerate(profiles):
            iline = profiles.item_pos[i][0] if isinstance(profiles, yamlio.LineList) else line
            out.append(
                parse_az_pool(item, path, iline, resource_group=rg, cluster_name=cluster, location=location)
            )
        return out
    return [parse_az_pool(data, path, line, resource_group=resource_group, cluster_name=cluster_name)]


def pools_from_documents(
    docs: list[yamlio.Document],
    path: str,
    *,
    resource_group: str | None = None,
    cluster_name: str | None = None,
) -> list[AzPool]:
    """Every pool in an already loaded JSON file (one document: show, list or ``az aks show``)."""
    docs = [d for d in docs if d.data is not None]
    if not docs:
        raise InputError(path, None, "empty file: expected `az aks nodepool show -o json` output")
    if len(docs) > 1:
        raise InputError(
            path,
            docs[1].line,
            "az JSON: more than one document",
            "pass one `az aks nodepool show` object or one `list` array",
        )
    doc = docs[0]
    if doc.duplicates:
        d = doc.duplicates[0]
        raise InputError(
            doc.path, d.line, f'az JSON: duplicate key "{_safe(d.key)}" (first at line {d.first_line})'
        )
    return pools_from_data(
        doc.data, doc.path, doc.line, resource_group=resource_group, cluster_name=cluster_name
    )


def load_az_pools(
    path: str | Path,
    *,
    resource_group: str | None = None,
    cluster_name: str | None = None,
) -> list[AzPool]:
    """All pools in an ``az aks nodepool show/list -o json`` file (``-`` is stdin)."""
    name = "<stdin>" if str(path) == "-" else str(path)
    return pools_from_documents(
        yamlio.load_file(path), name, resource_group=resource_group, cluster_name=cluster_name
    )


def pick(pools: list[AzPool], name: str | None, path: str) -> AzPool:
    """The pool called ``name`` (or the only one). InputError listing the names otherwise."""
    if name is None:
        if len(pools) == 1:
            return pools[0]
        names = ", ".join(p.pool.name for p in pools)
        raise InputError(
            path, None, f"the JSON holds {len(pools)} node pools ({names})", "pick one with --name"
        )
    for p in pools:
        if p.pool.name == name:
            return p
    names = ", ".join(p.pool.name for p in pools)
    raise InputError(path, None, f'no node pool named "{_safe(name)}" (found: {names})')


# ---- writing pool specs --------------------------------------------------------------------------


def pool_document(pool: PoolSpec) -> dict[str, Any]:
    """The pool spec as a plain ``gpupool/v1`` document (what ``parse_pool`` reads back to the same pool)."""
    spec: dict[str, Any] = {"resourceGroup": pool.resource_group, "clusterName": pool.cluster_name}
    if pool.location:
        spec["location"] = pool.location
    if pool.kubernetes_version:
        spec["kubernetesVersion"] = pool.kubernetes_version
    spec["vmSize"] = pool.vm_size
    spec["mode"] = pool.mode
    spec["osSku"] = pool.os_sku
    spec["priority"] = pool.priority
    if pool.priority == "Spot" and pool.spot_max_price != -1:
        spec["spotMaxPrice"] = pool.spot_max_price
    if pool.priority == "Spot" and pool.eviction_policy != "Delete":
        spec["evictionPolicy"] = pool.eviction_policy
    spec["nodeCount"] = pool.node_count
    if pool.autoscaler:
        spec["autoscaler"] = {"minCount": pool.autoscaler.min_count, "maxCount": pool.autoscaler.max_count}
    if pool.node_taints:
        spec["nodeTaints"] = [str(t) for t in pool.node_taints]
    if pool.node_labels:
        spec["nodeLabels"] = dict(pool.node_labels)
    if pool.max_pods is not None:
        spec["maxPods"] = pool.max_pods
    if pool.zones:
        spec["zones"] = list(pool.zones)
    if pool.is_gpu_pool:
        g = pool.gpu_settings
        gpu: dict[str, Any] = {"driver": g.driver, "managed": g.managed}
        if g.instance_profile:
            gpu["instanceProfile"] = g.instance_profile
        if g.mig_strategy:
            gpu["migStrategy"] = g.mig_strategy
        if g.time_slicing:
            ts = g.time_slicing
            gpu["sharing"] = {
                "timeSlicing": {
                    "replicas": ts.replicas,
                    "renameByDefault": ts.rename_by_default,
                    "failRequestsGreaterThanOne": ts.fail_requests_greater_than_one,
                }
            }
        spec["gpu"] = gpu
    if pool.cuda_version:
        spec["workload"] = {"cudaVersion": pool.cuda_version}
    return {"apiVersion": API_VERSION, "kind": pool.kind, "metadata": {"name": pool.name}, "spec": spec}


def _comment_value(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
    return _safe(text, 160)


def to_yaml(az: AzPool) -> str:
    """One pool spec document, headed by comments: where it came from, unmodeled settings, notes."""
    p = az.pool
    lines = [
        f"# Imported from `az aks nodepool` JSON: {_safe(az.path)}:{az.line} "
        f"(pool {p.name}, cluster {_safe(az.cluster_name)}, resource group {_safe(az.resource_group)})",
    ]
    if az.unmodeled:
        lines.append(
            "# Not modeled by gpupool (kept out of this spec; a new pool made from it will not get them):"
        )
        lines += [f"#   {_safe(k)}: {_comment_value(v)}" for k, v in az.unmodeled.items()]
    if az.notes:
        lines.append("# Notes:")
        lines += [f"#   - {_safe(n, 200)}" for n in az.notes]
    body = yaml.safe_dump(
        pool_document(p), sort_keys=False, default_flow_style=False, allow_unicode=True, width=1000
    )
    return "\n".join(lines) + "\n" + body


def to_yaml_stream(pools: list[AzPool]) -> str:
    """Several pools as one multi-document YAML stream."""
    return "---\n".join(to_yaml(p) for p in pools)


def to_json_dict(az: AzPool) -> dict[str, Any]:
    """One pool for ``gpupool import -o json``: the spec, where it came from, and what was left out."""
    return {
        "source": {"path": az.path, "line": az.line},
        "cluster": az.cluster_name,
        "resourceGroup": az.resource_group,
        "poolSpec": yamlio.to_plain(pool_document(az.pool)),
        "unmodeled": dict(az.unmodeled),
        "notes": list(az.notes),
    }
