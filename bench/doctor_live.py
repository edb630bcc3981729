"""Live ``gpupool doctor`` against the loopback API server holding 2,000 nodes and 20,000 pods, beside
``kubectl get -o json`` of the same lists, in the same run.

Cluster: the real kube-apiserver's recorded bodies (tests/data/apiserver/, served by
tests/loopback_apiserver.py), multiplied: 2,000 nodes (500 GPU nodes with AKS labels, 1,500 CPU nodes),
20,000 pods (a device plugin pod per GPU node, 17,800 Running pods bound to nodes, 200 Pending GPU pods with
their FitError), 10,000 events, the recorded DaemonSet. Pods and nodes keep their managedFields, as a real
server sends them. Lists are paginated like the real server (500 per page; kubectl's default --chunk-size is
500 too); each page is serialised once and then served from memory, so the server's own Python costs both
sides alike and little.

Measured, each as a separate program, wall time and peak RSS (``os.wait4``):
- doctor:   ``gpupool doctor --kubeconfig KC -o json`` (reads nodes, pods, DaemonSets, events, ConfigMaps,
  ClusterPolicies, the GPU stack's logs; diagnoses)
- collect:  ``gpupool doctor --kubeconfig KC --collect DIR -o json`` (the same, writing the snapshot)
- kubectl:  ``kubectl get nodes -o json``, ``get pods -A -o json``, ``get daemonsets -A -o json``,
  ``get events -A -o json``, each to a file (four programs, their times summed; peak = the largest)
Targets: doctor <= 1.5x kubectl; --collect <= 2x kubectl. The figures are medians of ``--reps`` runs
(the machine may be busy: compare the ratios).

Run: ``.venv/bin/python bench/doctor_live.py`` (``--reps N``; ``--nodes``/``--pods`` to scale).
"""

from __future__ import annotations

import argparse
import copy
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from loopback_apiserver import Cluster, Server, kubeconfig  # noqa: E402

KUBECTL = shutil.which("kubectl") or "/usr/bin/kubectl"
NODES, PODS, EVENTS = "/api/v1/nodes", "/api/v1/pods", "/api/v1/events"
GPU_SHARE = 4  # one node in four is a GPU node
PENDING = 200
EVENT_COUNT = 10_000

DISCOVERY = {
    "/api": {"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": []},
    "/apis": {
        "kind": "APIGroupList",
        "apiVersion": "v1",
        "groups": [
            {
                "name": "apps",
                "versions": [{"groupVersion": "apps/v1", "version": "v1"}],
                "preferredVersion": {"groupVersion": "apps/v1", "version": "v1"},
            }
        ],
    },
    "/api/v1": {
        "kind": "APIResourceList",
        "groupVersion": "v1",
        "resources": [
            {"name": n, "singularName": s, "namespaced": ns, "kind": k, "verbs": ["get", "list"]}
            for n, s, ns, k in (
                ("nodes", "node", False, "Node"),
                ("pods", "pod", True, "Pod"),
                ("events", "event", True, "Event"),
                ("configmaps", "configmap", True, "ConfigMap"),
            )
        ],
    },
    "/apis/apps/v1": {
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": "apps/v1",
        "resources": [
            {
                "name": "daemonsets",
                "singularName": "daemonset",
                "namespaced": True,
                "kind": "DaemonSet",
                "verbs": ["get", "list"],
            }
        ],
    },
}


def build(n_nodes: int, n_pods: int) -> Cluster:
    c = Cluster()
    c.cache_pages = True
    c.static.update(DISCOVERY)
    base_node = c.lists[NODES][2][0]
    base_pod = next(p for p in c.lists[PODS][2] if p["status"].get("phase") == "Pending")
    base_event = c.lists[EVENTS][2][0]
    ds = c.lists["/apis/apps/v1/daemonsets"][2][0]
    nodes, pods, events = [], [], []
    gpu_nodes = []
    for i in range(n_nodes):
        n = copy.deepcopy(base_node)
        gpu = i % GPU_SHARE == 0
        pool = f"gpu{i % 5}" if gpu else f"cpu{i % 5}"
        name = f"aks-{pool}-12345678-vmss{i:06d}"
        n["metadata"]["name"] = name
        n["metadata"]["uid"] = f"node-{i:08d}"
        labels = n["metadata"]["labels"]
        labels.update(
            {
                "kubernetes.io/hostname": name,
                "kubernetes.azure.com/agentpool": pool,
                "agentpool": pool,
                "node.kubernetes.io/instance-type": "Standard_NC4as_T4_v3" if gpu else "Standard_D4s_v5",
            }
        )
        if gpu:
            labels["kubernetes.azure.com/accelerator"] = "nvidia"
            gpu_nodes.append(name)
        else:
            for k in [k for k in labels if k.startswith("nvidia.com/")]:
                del labels[k]
            for part in ("capacity", "allocatable"):
                n["status"][part].pop("nvidia.com/gpu", None)
        nodes.append(n)
    for i, node in enumerate(gpu_nodes):  # the device plugin on every GPU node
        p = copy.deepcopy(base_pod)
        m = p["metadata"]
        m.update(name=f"nvidia-device-plugin-daemonset-{i:05d}", namespace="kube-system", uid=f"dp-{i:08d}")
        m["labels"] = {"name": "nvidia-device-plugin-ds"}
        m["ownerReferences"] = [
            {"apiVersion": "apps/v1", "kind": "DaemonSet", "name": ds["metadata"]["name"], "uid": "ds"}
        ]
        _run(p, node, "nvidia-device-plugin-ctr", "nvcr.io/nvidia/k8s-device-plugin:v0.17.0")
        pods.append(p)
        c.logs[("kube-system", m["name"], "nvidia-device-plugin-ctr", False)] = "".join(
            f"I1203 11:42:{s % 60:02d}.000000       1 main.go:235] line {s}\n" for s in range(200)
        )
    running = n_pods - len(pods) - PENDING
    for i in range(running):
        p = copy.deepcopy(base_pod)
        p["metadata"].update(name=f"web-{i:06d}", namespace=f"team{i % 40}", uid=f"pod-{i:08d}")
        gpu = i < len(gpu_nodes)
        node = gpu_nodes[i] if gpu else nodes[i % n_nodes]["metadata"]["name"]
        if not gpu:
            for part in ("limits", "requests"):
                p["spec"]["containers"][0]["resources"].get(part, {}).pop("nvidia.com/gpu", None)
        else:
            for part in ("limits", "requests"):
                p["spec"]["containers"][0]["resources"][part]["nvidia.com/gpu"] = "1"
        _run(p, node, "main", p["spec"]["containers"][0]["image"])
        pods.append(p)
    for i in range(PENDING):
        p = copy.deepcopy(base_pod)
        p["metadata"].update(name=f"train-pending-{i:05d}", namespace="ml", uid=f"pend-{i:08d}")
        pods.append(p)
    for i in range(EVENT_COUNT):
        e = copy.deepcopy(base_event)
        e["metadata"]["name"] = f"ev-{i:08d}"
        e["metadata"]["uid"] = f"ev-{i:08d}"
        events.append(e)
    c.lists[NODES] = (c.lists[NODES][0], "v1", nodes)
    c.lists[PODS] = (c.lists[PODS][0], "v1", pods)
    c.lists[EVENTS] = (c.lists[EVENTS][0], "v1", events)
    return c


def _run(p: dict, node: str, container: str, image: str) -> None:
    """Make the Pending pod ``p`` a Running one on ``node`` (with a kubelet's status and managedFields)."""
    spec, st = p["spec"], p["status"]
    spec["nodeName"] = node
    spec["containers"][0].update(name=container, image=image)
    t = "2026-12-03T11:42:20Z"
    st.clear()
    st.update(
        phase="Running",
        hostIP="10.224.0.4",
        podIP="10.244.1.7",
        startTime=t,
        qosClass="Burstable",
        conditions=[
            {"type": k, "status": "True", "lastProbeTime": None, "lastTransitionTime": t}
            for k in ("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled")
        ],
        containerStatuses=[
            {
                "name": container,
                "ready": True,
                "restartCount": 0,
                "started": True,
                "image": image,
                "imageID": image + "@sha256:" + "0" * 64,
                "containerID": "containerd://" + "1" * 64,
                "state": {"running": {"startedAt": t}},
                "lastState": {},
            }
        ],
    )
    mf = p["metadata"].setdefault("managedFields", [])
    mf.append(
        {
            "manager": "kubelet",
            "operation": "Update",
            "apiVersion": "v1",
            "time": t,
            "fieldsType": "FieldsV1",
            "fieldsV1": {
                "f:status": {
                    "f:conditions": {
                        f'k:{{"type":"{k}"}}': {
                            ".": {},
                            "f:lastProbeTime": {},
                            "f:lastTransitionTime": {},
                            "f:status": {},
                            "f:type": {},
                        }
                        for k in ("ContainersReady", "Initialized", "PodReadyToStartContainers", "Ready")
                    },
                    "f:containerStatuses": {},
                    "f:hostIP": {},
                    "f:hostIPs": {},
                    "f:phase": {},
                    "f:podIP": {},
                    "f:podIPs": {".": {}, 'k:{"ip":"10.244.1.7"}': {".": {}, "f:ip": {}}},
                    "f:startTime": {},
                }
            },
            "subresource": "status",
        }
    )


def timed(argv: list[str], env: dict[str, str], stdout: Path | None = None) -> tuple[float, int, int]:
    """(wall seconds, peak RSS bytes, exit code) of one program."""
    out = open(stdout or os.devnull, "wb")  # noqa: SIM115 - closed below
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    out.close()
    err = p.stderr.read().decode(errors="replace") if p.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(argv[:4])} ... exit {code}: {err.strip()[-400:]}")
    return wall, usage.ru_maxrss * 1024, code


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--nodes", type=int, default=2000)
    ap.add_argument("--pods", type=int, default=20000)
    args = ap.parse_args()
    t0 = time.perf_counter()
    cluster = build(args.nodes, args.pods)
    print(
        f"cluster: {args.nodes:,} nodes, {args.pods:,} pods, {EVENT_COUNT:,} events "
        f"(built in {time.perf_counter() - t0:.1f} s); os.cpu_count()={os.cpu_count()}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    work = Path(tempfile.mkdtemp(prefix="gpupool-doctor-live-"))
    try:
        with Server(cluster) as srv:
            kc = str(kubeconfig(work / "kubeconfig", srv.url))
            env = {
                **os.environ,
                "KUBECONFIG": kc,
                "KUBECACHEDIR": str(work / "kubecache"),
                "NO_COLOR": "1",
                "GPUPOOL_TODAY": "2026-12-03",
            }
            kubectl = [
                ([KUBECTL, "--cache-dir", str(work / "kubecache"), "get", *what, "-o", "json"], name)
                for what, name in (
                    (["nodes"], "nodes.json"),
                    (["pods", "-A"], "pods.json"),
                    (["daemonsets", "-A"], "daemonsets.json"),
                    (["events", "-A"], "events.json"),
                )
            ]
            doctor = [sys.executable, "-m", "gpupool", "doctor", "--kubeconfig", kc, "-o", "json"]
            # warm-up: every page serialised once, kubectl's discovery cached
            for argv, name in kubectl:
                timed(argv, env, work / name)
            timed(doctor, env)
            sizes = {name: (work / name).stat().st_size for _, name in kubectl}
            rows: dict[str, list[tuple[float, int]]] = {"kubectl": [], "doctor": [], "collect": []}
            for rep in range(args.reps):
                wall, peak = 0.0, 0
                for argv, name in kubectl:
                    w, m, _ = timed(argv, env, work / name)
                    wall, peak = wall + w, max(peak, m)
                rows["kubectl"].append((wall, peak))
                w, m, code = timed(doctor, env)
                rows["doctor"].append((w, m))
                out = work / f"collect{rep}"
                w2, m2, _ = timed([*doctor[:-2], "--collect", str(out), "-o", "json"], env)
                rows["collect"].append((w2, m2))
                collected = sum(f.stat().st_size for f in out.iterdir() if f.is_file())
                shutil.rmtree(out)
                print(
                    f"  run {rep + 1}: kubectl {wall:.2f} s, doctor {w:.2f} s (exit {code}), "
                    f"--collect {w2:.2f} s"
                )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    med = {k: statistics.median(w for w, _ in v) for k, v in rows.items()}
    peak = {k: max(m for _, m in v) for k, v in rows.items()}
    print(
        f"kubectl get -o json (nodes, pods, daemonsets, events): "
        f"{sum(sizes.values()) / 2**20:,.0f} MB written"
    )
    print(f"doctor --collect: {collected / 2**20:,.0f} MB written (managedFields dropped, compact JSON)")
    for k in ("kubectl", "doctor", "collect"):
        ratio = "" if k == "kubectl" else f"  {med[k] / med['kubectl']:.2f}x kubectl"
        print(f"{k:8s} median {med[k]:6.2f} s  peak RSS {peak[k] / 2**20:7,.0f} MiB{ratio}")
    ok_d, ok_c = med["doctor"] <= 1.5 * med["kubectl"], med["collect"] <= 2 * med["kubectl"]
    print(
        f"targets: doctor <= 1.5x kubectl: {'met' if ok_d else 'NOT met'}; "
        f"--collect <= 2x kubectl: {'met' if ok_c else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
