"""MIG and time-sliced resources come from the plan's one implementation (design.node.advertised)."""

from __future__ import annotations

import pytest

from gpupool.design.node import advertised
from gpupool.design.nodeshape import node_shape
from gpupool.k8s import facts
from gpupool.simulate import default_reservations
from gpupool.spec import parse_pool


def shape_of(doc: dict):  # type: ignore[no-untyped-def]
    pool = parse_pool(doc, "t.yaml")
    return pool, node_shape(pool, default_reservations(), facts.parse_version("1.35"))


@pytest.mark.parametrize(
    ("gpu", "expected"),
    [
        (None, {"nvidia.com/gpu": 8}),
        ({"instanceProfile": "MIG1g"}, {"nvidia.com/gpu": 56}),  # Single by default
        ({"instanceProfile": "MIG1g", "migStrategy": "Mixed"}, {"nvidia.com/mig-1g.5gb": 56}),
        ({"instanceProfile": "MIG3g", "migStrategy": "Mixed"}, {"nvidia.com/mig-3g.20gb": 16}),
        ({"sharing": {"timeSlicing": {"replicas": 4}}}, {"nvidia.com/gpu": 32}),
        (
            {"sharing": {"timeSlicing": {"replicas": 4, "renameByDefault": True}}},
            {"nvidia.com/gpu.shared": 32},
        ),
    ],
)
def test_node_offers_what_plan_advertises(k, gpu, expected) -> None:
    doc = k.pool("a100", "Standard_ND96asr_v4", 1, **({"gpu": gpu} if gpu else {}))
    pool, shape = shape_of(doc)
    gpu_part = {n: v for n, v in shape.allocatable.items() if "/" in n}
    assert gpu_part == expected == advertised(pool).resources


def test_mig_mixed_pods_fill_the_instances(k) -> None:
    docs = [
        k.pool("a100", "Standard_ND96asr_v4", 1, gpu={"instanceProfile": "MIG1g", "migStrategy": "Mixed"}),
        k.deployment("infer", 60, gpu=1, resource="nvidia.com/mig-1g.5gb", cpu="500m", memory="4Gi"),
    ]
    r = k.run(docs)
    assert r.placed == 56
    assert r.pending[0].count == 4
    assert r.pending[0].message.startswith("0/1 nodes are available: 1 Insufficient nvidia.com/mig-1g.5gb.")
    assert r.pools[0].gpu_resources() == {"nvidia.com/mig-1g.5gb": {"allocatable": 56, "used": 56, "free": 0}}


def test_whole_gpu_request_on_mig_mixed_pool(k) -> None:
    docs = [
        k.pool("a100", "Standard_ND96asr_v4", 1, gpu={"instanceProfile": "MIG1g", "migStrategy": "Mixed"}),
        k.pod("p", gpu=1),
    ]
    assert "Insufficient nvidia.com/gpu" in k.run(docs).pending[0].message


def test_time_sliced_pool_takes_replicas_times_gpus(k) -> None:
    docs = [
        k.pool("t4", "Standard_NC8as_T4_v3", 1, gpu={"sharing": {"timeSlicing": {"replicas": 4}}}),
        k.deployment("infer", 5, gpu=1, cpu="100m"),
    ]
    r = k.run(docs)
    assert r.placed == 4 and r.pending[0].count == 1


def test_renamed_shared_resource_needs_the_shared_name(k) -> None:
    pool = k.pool(
        "t4",
        "Standard_NC8as_T4_v3",
        1,
        gpu={"sharing": {"timeSlicing": {"replicas": 4, "renameByDefault": True}}},
    )
    r = k.run([pool, k.deployment("infer", 2, gpu=1, cpu="100m")])
    assert r.placed == 0 and "Insufficient nvidia.com/gpu." in r.pending[0].message
    r = k.run([pool, k.deployment("infer", 4, gpu=1, resource="nvidia.com/gpu.shared", cpu="100m")])
    assert r.placed == 4 and not r.pending


def test_gpu_pool_without_driver_stack_offers_no_gpu_on_amd(k) -> None:
    _, shape = shape_of(k.pool("mi300", "Standard_ND96isr_MI300X_v5", 1))
    assert shape.allocatable.get("amd.com/gpu") == 8 and "nvidia.com/gpu" not in shape.allocatable
