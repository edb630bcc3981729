"""GP650 time-slicing-not-applied: a time-slicing config exists, but the nodes advertise physical GPUs only.

What it checks: device plugin configs in ConfigMaps (kube-system and the GPU stack's namespaces) with
`sharing.timeSlicing.resources[].replicas` >= 2, and the GPU nodes they should apply to (the key the node's
`nvidia.com/device-plugin.config` label names, else a ConfigMap's only time-slicing key) whose advertised
`nvidia.com/gpu` still equals the physical GPUs (VM size, or `nvidia.com/gpu.count`) with no
`nvidia.com/gpu.shared` and no `nvidia.com/gpu.replicas` > 1 label.

Why: the plugin reads the config only when its `config.name`/`config.default` (Helm or the Operator's
`devicePlugin.config`) point at it, or the node label selects the key; options placed under `flags:`
instead of `sharing.timeSlicing` are ignored. The pods then share nothing and queue for whole GPUs.

Fix: point the plugin at the ConfigMap and key (Helm `config.name`/`config.default`; Operator
`devicePlugin.config.name`/`default`) or label the nodes `nvidia.com/device-plugin.config=<key>`, then
restart the plugin pods.

Source: NVIDIA/k8s-device-plugin README "Shared Access to GPUs" (advertised = devices x replicas;
renameByDefault -> .shared); issues #1433, #990, #615; checked 2026-12-03.

Failing example:

    data:
      any: '{"version":"v1","sharing":{"timeSlicing":{"resources":[{"name":"nvidia.com/gpu","replicas":4}]}}}'
    # node: capacity nvidia.com/gpu: "1", nvidia.com/gpu.count=1

Passing example:

    # node: capacity nvidia.com/gpu: "4", nvidia.com/gpu.replicas=4
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import yaml

from gpupool.design.node import GPU_RESOURCE
from gpupool.doctor import facts
from gpupool.doctor.context import Context, finding, group_by_pool, node_list
from gpupool.doctor.view import NodeView
from gpupool.findings import Finding, Severity, agree, plural

ID = "GP650"
NAME = "time-slicing-not-applied"
SEVERITY = Severity.WARNING
READS = ("nodes", "configmaps")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "A time-slicing config exists, but GPU nodes still advertise only their physical GPUs"


def _configs(ctx: Context) -> dict[str, list[tuple[str, str, int, bool]]]:
    """key -> [(ConfigMap ref, resource, replicas, renameByDefault)] for time-slicing configs."""
    out: dict[str, list[tuple[str, str, int, bool]]] = {}
    for cm in ctx.view.snap.configmaps or []:
        m = cm.get("metadata") or {}
        for key, text in (cm.get("data") or {}).items():
            if not isinstance(text, str) or "timeSlicing" not in text:
                continue
            try:
                doc: Any = yaml.safe_load(text)
            except yaml.YAMLError:
                continue
            ts = ((doc or {}).get("sharing") or {}).get("timeSlicing") if isinstance(doc, dict) else None
            if not isinstance(ts, dict):
                continue
            for r in ts.get("resources") or []:
                if isinstance(r, dict) and isinstance(r.get("replicas"), int) and r["replicas"] >= 2:
                    ref = f"ConfigMap {m.get('namespace')}/{m.get('name')} key {key}"
                    out.setdefault(str(key), []).append(
                        (
                            ref,
                            str(r.get("name") or GPU_RESOURCE),
                            r["replicas"],
                            ts.get("renameByDefault") is True,
                        )
                    )
    return out


def _physical(n: NodeView) -> int | None:
    if n.physical_gpus:
        return n.physical_gpus
    count = n.labels.get(facts.label("gpuCount"), "")
    return int(count) if count.isdigit() else None


def check(ctx: Context) -> Iterator[Finding]:
    configs = _configs(ctx)
    if not configs:
        return
    hits: list[tuple[NodeView, tuple[str, str, int, bool]]] = []
    for n in ctx.view.gpu_nodes:
        if n.managed:
            continue
        chosen = n.labels.get(facts.label("pluginConfig"))
        entries = configs.get(chosen, []) if chosen else [e for es in configs.values() for e in es]
        if not chosen and len(configs) != 1:
            continue  # several configs and no label choosing one: the default decides; unknown here
        entries = [e for e in entries if e[1] == GPU_RESOURCE]
        phys = _physical(n)
        gpu = n.gpu()
        if not entries or not phys or gpu.get(GPU_RESOURCE, 0) != phys or gpu.get(GPU_RESOURCE + ".shared"):
            continue
        if n.labels.get(facts.label("gpuReplicas"), "1") not in ("", "1"):
            continue
        hits.append((n, entries[0]))
    for pool, nodes in group_by_pool([n for n, _ in hits]).items():
        ref, res, replicas, _ = next(e for n, e in hits if n.pool == pool)
        phys = _physical(nodes[0])
        yield finding(
            ID,
            SEVERITY,
            f"time-slicing ({res} x {replicas}) is configured but {plural(len(nodes), 'node')} "
            f"{agree(len(nodes), 'advertises', 'advertise')} "
            f"{res}: {phys} (the physical GPUs)",
            f"pool {pool}",
            "resources",
            [
                f"{ref}: replicas {replicas}",
                f"nodes: {node_list(nodes)}: capacity {res}={phys}, no nvidia.com/gpu.replicas label",
            ],
            "point the device plugin at this ConfigMap and key (Helm config.name/config.default, Operator "
            "devicePlugin.config) or label the nodes nvidia.com/device-plugin.config=<key>; restart "
            "the plugin pods",
            nodes=[n.name for n in nodes],
        )
