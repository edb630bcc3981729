"""simulate from a real cluster: existing nodes (real allocatable, labels, taints, cordon), running pods."""

from __future__ import annotations

import dataclasses
import re

from gpupool.simulate import Options
from gpupool.simulate.start import ExistingNode, ExistingPod, StartState
from gpupool.spec.model import Taint

GIB = 2**30
GPU_TAINT = Taint("sku", "gpu", "NoSchedule")


def node(name: str, pool: str, gpu: int = 1, cordoned: bool = False, ready: bool = True, **labels: str):
    vm = "Standard_NC24ads_A100_v4" if gpu else "Standard_D4s_v5"
    alloc = {"pods": 110, "cpu": 23660 if gpu else 3860, "memory": 200 * GIB if gpu else 14 * GIB}
    if gpu:
        alloc["nvidia.com/gpu"] = gpu
    lab = {
        "kubernetes.azure.com/agentpool": pool,
        "agentpool": pool,
        "node.kubernetes.io/instance-type": vm,
        "kubernetes.io/os": "linux",
        "kubernetes.io/hostname": name,
        "topology.kubernetes.io/zone": "0",
        **labels,
    }
    if gpu:
        lab["kubernetes.azure.com/accelerator"] = "nvidia"
    return ExistingNode(name, pool, vm, lab, dict(alloc), alloc, (GPU_TAINT,) if gpu else (), cordoned, ready)


def running(name: str, on: str, gpu: int = 0, cpu: str = "1", priority: int = 0) -> ExistingPod:
    limits: dict = {"cpu": cpu}
    if gpu:
        limits["nvidia.com/gpu"] = gpu
    spec = {
        "nodeName": on,
        "containers": [{"name": "c", "image": "x", "resources": {"limits": limits}}],
        "tolerations": [{"key": "sku", "operator": "Exists"}],
    }
    return ExistingPod(name, "default", on, spec, priority, False)


def cluster(gpu_nodes: list[ExistingNode], pods: list[ExistingPod]) -> StartState:
    nodes = [node("aks-system-1-vmss000000", "system", 0), node("aks-system-1-vmss000001", "system", 0)]
    return StartState("snap/", nodes + gpu_nodes, pods, [])


def docs(k, max_count: int | None = 3, replicas: int = 1) -> list[dict]:  # type: ignore[no-untyped-def]
    extra = {"autoscaler": {"minCount": 1, "maxCount": max_count}} if max_count else {}
    return [
        k.system(2),
        k.pool("gpu", "Standard_NC24ads_A100_v4", 2, taints=["sku=gpu:NoSchedule"], **extra),
        k.deployment("train", replicas, gpu=1, cpu="4", tolerations=k.tolerate),
    ]


def run(k, documents, start, **options):  # type: ignore[no-untyped-def]
    return k.run(documents, start=start, **options)


def test_full_cluster_scales_up_and_reports_what_runs_already(k) -> None:
    start = cluster(
        [node("aks-gpu-1-vmss000000", "gpu"), node("aks-gpu-1-vmss000001", "gpu")],
        [running("old-0", "aks-gpu-1-vmss000000", gpu=1), running("old-1", "aks-gpu-1-vmss000001", gpu=1)],
    )
    r = run(k, docs(k), start)
    gpu = r.pools[1]
    assert (gpu.initial, gpu.nodes, gpu.added, gpu.existing_pods, gpu.pods) == (2, 3, 1, 2, 1)
    (up,) = gpu.scale_ups
    assert re.fullmatch(r"pod triggered scale-up: \[\{aks-gpu-\d{8}-vmss 2->3 \(max: 3\)\}\]", up.event)
    assert up.template == "node"  # a real node is copied
    (p,) = r.placements
    assert p.pool == "gpu" and p.node not in ("aks-gpu-1-vmss000000", "aks-gpu-1-vmss000001")
    assert r.start is not None
    assert r.start["nodes"] == 4 and r.start["pods"] == 2
    assert r.start["requests"] == {"cpu": 2.0, "nvidia.com/gpu": 2}
    assert gpu.resources["nvidia.com/gpu"] == {"allocatable": 3, "used": 3, "free": 0}
    d = r.to_dict()
    assert d["start"]["source"] == "snap/" and d["pools"][1]["existingPods"] == 2


def test_full_cluster_without_autoscaler_stays_pending(k) -> None:
    start = cluster(
        [node("aks-gpu-1-vmss000000", "gpu"), node("aks-gpu-1-vmss000001", "gpu")],
        [running("old-0", "aks-gpu-1-vmss000000", gpu=1), running("old-1", "aks-gpu-1-vmss000001", gpu=1)],
    )
    r = run(k, docs(k, max_count=None), start)
    (e,) = r.pending
    assert e.message.startswith("0/4 nodes are available: 2 Insufficient cpu, 4 Insufficient nvidia.com/gpu.")
    assert r.pools[1].nodes == 2 and r.pools[1].added == 0


def test_free_room_on_existing_nodes_is_used_first(k) -> None:
    start = cluster(
        [node("aks-gpu-1-vmss000000", "gpu"), node("aks-gpu-1-vmss000001", "gpu")],
        [running("old-0", "aks-gpu-1-vmss000000", gpu=1)],
    )
    r = run(k, docs(k), start)
    assert not r.pending and r.pools[1].added == 0
    assert [p.node for p in r.placements] == ["aks-gpu-1-vmss000001"]


def test_cordoned_node(k) -> None:
    start = cluster(
        [node("aks-gpu-1-vmss000000", "gpu"), node("aks-gpu-1-vmss000001", "gpu", cordoned=True)],
        [running("old-0", "aks-gpu-1-vmss000000", gpu=1)],
    )
    r = run(k, docs(k, max_count=None), start)
    (e,) = r.pending
    assert e.message.startswith(
        "0/4 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu, "
        "3 Insufficient nvidia.com/gpu."
    )
    assert not r.pools[1].cordoned  # one node of two


def test_pool_at_max(k) -> None:
    start = cluster(
        [node("aks-gpu-1-vmss000000", "gpu"), node("aks-gpu-1-vmss000001", "gpu")],
        [running("old-0", "aks-gpu-1-vmss000000", gpu=1), running("old-1", "aks-gpu-1-vmss000001", gpu=1)],
    )
    r = run(k, docs(k, max_count=2), start)
    (e,) = r.pending
    assert e.autoscaler == "pod didn't trigger scale-up: 1 max node group size reached"
    assert r.pools[1].added == 0


def test_node_with_a_broken_device_plugin_is_its_own_group(k) -> None:
    """One node advertises no GPU (device plugin down): real allocatable per node. Younger than CA's
    MaxNodeStartupTime (15 min) the autoscaler counts it as still starting, i.e. as upcoming capacity like a
    copy of the good node, and adds nothing; older (or of unknown age) it is plain unready, and CA scales the
    pool up."""
    bad = node("aks-gpu-1-vmss000001", "gpu", gpu=0, **{"kubernetes.azure.com/accelerator": "nvidia"})
    good = node("aks-gpu-1-vmss000000", "gpu")
    for age in (60.0, 3600.0, None):
        broken = ExistingNode(
            bad.name,
            "gpu",
            "Standard_NC24ads_A100_v4",
            bad.labels,
            bad.capacity,
            bad.allocatable,
            (GPU_TAINT,),
            False,
            True,
            age,
        )
        start = cluster([good, broken], [running("old-0", "aks-gpu-1-vmss000000", gpu=1)])
        r = run(k, docs(k), start)
        assert r.pools[1].resources["nvidia.com/gpu"]["allocatable"] == (1 if age == 60.0 else 2)
        assert r.to_dict()["pools"][1]["nodes"] == (2 if age == 60.0 else 3)
        if age == 60.0:
            assert r.pools[1].added == 0
            (e,) = r.pending
            assert e.autoscaler is None
            assert "pool gpu's 1 node is younger than 15 minutes" in (e.why or "")
            assert "template (nvidia.com/gpu: 1)" in (e.why or "")
        else:
            assert r.pools[1].added == 1 and not r.pending


def test_node_age_comes_from_creation_timestamp() -> None:
    from datetime import UTC, datetime

    from gpupool.simulate.start import node_of

    obj = {"metadata": {"name": "n", "creationTimestamp": "2026-12-03T10:00:00Z"}}
    read_at = datetime(2026, 12, 3, 10, 10, tzinfo=UTC)
    assert node_of(obj, read_at).age_s == 600
    assert node_of({"metadata": {"name": "n"}}, read_at).age_s is None
    assert node_of({"metadata": {"name": "n", "creationTimestamp": "yesterday"}}, read_at).age_s is None


def test_preemption_evicts_a_running_pod(k) -> None:
    start = cluster(
        [node("aks-gpu-1-vmss000000", "gpu"), node("aks-gpu-1-vmss000001", "gpu")],
        [running("old-0", "aks-gpu-1-vmss000000", gpu=1), running("old-1", "aks-gpu-1-vmss000001", gpu=1)],
    )
    documents = docs(k, max_count=None)
    documents.append(k.priority_class("high", 1000))
    documents[2]["spec"]["template"]["spec"]["priorityClassName"] = "high"
    r = run(k, documents, start)
    assert not r.pending and r.start is not None
    assert r.start["evictedByPreemption"] == ["default/old-0"]


def test_pools_from_the_nodes_alone(k) -> None:
    from gpupool.simulate import load_inputs, simulate

    start = cluster([node("aks-gpu-1-vmss000000", "gpu")], [])
    path = k.write([k.deployment("train", 1, gpu=1, cpu="4", tolerations=k.tolerate)])
    r = simulate(load_inputs([path], require_pools=False), Options(start=start))
    assert [p.name for p in r.pools] == ["system", "gpu"]
    assert r.placed == 1 and r.pools[1].nodes == 1


def test_options_default_has_no_start() -> None:
    assert Options().start is None


def test_running_pods_keep_their_labels_for_spreading(k) -> None:
    """Default topology spreading counts the pods already running that match the Deployment's selector (their
    labels come from the snapshot): two small pods labelled app: train on node 0 push the new pod to node 1,
    although node 1 is busier; unlabelled, the emptier node 0 wins."""
    gpu0, gpu1 = node("aks-gpu-1-vmss000000", "gpu", gpu=4), node("aks-gpu-1-vmss000001", "gpu", gpu=4)
    for labels, want in (({"app": "train"}, "aks-gpu-1-vmss000001"), ({}, "aks-gpu-1-vmss000000")):
        pods = [running(f"old-{i}", gpu0.name, cpu="100m") for i in range(2)]
        pods = [dataclasses.replace(p, labels=dict(labels)) for p in pods]
        pods.append(running("busy", gpu1.name, cpu="6"))
        r = run(k, docs(k, max_count=None), cluster([gpu0, gpu1], pods), kubernetes_version="1.35")
        (p,) = r.placements
        assert p.node == want, labels


def test_a_running_pod_keeps_its_labels_from_the_read() -> None:
    from gpupool.simulate.start import pod_of

    obj = {
        "metadata": {"name": "p", "namespace": "ml", "labels": {"app": "train"}},
        "spec": {"nodeName": "n", "containers": []},
        "status": {"phase": "Running"},
    }
    p = pod_of(obj)
    assert p is not None and p.labels == {"app": "train"} and p.namespace == "ml"
