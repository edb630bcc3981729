"""Kubernetes manifests for a pool: device plugin, time-slicing config, DCGM exporter, smoke test.

Pure functions returning plain dicts (one Kubernetes object each); :func:`dump` turns them into YAML.
What a pool gets depends on who runs its device plugin (:func:`gpupool.design.node.device_plugin_mode`):

============  =================================================================================
self-managed  Namespace, device plugin DaemonSet (+ time-slicing ConfigMap), DCGM exporter, smoke test
managed       smoke test only: AKS runs the plugin and exporter as host services (scrape note instead)
gpu-operator  smoke test; the Operator (``gpupool.render.operator``) deploys plugin and exporter
other         nothing (AMD GPU Operator, Windows DirectX plugin: see the rendered README)
============  =================================================================================

Sources: device plugin DaemonSet as in MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md
(fb060abe6a8f); MIG strategy, ``SYS_ADMIN`` and ``NVIDIA_MIG_MONITOR_DEVICES=all`` for MIG as the NVIDIA
device plugin Helm chart does (NVIDIA/k8s-device-plugin deployments/helm, ``securityContext`` helper),
required on Azure Linux MIG pools (gpu-multi-instance.md); config file format ``version: v1`` with
``sharing.timeSlicing`` (k8s-device-plugin README "Shared Access to GPUs"); DCGM exporter DaemonSet and
Service from NVIDIA/dcgm-exporter dcgm-exporter.yaml (d5e5f510a1b6); smoke test after the AKS docs'
sample GPU workload and the managed GPU test pod (aks-managed-gpu-nodes.md).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

import yaml

from gpupool import catalog
from gpupool.design.node import advertised, device_plugin_mode, plugin_mig_strategy
from gpupool.k8s.taints import toleration_for
from gpupool.render.naming import NAMESPACE, POOL_LABEL, object_name
from gpupool.spec.model import PoolSpec

MANAGED_BY = {"app.kubernetes.io/managed-by": "gpupool"}
DEVICE_PLUGIN_SOCKETS = "/var/lib/kubelet/device-plugins"
POD_RESOURCES = "/var/lib/kubelet/pod-resources"
CONFIG_DIR = "/etc/nvidia-device-plugin"


class _Dumper(yaml.SafeDumper):
    """Safe dumper that never writes anchors/aliases (shared dicts are written out in full)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _str_representer(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    # Multi-line strings (embedded config files) as literal blocks, so they read like the file they hold.
    style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _str_representer)


def _image(key: str) -> dict[str, Any]:
    return catalog.images()[key]


def tolerations(pool: PoolSpec) -> list[dict[str, str]]:
    """One exact toleration per taint the pool's nodes carry (the spec's and AKS's Spot taint)."""
    return [toleration_for(t) for t in pool.effective_taints]


def node_selector(pool: PoolSpec) -> dict[str, str]:
    return {POOL_LABEL: pool.name}


def smoke_resource(pool: PoolSpec) -> str | None:
    """The extended resource a pod on this pool requests for one GPU (or slice), from ``advertised()``."""
    res = advertised(pool).resources
    return next(iter(res), None)


def base_resources(pool: PoolSpec) -> dict[str, int]:
    """What the device plugin exposes before time-slicing (the names the sharing config refers to)."""
    g = pool.gpu_settings
    if g.time_slicing is None:
        return dict(advertised(pool).resources)
    return dict(advertised(replace(pool, gpu=replace(g, time_slicing=None))).resources)


def namespace() -> dict[str, Any]:
    meta = {"name": NAMESPACE, "labels": dict(MANAGED_BY)}
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": meta}


def _labels(app: str, stem: str) -> dict[str, str]:
    return {"app.kubernetes.io/name": app, "app.kubernetes.io/instance": object_name(app, stem), **MANAGED_BY}


def device_plugin_config(pool: PoolSpec) -> dict[str, Any] | None:
    """The device plugin config file (``version: v1``) for pools with time-slicing, else None."""
    ts = pool.gpu_settings.time_slicing
    if ts is None:
        return None
    return {
        "version": "v1",
        "flags": {"migStrategy": plugin_mig_strategy(pool)},
        "sharing": {
            "timeSlicing": {
                "renameByDefault": ts.rename_by_default,
                "failRequestsGreaterThanOne": ts.fail_requests_greater_than_one,
                "resources": [{"name": name, "replicas": ts.replicas} for name in base_resources(pool)],
            }
        },
    }


def device_plugin_configmap(pool: PoolSpec, stem: str | None = None) -> dict[str, Any] | None:
    config = device_plugin_config(pool)
    if config is None:
        return None
    stem = stem or pool.name
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": object_name("nvidia-device-plugin-config", stem),
            "namespace": NAMESPACE,
            "labels": _labels("nvidia-device-plugin", stem),
        },
        "data": {"config.yaml": to_yaml(config)},
    }


def device_plugin_daemonset(pool: PoolSpec, stem: str | None = None) -> dict[str, Any]:
    """The device plugin DaemonSet of the AKS docs, pinned, scoped to ``pool`` and tolerating its taints."""
    stem = stem or pool.name
    name = object_name("nvidia-device-plugin", stem)
    g = pool.gpu_settings
    strategy = plugin_mig_strategy(pool)
    env: list[dict[str, Any]] = [{"name": "FAIL_ON_INIT_ERROR", "value": "false"}]
    security: dict[str, Any] = {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}}
    if g.instance_profile:
        env.append({"name": "MIG_STRATEGY", "value": strategy})
    if strategy != "none":
        # The plugin reads MIG devices through /proc/driver/nvidia/capabilities: the Helm chart adds SYS_ADMIN
        # and NVIDIA_MIG_MONITOR_DEVICES=all whenever the MIG strategy is not none; the AKS docs require the
        # variable in custom DaemonSets on Azure Linux MIG pools.
        env.append({"name": "NVIDIA_MIG_MONITOR_DEVICES", "value": "all"})
        security["capabilities"]["add"] = ["SYS_ADMIN"]
    mounts: list[dict[str, Any]] = [{"name": "device-plugin", "mountPath": DEVICE_PLUGIN_SOCKETS}]
    volumes: list[dict[str, Any]] = [{"name": "device-plugin", "hostPath": {"path": DEVICE_PLUGIN_SOCKETS}}]
    template_meta: dict[str, Any] = {"labels": {"name": name}}
    cm = device_plugin_configmap(pool, stem)
    if cm is not None:
        env.append({"name": "CONFIG_FILE", "value": f"{CONFIG_DIR}/config.yaml"})
        mounts.append({"name": "config", "mountPath": CONFIG_DIR, "readOnly": True})
        volumes.append({"name": "config", "configMap": {"name": cm["metadata"]["name"]}})
        digest = hashlib.sha256(cm["data"]["config.yaml"].encode()).hexdigest()
        template_meta["annotations"] = {"checksum/config": digest}  # roll the pods when the config changes
    pod_spec: dict[str, Any] = {
        "nodeSelector": node_selector(pool),
        "priorityClassName": "system-node-critical",
        "containers": [
            {
                "image": _image("devicePlugin")["image"],
                "name": "nvidia-device-plugin-ctr",
                "env": env,
                "securityContext": security,
                "volumeMounts": mounts,
            }
        ],
        "volumes": volumes,
    }
    tols = tolerations(pool)
    if tols:
        pod_spec = {"tolerations": tols, **pod_spec}
    return {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": name, "namespace": NAMESPACE, "labels": _labels("nvidia-device-plugin", stem)},
        "spec": {
            "selector": {"matchLabels": {"name": name}},
            "updateStrategy": {"type": "RollingUpdate"},
            "template": {"metadata": template_meta, "spec": pod_spec},
        },
    }


def dcgm_exporter(pool: PoolSpec, stem: str | None = None) -> list[dict[str, Any]]:
    """DCGM exporter DaemonSet + Service (port 9400) for a self-managed pool, after NVIDIA's manifest."""
    stem = stem or pool.name
    img = _image("dcgmExporter")
    port = int(img["port"])
    name = object_name("dcgm-exporter", stem)
    labels = _labels("dcgm-exporter", stem)
    selector = {k: labels[k] for k in ("app.kubernetes.io/name", "app.kubernetes.io/instance")}
    pod_spec: dict[str, Any] = {
        "nodeSelector": node_selector(pool),
        "automountServiceAccountToken": False,
        "containers": [
            {
                "name": "dcgm-exporter",
                "image": img["image"],
                "env": [
                    {"name": "DCGM_EXPORTER_LISTEN", "value": f":{port}"},
                    {"name": "DCGM_EXPORTER_KUBERNETES", "value": "true"},
                    {"name": "NODE_NAME", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}},
                ],
                "ports": [{"name": "metrics", "containerPort": port}],
                "securityContext": {
                    "runAsNonRoot": False,
                    "runAsUser": 0,
                    "allowPrivilegeEscalation": False,
                    "capabilities": {"add": ["SYS_ADMIN"], "drop": ["ALL"]},
                },
                "volumeMounts": [
                    {"name": "pod-gpu-resources", "readOnly": True, "mountPath": POD_RESOURCES},
                ],
                "resources": {
                    "limits": {"cpu": "200m", "memory": "256Mi"},
                    "requests": {"cpu": "100m", "memory": "128Mi"},
                },
            }
        ],
        "volumes": [{"name": "pod-gpu-resources", "hostPath": {"path": POD_RESOURCES}}],
    }
    tols = tolerations(pool)
    if tols:
        pod_spec = {"tolerations": tols, **pod_spec}
    daemonset = {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": name, "namespace": NAMESPACE, "labels": labels},
        "spec": {
            "updateStrategy": {"type": "RollingUpdate"},
            "selector": {"matchLabels": selector},
            "template": {"metadata": {"labels": labels}, "spec": pod_spec},
        },
    }
    service = {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": name, "namespace": NAMESPACE, "labels": labels},
        "spec": {"selector": selector, "ports": [{"name": "metrics", "port": port, "targetPort": "metrics"}]},
    }
    return [daemonset, service]


def smoke_test_job(pool: PoolSpec, stem: str | None = None) -> dict[str, Any] | None:
    """A Job that asks for one GPU (or slice) of the pool and runs ``nvidia-smi``; None if not NVIDIA."""
    mode = device_plugin_mode(pool)
    if mode not in ("self-managed", "managed", "gpu-operator"):
        return None
    resource = smoke_resource(pool)
    if resource is None:
        return None
    stem = stem or pool.name
    name = object_name("gpu-smoke-test", stem)
    labels = _labels("gpu-smoke-test", stem)
    pod_spec: dict[str, Any] = {
        "restartPolicy": "Never",
        "nodeSelector": node_selector(pool),
        "containers": [
            {
                "name": "gpu-smoke-test",
                "image": _image("smokeTest")["image"],
                "command": ["nvidia-smi"],
                # Extended resources: the request defaults to the limit, and must equal it.
                "resources": {"limits": {resource: 1}},
            }
        ],
    }
    tols = tolerations(pool)
    if tols:
        pod_spec["tolerations"] = tols
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": name, "namespace": NAMESPACE, "labels": labels},
        "spec": {
            "backoffLimit": 1,
            # Room for the autoscaler to bring a node up from zero and for the plugin to register.
            "activeDeadlineSeconds": 1800,
            "ttlSecondsAfterFinished": 86400,
            "template": {"metadata": {"labels": labels}, "spec": pod_spec},
        },
    }


def managed_scrape_config(pool: PoolSpec, stem: str | None = None) -> dict[str, Any]:
    """Prometheus ``scrape_configs`` for a managed pool's host exporter on :19400 (not a Kubernetes
    object)."""
    stem = stem or pool.name
    port = int(_image("dcgmExporter")["managedPort"])
    return {
        "scrape_configs": [
            {
                "job_name": object_name("aks-managed-dcgm", stem),
                "kubernetes_sd_configs": [{"role": "node"}],
                "relabel_configs": [
                    {
                        "source_labels": ["__meta_kubernetes_node_label_kubernetes_azure_com_agentpool"],
                        "regex": pool.name,
                        "action": "keep",
                    },
                    {
                        "source_labels": ["__meta_kubernetes_node_address_InternalIP"],
                        "target_label": "__address__",
                        "replacement": f"$1:{port}",
                    },
                ],
            }
        ]
    }


def pool_manifests(pool: PoolSpec, stem: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """File name -> Kubernetes objects for one pool (the Namespace is rendered once, separately)."""
    stem = stem or pool.name
    mode = device_plugin_mode(pool)
    files: dict[str, list[dict[str, Any]]] = {}
    if mode == "self-managed":
        plugin: list[dict[str, Any]] = []
        cm = device_plugin_configmap(pool, stem)
        if cm is not None:
            plugin.append(cm)
        plugin.append(device_plugin_daemonset(pool, stem))
        files["10-device-plugin.yaml"] = plugin
        files["20-dcgm-exporter.yaml"] = dcgm_exporter(pool, stem)
    job = smoke_test_job(pool, stem)
    if job is not None:
        files["90-smoke-test.yaml"] = [job]
    return files


def to_yaml(data: Any) -> str:
    """One YAML document (keys in the order written, no anchors)."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, default_flow_style=False)


def dump(docs: list[dict[str, Any]], header: str = "") -> str:
    """Objects as a multi-document YAML file (keys in the order written, no anchors)."""
    body = yaml.dump_all(docs, Dumper=_Dumper, sort_keys=False, default_flow_style=False, explicit_start=True)
    return header + body
