"""How fast is ``gpupool lint``? Resources/s next to ``kubernetes-validate --strict``, same files, same run.

Builds a corpus of ``--resources`` (default 10,000) Kubernetes resources in a temporary directory:
  * the shared real-world corpus ``<repo>/../shared/corpus/real`` (published manifests, GPU and not, custom
    resources included; not in the repository), copied ``--real-copies`` times (default 3); the files that
    do not parse as YAML are left out, because kubernetes-validate aborts its whole run on the first one
    (gpupool reports them and goes on);
  * generated GPU workloads (Deployments, Jobs, Pods, StatefulSets, CronJobs, DaemonSets, and three in ten
    workload custom resources: PyTorchJob, RayCluster, LeaderWorkerSet, Volcano Job, JobSet; 50 per file) with
    tolerations, node selectors, GPU requests, MIG names and a few mistakes (a ``resource:`` typo, a GPU under
    ``requests`` only, ...), plus one pool spec file so the GPU rules run against pools.

Then runs, as subprocesses through their real entry points, on the same file list:
  * ``gpupool lint -k 1.37 --strict FILES...`` (``python -m gpupool``; exit 1 expected: the corpus has
    errors);
  * ``kubernetes-validate -k 1.37 --strict --quiet FILES...`` (its own CLI, one process for all the files, as
    gpupool is one command; it validates ~90 resources/s, so this takes about two minutes). ``--kv-every K``
    runs it on every K-th file only (a systematic sample of the same files) when you are in a hurry.

Machines are noisy (a shared VM's speed drifts by half over minutes), so the two are interleaved: the
kubernetes-validate file list is cut into ``--rounds`` slices (default 5) and gpupool lints the whole corpus
before each slice and after the last; gpupool's figure is the median of those runs, kubernetes-validate's
the sum of its slices less the start-up of the extra processes (measured on an empty file), i.e. what one
process over all the files takes. Both run with Python's bytecode cache on (``PYTHONDONTWRITEBYTECODE``
removed from their environment, the cache written to a temporary ``PYTHONPYCACHEPREFIX`` by the warm-up
run), as an installed package runs: without it every start recompiles gpupool's modules from source.

gpupool also lints the corpus without the API server's validation (``--ignore GP220 ... GP229``, which turns
it off) in each round, right after the run with it: the difference is what that validation costs a pass,
in wall time and in CPU seconds (the process and its workers; the target is judged on CPU seconds, which a
busy shared machine disturbs less).

Prints resources, wall seconds, resources/s, the ratio, and peak RSS of each tool (``getrusage`` of the
children), and the pass with and without the API server's validation. Targets on a 2-core machine: gpupool
>= 3,000 resources/s wall, >= 100x kubernetes-validate, peak memory <= 300 MB, the API server's validation
<= 15% of a pass. Exit status 1 when a target is missed.

Usage: .venv/bin/python bench/lint_throughput.py [--resources N] [--kv-every K] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
def _shared_corpus() -> Path | None:
    """The shared corpus of published manifests (not in the repository): $GPUPOOL_SHARED or <repo>/../shared;
    None when absent (then only generated workloads are linted)."""
    env = os.environ.get("GPUPOOL_SHARED")
    for c in ([Path(env)] if env else []) + [REPO.parent / "shared"]:
        if (c / "corpus" / "real").is_dir():
            return c / "corpus" / "real"
    return None


REAL = _shared_corpus()
K8S = "1.37"
TARGET_RATE = 3000
TARGET_RATIO = 100
TARGET_MB = 300
TARGET_APISERVER_SHARE = 0.15
APISERVER_RULES = [f"GP{n}" for n in range(220, 230)]
PER_FILE = 50

POOLS = """\
apiVersion: gpupool/v1
kind: GpuNodePool
metadata: {name: gpunp}
spec:
  resourceGroup: rg
  clusterName: aks
  vmSize: Standard_NC4as_T4_v3
  nodeTaints: ["sku=gpu:NoSchedule"]
  autoscaler: {minCount: 0, maxCount: 3}
---
apiVersion: gpupool/v1
kind: GpuNodePool
metadata: {name: a100mig}
spec:
  resourceGroup: rg
  clusterName: aks
  vmSize: Standard_NC24ads_A100_v4
  nodeTaints: ["sku=gpu:NoSchedule"]
  gpu: {instanceProfile: MIG1g, migStrategy: Mixed}
---
apiVersion: gpupool/v1
kind: NodePool
metadata: {name: cpunp}
spec: {resourceGroup: rg, clusterName: aks, vmSize: Standard_D4s_v5}
"""

POD_SPEC = """\
      nodeSelector:
        kubernetes.azure.com/agentpool: {pool}
      tolerations:
      - key: sku
        operator: Equal
        value: gpu
        effect: NoSchedule
      containers:
      - name: worker
        image: nvcr.io/nvidia/cuda:12.4.1-runtime-ubuntu22.04
        command: ["python", "-m", "train", "--epochs", "{epochs}"]
        env:
        - name: NCCL_DEBUG
          value: INFO
        - name: BATCH_SIZE
          value: "{batch}"
        ports:
        - containerPort: 8080
          name: metrics
        {resources_key}:
          requests:
            cpu: "{cpu}"
            memory: {mem}Gi
          limits:
            cpu: "{cpu}"
            memory: {mem}Gi
            {gpu_name}: {gpus}
        volumeMounts:
        - name: data
          mountPath: /data
        readinessProbe:
          httpGet: {{path: /healthz, port: 8080}}
          periodSeconds: 10
      volumes:
      - name: data
        emptyDir: {{}}
"""


def _indent(text: str, n: int) -> str:
    return "\n".join((" " * n + line) if line else line for line in text.splitlines()) + "\n"


# Workload custom resources (shapes from each project's API docs; see gpupool/k8s/data/pod_templates.yaml):
# (apiVersion, kind, spec text before the template, indentation of the template's "metadata:").
CRD_WORKLOADS = [
    (
        "kubeflow.org/v1",
        "PyTorchJob",
        "  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n      restartPolicy: OnFailure\n"
        "      template:\n",
        8,
    ),
    (
        "ray.io/v1",
        "RayCluster",
        "  rayVersion: 2.9.0\n  workerGroupSpecs:\n  - groupName: gpu\n    replicas: 2\n"
        "    rayStartParams: {}\n    template:\n",
        6,
    ),
    (
        "leaderworkerset.x-k8s.io/v1",
        "LeaderWorkerSet",
        "  replicas: 2\n  leaderWorkerTemplate:\n    size: 2\n    workerTemplate:\n",
        6,
    ),
    (
        "batch.volcano.sh/v1alpha1",
        "Job",
        "  schedulerName: volcano\n  minAvailable: 2\n  tasks:\n  - name: worker\n    replicas: 2\n"
        "    template:\n",
        6,
    ),
    (
        "jobset.x-k8s.io/v1alpha2",
        "JobSet",
        "  replicatedJobs:\n  - name: workers\n    replicas: 2\n    template:\n      spec:\n"
        "        parallelism: 1\n        template:\n",
        10,
    ),
]


def _workload(i: int, rnd: random.Random) -> str:
    kind = rnd.choice(
        ["Deployment", "Deployment", "Job", "StatefulSet", "Pod", "CronJob", "DaemonSet", "CRD", "CRD", "CRD"]
    )
    mig = rnd.random() < 0.3
    fields = {
        "pool": "a100mig" if mig else "gpunp",
        "epochs": rnd.randint(1, 50),
        "batch": rnd.choice([16, 32, 64]),
        "cpu": rnd.choice([2, 3]),  # a T4 node (4 vCPUs) has 3.86 allocatable
        "mem": rnd.choice([8, 16]),
        "gpu_name": "nvidia.com/mig-1g.10gb" if mig else "nvidia.com/gpu",
        "gpus": 1,
        "resources_key": "resources",
    }
    roll = rnd.random()
    if roll < 0.02:
        fields["resources_key"] = "resource"  # the design notes' typo
    elif roll < 0.04:
        fields["gpus"] = 2  # more than a T4 node has
    elif roll < 0.06:
        fields["gpu_name"] = "nvidia.com/mig-1g.5gb"  # the A100 40GB name on an 80GB pool
    spec = POD_SPEC.format(**fields)
    name = f"gpu-{kind.lower()}-{i}"
    head = f"metadata:\n  name: {name}\n  namespace: ml\n  labels: {{app: {name}, team: research}}\n"
    if kind == "Pod":
        body = "\n".join(line[4:] for line in spec.splitlines())
        return f"apiVersion: v1\nkind: Pod\n{head}spec:\n  restartPolicy: Never\n{body}\n"
    template = f"    metadata:\n      labels: {{app: {name}}}\n    spec:\n{spec}"
    if kind == "CRD":
        api, crd_kind, before, depth = CRD_WORKLOADS[i % len(CRD_WORKLOADS)]
        tpl = template.replace("    spec:\n", "    spec:\n      restartPolicy: OnFailure\n", 1)
        body = _indent(tpl, depth - 4)
        return f"apiVersion: {api}\nkind: {crd_kind}\n{head}spec:\n{before}{body}"
    if kind == "Job":
        return (
            f"apiVersion: batch/v1\nkind: Job\n{head}spec:\n  backoffLimit: 2\n  template:\n"
            + template.replace("    spec:\n", "    spec:\n      restartPolicy: Never\n", 1)
        )
    if kind == "CronJob":
        inner = "\n".join(
            "    " + line
            for line in template.replace(
                "    spec:\n", "    spec:\n      restartPolicy: OnFailure\n", 1
            ).splitlines()
        )
        return (
            f'apiVersion: batch/v1\nkind: CronJob\n{head}spec:\n  schedule: "0 3 * * *"\n'
            f"  jobTemplate:\n    spec:\n      template:\n{inner}\n"
        )
    apps = "apiVersion: apps/v1\n"
    sel = f"  selector:\n    matchLabels: {{app: {name}}}\n"
    if kind == "DaemonSet":
        return f"{apps}kind: DaemonSet\n{head}spec:\n{sel}  template:\n{template}"
    extra = f"  serviceName: {name}\n" if kind == "StatefulSet" else ""
    replicas = rnd.randint(1, 4)
    return f"{apps}kind: {kind}\n{head}spec:\n  replicas: {replicas}\n{extra}{sel}  template:\n{template}"


def _parses(path: Path) -> bool:
    import yaml

    try:
        list(
            yaml.load_all(
                path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)
            )
        )
    except Exception:
        return False
    return True


def _count_resources(files: list[Path]) -> int:
    from gpupool.lint.engine import LintOptions, lint_paths

    res = lint_paths([str(f) for f in files], options=LintOptions(kubernetes_version=K8S, jobs=1))
    return res.summary["resources"]


def build_corpus(root: Path, resources: int, real_copies: int, seed: int = 7) -> tuple[list[Path], int, int]:
    if REAL is None:
        print("note: the shared corpus (<repo>/../shared/corpus/real) is absent; generated workloads only")
    found = REAL.rglob("*") if REAL is not None else []
    real = sorted(p for p in found if p.suffix in (".yaml", ".yml", ".json") and _parses(p))
    files: list[Path] = []
    for c in range(real_copies):
        for p in real:
            dest = root / f"real{c}" / p.relative_to(REAL)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, dest)
            files.append(dest)
    real_resources = _count_resources(files) if files else 0
    pools = root / "pools.yaml"
    pools.write_text(POOLS, encoding="utf-8")
    files.append(pools)
    rnd = random.Random(seed)
    generated = max(0, resources - real_resources)
    gen_dir = root / "generated"
    gen_dir.mkdir()
    for start in range(0, generated, PER_FILE):
        docs = [_workload(i, rnd) for i in range(start, min(generated, start + PER_FILE))]
        path = gen_dir / f"workloads-{start // PER_FILE:04d}.yaml"
        path.write_text("---\n".join(docs), encoding="utf-8")
        files.append(path)
    return files, real_resources, generated


# Runs the measured command as its child and reports wall time and the peak RSS of its largest descendant
# (RUSAGE_CHILDREN covers worker processes too), so each tool's figure is its own.
_WRAP = """
import resource, subprocess, sys, time
t0 = time.perf_counter()
p = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.perf_counter() - t0
sys.stdout.write(p.stdout + p.stderr)
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"@@ {p.returncode} {wall} {ru.ru_maxrss} {ru.ru_utime + ru.ru_stime}")
"""


def _run(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, int, str, float, float]:
    """(wall seconds, exit status, output, peak RSS in MB, CPU seconds of it and its workers) of ``cmd``."""
    p = subprocess.run(
        [sys.executable, "-c", _WRAP, *cmd], capture_output=True, text=True, cwd=REPO, check=False, env=env
    )
    out, _, last = p.stdout.rstrip("\n").rpartition("\n")
    _, rc, wall, rss, cpu = last.split()
    return float(wall), int(rc), out, int(rss) / 1024, float(cpu)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--resources", type=int, default=10_000)
    ap.add_argument("--real-copies", type=int, default=3)
    ap.add_argument("--kv-every", type=int, default=1, help="run kubernetes-validate on every K-th file")
    ap.add_argument(
        "--rounds", type=int, default=5, help="kubernetes-validate slices; gpupool runs rounds + 1 times"
    )
    ap.add_argument("--keep", type=Path, help="build the corpus here and keep it")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="gpupool-lint-bench-")) if args.keep is None else args.keep
    if args.keep is not None:
        shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True, exist_ok=True)
    try:
        files, real_n, gen_n = build_corpus(tmp, args.resources, args.real_copies)
        size_mb = sum(f.stat().st_size for f in files) / 1e6
        names = [str(f) for f in files]
        kv_files = [f for f in names[:: args.kv_every] if not f.endswith("pools.yaml")]
        kv_resources = _count_resources([Path(f) for f in kv_files])
        # The file list travels as arguments: both tools get the same list (no shell globbing).
        gp_cmd = [sys.executable, "-m", "gpupool", "lint", "--no-config", "-k", K8S, "--strict", *names]
        off = [a for rid in APISERVER_RULES for a in ("--ignore", rid)]
        gp_off_cmd = [*gp_cmd[:8], *off, *names]
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        _run(gp_cmd, env)  # warm-up: OS file cache, .pyc files
        kv_exe = str(Path(sys.executable).with_name("kubernetes-validate"))
        kv_cmd = [kv_exe] if os.path.exists(kv_exe) else [sys.executable, "-m", "kubernetes_validate"]
        kv_cmd = [*kv_cmd, "-k", K8S, "--strict", "--quiet"]
        empty = tmp / "empty.yaml"
        empty.write_text("# nothing\n", encoding="utf-8")
        kv_start = sorted(_run([*kv_cmd, str(empty)], env)[0] for _ in range(3))[1]
        rounds = max(1, min(args.rounds, len(kv_files)))
        runs = []
        off_runs = []
        kv_wall, kv_rc, kv_out, kv_mb = 0.0, 0, "", 0.0
        for r in range(rounds):
            runs.append(_run(gp_cmd, env))
            off_runs.append(_run(gp_off_cmd, env))
            wall, rc, out, mb, _ = _run([*kv_cmd, *kv_files[r::rounds]], env)
            kv_wall, kv_rc, kv_out, kv_mb = kv_wall + wall, max(kv_rc, rc), kv_out + out, max(kv_mb, mb)
        runs.append(_run(gp_cmd, env))
        off_runs.append(_run(gp_off_cmd, env))
        runs_in_order = list(runs)
        kv_wall -= (rounds - 1) * kv_start
        gp_mb = max(r[3] for r in runs)
        runs.sort(key=lambda r: r[0])
        gp_wall, gp_rc, gp_out, _, _ = runs[len(runs) // 2]
        # each round's pair ran back to back: the median of the per-round shares is the steadiest figure;
        # CPU seconds (the process and its workers) move less than wall time on a shared machine
        pairs = sorted((on[0] - off[0]) / on[0] for on, off in zip(runs_in_order, off_runs, strict=True))
        cpu_pairs = sorted((on[4] - off[4]) / on[4] for on, off in zip(runs_in_order, off_runs, strict=True))
        share = pairs[len(pairs) // 2]
        cpu_share = cpu_pairs[len(cpu_pairs) // 2]
        off_walls = sorted(r[0] for r in off_runs)
        off_wall = off_walls[len(off_walls) // 2]
        if gp_rc not in (0, 1):
            print(gp_out[-2000:], file=sys.stderr)
            return 2
        summary = next((line for line in gp_out.splitlines() if line.startswith("Summary:")), "")
        gp_total = real_n + gen_n
        gp_rate = gp_total / gp_wall
        kv_rate = kv_resources / kv_wall
        ratio = gp_rate / kv_rate
        kv_errors = sum(1 for line in kv_out.splitlines() if line.startswith("ERROR"))
        print(
            f"corpus: {len(files)} files, {size_mb:.1f} MB, {gp_total:,} resources "
            f"({real_n:,} from {args.real_copies} copies of the real corpus, {gen_n:,} generated "
            "GPU workloads)"
        )
        print(f"machine: {os.cpu_count()} CPUs; Python {sys.version.split()[0]}")
        print(
            f"gpupool lint -k {K8S} --strict        : {gp_total:6,} resources in {gp_wall:6.2f} s = "
            f"{gp_rate:8,.0f} resources/s (exit {gp_rc}; median of {len(runs)} runs: "
            f"{', '.join(f'{r[0]:.2f}' for r in runs)} s)"
        )
        print(f"   {summary}")
        print(
            f"  the same without API-server validation: {gp_total:6,} resources in {off_wall:6.2f} s = "
            f"{gp_total / off_wall:8,.0f} resources/s (median of {len(off_runs)} runs: "
            f"{', '.join(f'{w:.2f}' for w in off_walls)} s)"
        )
        print(
            f"  API-server validation (GP220-GP229): {share:.1%} of a pass's wall time (median of the "
            f"{len(pairs)} back-to-back pairs: {', '.join(f'{x:.1%}' for x in pairs)}); {cpu_share:.1%} of "
            f"its CPU time ({', '.join(f'{x:.1%}' for x in cpu_pairs)})"
        )
        print(
            f"kubernetes-validate -k {K8S} --strict : {kv_resources:6,} resources in {kv_wall:6.2f} s = "
            f"{kv_rate:8,.0f} resources/s (exit {kv_rc}, {kv_errors} ERROR lines; "
            f"{'all files' if args.kv_every == 1 else f'every {args.kv_every}th file'}; {rounds} slices, "
            f"{rounds - 1} x {kv_start:.2f} s start-up taken off)"
        )
        print(f"ratio: gpupool is {ratio:,.0f}x kubernetes-validate")
        print(f"peak RSS (largest process): gpupool {gp_mb:.0f} MB, kubernetes-validate {kv_mb:.0f} MB")
        ok = (
            gp_rate >= TARGET_RATE
            and ratio >= TARGET_RATIO
            and gp_mb <= TARGET_MB
            and cpu_share <= TARGET_APISERVER_SHARE
        )
        print(
            f"targets (>= {TARGET_RATE:,}/s, >= {TARGET_RATIO}x, <= {TARGET_MB} MB, API-server validation "
            f"<= {TARGET_APISERVER_SHARE:.0%} of a pass): "
            f"{'met' if ok else 'MISSED'}"
        )
        return 0 if ok else 1
    finally:
        if args.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
