"""Scale of ``gpupool doctor --snapshot``: 5,000 nodes, 50,000 pods, 100,000 events.

Snapshot: 10 GPU pools x 250 Standard_NC4as_T4_v3 (tainted sku=gpu:NoSchedule; the device plugin and DCGM
exporter on each; one training pod per node) and 10 CPU pools x 250 Standard_D4s_v5; 40,000 CPU pods, and
500 Pending GPU pods in 10 ReplicaSets (half lack the sku=gpu toleration, half fit nowhere), each with its
FailedScheduling and NotTriggerScaleUp events; the rest of the 100,000 events are Scheduled/Pulled/Created/
Started. Objects are built by tests/doctor/aks.py (the fixtures' builders) and written as kubectl writes them
(4-space indented JSON): about 0.4 GB on disk.

Measured: ``gpupool doctor --snapshot DIR -o json`` as a separate program (wall time and peak RSS of that
process), and beside it, as the floor, a program that only reads and ``json.loads`` the same four files
(with the garbage-collection threshold the CLI sets, ``gpupool.gcpolicy``).
Target: <= 10 s wall and <= 2 GiB peak memory.

Run: ``.venv/bin/python bench/doctor_scale.py`` (``--reps N``, ``--keep DIR`` to keep the snapshot).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "doctor"))

import aks  # noqa: E402

GPU_POOLS, CPU_POOLS, PER_POOL = 10, 10, 250
CPU_PODS = 42_000
PENDING = 500
EVENTS = 100_000
TARGET_SECONDS, TARGET_BYTES = 10.0, 2 * 2**30
T4, D4 = "Standard_NC4as_T4_v3", "Standard_D4s_v5"
TOL = {"effect": "NoSchedule", "key": "sku", "operator": "Equal", "value": "gpu"}


class ListWriter:
    """Writes a kubectl List item by item (no whole list in memory)."""

    def __init__(self, path: Path) -> None:
        self.fh = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed in close()
        self.fh.write('{\n    "apiVersion": "v1",\n    "items": [\n')
        self.n = 0

    def add(self, obj: dict) -> None:
        text = json.dumps(obj, indent=4)
        self.fh.write((",\n" if self.n else "") + "\n".join("        " + line for line in text.splitlines()))
        self.n += 1

    def close(self) -> None:
        self.fh.write(
            '\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n'
        )
        self.fh.close()


def generate(d: Path) -> dict[str, int]:
    d.mkdir(parents=True, exist_ok=True)
    nodes, pods, events, dss = (
        ListWriter(d / f) for f in ("nodes.json", "pods.json", "events.json", "daemonsets.json")
    )
    gpu_nodes, cpu_nodes = [], []
    for p in range(GPU_POOLS):
        for i in range(PER_POOL):
            n = aks.node(f"gpu{p}", i, T4, gpus={"nvidia.com/gpu": 1}, taints=[("sku", "gpu", "NoSchedule")])
            nodes.add(n)
            gpu_nodes.append(n["metadata"]["name"])
    for p in range(CPU_POOLS):
        for i in range(PER_POOL):
            n = aks.node(f"cpu{p}", i, D4)
            nodes.add(n)
            cpu_nodes.append(n["metadata"]["name"])
    nodes.close()
    ev = 0

    def event(ns: str, name: str, reason: str, message: str, **kw: object) -> None:
        nonlocal ev
        events.add(aks.event(ns, "Pod", name, reason, message, **kw))  # type: ignore[arg-type]
        ev += 1

    n_pods = 0
    for i, node in enumerate(gpu_nodes):
        for kind, image, container in (
            (
                "nvidia-device-plugin-daemonset",
                "nvcr.io/nvidia/k8s-device-plugin:v0.18.0",
                "nvidia-device-plugin-ctr",
            ),
            ("dcgm-exporter", "nvcr.io/nvidia/k8s/dcgm-exporter:4.2.3-4.1.3-ubuntu22.04", "dcgm-exporter"),
        ):
            pods.add(
                aks.pod(
                    "gpu-resources",
                    f"{kind}-{i:05x}",
                    image=image,
                    node=node,
                    owner=("DaemonSet", kind),
                    container=container,
                    tolerations=[TOL],
                )
            )
            n_pods += 1
        name = f"trainer-{i % 10}-7d9c6b5f4-{i:05x}"
        pods.add(
            aks.pod(
                "ml",
                name,
                image="nvcr.io/nvidia/pytorch:25.01-py3",
                node=node,
                owner=("ReplicaSet", f"trainer-{i % 10}-7d9c6b5f4"),
                requests={"cpu": "2", "memory": "8Gi", "nvidia.com/gpu": "1"},
                limits={"nvidia.com/gpu": "1"},
                tolerations=[TOL],
            )
        )
        n_pods += 1
    for i in range(CPU_PODS):
        name = f"web-{i % 200}-5f7b9c6d8-{i:05x}"
        pods.add(
            aks.pod(
                f"team{i % 40}",
                name,
                image="mcr.microsoft.com/azurelinux/base/nginx:1.25",
                node=cpu_nodes[i % len(cpu_nodes)],
                owner=("ReplicaSet", f"web-{i % 200}-5f7b9c6d8"),
                requests={"cpu": "50m", "memory": "64Mi"},
            )
        )
        n_pods += 1
    msg_taint = (
        "0/5000 nodes are available: 2500 Insufficient nvidia.com/gpu, 2500 node(s) had untolerated "
        "taint(s). "
        "no new claims to deallocate, preemption: 0/5000 nodes are available: 5000 Preemption is not "
        "helpful for scheduling."
    )
    msg_full = (
        "0/5000 nodes are available: 5000 Insufficient nvidia.com/gpu. no new claims to deallocate, "
        "preemption: "
        "0/5000 nodes are available: 2500 No preemption victims found for incoming pod, 2500 "
        "Preemption is not helpful for scheduling."
    )
    for i in range(PENDING):
        rs = f"batch-{i % 10}-8f6d4c2b1"
        name = f"{rs}-{i:05x}"
        tolerate = i % 10 >= 5
        msg = msg_full if tolerate else msg_taint
        pods.add(
            aks.pod(
                "ml",
                name,
                image="nvcr.io/nvidia/pytorch:25.01-py3",
                node=None,
                owner=("ReplicaSet", rs),
                requests={"cpu": "2", "memory": "8Gi", "nvidia.com/gpu": "1"},
                limits={"nvidia.com/gpu": "1"},
                tolerations=[TOL] if tolerate else [],
                phase="Pending",
                pending_message=msg,
            )
        )
        n_pods += 1
        event("ml", name, "FailedScheduling", msg, count=12)
        event(
            "ml",
            name,
            "NotTriggerScaleUp",
            "pod didn't trigger scale-up: 10 max node group size reached",
            type_="Normal",
            component="cluster-autoscaler",
            count=40,
        )
    pods.close()
    i = 0
    while ev < EVENTS:
        reason, msg = [
            ("Scheduled", "Successfully assigned team1/web to aks-cpu0"),
            ("Pulled", "Container image already present on machine"),
            ("Created", "Created container: main"),
            ("Started", "Started container main"),
        ][i % 4]
        event(
            f"team{i % 40}",
            f"web-{i % 200}-5f7b9c6d8-{i:05x}",
            reason,
            msg,
            type_="Normal",
            component="kubelet",
        )
        i += 1
    events.close()
    dss.add(
        aks.daemonset(
            "gpu-resources",
            "nvidia-device-plugin-daemonset",
            image="nvcr.io/nvidia/k8s-device-plugin:v0.18.0",
            container="nvidia-device-plugin-ctr",
            selector_label={"name": "nvidia-device-plugin-ds"},
            tolerations=[TOL],
            desired=len(gpu_nodes),
        )
    )
    dss.add(
        aks.daemonset(
            "gpu-resources",
            "dcgm-exporter",
            image="nvcr.io/nvidia/k8s/dcgm-exporter:4.2.3-4.1.3-ubuntu22.04",
            container="dcgm-exporter",
            selector_label={"app.kubernetes.io/name": "dcgm-exporter"},
            tolerations=[TOL],
            desired=len(gpu_nodes),
        )
    )
    dss.close()
    return {"nodes": len(gpu_nodes) + len(cpu_nodes), "pods": n_pods, "events": ev}


FLOOR = (  # under the garbage-collection policy the CLI runs with (gpupool.gcpolicy)
    "import gc,json,sys,pathlib\n"
    "from gpupool.gcpolicy import YOUNG_THRESHOLD\n"
    "gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])\n"
    "d=pathlib.Path(sys.argv[1])\n"
    "docs=[json.loads((d/f).read_bytes()) for f in "
    "('nodes.json','pods.json','daemonsets.json','events.json')]\n"
    "print(sum(len(x['items']) for x in docs))\n"
)


def measure(argv: list[str]) -> tuple[float, float, str]:
    """Wall seconds and CPU seconds (user + system) of one child program."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        raise SystemExit(f"failed ({p.returncode}): {p.stderr[-2000:]}")
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return wall, cpu, p.stdout


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--keep", type=Path)
    args = ap.parse_args()
    tmp = None
    if args.keep and (args.keep / "pods.json").exists():
        d = args.keep
        counts = None
    else:
        tmp = tempfile.TemporaryDirectory() if not args.keep else None
        d = args.keep or Path(tmp.name) / "snap"  # type: ignore[union-attr]
        t0 = time.perf_counter()
        counts = generate(d)
        print(f"generated {counts} in {time.perf_counter() - t0:.1f} s")
    size = sum(f.stat().st_size for f in d.glob("*.json"))
    print(f"snapshot: {size / 2**20:,.0f} MiB in {d}")
    floors, doctors, floor_cpu, doctor_cpu = [], [], [], []
    out = ""
    for _ in range(args.reps):  # interleaved: the machine's speed drifts
        w, c, _ = measure([sys.executable, "-c", FLOOR, str(d)])
        floors.append(w)
        floor_cpu.append(c)
        w, c, out = measure([sys.executable, "-m", "gpupool", "doctor", "--snapshot", str(d), "-o", "json"])
        doctors.append(w)
        doctor_cpu.append(c)
    # ru_maxrss of RUSAGE_CHILDREN is the largest child so far: doctor (the floor holds less)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    summary = json.loads(out)["summary"]
    floor, doctor = statistics.median(floors), statistics.median(doctors)
    print(f"findings: {summary['findings']}, pending GPU pods: {summary['pendingGpuPods']}")
    print(f"load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    print(
        f"json.loads floor (4 files):  median {floor:5.2f} s wall, {statistics.median(floor_cpu):5.2f} s CPU"
        f"   runs {', '.join(f'{x:.2f}' for x in floors)}"
    )
    print(
        f"gpupool doctor --snapshot:   median {doctor:5.2f} s wall, "
        f"{statistics.median(doctor_cpu):5.2f} s CPU"
        f"   runs {', '.join(f'{x:.2f}' for x in doctors)}   ({doctor / floor:.2f}x the floor)"
    )
    print(f"peak memory (largest child, RSS): {peak / 2**30:.2f} GiB")
    ok = doctor <= TARGET_SECONDS and peak <= TARGET_BYTES
    print(f"target <= {TARGET_SECONDS:.0f} s and <= 2 GiB: {'met' if ok else 'MISSED'}")
    if tmp is not None:
        tmp.cleanup()
    if os.environ.get("BENCH_STRICT") and not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
