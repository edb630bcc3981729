"""How long does ``gpupool preflight`` take on 20 pools with recorded az inputs? Target: <= 1 s wall.

Runs the real entry point (``python -m gpupool preflight SPECS --from DIR``) as a subprocess, interleaved
with its peer ``gpupool check`` on the same 20 pools (the machine's speed drifts; interleaving keeps the
comparison fair), and prints median / min / max of each and their ratio. Two input sets:
  * recorded: tests/preflight/data/eastus (az vm list-skus, list-usage, aks get-versions, aks show,
    az version, shaped as azure-cli 2.91.0 prints them);
  * region-sized: the same files with list-skus grown to 1,500 SKUs (a real region lists about that
    many virtualMachines SKUs, several MB of JSON), the same rows under new names.

CPU time (user + system of the child) is printed too: on a shared machine it varies less than wall time.

Usage: .venv/bin/python bench/preflight_latency.py [--runs N]
Exit status 1 when a preflight median misses the target.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
RECORDED = REPO / "tests" / "preflight" / "data" / "eastus"
TARGET_S = 1.0
SIZES = [
    "Standard_NC4as_T4_v3",
    "Standard_NC8as_T4_v3",
    "Standard_NC64as_T4_v3",
    "Standard_NC24ads_A100_v4",
    "Standard_NC48ads_A100_v4",
    "Standard_NV36ads_A10_v5",
    "Standard_D4s_v5",
    "Standard_D8s_v5",
    "Standard_NC40ads_H100_v5",
    "Standard_ND96isr_H200_v5",
]


def _pools(d: Path) -> list[str]:
    files = []
    for i in range(20):
        size = SIZES[i % len(SIZES)]
        spec = {
            "resourceGroup": "myResourceGroup",
            "clusterName": "myAKSCluster",
            "location": "eastus",
            "kubernetesVersion": ["1.34", "1.35", "1.36", "1.32"][i % 4],
            "vmSize": size,
            "nodeTaints": ["sku=gpu:NoSchedule"],
            "zones": [1, 2, 3] if i % 3 else [1],
            "priority": "Spot" if i % 5 == 4 else "Regular",
            "autoscaler": {"minCount": 0, "maxCount": 1 + i % 6},
        }
        kind = "NodePool" if size.startswith("Standard_D") else "GpuNodePool"
        if kind == "GpuNodePool" and i % 7 == 3:
            spec["gpu"] = {"driver": "None"}
        doc = {"apiVersion": "gpupool/v1", "kind": kind, "metadata": {"name": f"pool{i:02d}"}, "spec": spec}
        f = d / f"pool{i:02d}.yaml"
        f.write_text(yaml.safe_dump(doc, sort_keys=False))
        files.append(str(f))
    return files


def _region_sized(src: Path, dst: Path, n: int = 1500) -> None:
    shutil.copytree(src, dst)
    rows = json.loads((src / "skus.json").read_text())
    out = list(rows)
    i = 0
    while len(out) < n:
        r = json.loads(json.dumps(rows[i % len(rows)]))
        r["name"] = f"{r['name']}_x{i}"
        out.append(r)
        i += 1
    (dst / "skus.json").write_text(json.dumps(out, indent=2, sort_keys=True))


def _wall(cmd: list[str]) -> tuple[float, int, float]:
    """Wall seconds, exit code and CPU seconds (user + system) of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, cwd=REPO, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, p.returncode, cpu


def _stats(xs: list[float]) -> str:
    return (
        f"median {statistics.median(xs) * 1000:7.1f} ms  min {min(xs) * 1000:7.1f} ms  "
        f"max {max(xs) * 1000:7.1f} ms"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11, help="subprocess runs of each (default 11)")
    args = ap.parse_args()
    py = [sys.executable, "-m", "gpupool"]
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        specs = _pools(t)
        big = t / "region"
        _region_sized(RECORDED, big)
        size_mb = (big / "skus.json").stat().st_size / 1e6
        print(f"20 pools; Python {sys.version.split()[0]}; {args.runs} interleaved runs each")
        for label, inputs in (("recorded", RECORDED), (f"region-sized ({size_mb:.1f} MB list-skus)", big)):
            pre_cmd = [*py, "preflight", *specs, "--from", str(inputs)]
            chk_cmd = [*py, "check", *specs]
            _wall(pre_cmd), _wall(chk_cmd)  # warm the OS file cache
            pre, chk, pre_cpu, chk_cpu, codes = [], [], [], [], set()
            for _ in range(args.runs):
                a, rc, ac = _wall(pre_cmd)
                b, rc2, bc = _wall(chk_cmd)
                pre.append(a)
                chk.append(b)
                pre_cpu.append(ac)
                chk_cpu.append(bc)
                codes |= {rc, rc2}
            if codes - {0, 1}:
                print(f"a command exited {sorted(codes)}", file=sys.stderr)
                return 2
            ratio = statistics.median(pre) / statistics.median(chk)
            worst = max(worst, statistics.median(pre))
            print(f"inputs: {label}")
            print(f"  gpupool preflight  wall {_stats(pre)}")
            print(f"  gpupool check      wall {_stats(chk)}   (peer, same 20 pools)")
            print(f"  gpupool preflight  cpu  {_stats(pre_cpu)}")
            print(f"  gpupool check      cpu  {_stats(chk_cpu)}")
            print(
                f"  preflight / check  {ratio:.2f}x;  target <= {TARGET_S:.1f} s: "
                f"{'met' if statistics.median(pre) <= TARGET_S else 'MISSED'}"
            )
    return 0 if worst <= TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
