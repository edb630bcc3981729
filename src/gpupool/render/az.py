"""The Azure CLI script: prerequisites, ``az aks nodepool add`` per pool, then verification with kubectl.

:func:`nodepool_add_argv` is the exact command, flag by flag as the AKS docs write them (use-nvidia-gpu.md
``az aks nodepool add ... --node-taints sku=gpu:NoSchedule --enable-cluster-autoscaler --min-count 1
--max-count 3``; spot-node-pool.md ``--priority Spot --eviction-policy Delete --spot-max-price -1``;
gpu-multi-instance.md ``--gpu-instance-profile``; aks-managed-gpu-nodes.md ``--enable-managed-gpu``,
``--gpu-mig-strategy`` (aks-preview)). Only flags the spec implies are written; defaults are left out.

The script never runs ``az aks get-credentials``: kubectl must already point at the cluster.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gpupool import catalog, shell
from gpupool.design.node import advertised, device_plugin_mode
from gpupool.render import arm
from gpupool.render.naming import NAMESPACE, object_name, stems
from gpupool.spec.model import PoolSpec

_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
NODE_READY_TIMEOUT = "20m"
CAPACITY_TIMEOUT_S = {"self-managed": 300, "managed": 600, "gpu-operator": 1200, "windows-directx": 600}

NAMESPACE_FILE = "k8s/00-namespace.yaml"
"""Where ``gpupool.render`` writes the Namespace (relative to the output directory)."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _comment(text: str) -> str:
    """Text safe to put after ``#`` (one line, whatever the catalog or spec holds)."""
    return _CONTROL.sub(" ", str(text))


def _opt(flag: str, value: str) -> list[str]:
    """``[flag, value]``; ``flag=value`` when the value starts with ``-`` (argparse would take it for an
    option), except negative numbers such as ``--spot-max-price -1``, which argparse reads as values."""
    if value.startswith("-") and not _NUMBER.match(value):
        return [f"{flag}={value}"]
    return [flag, value]


def _price(value: float) -> str:
    """``-1`` as the AKS docs write it; other prices without float noise (``0.5``)."""
    return "-1" if value == -1 else f"{value:.5f}".rstrip("0").rstrip(".")


def nodepool_add_argv(pool: PoolSpec) -> list[str]:
    """``az aks nodepool add`` for ``pool`` as an argv list (no quoting; see :func:`shell.command`)."""
    argv = [
        "az", "aks", "nodepool", "add",
        *_opt("--resource-group", pool.resource_group),
        *_opt("--cluster-name", pool.cluster_name),
        *_opt("--name", pool.name),
        "--node-count", str(pool.node_count),
        *_opt("--node-vm-size", pool.vm_size),
    ]
    if pool.node_taints:
        argv += ["--node-taints", ",".join(str(t) for t in pool.node_taints)]
    if pool.autoscaler:
        argv += [
            "--enable-cluster-autoscaler",
            "--min-count", str(pool.autoscaler.min_count),
            "--max-count", str(pool.autoscaler.max_count),
        ]
    if pool.is_windows:
        argv += ["--os-type", "Windows"]
    if pool.os_sku != "Ubuntu":
        argv += ["--os-sku", pool.os_sku]
    if pool.mode == "System":
        argv += ["--mode", "System"]
    if pool.priority == "Spot":
        argv += ["--priority", "Spot", "--eviction-policy", pool.eviction_policy,
                 "--spot-max-price", _price(pool.spot_max_price)]
    if pool.node_labels:
        argv += ["--labels", *(f"{k}={v}" for k, v in pool.node_labels.items())]
    if pool.max_pods:
        argv += ["--max-pods", str(pool.max_pods)]
    if pool.zones:
        argv += ["--zones", *pool.zones]
    if pool.kubernetes_version:
        argv += ["--kubernetes-version", pool.kubernetes_version]
    if pool.is_gpu_pool:
        g = pool.gpu_settings
        if g.driver != "Install":
            argv += ["--gpu-driver", g.driver]
        if g.instance_profile:
            argv += ["--gpu-instance-profile", g.instance_profile]
        if g.managed:
            argv += ["--enable-managed-gpu=true"]  # as aks-managed-gpu-nodes.md writes it
            strategy = arm.mig_strategy(pool)
            # The CLI takes Single or Mixed; None is the API's default and is left out (passing it fails).
            if strategy and strategy != "None":
                argv += ["--gpu-mig-strategy", strategy]
    return argv


def _managed_prerequisites() -> list[str]:
    m = catalog.images()["managedGpu"]
    feature = shell.quote(m["feature"])
    return [
        "# ---- prerequisites: managed GPU node pools (preview) --------------------------------------------",
        _comment(f"# Azure CLI >= {m['minCli']}, aks-preview >= {m['minAksPreview']}, "
                 f"feature {m['feature']}."),
        _comment(f"# Source: {m['source']}"),
        "if az extension show --name aks-preview >/dev/null 2>&1; then",
        "    az extension update --name aks-preview",
        "else",
        "    az extension add --name aks-preview",
        "fi",
        f"az feature register --namespace Microsoft.ContainerService --name {feature}",
        "echo " + shell.quote(f"waiting for feature {m['feature']} to be Registered (this can take minutes)"),
        "state=''",
        "for _ in $(seq 1 90); do",
        f"    state=\"$(az feature show --namespace Microsoft.ContainerService --name {feature} "
        "--query properties.state --output tsv)\"",
        '    if [ "$state" = "Registered" ]; then break; fi',
        "    sleep 20",
        "done",
        'if [ "$state" != "Registered" ]; then',
        f"    echo {shell.quote('feature ' + m['feature'] + ' is not Registered yet:')} \"$state\" >&2",
        "    exit 1",
        "fi",
        "az provider register --namespace Microsoft.ContainerService",
        "",
    ]


_FUNCTIONS = r"""# ---- helpers ------------------------------------------------------------------------------
# pool_nodes POOL: the node names of an AKS pool (empty when it has scaled to zero).
pool_nodes() {
    kubectl get nodes -l "kubernetes.azure.com/agentpool=$1" -o name
}

# wait_for_nodes POOL TIMEOUT: wait until every node of the pool is Ready.
wait_for_nodes() {
    if [ -z "$(pool_nodes "$1")" ]; then
        echo "pool $1: no nodes yet (scaled to zero?); they start when a pod needs them"
        return 0
    fi
    kubectl wait --for=condition=Ready node -l "kubernetes.azure.com/agentpool=$1" --timeout="$2"
}

# check_capacity POOL RESOURCE JSONPATH EXPECTED TIMEOUT_S: every node of the pool advertises
# EXPECTED of RESOURCE in .status.capacity (device plugins register a few seconds after they start).
check_capacity() {
    local pool="$1" resource="$2" path="$3" expected="$4" timeout="$5"
    local deadline=$((SECONDS + timeout)) nodes node got ok
    while true; do
        nodes="$(pool_nodes "$pool")"
        if [ -z "$nodes" ]; then
            echo "pool $pool: no nodes to check; rerun after the pool scales up"
            return 0
        fi
        ok=1
        while read -r node; do
            got="$(kubectl get "$node" -o "jsonpath=$path")"
            if [ "$got" != "$expected" ]; then
                ok=0
                echo "  $node: $resource = '${got}' (want $expected)"
            fi
        done <<< "$nodes"
        if [ "$ok" = 1 ]; then
            echo "pool $pool: every node advertises $resource: $expected"
            return 0
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "pool $pool: nodes do not advertise $resource: $expected after ${timeout}s" >&2
            return 1
        fi
        sleep 10
    done
}

# run_smoke_test NAMESPACE JOB NAMESPACE_FILE JOB_FILE: run the smoke-test Job afresh, wait for it to
# succeed or fail, and show its output.
run_smoke_test() {
    local ns="$1" job="$2" deadline=$((SECONDS + 1800)) succeeded failed
    kubectl -n "$ns" delete job "$job" --ignore-not-found
    kubectl apply -f "$3" -f "$4"
    while true; do
        succeeded="$(kubectl -n "$ns" get job "$job" -o 'jsonpath={.status.succeeded}')"
        failed="$(kubectl -n "$ns" get job "$job" \
            -o 'jsonpath={.status.conditions[?(@.type=="Failed")].status}')"
        if [ "${succeeded:-0}" -ge 1 ]; then
            kubectl -n "$ns" logs "job/$job"
            echo "smoke test $job passed"
            return 0
        fi
        if [ "$failed" = "True" ] || [ "$SECONDS" -ge "$deadline" ]; then
            kubectl -n "$ns" describe job "$job" || true
            kubectl -n "$ns" logs "job/$job" || true
            echo "smoke test $job failed" >&2
            return 1
        fi
        sleep 10
    done
}
"""


def _jsonpath(resource: str) -> str:
    return "{.status.capacity." + resource.replace(".", "\\.") + "}"


def verify_lines(pool: PoolSpec, stem: str, k8s_files: dict[str, str] | None = None,
                 operator_script: str | None = None) -> list[str]:
    """Verification for one pool. ``k8s_files``: rendered manifest paths of the pool (None: not rendered);
    ``operator_script``: the GPU Operator install script (None: not rendered, "": installed already)."""
    mode = device_plugin_mode(pool)
    q = shell.quote
    lines = [_comment(f"# ---- pool {pool.name}: verify " + "-" * 50)]
    lines.append(f"wait_for_nodes {q(pool.name)} {q(NODE_READY_TIMEOUT)}")
    files = k8s_files or {}
    if mode == "self-managed":
        plugin = files.get("10-device-plugin.yaml")
        if plugin is not None:
            apply = [NAMESPACE_FILE, plugin]
            if "20-dcgm-exporter.yaml" in files:
                apply.append(files["20-dcgm-exporter.yaml"])
            lines.append("kubectl apply " + " ".join(f'-f "$ROOT"/{q(f)}' for f in apply))
            ds = object_name("nvidia-device-plugin", stem)
            lines.append(f"kubectl -n {q(NAMESPACE)} rollout status {q('daemonset/' + ds)} --timeout=10m")
        else:
            lines.append(
                "echo "
                + q(f"pool {pool.name}: deploy the NVIDIA device plugin (gpupool render --format k8s) "
                    "before this check")
            )
    elif mode == "gpu-operator":
        if operator_script == "":
            lines.append(_comment(f"# the GPU Operator of cluster {pool.cluster_name} was installed above"))
        elif operator_script is not None:
            lines.append(f'bash "$ROOT"/{q(operator_script)}')
        else:
            lines.append("echo " + q(f"pool {pool.name}: install the NVIDIA GPU Operator before this check"))
    elif mode == "amd-gpu-operator":
        lines.append(
            "echo " + q(f"pool {pool.name}: AMD GPUs are advertised only after you install the AMD GPU "
                        "Operator (not rendered); skipping the capacity check")
        )
        return [*lines, ""]
    elif mode == "none":
        return [*lines, ""]
    timeout = CAPACITY_TIMEOUT_S.get(mode, 600)
    for resource, count in advertised(pool).resources.items():
        lines.append(
            f"check_capacity {q(pool.name)} {q(resource)} {q(_jsonpath(resource))} {q(count)} {q(timeout)}"
        )
    smoke = files.get("90-smoke-test.yaml")
    if smoke is not None:
        job = object_name("gpu-smoke-test", stem)
        lines.append(f'run_smoke_test {q(NAMESPACE)} {q(job)} "$ROOT"/{q(NAMESPACE_FILE)} "$ROOT"/{q(smoke)}')
    return [*lines, ""]


def script(pools: Sequence[PoolSpec], k8s_files: dict[str, dict[str, str]] | None = None,
           operator_scripts: dict[str, str] | None = None) -> str:
    """The whole bash script for ``pools``.

    ``k8s_files``: pool stem -> {file name -> path relative to the output directory} of the rendered
    manifests; ``operator_scripts``: pool stem -> GPU Operator install script path. Without them the
    script says what to deploy instead of applying it.
    """
    pool_stems = stems(pools)
    lines = [
        "#!/usr/bin/env bash",
        "# Rendered by gpupool: create the GPU node pools of the spec and check that each one advertises",
        "# its GPUs. kubectl must already point at the cluster (az aks get-credentials is not run).",
        "set -euo pipefail",
        "",
    ]
    if any(p.is_gpu_pool and p.gpu_settings.managed for p in pools):
        lines += _managed_prerequisites()
    for pool in pools:
        sizes = catalog.vm_size(pool.vm_size)
        what = pool.vm_size
        if sizes and sizes.gpu:
            what += f" ({sizes.gpus_text()} x {sizes.gpu.model})"
        mode = device_plugin_mode(pool)
        stack = "no GPU" if mode == "none" else f"{mode} GPU stack"
        lines.append(_comment(f"# ---- pool {pool.name}: {what}, {stack} ----"))
        lines.append(shell.command(nodepool_add_argv(pool), words=4))
        lines.append("")
    lines.append(_FUNCTIONS)
    clusters = {(p.resource_group, p.cluster_name) for p in pools}
    if len(clusters) > 1:
        lines.append(
            "echo " + shell.quote("note: these pools belong to more than one cluster; the checks below use "
                                  "the current kubectl context for all of them")
        )
    installed: set[str] = set()
    for pool, stem in zip(pools, pool_stems, strict=True):
        files = (k8s_files or {}).get(stem)
        op = (operator_scripts or {}).get(stem)
        if op is not None and op in installed:
            op = ""  # the Operator is installed once per cluster, by its first pool
        elif op is not None:
            installed.add(op)
        lines += verify_lines(pool, stem, files, op)
    lines.append('echo "done"')
    if any('"$ROOT"' in line for line in lines):
        # The rendered manifests and scripts, relative to this script's directory.
        lines.insert(4, 'ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"')
    return "\n".join(lines) + "\n"

