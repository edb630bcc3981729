"""doctor live, end to end through the official client against the loopback API server (a real server's
recorded objects), and --collect then --snapshot giving the same findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loopback_apiserver import Cluster, Server, kubeconfig
from support import run_cli, run_program


def _findings(doc: dict) -> list[tuple[str, str | None, str]]:
    return [(f["rule"], f["object"], f["message"]) for f in doc["findings"]]


@pytest.fixture
def cluster() -> Cluster:
    c = Cluster()
    c.forbidden.add("/api/v1/events")  # a read-only account without events
    return c


def test_live_then_collect_then_snapshot(cluster: Cluster, tmp_path: Path) -> None:
    with Server(cluster) as srv:
        kc = str(kubeconfig(tmp_path / "kc", srv.url))
        live = run_cli("doctor", "--kubeconfig", kc, "-o", "json")
        out = tmp_path / "snap"
        collected = run_cli("doctor", "--kubeconfig", kc, "--collect", str(out), "-o", "json")
    assert live.exit_code == 1, live.stderr
    doc = json.loads(live.stdout)
    rules = [f["rule"] for f in doc["findings"]]
    # the recorded cluster: events forbidden, no ClusterPolicy CRD, 25 Pending 2-GPU pods on 1-GPU nodes,
    # and a time-slicing config (4 replicas) the nodes do not show
    assert rules.count("GP600") == 2
    assert "GP610" in rules and "GP650" in rules
    gp610 = next(f for f in doc["findings"] if f["rule"] == "GP610")
    assert len(gp610["pods"]) == 25
    assert "0/2 nodes are available: 2 Insufficient nvidia.com/gpu." in "\n".join(gp610["evidence"])
    assert doc["source"] == "context loopback"
    assert {m for m, _ in cluster.requests} == {"GET"}
    # --collect writes the snapshot, diagnoses it, and a later --snapshot run says the same
    assert collected.exit_code == 1
    assert "snapshot written to" in collected.stderr
    again = run_cli("doctor", "--snapshot", str(out), "-o", "json")
    assert _findings(json.loads(again.stdout)) == _findings(doc) == _findings(json.loads(collected.stdout))
    assert sorted(p.name for p in out.iterdir()) == [
        "configmaps.json",
        "daemonsets.json",
        "events.json",
        "meta.json",
        "nodes.json",
        "pods.json",
    ]


def test_unreachable_cluster_is_one_line_exit_2(tmp_path: Path) -> None:
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    kc = str(kubeconfig(tmp_path / "kc", f"http://127.0.0.1:{port}"))
    r = run_program("doctor", "--kubeconfig", kc)
    assert r.exit_code == 2
    assert r.stderr.startswith("gpupool: error: cluster loopback unreachable at http://127.0.0.1:")
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_timeout_option_bounds() -> None:
    r = run_cli("doctor", "--timeout", "0")
    assert r.exit_code == 2 and "--timeout" in r.stderr


def test_print_commands() -> None:
    r = run_cli("doctor", "--print-commands", "--context", "prod", "-g", "rg1", "--cluster-name", "aks1")
    assert r.exit_code == 0
    assert "kubectl --context 'prod' get nodes -o json > nodes.json" in r.stdout
    assert "az aks nodepool list -g 'rg1' --cluster-name 'aks1' -o json > nodepools.json" in r.stdout
    assert "secret" not in r.stdout.lower().replace("no secrets are read", "")
    bad = run_cli("doctor", "--print-commands", "--context", "a\nb")
    assert bad.exit_code == 2 and "control character" in bad.stderr
