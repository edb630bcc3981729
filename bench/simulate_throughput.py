"""Throughput of ``gpupool simulate``: 5,000 GPU nodes, 50,000 one-GPU pods.

Cluster: 5 GPU pools x 1,000 Standard_ND96asr_v4 (8 x A100 each, tainted sku=gpu:NoSchedule) plus a system
pool of 3 Standard_D8s_v5; the NVIDIA device plugin DaemonSet (one pod per GPU node, counted as overhead); 10
Deployments x 5,000 replicas, each pod asking for nvidia.com/gpu: 1, 4 CPU and 32Gi. 40,000 GPUs, so 40,000
pods are placed and 10,000 reported Pending with kube-scheduler's message.

Target: <= 10 s wall on a 2-core machine, i.e. >= 5,000 pods/s (Karpenter's scheduling benchmark runs
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
  template:
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
    args = ap.parse_args()
    figures = run()
    if args.json:
        print(json.dumps(figures, indent=2))
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
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
