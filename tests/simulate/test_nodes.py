"""Nodes from the catalog: AKS reservations (the documented formula), maxPods, labels, the CA template."""

from __future__ import annotations

import re

import pytest

from gpupool.design.nodeshape import aks_template, group_id, node_name, node_shape
from gpupool.errors import InputError
from gpupool.k8s import facts
from gpupool.simulate import Reservations, default_reservations, load_reservations
from gpupool.spec import parse_pool

MIB, GIB = 2**20, 2**30
V135 = facts.parse_version("1.35")


def pool_of(k, *args, **kw):  # type: ignore[no-untyped-def]
    return parse_pool(k.pool(*args, **kw), "t.yaml")


@pytest.mark.parametrize(("cores", "milli"), sorted(facts.cpu_reservation_table().items()))
def test_cpu_tiers_reproduce_the_documented_table(cores: int, milli: int) -> None:
    assert default_reservations().cpu_milli(cores) == milli


def test_cpu_beyond_the_table_extrapolates_10m_per_core() -> None:
    assert default_reservations().cpu_milli(96) == 740 + 32 * 10
    assert default_reservations().cpu_milli(3) == 120


def test_memory_129_and_later_doc_examples() -> None:
    r = default_reservations()
    # "8 GB ... 30 pods: 20 MB * 30 + 50 MB = 650 MB" kube-reserved, plus the 100Mi eviction threshold
    assert r.memory_bytes(8 * GIB, 30, V135) == (650 + 100) * MIB
    # "4 GB ... 70 pods: 25% * 4 GB = 1000 MB because that is less than 1450 MB"
    assert r.memory_bytes(4 * GIB, 70, V135) == GIB + 100 * MIB


def test_memory_before_129_regressive_tiers() -> None:
    r = default_reservations()
    v = facts.parse_version("1.28")
    assert r.memory_bytes(8 * GIB, 110, v) == int(4 * GIB * 0.25 + 4 * GIB * 0.20) + 750 * MIB
    expected = 4 * 0.25 + 4 * 0.20 + 8 * 0.10 + 112 * 0.06 + (900 - 128) * 0.02
    assert abs(r.memory_bytes(900 * GIB, 110, v) - (expected * GIB + 750 * MIB)) < 2


def test_windows_nodes_reserve_two_more_gib() -> None:
    r = default_reservations()
    assert r.memory_bytes(16 * GIB, 30, V135, windows=True) - r.memory_bytes(16 * GIB, 30, V135) == 2 * GIB


def test_node_shape_allocatable_and_pods(k) -> None:
    p = pool_of(k, "gpunp", "Standard_NC4as_T4_v3", 1)
    s = node_shape(p, default_reservations(), V135)
    # AKS's default network (Azure CNI Overlay) allows 250 pods: kube-reserved 20 MiB x 250 + 50 MiB
    assert s.capacity == {"pods": 250, "cpu": 4000, "memory": 28 * GIB, "nvidia.com/gpu": 1}
    assert s.allocatable["cpu"] == 3860
    assert s.allocatable["memory"] == 28 * GIB - (20 * 250 + 50) * MIB - 100 * MIB
    s = node_shape(pool_of(k, "gpunp", "Standard_NC4as_T4_v3", 1, maxPods=30), default_reservations(), V135)
    assert s.allocatable["pods"] == 30 and s.allocatable["memory"] == 28 * GIB - 750 * MIB
    s = node_shape(p, Reservations.none(), V135)
    assert s.allocatable == s.capacity


def test_node_labels_include_aks_labels_and_zone(k) -> None:
    p = pool_of(k, "gpunp", "Standard_NC4as_T4_v3", 1, labels={"team": "ml"}, location="eastus")
    s = node_shape(p, default_reservations(), V135)
    assert s.labels["kubernetes.azure.com/agentpool"] == "gpunp"
    assert s.labels["kubernetes.azure.com/accelerator"] == "nvidia"
    assert s.labels["team"] == "ml" and s.labels["topology.kubernetes.io/zone"] == "0"
    assert re.fullmatch(r"aks-gpunp-\d{8}-vmss00000a", node_name(p, 10))
    assert re.fullmatch(r"aks-gpunp-\d{8}-vmss", group_id(p))


def test_reservations_override_file(k) -> None:
    path = k.tmp / "res.yaml"
    path.write_text(
        "reservations:\n  source: our measurements\n  cpu: {tiers: [[null, 0]]}\n"
        "  memory:\n  - {fromVersion: '1.0', evictionHardMiB: 0}\n",
        encoding="utf-8",
    )
    r = load_reservations(path)
    assert r.cpu_milli(8) == 0 and r.memory_bytes(8 * GIB, 110, V135) == 0 and r.source == "our measurements"
    docs = [k.pool("gpunp", count=1), k.pod("p", cpu="4")]
    assert k.run(docs, reservations=r).placed == 1
    assert k.run(docs).placed == 0


@pytest.mark.parametrize(
    "text",
    [
        "reservations: [1, 2]\n",
        "reservations:\n  cpu: {tiers: [[1, -5]]}\n",
        "reservations:\n  cpus: {}\n",
        "reservations:\n  memory: [{fromVersion: '1.29'}]\n",
        "a: 1\n---\nb: 2\n",
    ],
)
def test_bad_reservations_file_is_input_error(k, text: str) -> None:
    path = k.tmp / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError):
        load_reservations(path)


def test_aks_template_as_the_autoscaler_builds_it(k) -> None:
    t = aks_template(
        pool_of(
            k,
            "a100",
            "Standard_ND96asr_v4",
            0,
            gpu={"instanceProfile": "MIG1g", "migStrategy": "Mixed"},
            taints=["sku=gpu:NoSchedule"],
            labels={"team": "ml"},
        )
    )
    assert (
        t.capacity == t.allocatable == {"pods": 110, "cpu": 96000, "memory": 900 * GIB, "nvidia.com/gpu": 8}
    )
    assert t.labels["kubernetes.azure.com/accelerator"] == "nvidia" and t.labels["team"] == "ml"
    assert t.labels["agentpool"] == "a100" and t.labels["kubernetes.io/arch"] == "amd64"
    assert [str(x) for x in t.taints] == ["sku=gpu:NoSchedule"]
    h100 = aks_template(pool_of(k, "h100", "Standard_ND96isr_H100_v5", 0))
    assert "kubernetes.azure.com/accelerator" not in h100.labels
    assert aks_template(pool_of(k, "a10", "Standard_NV6ads_A10_v5", 0)).capacity["nvidia.com/gpu"] == 1
    mi = aks_template(pool_of(k, "mi", "Standard_ND96isr_MI300X_v5", 0))
    assert mi.capacity["nvidia.com/gpu"] == 8 and "amd.com/gpu" not in mi.capacity


def test_unknown_vm_size_is_input_error(k) -> None:
    with pytest.raises(InputError, match="not in gpupool's catalog"):
        k.run([k.pool("x", "Standard_NC4as_T4", 1)])
