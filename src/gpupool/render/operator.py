"""NVIDIA GPU Operator for ``--gpu-driver None`` pools: Helm values and the install commands.

The Operator is installed once per cluster, so pools are grouped by cluster and the values tolerate the
taints of every driver-None pool of that cluster. With the AKS driver skipped, NVIDIA's AKS page uses the
default install (driver and toolkit enabled). Values keys: ``daemonsets.tolerations`` (all operand
DaemonSets), ``node-feature-discovery.worker.tolerations`` (NFD must run on the tainted GPU nodes to label
them), ``mig.strategy``, ``devicePlugin.config.{create,name,default,data}`` (time-slicing).

Sources: NVIDIA/cloud-native-docs gpu-operator/microsoft-aks.rst; MicrosoftDocs/azure-aks-docs
articles/aks/nvidia-gpu-operator.md; NVIDIA/gpu-operator deployments/gpu-operator/values.yaml.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpupool import catalog, shell
from gpupool.design.node import device_plugin_mode, plugin_mig_strategy
from gpupool.k8s.taints import toleration_for
from gpupool.render.manifests import device_plugin_config, to_yaml
from gpupool.spec.model import PoolSpec

RELEASE = "gpu-operator"
REPO_NAME = "nvidia"
TIME_SLICING_CONFIG = "time-slicing-config"
# The chart's own default toleration for operand DaemonSets and NFD workers; kept when we add ours.
DEFAULT_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}


def chart() -> dict[str, Any]:
    return catalog.images()["gpuOperatorChart"]


def operator_pools(pools: Sequence[PoolSpec]) -> list[PoolSpec]:
    return [p for p in pools if device_plugin_mode(p) == "gpu-operator"]


def by_cluster(pools: Sequence[PoolSpec]) -> dict[tuple[str, str], list[PoolSpec]]:
    """(resource group, cluster) -> its driver-None pools, in spec order."""
    out: dict[tuple[str, str], list[PoolSpec]] = {}
    for p in operator_pools(pools):
        out.setdefault((p.resource_group, p.cluster_name), []).append(p)
    return out


def values(pools: Sequence[PoolSpec]) -> dict[str, Any]:
    """Helm values for one cluster's driver-None ``pools``."""
    tols: list[dict[str, str]] = [dict(DEFAULT_TOLERATION)]
    for p in pools:
        for t in p.effective_taints:
            tol = toleration_for(t)
            if tol not in tols:
                tols.append(tol)
    out: dict[str, Any] = {
        "daemonsets": {"tolerations": tols},
        "node-feature-discovery": {"worker": {"tolerations": [dict(t) for t in tols]}},
    }
    strategies = {plugin_mig_strategy(p) for p in pools if p.gpu_settings.instance_profile}
    strategies.discard("none")
    if strategies:
        # One strategy per cluster in the Operator; mixed covers pools of both kinds.
        out["mig"] = {"strategy": "mixed" if "mixed" in strategies or len(strategies) > 1 else "single"}
    sharing = [p for p in pools if p.gpu_settings.time_slicing is not None]
    if sharing:
        # The Operator takes one default config per cluster; the first pool with time-slicing sets it.
        config = device_plugin_config(sharing[0])
        out["devicePlugin"] = {
            "config": {
                "create": True,
                "name": TIME_SLICING_CONFIG,
                "default": "any",
                "data": {"any": to_yaml(config)},
            }
        }
    return out


def values_yaml(pools: Sequence[PoolSpec]) -> str:
    names = ", ".join(p.name for p in pools)
    header = (
        f"# NVIDIA GPU Operator values for the --gpu-driver None pools of this cluster: {names}.\n"
        "# Rendered by gpupool; see README.md.\n"
    )
    return header + to_yaml(values(pools))


def helm_commands(values_path: str) -> list[tuple[list[str], int]]:
    """The Helm commands that install the Operator with ``values_path``: (argv, number of command words)."""
    c = chart()
    install = [
        "helm", "install", RELEASE, c["chart"],
        "-n", c["namespace"], "--create-namespace",
        "-f", values_path,
        "--wait",
    ]
    if c.get("version"):
        install += ["--version", str(c["version"])]
    return [
        (["helm", "repo", "add", REPO_NAME, c["repo"]], 3),
        (["helm", "repo", "update"], 3),
        (install, 2),
    ]


def install_script(pools: Sequence[PoolSpec], values_file: str) -> str:
    """A bash script that installs the Operator with the values file next to it."""
    c = chart()
    cluster = pools[0].cluster_name if pools else ""
    lines = [
        "#!/usr/bin/env bash",
        f"# Install the NVIDIA GPU Operator on cluster {cluster} "
        f"(pools: {', '.join(p.name for p in pools)}).",
        "# Assumes kubectl/helm point at that cluster (az aks get-credentials is not run here).",
        f"# Source: {c['source']}",
        "set -euo pipefail",
        'HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"',
        "",
    ]
    for argv, words in helm_commands("@VALUES@"):
        rendered = shell.command(argv, words=words, wrap=False)
        rendered = rendered.replace(shell.quote("@VALUES@"), f'"$HERE"/{shell.quote(values_file)}')
        lines.append(rendered)
    lines.append(f"kubectl -n {shell.quote(c['namespace'])} get pods")
    return "\n".join(lines) + "\n"
