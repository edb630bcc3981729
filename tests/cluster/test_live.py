"""Live mode through the official client against a loopback API server with a real server's bodies."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from gpupool.cluster import LogKey, read_snapshot
from gpupool.cluster.collect import write_snapshot
from gpupool.cluster.live import LiveReader, read_live
from gpupool.errors import InputError
from loopback_apiserver import Cluster, Server, kubeconfig

PLUGIN = "nvidia-device-plugin-daemonset-2xq8k"
PLUGIN_POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {
        "name": PLUGIN,
        "namespace": "kube-system",
        "ownerReferences": [
            {"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "nvidia-device-plugin-daemonset"}
        ],
        "labels": {"name": "nvidia-device-plugin-ds"},
    },
    "spec": {
        "nodeName": "gpu-node-2",
        "containers": [
            {"name": "nvidia-device-plugin-ctr", "image": "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"}
        ],
    },
    "status": {
        "phase": "Running",
        "containerStatuses": [{"name": "nvidia-device-plugin-ctr", "restartCount": 3, "ready": False}],
    },
}


@pytest.fixture
def cluster() -> Cluster:
    c = Cluster()
    c.add("/api/v1/pods", PLUGIN_POD)
    c.logs[("kube-system", PLUGIN, "nvidia-device-plugin-ctr", False)] = "".join(
        f"I1204 07:31:31.{i:06d}       1 main.go:235] line {i}\n" for i in range(500)
    )
    c.logs[("kube-system", PLUGIN, "nvidia-device-plugin-ctr", True)] = (
        "E1204 07:30:01.000000       1 main.go:173] Failed to initialize NVML: could not load NVML library.\n"
    )
    return c


def test_reads_every_page_and_only_gets(cluster: Cluster, tmp_path: Path) -> None:
    with Server(cluster) as srv:
        snap = LiveReader(kubeconfig=str(kubeconfig(tmp_path / "kc", srv.url)), page_size=2).read()
    assert sorted(n["metadata"]["name"] for n in snap.nodes) == ["gpu-node-1", "gpu-node-2"]
    assert len(snap.pods) == 26 and len(snap.events) == 5 and len(snap.daemonsets) == 1
    assert {c["metadata"]["name"] for c in snap.configmaps or []} >= {"time-slicing-config"}
    assert snap.source == "context loopback"
    assert snap.meta is not None and snap.meta["kubernetesVersion"] == "v1.36.2"
    # pods: 26 items in pages of 2 -> 13 requests, the later ones with continue tokens
    pod_calls = [p for m, p in cluster.requests if p.startswith("/api/v1/pods?")]
    assert len(pod_calls) == 13 and all("limit=2" in p for p in pod_calls)
    assert sum("continue=" in p for p in pod_calls) == 12
    assert {m for m, _ in cluster.requests} == {"GET"}
    assert not any("secrets" in p for _, p in cluster.requests)
    # the missing CRD is a note, not a crash
    assert snap.clusterpolicies is None
    assert any("clusterpolicies.nvidia.com" in n and "404 page not found" in n for n in snap.notes)
    # logs: bounded tail, and the previous container's log because it restarted
    current = snap.logs[LogKey("kube-system", PLUGIN, "nvidia-device-plugin-ctr", False)]
    assert current.count("\n") == 200 and current.endswith("line 499\n")
    prev = snap.logs[LogKey("kube-system", PLUGIN, "nvidia-device-plugin-ctr", True)]
    assert "could not load NVML library" in prev


def test_forbidden_reads_become_notes(cluster: Cluster, tmp_path: Path) -> None:
    cluster.forbidden |= {"/api/v1/namespaces/kube-system/configmaps", "/api/v1/events"}
    cluster.forbidden.add("/api/v1/namespaces/kube-system/pods/")
    with Server(cluster) as srv:
        snap = read_live(kubeconfig=str(kubeconfig(tmp_path / "kc", srv.url)))
    assert snap.events == [] and snap.configmaps is None and snap.logs == {}
    assert any(
        n.startswith('could not read events: forbidden (events is forbidden: User "viewer" cannot list')
        for n in snap.notes
    )
    assert any(n.startswith("could not read configmaps in kube-system: forbidden") for n in snap.notes)
    assert any("logs of" in n and "forbidden" in n for n in snap.notes)
    assert len(snap.nodes) == 2


def test_slow_reads_time_out(cluster: Cluster, tmp_path: Path) -> None:
    cluster.slow["/api/v1/events"] = 3.0
    with Server(cluster) as srv:
        t0 = time.monotonic()
        snap = LiveReader(kubeconfig=str(kubeconfig(tmp_path / "kc", srv.url)), timeout=0.5).read()
        took = time.monotonic() - t0
    assert "could not read events: no answer within 0.5 s" in snap.notes
    assert snap.events == [] and len(snap.nodes) == 2
    assert took < 3.0


def test_slow_nodes_is_unreachable(cluster: Cluster, tmp_path: Path) -> None:
    cluster.slow["/api/v1/nodes"] = 3.0
    with Server(cluster) as srv, pytest.raises(InputError, match=r"no answer to nodes within 0.5 s"):
        LiveReader(kubeconfig=str(kubeconfig(tmp_path / "kc", srv.url)), timeout=0.5).read()


def test_unreachable_and_bad_kubeconfig(tmp_path: Path) -> None:
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    with pytest.raises(InputError, match=r"unreachable at http://127\.0\.0\.1"):
        read_live(kubeconfig=str(kubeconfig(tmp_path / "kc", f"http://127.0.0.1:{port}")))
    with pytest.raises(InputError, match="kubeconfig"):
        read_live(kubeconfig=str(kubeconfig(tmp_path / "kc2", "http://127.0.0.1:1")), context="nope")
    (tmp_path / "bad").write_text("{not yaml: [")
    with pytest.raises(InputError):
        read_live(kubeconfig=str(tmp_path / "bad"))
    with pytest.raises(InputError):
        read_live(kubeconfig=str(tmp_path / "absent"))


def test_collect_round_trips(cluster: Cluster, tmp_path: Path) -> None:
    cluster.forbidden.add("/api/v1/events")
    with Server(cluster) as srv:
        snap = read_live(kubeconfig=str(kubeconfig(tmp_path / "kc", srv.url)))
    out = write_snapshot(snap, tmp_path / "snap")
    back = read_snapshot(out)
    assert back.notes == snap.notes
    assert [n["metadata"]["name"] for n in back.nodes] == [n["metadata"]["name"] for n in snap.nodes]
    assert all(n["kind"] == "Node" for n in back.nodes) and all(p["kind"] == "Pod" for p in back.pods)
    assert back.logs == snap.logs
    assert back.clusterpolicies is None and not (out / "clusterpolicies.json").exists()
    assert not list(tmp_path.glob(".snap.*"))  # the temp dir was renamed, not left behind
    with pytest.raises(InputError, match="already exists"):
        write_snapshot(snap, out)


def test_exec_credential_plugin(cluster: Cluster, tmp_path: Path) -> None:
    """AAD clusters use kubelogin, an exec plugin: the official client runs it and sends its token."""
    import sys

    plugin = tmp_path / "fake-kubelogin.py"
    plugin.write_text(
        "import json\n"
        "print(json.dumps({'apiVersion': 'client.authentication.k8s.io/v1beta1', 'kind': 'ExecCredential',"
        " 'status': {'token': 'token-from-exec-plugin'}}))\n"
    )
    with Server(cluster) as srv:
        kc = kubeconfig(tmp_path / "kc", srv.url, exec_argv=[sys.executable, str(plugin)])
        snap = read_live(kubeconfig=str(kc))
    assert len(snap.nodes) == 2
    assert cluster.auth and all(a == "Bearer token-from-exec-plugin" for a in cluster.auth)


def test_logs_of_broken_gpu_nodes_first(
    cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import copy

    from gpupool.cluster import live

    monkeypatch.setattr(live, "MAX_LOG_PODS", 1)
    broken = copy.deepcopy(cluster.lists["/api/v1/nodes"][2][0])
    broken["metadata"]["name"] = "gpu-node-3"
    broken["metadata"]["labels"]["kubernetes.io/hostname"] = "gpu-node-3"
    for part in ("capacity", "allocatable"):
        broken["status"][part].pop("nvidia.com/gpu")
    cluster.add("/api/v1/nodes", broken)
    other = copy.deepcopy(PLUGIN_POD)
    other["metadata"]["name"] = "nvidia-device-plugin-daemonset-aaaaa"  # sorts first by name
    other["spec"]["nodeName"] = "gpu-node-1"
    other["status"]["containerStatuses"][0].update(ready=True, restartCount=0)
    cluster.add("/api/v1/pods", other)
    cluster.logs[
        ("kube-system", "nvidia-device-plugin-daemonset-aaaaa", "nvidia-device-plugin-ctr", False)
    ] = "ok\n"
    moved = cluster.lists["/api/v1/pods"][2]
    next(p for p in moved if p["metadata"]["name"] == PLUGIN)["spec"]["nodeName"] = "gpu-node-3"
    with Server(cluster) as srv:
        snap = read_live(kubeconfig=str(kubeconfig(tmp_path / "kc", srv.url)))
    assert {k.pod for k in snap.logs} == {PLUGIN}
    assert any("read from the first 1 of 2 GPU stack pods" in n for n in snap.notes)
