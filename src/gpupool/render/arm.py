"""ARM template for an agent pool (``Microsoft.ContainerService/managedClusters/agentPools``).

Property names are the REST names of ``AgentPool.properties`` (cross-checked in the tests against the
``azure-mgmt-containerservice`` models). The stable API version carries everything but the managed GPU
settings; pools with ``gpu.managed`` use the stable API ``2026-08-01``
(``gpuProfile.nvidia.managementMode``), and the preview API (``2026-01-02-preview`` and later; catalog
images.yaml ``managedGpu.apiVersion``) only when they set ``gpuProfile.nvidia.migStrategy``, which no
stable API has yet.

Sources: MicrosoftDocs/azure-aks-docs gpu-multi-instance.md (agent pool HTTP body); Azure/azure-rest-api-specs
aks preview 2026-04-02-preview ``GPUProfile``/``NvidiaGPUProfile``; ``STABLE_API_VERSION`` is the default API
of azure-mgmt-containerservice 41.6.0 (2026-06-01), which has ``gpuProfile.driver``.
"""

from __future__ import annotations

import json
from typing import Any

from gpupool import catalog
from gpupool.design.node import plugin_mig_strategy
from gpupool.spec.model import SPOT_TAINT_KEY, PoolSpec

STABLE_API_VERSION = "2026-06-01"
RESOURCE_TYPE = "Microsoft.ContainerService/managedClusters/agentPools"
SCHEMA = "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#"


def preview_api_version() -> str:
    return str(catalog.images()["managedGpu"]["apiVersion"])


def managed_stable_api_version() -> str:
    """The stable API with ``gpuProfile.nvidia.managementMode`` (2026-08-01; catalog images.yaml)."""
    return str(catalog.images()["managedGpu"]["stableApiVersion"])


def needs_preview(pool: PoolSpec) -> bool:
    """Only ``gpuProfile.nvidia.migStrategy`` still needs a preview API; managementMode is stable."""
    return pool.is_gpu_pool and pool.gpu_settings.managed and mig_strategy(pool) is not None


def api_version(pool: PoolSpec) -> str:
    if not (pool.is_gpu_pool and pool.gpu_settings.managed):
        return STABLE_API_VERSION
    return preview_api_version() if needs_preview(pool) else managed_stable_api_version()


def literal(value: Any) -> Any:
    """ARM evaluates strings that start with ``[`` as expressions; ``[[`` makes them literal."""
    if isinstance(value, str) and value.startswith("["):
        return "[" + value
    if isinstance(value, dict):
        return {k: literal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [literal(v) for v in value]
    return value


def mig_strategy(pool: PoolSpec) -> str | None:
    """``gpuProfile.nvidia.migStrategy`` for a managed pool (None when not to be set)."""
    g = pool.gpu_settings
    if not g.managed:
        return None
    if g.mig_strategy is not None:
        return g.mig_strategy
    if g.instance_profile:
        return plugin_mig_strategy(pool).capitalize()
    return None


def agent_pool_properties(pool: PoolSpec) -> dict[str, Any]:
    """``properties`` of the agent pool, only the fields the spec sets (plus count, size, mode, OS)."""
    props: dict[str, Any] = {
        "count": pool.node_count,
        "vmSize": pool.vm_size,
        "type": "VirtualMachineScaleSets",
        "mode": pool.mode,
        "osType": pool.os_type,
        "osSKU": pool.os_sku,
    }
    if pool.kubernetes_version:
        props["orchestratorVersion"] = pool.kubernetes_version
    if pool.autoscaler:
        props["enableAutoScaling"] = True
        props["minCount"] = pool.autoscaler.min_count
        props["maxCount"] = pool.autoscaler.max_count
    if pool.node_taints:
        props["nodeTaints"] = [str(t) for t in pool.node_taints]
    if pool.node_labels:
        props["nodeLabels"] = dict(pool.node_labels)
    if pool.priority == "Spot":
        props["scaleSetPriority"] = "Spot"
        props["scaleSetEvictionPolicy"] = pool.eviction_policy
        props["spotMaxPrice"] = -1 if pool.spot_max_price == -1 else pool.spot_max_price
    if pool.max_pods:
        props["maxPods"] = pool.max_pods
    if pool.zones:
        props["availabilityZones"] = list(pool.zones)
    if pool.is_gpu_pool:
        g = pool.gpu_settings
        if g.instance_profile:
            props["gpuInstanceProfile"] = g.instance_profile
        gpu_profile: dict[str, Any] = {"driver": g.driver}
        if g.managed:
            nvidia: dict[str, Any] = {"managementMode": "Managed"}
            strategy = mig_strategy(pool)
            if strategy:
                nvidia["migStrategy"] = strategy
            gpu_profile["nvidia"] = nvidia
        props["gpuProfile"] = gpu_profile
    return props


def agent_pool_resource(pool: PoolSpec) -> dict[str, Any]:
    return {
        "type": RESOURCE_TYPE,
        "apiVersion": api_version(pool),
        "name": f"{pool.cluster_name}/{pool.name}",
        "properties": agent_pool_properties(pool),
    }


def template(pool: PoolSpec) -> dict[str, Any]:
    """A deployable template (``az deployment group create -g <resource group> --template-file ...``)."""
    notes = [
        f"gpupool: agent pool {pool.name} of cluster {pool.cluster_name} "
        f"in resource group {pool.resource_group}.",
    ]
    if pool.priority == "Spot":
        notes.append(f"AKS adds the taint {SPOT_TAINT_KEY}=spot:NoSchedule to Spot nodes.")
    if needs_preview(pool):
        notes.append(
            "Managed GPU with a MIG strategy needs a preview API: register the feature "
            "ManagedGPUExperiencePreview first (see az/create-node-pools.sh)."
        )
    elif pool.is_gpu_pool and pool.gpu_settings.managed:
        notes.append(
            f"Managed GPU through the stable API {managed_stable_api_version()} (gpuProfile.nvidia."
            "managementMode); GA is not announced: the feature ManagedGPUExperiencePreview may still be "
            "required."
        )
    return {
        "$schema": SCHEMA,
        "contentVersion": "1.0.0.0",
        "metadata": {"description": " ".join(notes)},
        "resources": [literal(agent_pool_resource(pool))],
    }


def render(pool: PoolSpec) -> str:
    return json.dumps(template(pool), indent=2) + "\n"
