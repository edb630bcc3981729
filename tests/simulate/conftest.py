"""Builders for simulate tests: small pool specs and Kubernetes objects, and a runner.

Tests get them through the ``k`` fixture (``k.pool(...)``, ``k.deployment(...)``, ``k.run(docs)``).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

from gpupool import catalog
from gpupool.simulate import Options, load_inputs, simulate

TOLERATE_SKU_GPU = [{"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}]


def pool(name: str, vm_size: str = "Standard_NC4as_T4_v3", count: int = 1, **spec: Any) -> dict:
    size = catalog.vm_size(vm_size)
    kind = spec.pop("kind", "GpuNodePool" if size is not None and size.is_gpu else "NodePool")
    body = {"resourceGroup": "rg", "clusterName": "aks", "vmSize": vm_size, "nodeCount": count}
    for key, value in spec.items():
        body[{"taints": "nodeTaints", "labels": "nodeLabels", "k8s": "kubernetesVersion"}.get(key, key)] = (
            value
        )
    return {"apiVersion": "gpupool/v1", "kind": kind, "metadata": {"name": name}, "spec": body}


def system(count: int = 2, vm_size: str = "Standard_D4s_v5", **spec: Any) -> dict:
    return pool("system", vm_size, count, mode="System", **spec)


def pod_spec(
    gpu: int | None = None,
    cpu: str | None = None,
    memory: str | None = None,
    resource: str = "nvidia.com/gpu",
    tolerations: list | None = None,
    **extra: Any,
) -> dict:
    requests: dict[str, Any] = {}
    limits: dict[str, Any] = {}
    if gpu is not None:
        limits[resource] = gpu
    if cpu is not None:
        requests["cpu"] = cpu
    if memory is not None:
        requests["memory"] = memory
    container: dict[str, Any] = {"name": "main", "image": "example.com/app:1"}
    if requests or limits:
        container["resources"] = {k: v for k, v in (("requests", requests), ("limits", limits)) if v}
    spec: dict[str, Any] = {"containers": [container]}
    if tolerations:
        spec["tolerations"] = tolerations
    spec.update(extra)
    return spec


def pod(name: str = "p", namespace: str = "default", **kw: Any) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace},
        "spec": pod_spec(**kw),
    }


def workload(kind: str, name: str, replicas: int | None = 1, namespace: str = "default", **kw: Any) -> dict:
    api = "batch/v1" if kind in ("Job", "CronJob") else "apps/v1"
    template = {"metadata": {"labels": {"app": name}}, "spec": pod_spec(**kw)}
    spec: dict[str, Any]
    if kind == "Job":
        spec = {"parallelism": replicas, "template": template}
    elif kind == "CronJob":
        spec = {
            "schedule": "* * * * *",
            "jobTemplate": {"spec": {"parallelism": replicas, "template": template}},
        }
    elif kind == "DaemonSet":
        spec = {"selector": {"matchLabels": {"app": name}}, "template": template}
    else:
        spec = {"replicas": replicas, "selector": {"matchLabels": {"app": name}}, "template": template}
    return {"apiVersion": api, "kind": kind, "metadata": {"name": name, "namespace": namespace}, "spec": spec}


def deployment(name: str = "d", replicas: int = 1, **kw: Any) -> dict:
    return workload("Deployment", name, replicas, **kw)


def daemonset(name: str = "ds", **kw: Any) -> dict:
    return workload("DaemonSet", name, None, **kw)


def priority_class(name: str, value: int, global_default: bool = False, policy: str | None = None) -> dict:
    pc: dict[str, Any] = {
        "apiVersion": "scheduling.k8s.io/v1",
        "kind": "PriorityClass",
        "metadata": {"name": name},
        "value": value,
    }
    if global_default:
        pc["globalDefault"] = True
    if policy:
        pc["preemptionPolicy"] = policy
    return pc


def write(tmp: Path, docs: list[dict], name: str = "in.yaml") -> Path:
    path = tmp / name
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture
def k(tmp_path: Path) -> SimpleNamespace:
    def run(docs: list[dict], **options: Any):  # type: ignore[no-untyped-def]
        return simulate(load_inputs([write(tmp_path, docs)]), Options(**options))

    return SimpleNamespace(
        pool=pool,
        system=system,
        pod=pod,
        pod_spec=pod_spec,
        workload=workload,
        deployment=deployment,
        daemonset=daemonset,
        priority_class=priority_class,
        run=run,
        tmp=tmp_path,
        write=lambda docs, name="in.yaml": write(tmp_path, docs, name),
        tolerate=TOLERATE_SKU_GPU,
    )
