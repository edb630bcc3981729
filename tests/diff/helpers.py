"""Helpers for the diff/import tests: realistic `az aks nodepool show/list -o json` files, spec writers,
workload manifests, and stub `az` / `kubectl` executables that record their arguments."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
import yaml

from support import pool_doc

DATA = Path(__file__).resolve().parent / "data"
AZ_T4 = DATA / "az-show-t4.json"  # az aks nodepool show: T4 pool gpunp, sku=gpu:NoSchedule, autoscaler 1..3
AZ_A100 = DATA / "az-show-a100-managed-mig.json"  # managed A100 pool a100mig, MIG1g, migStrategy Mixed
AZ_LIST = DATA / "az-list.json"  # az aks nodepool list: nodepool1 (System), gpunp, spotgpu (Spot)


def spec(
    name: str = "gpunp",
    vm_size: str = "Standard_NC4as_T4_v3",
    kind: str = "GpuNodePool",
    gpu: dict[str, Any] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A pool spec document; by default the same pool as az-show-t4.json. A field set to None is left out."""
    defaults: dict[str, Any] = {
        "nodeCount": 2,
        "autoscaler": {"minCount": 1, "maxCount": 3},
        "nodeTaints": ["sku=gpu:NoSchedule"],
    }
    merged = {k: v for k, v in {**defaults, **fields}.items() if v is not None}
    return pool_doc(vm_size, kind=kind, name=name, gpu=gpu, **merged)


def az_json(path: Path = AZ_T4, **changes: Any) -> dict[str, Any]:
    data = json.loads(path.read_text())
    data.update(changes)
    return data


@pytest.fixture
def write(tmp_path: Path):
    """write(name, data) -> path: YAML for dicts/lists of documents, JSON for *.json, text as is."""

    def _write(name: str, data: Any) -> Path:
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            p.write_text(data)
        elif name.endswith(".json"):
            p.write_text(json.dumps(data, indent=2) + "\n")
        elif isinstance(data, list):
            p.write_text(yaml.safe_dump_all(data, sort_keys=False))
        else:
            p.write_text(yaml.safe_dump(data, sort_keys=False))
        return p

    return _write


def deployment(
    name: str,
    namespace: str = "ml",
    gpus: int | None = 1,
    tolerations: list | None = None,
    node_selector: dict | None = None,
    labels: dict | None = None,
    kind: str = "Deployment",
    resource: str = "nvidia.com/gpu",
) -> dict[str, Any]:
    labels = labels or {"app": name}
    container: dict[str, Any] = {"name": "main", "image": "nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04"}
    if gpus:
        container["resources"] = {"limits": {resource: gpus}}
    pod: dict[str, Any] = {"containers": [container]}
    if tolerations is not None:
        pod["tolerations"] = tolerations
    if node_selector is not None:
        pod["nodeSelector"] = node_selector
    if kind == "Pod":
        return {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": name, "namespace": namespace, "labels": labels},
            "spec": pod,
        }
    body: dict[str, Any] = {
        "selector": {"matchLabels": labels},
        "template": {"metadata": {"labels": labels}, "spec": pod},
    }
    if kind != "DaemonSet":
        body["replicas"] = 1
    return {
        "apiVersion": "apps/v1",
        "kind": kind,
        "metadata": {"name": name, "namespace": namespace},
        "spec": body,
    }


SKU_GPU = {"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}

STUB = r"""#!/usr/bin/env bash
# Stub for {tool}: records its arguments (one line per call) and answers like a healthy cluster.
{{ printf '%s' '{tool}'; printf ' %s' "$@"; printf '\n'; }} >> "$STUB_LOG"
for a in "$@"; do
  if [ -n "${{STUB_FAIL:-}}" ] && [ "$a" = "${{STUB_FAIL:-}}" ]; then
    echo "stub {tool}: $a failed" >&2
    exit 1
  fi
done
if [ '{tool}' = az ]; then exit 0; fi
args=" $* "
selector=""
prev=""
for a in "$@"; do
  if [ "$prev" = "-l" ]; then selector="$a"; fi
  prev="$a"
done
pool="${{selector#*=}}"
case "$args" in
  *" config current-context "*) echo myAKSCluster ;;
  *" apply "*) cat > /dev/null ;;
  *" get nodes "*" -o name "*) printf 'node/aks-%s-12345678-vmss00000%s\n' "$pool" 0 "$pool" 1 ;;
  *" get nodes "*"metadata.name"*) echo "aks-$pool-12345678-vmss000000 aks-$pool-12345678-vmss000001" ;;
  *" get pods "*) echo "aks-${{STUB_NEW_POOL:-gpunp2}}-12345678-vmss000000 Running" ;;
esac
exit 0
"""


@pytest.fixture
def stubs(tmp_path: Path):
    """A bin dir with stub `az` and `kubectl`; returns (env for subprocess, log path)."""
    bindir = tmp_path / "stub-bin"
    bindir.mkdir()
    log = tmp_path / "calls.log"
    log.write_text("")
    for tool in ("az", "kubectl"):
        p = bindir / tool
        p.write_text(STUB.format(tool=tool))
        p.chmod(p.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}", "STUB_LOG": str(log)}
    return env, log
