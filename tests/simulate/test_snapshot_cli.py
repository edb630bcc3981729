"""gpupool simulate --snapshot DIR: doctor's snapshot fixtures as the starting cluster, through the CLI."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from support import run_cli

SNAPSHOTS = Path(__file__).resolve().parent.parent / "doctor" / "snapshots"
MAX_SIZE = SNAPSHOTS / "pending-max-size"  # gpunp: 3 of max 3 T4 nodes, each running one trainer pod

TRAIN = """apiVersion: apps/v1
kind: Deployment
metadata: {name: train2, namespace: ml}
spec:
  replicas: 1
  selector: {matchLabels: {app: train2}}
  template:
    metadata: {labels: {app: train2}}
    spec:
      tolerations: [{key: sku, operator: Equal, value: gpu, effect: NoSchedule}]
      containers:
      - name: c
        image: example.com/train:1
        resources: {limits: {nvidia.com/gpu: 1}, requests: {cpu: "1", memory: 4Gi}}
"""


def _workload(tmp_path: Path, text: str = TRAIN) -> str:
    p = tmp_path / "new.yaml"
    p.write_text(text, encoding="utf-8")
    return str(p)


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "snap"
    shutil.copytree(MAX_SIZE, dst)
    return dst


def _edit(path: Path, fn) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(path.read_text(encoding="utf-8"))
    fn(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_full_cluster_pool_at_max(tmp_path) -> None:
    r = run_cli("simulate", "--snapshot", str(MAX_SIZE), _workload(tmp_path), "-o", "json")
    assert r.exit_code == 1, r.stderr
    d = json.loads(r.stdout)
    (e,) = d["pending"]
    assert e["message"].startswith("0/5 nodes are available: 5 Insufficient nvidia.com/gpu.")
    assert e["autoscaler"] == "pod didn't trigger scale-up: 1 max node group size reached"
    start = d["start"]
    assert start["nodes"] == 5 and start["pods"] == 11
    assert start["requests"]["nvidia.com/gpu"] == 3 and start["requests"]["cpu"] == 6.2
    assert any("1 pod Pending in the snapshot" in n for n in start["notes"])
    pools = {p["name"]: p for p in d["pools"]}
    assert (pools["gpunp"]["nodes"], pools["gpunp"]["maxNodes"], pools["gpunp"]["existingPods"]) == (3, 3, 9)
    assert pools["gpunp"]["resources"]["nvidia.com/gpu"] == {"allocatable": 3, "used": 3, "free": 0}


def test_room_for_one_more_node(tmp_path) -> None:
    snap = _copy(tmp_path)

    def more(pools: list) -> None:
        next(p for p in pools if p["name"] == "gpunp")["maxCount"] = 4

    _edit(snap / "nodepools.json", more)
    r = run_cli("simulate", "--snapshot", str(snap), _workload(tmp_path), "-o", "json")
    assert r.exit_code == 0, r.stdout
    d = json.loads(r.stdout)
    gpunp = next(p for p in d["pools"] if p["name"] == "gpunp")
    (up,) = gpunp["scaleUps"]
    assert re.fullmatch(r"pod triggered scale-up: \[\{aks-gpunp-\d{8}-vmss 3->4 \(max: 4\)\}\]", up["event"])
    assert up["template"] == "node"  # a copy of a real node
    (p,) = d["placements"]
    assert p["pool"] == "gpunp" and not p["node"].startswith("aks-gpunp-28993262")


def test_cordoned_node(tmp_path) -> None:
    snap = _copy(tmp_path)
    free = "aks-gpunp-28993262-vmss000002"

    def cordon(nodes: dict) -> None:
        for n in nodes["items"]:
            if n["metadata"]["name"] == free:
                n["spec"]["unschedulable"] = True

    def drain(pods: dict) -> None:
        gone = "trainer-7d9c6b5f4-r2"
        pods["items"] = [p for p in pods["items"] if not p["metadata"]["name"].startswith(gone)]

    _edit(snap / "nodes.json", cordon)
    _edit(snap / "pods.json", drain)
    r = run_cli("simulate", "--snapshot", str(snap), _workload(tmp_path), "-o", "json")
    (e,) = json.loads(r.stdout)["pending"]
    assert e["message"].startswith(
        "0/5 nodes are available: 1 node(s) were unschedulable, 4 Insufficient nvidia.com/gpu."
    )
    uncordoned = run_cli("simulate", "--snapshot", str(MAX_SIZE), _workload(tmp_path), "-o", "json")
    assert json.loads(uncordoned.stdout)["pending"]  # the fixture itself is full


def test_text_says_what_runs_already(tmp_path) -> None:
    r = run_cli("simulate", "--snapshot", str(MAX_SIZE), _workload(tmp_path), "--show", "placements")
    assert "started from" in r.stdout and "5 nodes, 11 running pods" in r.stdout
    assert "nvidia.com/gpu 3" in r.stdout and "memory 24.1Gi" in r.stdout
    # the cluster's own version (meta.json's server version 1.35.4) wins over the pools' orchestratorVersion
    # 1.33.3: the scheduler that words the messages runs in the control plane
    assert "Kubernetes 1.35.4" in r.stdout and "assuming" not in r.stdout
    assert "+9 running" in r.stdout


def test_bad_snapshot_options(tmp_path) -> None:
    w = _workload(tmp_path)
    assert run_cli("simulate", "--snapshot", str(tmp_path / "nope"), w).exit_code == 2
    assert run_cli("simulate", "--snapshot", str(MAX_SIZE), "--live", w).exit_code == 2
    assert run_cli("simulate", "--context", "x", w).exit_code == 2


def test_live_through_the_official_client(tmp_path) -> None:
    """--live reads the cluster with doctor's live reader (loopback API server, a real server's bodies)."""
    from loopback_apiserver import Cluster, Server, kubeconfig

    cluster = Cluster()
    with Server(cluster) as srv:
        kc = str(kubeconfig(tmp_path / "kc", srv.url))
        r = run_cli("simulate", "--live", "--kubeconfig", kc, _workload(tmp_path), "-o", "json")
        assert r.exit_code == 2 and "simulate starts from AKS clusters" in r.stderr  # its nodes are EKS's
        for node in cluster.lists["/api/v1/nodes"][2]:  # now give them AKS's labels
            labels = node["metadata"].setdefault("labels", {})
            labels["kubernetes.azure.com/agentpool"] = "gpunp"
            labels["node.kubernetes.io/instance-type"] = "Standard_NC4as_T4_v3"
        r = run_cli("simulate", "--live", "--kubeconfig", kc, _workload(tmp_path), "-o", "json")
    assert r.exit_code in (0, 1), r.stderr
    d = json.loads(r.stdout)
    assert d["start"]["source"] == "context loopback" and d["start"]["nodes"] == 2
    (pool,) = d["pools"]
    assert (pool["name"], pool["nodes"]) == ("gpunp", 2)
    assert d["placed"] + d["pendingPods"] == 1
