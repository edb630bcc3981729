"""What one node of a pool looks like to Kubernetes: labels, taints and advertised GPU resources.

One implementation, shared by ``plan``, ``render``, ``lint``, ``simulate`` and ``diff``.
Facts: MIG instances per GPU and device names (catalog/data/gpus.yaml), strategy semantics
(NVIDIA/k8s-device-plugin README "MIG strategies", MicrosoftDocs/azure-aks-docs gpu-multi-instance.md),
time-slicing (k8s-device-plugin README "Shared Access to GPUs": count = devices x replicas,
``renameByDefault`` -> ``<name>.shared`` and no plain name), managed plugin strategy (Azure/AgentBaker
``startNvidiaManagedExpServices``: mixed only for Mixed, else single) [INFERRED from that script; no AKS doc
states it].
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gpupool import catalog
from gpupool.findings import plural
from gpupool.spec.model import PoolSpec

GPU_RESOURCE = "nvidia.com/gpu"
MIG_PREFIX = "nvidia.com/mig-"
AMD_RESOURCE = "amd.com/gpu"
DIRECTX_RESOURCE = "microsoft.com/directx"


def is_gpu_resource(name: str) -> bool:
    """Extended resources that stand for a GPU or a slice of one."""
    return (
        name == GPU_RESOURCE
        or name == GPU_RESOURCE + ".shared"
        or name.startswith(MIG_PREFIX)
        or name in (AMD_RESOURCE, DIRECTX_RESOURCE)
    )


@dataclass(frozen=True)
class Advertised:
    """Extended resources per node, who advertises them, and caveats worth printing."""

    resources: dict[str, int]
    plugin: str  # self-managed | managed | gpu-operator | amd-gpu-operator | windows-directx | none
    physical_gpus: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)


def device_plugin_mode(pool: PoolSpec) -> str:
    size = catalog.vm_size(pool.vm_size)
    if not pool.is_gpu_pool or size is None or not size.is_gpu:
        return "none"
    g = pool.gpu_settings
    if size.path == "amd":
        return "amd-gpu-operator"
    if pool.is_windows:
        return "windows-directx"
    if g.managed:
        return "managed"
    if g.driver == "None":
        return "gpu-operator"
    return "self-managed"


def plugin_mig_strategy(pool: PoolSpec) -> str:
    """The device plugin's --mig-strategy (none | single | mixed) for this pool."""
    g = pool.gpu_settings
    if not g.instance_profile:
        return "none"
    if g.managed:
        return "mixed" if g.mig_strategy == "Mixed" else "single"
    return g.effective_mig_strategy.lower()


def advertised(pool: PoolSpec) -> Advertised:
    """Resources each node of ``pool`` advertises once its GPU stack is running."""
    size = catalog.vm_size(pool.vm_size)
    mode = device_plugin_mode(pool)
    if mode == "none" or size is None:
        return Advertised({}, "none")
    devices = size.gpu_devices
    notes: list[str] = []
    if size.is_fractional:
        notes.append(f"{size.name} has {size.gpus} of a GPU (vGPU); it shows as one device")
    if mode == "amd-gpu-operator":
        notes.append("advertised by the AMD GPU Operator you install (AKS installs no AMD driver)")
        return Advertised({AMD_RESOURCE: devices}, mode, devices, tuple(notes))
    if mode == "windows-directx":
        notes.append("Windows GPU (preview): AKS installs the DirectX device plugin")
        return Advertised({DIRECTX_RESOURCE: devices}, mode, devices, tuple(notes))

    g = pool.gpu_settings
    resources: dict[str, int] = {}
    strategy = plugin_mig_strategy(pool)
    profile = g.instance_profile
    gpu = size.gpu
    if profile and size.mig_capable and gpu is not None:
        per_gpu = catalog.mig_instances_per_gpu()[profile]
        device = gpu.mig[profile]
        count = devices * per_gpu
        if strategy == "mixed":
            resources[f"{MIG_PREFIX}{device}"] = count
        elif strategy == "single":
            resources[GPU_RESOURCE] = count
        else:
            resources[GPU_RESOURCE] = devices
            notes.append("MIG strategy None: the plugin exposes whole GPUs although MIG mode is on")
        if strategy in ("single", "mixed"):
            notes.append(f"{profile} = {device}: {per_gpu} per GPU x {plural(devices, 'GPU')}")
    else:
        resources[GPU_RESOURCE] = devices

    ts = g.time_slicing
    if ts is not None and mode != "managed":
        shared: dict[str, int] = {}
        for name, count in resources.items():
            new_name = f"{name}.shared" if ts.rename_by_default else name
            shared[new_name] = count * ts.replicas
        resources = shared
        notes.append(f"time-slicing x{ts.replicas}" + (" (renamed .shared)" if ts.rename_by_default else ""))
    elif ts is not None:
        notes.append("time-slicing ignored: the managed device plugin takes no sharing config")
    if mode == "self-managed":
        notes.append("advertised only after you deploy the NVIDIA device plugin (gpupool render writes it)")
    elif mode == "gpu-operator":
        notes.append("advertised only after you install the NVIDIA GPU Operator (driver None)")
    return Advertised(resources, mode, devices, tuple(notes))


def node_labels(pool: PoolSpec) -> dict[str, str]:
    """Labels AKS puts on every node of the pool, plus the spec's nodeLabels.

    Source: MicrosoftDocs/azure-aks-docs articles/aks/use-labels.md (fb060abe6a8f, 2026-08-21);
    ``accelerator=nvidia`` and ``agentpool`` are deprecated but still set (use-nvidia-gpu.md output).
    """
    size = catalog.vm_size(pool.vm_size)
    labels = {
        "kubernetes.azure.com/agentpool": pool.name,
        "agentpool": pool.name,
        "kubernetes.azure.com/mode": pool.mode.lower(),
        "node.kubernetes.io/instance-type": pool.vm_size,
        "beta.kubernetes.io/instance-type": pool.vm_size,
        "kubernetes.io/os": pool.os_type.lower(),
        "kubernetes.azure.com/os-sku": pool.os_sku,
        "kubernetes.io/arch": "arm64" if size is not None and size.arch == "arm64" else "amd64",
    }
    if size is not None and size.is_gpu and size.path == "nvidia":
        labels["kubernetes.azure.com/accelerator"] = "nvidia"
        labels["accelerator"] = "nvidia"
    if pool.priority == "Spot":
        labels["kubernetes.azure.com/scalesetpriority"] = "spot"
    if pool.is_gpu_pool and pool.gpu_settings.managed:
        labels["kubernetes.azure.com/dcgm-exporter"] = "enabled"
    labels.update(discovered_labels(pool))
    labels.update(pool.node_labels)
    return labels


def discovered_labels(pool: PoolSpec) -> dict[str, str]:
    """Labels NFD and GPU Feature Discovery put on the nodes of a GPU Operator pool (driver None); none on
    other pools (AKS-installed drivers and managed GPU run no GFD). Facts: catalog/data/gpu_operator.yaml."""
    if device_plugin_mode(pool) != "gpu-operator":
        return {}
    facts = catalog._data("gpu_operator.yaml")["labels"]
    out = {str(k): str(v) for k, v in facts["fixed"].items()}
    size = catalog.vm_size(pool.vm_size)
    adv = advertised(pool)
    g = pool.gpu_settings
    strategy = plugin_mig_strategy(pool)
    out["nvidia.com/mig.capable"] = "true" if size is not None and size.mig_capable else "false"
    count = adv.physical_gpus
    if strategy == "single":
        count = sum(adv.resources.values())
    if strategy in ("single", "mixed"):
        out["nvidia.com/mig.strategy"] = strategy
    out["nvidia.com/gpu.count"] = str(count)
    ts = g.time_slicing
    out["nvidia.com/gpu.replicas"] = str(ts.replicas if ts is not None else 1)
    out["nvidia.com/gpu.sharing-strategy"] = "time-slicing" if ts is not None else "none"
    if ts is not None and strategy == "single":
        out["nvidia.com/gpu.count"] = str(count // max(1, ts.replicas))
    return out


def open_label_keys(pool: PoolSpec) -> frozenset[str]:
    """Labels the nodes of the pool carry with values gpupool cannot know (GFD's product string, driver
    version...): a selector on them is neither proven right nor wrong."""
    if device_plugin_mode(pool) != "gpu-operator":
        return frozenset()
    return frozenset(str(k) for k in catalog._data("gpu_operator.yaml")["labels"]["open"])
