"""The snapshot reader: what kubectl/az print in, plain data out; else InputError naming the file."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpupool.cluster import LogKey, log_file_name, parse_log_name, read_snapshot, snapshot
from gpupool.errors import InputError
from gpupool.k8s import nodes


def kube_list(*items: dict) -> dict:
    return {"apiVersion": "v1", "items": list(items), "kind": "List", "metadata": {"resourceVersion": ""}}


NODE = {
    "apiVersion": "v1",
    "kind": "Node",
    "metadata": {
        "name": "aks-gpunp-28993262-vmss000000",
        "labels": {
            "agentpool": "gpunp",
            "kubernetes.azure.com/agentpool": "gpunp",
            "kubernetes.azure.com/accelerator": "nvidia",
            "node.kubernetes.io/instance-type": "Standard_NC4as_T4_v3",
        },
    },
    "spec": {"taints": [{"effect": "NoSchedule", "key": "sku", "value": "gpu"}], "unschedulable": True},
    "status": {
        "capacity": {"cpu": "4", "memory": "28736336Ki", "nvidia.com/gpu": "1", "pods": "30"},
        "allocatable": {"cpu": "3860m", "memory": "24372048Ki", "nvidia.com/gpu": "0", "pods": "30"},
        "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}],
    },
}


def write(root: Path, **files: object) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    base = {
        "nodes.json": kube_list(NODE),
        "pods.json": kube_list(),
        "daemonsets.json": kube_list(),
        "events.json": kube_list(),
    }
    for name, body in {**base, **{k.replace("__", "."): v for k, v in files.items()}}.items():
        p = root / name
        if body is None:
            continue
        p.write_bytes(body if isinstance(body, bytes) else json.dumps(body).encode())
    return root


def test_reads_required_and_optional(tmp_path: Path) -> None:
    root = write(tmp_path / "s", configmaps__json=kube_list(), nodepools__json=[{"name": "gpunp"}])
    (root / "logs").mkdir()
    (
        root / "logs" / "gpu-resources_nvidia-device-plugin-daemonset-x7k2p_nvidia-device-plugin-ctr.log"
    ).write_bytes(b"I1204 07:31:31.764138 1 main.go:235] ok\n\xff\xfe bad bytes\n")
    (root / "logs" / "kube-system_p_c.previous.log").write_text("before the crash\n")
    (root / "logs" / "README.txt").write_text("x")
    snap = read_snapshot(root)
    assert snap.source == str(root)
    assert [nodes.name(n) for n in snap.nodes] == ["aks-gpunp-28993262-vmss000000"]
    assert snap.pods == [] and snap.configmaps == [] and snap.clusterpolicies is None
    assert snap.nodepools == [{"name": "gpunp"}]
    key = LogKey("gpu-resources", "nvidia-device-plugin-daemonset-x7k2p", "nvidia-device-plugin-ctr", False)
    assert "\ufffd" in snap.logs[key] and "main.go:235" in snap.logs[key]
    assert snap.logs[LogKey("kube-system", "p", "c", True)] == "before the crash\n"
    assert any("README.txt" in n for n in snap.notes)


def test_utf16_from_powershell(tmp_path: Path) -> None:
    root = write(tmp_path / "s", nodes__json=json.dumps(kube_list(NODE)).encode("utf-16"))
    assert len(read_snapshot(root).nodes) == 1


def test_meta_notes_are_carried(tmp_path: Path) -> None:
    root = write(tmp_path / "s", meta__json={"context": "c", "notes": ["could not read secrets: forbidden"]})
    snap = read_snapshot(root)
    assert snap.meta is not None and snap.notes == ["could not read secrets: forbidden"]


@pytest.mark.parametrize(
    ("files", "file", "words"),
    [
        ({"nodes__json": None}, "nodes.json", "required snapshot file is missing"),
        ({"pods__json": b'{"apiVersion": "v1", "items": [{"metadata": '}, "pods.json", "truncated JSON"),
        ({"pods__json": b'{"kind": "List", "items": [}'}, "pods.json", "not valid JSON"),
        ({"events__json": b""}, "events.json", "empty"),
        ({"nodes__json": b"\x80{}"}, "nodes.json", "not UTF-8"),
        ({"pods__json": kube_list(NODE)}, "pods.json", "item 0 is a Node, expected Pod"),
        ({"pods__json": {"kind": "NodeList", "items": []}}, "pods.json", "got kind NodeList"),
        ({"nodes__json": NODE}, "nodes.json", "got a single Node"),
        ({"nodes__json": [NODE]}, "nodes.json", "got a JSON array"),
        ({"daemonsets__json": {"kind": "List", "items": {}}}, "daemonsets.json", "not a list"),
        ({"nodepools__json": [{"id": 1}]}, "nodepools.json", "not an AKS node pool"),
        ({"meta__json": []}, "meta.json", "expected a JSON object"),
    ],
)
def test_unusable_files(tmp_path: Path, files: dict, file: str, words: str) -> None:
    root = write(tmp_path / "s", **files)
    if files.get("nodes__json", 1) is None:
        (root / "nodes.json").unlink(missing_ok=True)
    with pytest.raises(InputError) as e:
        read_snapshot(root)
    assert e.value.path == str(root / file)
    assert words in str(e.value)


def test_missing_required_file_names_the_command(tmp_path: Path) -> None:
    root = write(tmp_path / "s")
    (root / "events.json").unlink()
    with pytest.raises(InputError) as e:
        read_snapshot(root)
    assert "kubectl get events -A -o json" in str(e.value)


def test_huge_file_refused_without_reading(tmp_path: Path) -> None:
    root = write(tmp_path / "s")
    with open(root / "pods.json", "wb") as fh:  # sparse: 1 GiB on paper, nothing on disk
        fh.truncate(2**30)
    with pytest.raises(InputError) as e:
        read_snapshot(root)
    assert "over the" in str(e.value) and e.value.path.endswith("pods.json")


def test_big_log_keeps_its_tail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot, "MAX_LOG_BYTES", 100)
    root = write(tmp_path / "s")
    (root / "logs").mkdir()
    (root / "logs" / "ns_p_c.log").write_text("".join(f"line {i}\n" for i in range(100)))
    text = read_snapshot(root).logs[LogKey("ns", "p", "c", False)]
    assert text.endswith("line 99\n") and "line 0\n" not in text and text.startswith("line ")


def test_not_a_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such snapshot directory"):
        read_snapshot(tmp_path / "nope")
    (tmp_path / "f").write_text("x")
    with pytest.raises(InputError, match="not a directory"):
        read_snapshot(tmp_path / "f")


def test_fifo_is_not_read(tmp_path: Path) -> None:
    import os

    root = write(tmp_path / "s")
    (root / "events.json").unlink()
    os.mkfifo(root / "events.json")
    with pytest.raises(InputError, match="not a regular file"):
        read_snapshot(root)


def test_node_helpers() -> None:
    assert nodes.pool_name(NODE) == "gpunp"
    assert nodes.pool_name({"metadata": {"labels": {"agentpool": "old"}}}) == "old"
    assert nodes.vm_size(NODE) == "Standard_NC4as_T4_v3"
    assert nodes.accelerator(NODE) == "nvidia"
    assert nodes.capacity(NODE)["memory"] == 28736336 * 1024
    assert nodes.allocatable(NODE)["cpu"] == Fraction(386, 100)
    assert nodes.allocatable(NODE)["nvidia.com/gpu"] == 0
    assert [(t.key, t.value, t.effect) for t in nodes.taints(NODE)] == [("sku", "gpu", "NoSchedule")]
    assert nodes.unschedulable(NODE) and nodes.is_ready(NODE)
    assert not nodes.is_ready({"status": {"conditions": [{"type": "Ready", "status": "Unknown"}]}})
    assert nodes.pool_name({}) is None and nodes.capacity({"status": {"capacity": "x"}}) == {}


_dns = st.from_regex(r"[a-z0-9]([a-z0-9.-]{0,20}[a-z0-9])?", fullmatch=True)


@settings(max_examples=200, deadline=None)
@given(_dns, _dns, _dns, st.booleans())
def test_log_names_round_trip(ns: str, pod: str, container: str, previous: bool) -> None:
    key = LogKey(ns, pod, container, previous)
    assert parse_log_name(log_file_name(key)) == key


def test_bad_log_names() -> None:
    assert parse_log_name("a_b.log") is None
    assert parse_log_name("a_b_c_d.log") is None
    assert parse_log_name("a__c.log") is None
    assert parse_log_name("a_b_c.txt") is None
