"""Pool specs written from imported az JSON: ``gpupool import``'s YAML (with comments saying where each
pool came from, what gpupool does not model, and the notes) and its versioned JSON."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import yaml

from gpupool import yamlio
from gpupool.errors import safe_text
from gpupool.spec.model import API_VERSION, PoolSpec

if TYPE_CHECKING:
    from gpupool.spec.azpool import AzPool


def _safe(text: object, limit: int = 80) -> str:
    return safe_text(text, limit)


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
