"""Throughput of ``gpupool simulate``: 5,000 GPU nodes, 50,000 one-GPU pods.

Cluster: 5 GPU pools x 1,000 Standard_ND96asr_v4 (8 x A100 each, tainted sku=gpu:NoSchedule) plus a system
pool of 3 Standard_D8s_v5; the NVIDIA device plugin DaemonSet (one pod per GPU node, counted as overhead); 10
Deployments x 5,000 replicas (ReplicaSet-owned, so scored with the default topology spreading), each pod
asking for nvidia.com/gpu: 1, 4 CPU and 32Gi. 40,000 GPUs, so 40,000 pods are placed and 10,000 reported
Pending with kube-scheduler's message.

Second run (``--snapshot``, on by default): the same workloads, starting from a real cluster's snapshot
(``simulate --snapshot DIR``): 5,000 existing GPU nodes (+ 3 system) written as ``kubectl get nodes -o json``
prints them, and 50,000 running pods (6 one-GPU pods and 4 one-CPU pods per GPU node) as ``kubectl get pods
-A -o json``; read with the snapshot reader, then 50,000 new one-GPU pods placed on the 10,000 GPUs left.

Target: <= 10 s wall per run on a 2-core machine, i.e. >= 5,000 pods/s (Karpenter's scheduling benchmark runs
~1,000-1,300 pods/s; kube-scheduler's scheduler_perf SchedulingBasic 5000Nodes_50000Pods asserts >= 810
pods/s).

Run: ``.venv/bin/python bench/simulate_throughput.py`` (``--json`` for machine-readable figures). The figures
include reading the YAML (the CLI does the same work).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

GPU_POOLS = 5
NODES_PER_POOL = 1000
DEPLOYMENTS = 10
REPLICAS = 5000
TARGET_SECONDS = 10.0


def manifests() -> str:
    docs = [
        """apiVersion: gpupool/v1
kind: NodePool
metadata: {name: system}
spec: {resourceGroup: rg, clusterName: bench, vmSize: Standard_D8s_v5, mode: System, nodeCount: 3,
        kubernetesVersion: "1.35"}
"""
    ]
    for i in range(GPU_POOLS):
        docs.append(f"""apiVersion: gpupool/v1
kind: GpuNodePool
metadata: {{name: a100p{i}}}
spec: {{resourceGroup: rg, clusterName: bench, vmSize: Standard_ND96asr_v4, nodeCount: {NODES_PER_POOL},
        nodeTaints: ["sku=gpu:NoSchedule"]}}
""")
    docs.append("""apiVersion: apps/v1
kind: DaemonSet
metadata: {name: nvidia-device-plugin, namespace: kube-system}
spec:
  template:
    spec:
      priorityClassName: system-node-critical
      nodeSelector: {kubernetes.azure.com/accelerator: nvidia}
      tolerations: [{key: sku, operator: Equal, value: gpu, effect: NoSchedule}]
      containers:
      - name: plugin
        image: nvcr.io/nvidia/k8s-device-plugin:v0.18.0
        resources: {requests: {cpu: 50m, memory: 64Mi}}
""")
    for d in range(DEPLOYMENTS):
        docs.append(f"""apiVersion: apps/v1
kind: Deployment
metadata: {{name: train-{d}, namespace: ml}}
spec:
  replicas: {REPLICAS}
  selector: {{matchLabels: {{app: train-{d}}}}}
  template:
    metadata: {{labels: {{app: train-{d}}}}}
    spec:
      tolerations: [{{key: sku, operator: Equal, value: gpu, effect: NoSchedule}}]
      containers:
      - name: worker
        image: nvcr.io/nvidia/pytorch:24.05-py3
        resources:
          requests: {{cpu: "4", memory: 32Gi}}
          limits: {{nvidia.com/gpu: 1, memory: 32Gi}}
""")
    return "---\n".join(docs)


RUNNING_GPU_PODS = 6
RUNNING_CPU_PODS = 4


def snapshot_files(root: Path) -> None:
    """nodes.json, pods.json, daemonsets.json, events.json as kubectl prints them (a List of items)."""
    nodes, pods = [], []

    def node(name: str, pool: str, vm: str, cpu: str, mem: str, gpu: int) -> dict:
        alloc = {"cpu": cpu, "memory": mem, "pods": "110", "ephemeral-storage": "119703055367"}
        labels = {
            "kubernetes.azure.com/agentpool": pool,
            "agentpool": pool,
            "node.kubernetes.io/instance-type": vm,
            "kubernetes.io/os": "linux",
            "kubernetes.io/arch": "amd64",
            "kubernetes.io/hostname": name,
            "topology.kubernetes.io/zone": "0",
            "kubernetes.azure.com/mode": "system" if pool == "system" else "user",
        }
        taints = []
        if gpu:
            alloc["nvidia.com/gpu"] = str(gpu)
            labels["kubernetes.azure.com/accelerator"] = "nvidia"
            taints = [{"key": "sku", "value": "gpu", "effect": "NoSchedule"}]
        return {
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {"name": name, "labels": labels},
            "spec": {"taints": taints},
            "status": {
                "capacity": dict(alloc),
                "allocatable": alloc,
                "conditions": [{"type": "Ready", "status": "True"}],
            },
        }

    def pod(name: str, node_name: str, limits: dict) -> dict:
        return {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": name, "namespace": "running", "ownerReferences": [{"kind": "ReplicaSet"}]},
            "spec": {
                "nodeName": node_name,
                "priority": 0,
                "tolerations": [{"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}],
                "containers": [{"name": "c", "image": "x", "resources": {"limits": limits}}],
            },
            "status": {"phase": "Running"},
        }

    for i in range(3):
        nodes.append(node(f"aks-system-1-vmss{i:06d}", "system", "Standard_D8s_v5", "7820m", "28Gi", 0))
    n = 0
    for p in range(GPU_POOLS):
        for i in range(NODES_PER_POOL):
            name = f"aks-a100p{p}-1-vmss{i:06d}"
            nodes.append(node(name, f"a100p{p}", "Standard_ND96asr_v4", "95160m", "860Gi", 8))
            for _ in range(RUNNING_GPU_PODS):
                pods.append(pod(f"old-{n}", name, {"nvidia.com/gpu": 1, "cpu": "4", "memory": "32Gi"}))
                n += 1
            for _ in range(RUNNING_CPU_PODS):
                pods.append(pod(f"old-{n}", name, {"cpu": "1", "memory": "1Gi"}))
                n += 1
    files = (("nodes.json", nodes), ("pods.json", pods), ("daemonsets.json", []), ("events.json", []))
    for fname, items in files:
        (root / fname).write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}), "utf-8")


def workloads_only() -> str:
    return "---\n".join(d for d in manifests().split("---\n") if "gpupool/v1" not in d)


def run_snapshot() -> dict:
    from gpupool.cluster import read_snapshot
    from gpupool.simulate import Options, load_inputs, simulate
    from gpupool.simulate.start import from_snapshot

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "snap"
        root.mkdir()
        snapshot_files(root)
        path = Path(tmp) / "workloads.yaml"
        path.write_text(workloads_only(), encoding="utf-8")
        t0 = time.perf_counter()
        start = from_snapshot(read_snapshot(root))
        inputs = load_inputs([path], require_pools=False)
        t1 = time.perf_counter()
        result = simulate(inputs, Options(start=start))
        t2 = time.perf_counter()
        result.to_dict()
        t3 = time.perf_counter()
    pods = DEPLOYMENTS * REPLICAS
    wall = t3 - t0
    free = GPU_POOLS * NODES_PER_POOL * (8 - RUNNING_GPU_PODS)
    return {
        "nodes": sum(p.nodes for p in result.pools),
        "runningPods": len(start.pods),
        "pods": pods,
        "placed": result.placed,
        "pending": result.pending_pods,
        "loadSeconds": round(t1 - t0, 3),
        "simulateSeconds": round(t2 - t1, 3),
        "reportSeconds": round(t3 - t2, 3),
        "wallSeconds": round(wall, 3),
        "ok": wall <= TARGET_SECONDS and result.placed == free and result.pending_pods == pods - free,
    }


def run() -> dict:
    from gpupool.simulate import Options, load_inputs, simulate

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.yaml"
        path.write_text(manifests(), encoding="utf-8")
        t0 = time.perf_counter()
        inputs = load_inputs([path])
        t1 = time.perf_counter()
        result = simulate(inputs, Options())
        t2 = time.perf_counter()
        payload = result.to_dict()
        t3 = time.perf_counter()
    pods = DEPLOYMENTS * REPLICAS
    wall = t3 - t0
    return {
        "nodes": sum(p.nodes for p in result.pools),
        "pods": pods,
        "placed": result.placed,
        "pending": result.pending_pods,
        "daemonSetPods": result.daemonset_pods,
        "pendingMessage": payload["pending"][0]["message"] if payload["pending"] else None,
        "loadSeconds": round(t1 - t0, 3),
        "simulateSeconds": round(t2 - t1, 3),
        "reportSeconds": round(t3 - t2, 3),
        "wallSeconds": round(wall, 3),
        "podsPerSecond": round(pods / wall),
        "targetSeconds": TARGET_SECONDS,
        "ok": wall <= TARGET_SECONDS and result.pending_pods == 10_000,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--no-snapshot", action="store_true", help="skip the run that starts from a snapshot")
    args = ap.parse_args()
    figures = run()
    snap = None if args.no_snapshot else run_snapshot()
    if args.json:
        print(json.dumps({**figures, "snapshot": snap}, indent=2))
    else:
        print(
            f"{figures['nodes']:,} nodes, {figures['pods']:,} pods: {figures['placed']:,} placed, "
            f"{figures['pending']:,} pending, {figures['daemonSetPods']:,} DaemonSet pods"
        )
        print(
            f"wall {figures['wallSeconds']:.2f} s (load {figures['loadSeconds']:.2f} s, simulate "
            f"{figures['simulateSeconds']:.2f} s, report {figures['reportSeconds']:.2f} s): "
            f"{figures['podsPerSecond']:,} pods/s (target <= {TARGET_SECONDS:g} s)"
        )
        print(f"pending message: {figures['pendingMessage']}")
        if snap is not None:
            print(
                f"from a snapshot of {snap['nodes']:,} nodes and {snap['runningPods']:,} running pods: "
                f"{snap['placed']:,} placed, {snap['pending']:,} pending; wall {snap['wallSeconds']:.2f} s "
                f"(read snapshot + inputs {snap['loadSeconds']:.2f} s, "
                f"simulate {snap['simulateSeconds']:.2f} s, report {snap['reportSeconds']:.2f} s; "
                f"target <= {TARGET_SECONDS:g} s)"
            )
    return 0 if figures["ok"] and (snap is None or snap["ok"]) else 1


if __name__ == "__main__":
    sys.exit(main())
