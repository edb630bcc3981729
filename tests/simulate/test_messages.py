"""FailedScheduling text byte for byte: the classic mistake by version, sort order, preemption texts."""

from __future__ import annotations

from collections import Counter

import pytest

from gpupool.k8s import facts
from gpupool.simulate import messages

# What the real 1.35.4 and 1.33.3 schedulers printed (recorded 2026-12-03; knowledge base §1.6)
CLASSIC_135 = (
    "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient nvidia.com/gpu. "
    "no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for "
    "scheduling."
)
CLASSIC_133 = (
    "0/3 nodes are available: 1 node(s) had untolerated taint {sku: gpu}, 2 Insufficient nvidia.com/gpu. "
    "preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, "
    "2 No preemption victims found for incoming pod."
)
CLASSIC_130 = (
    "0/3 nodes are available: 1 node(s) had untolerated taint {sku: gpu}, 2 Insufficient nvidia.com/gpu. "
    "preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, "
    "2 No preemption victims found for incoming pod."
)


def classic(k) -> list[dict]:  # type: ignore[no-untyped-def]
    """2 general-purpose system nodes, 1 T4 node tainted sku=gpu:NoSchedule, a GPU pod without toleration."""
    return [
        k.system(2),
        k.pool("gpunp", "Standard_NC4as_T4_v3", 1, taints=["sku=gpu:NoSchedule"]),
        k.pod("cuda-vectoradd", gpu=1),
    ]


def test_classic_mistake_135_byte_for_byte(k) -> None:
    r = k.run(classic(k), kubernetes_version="1.35")
    assert [(e.message, e.count, e.pod) for e in r.pending] == [(CLASSIC_135, 1, "cuda-vectoradd")]
    assert r.exit_code == 1


def test_classic_mistake_133_byte_for_byte(k) -> None:
    assert k.run(classic(k), kubernetes_version="1.33.3").pending[0].message == CLASSIC_133


def test_classic_mistake_130_names_the_taint(k) -> None:
    r = k.run(classic(k), kubernetes_version="1.30")
    assert r.pending[0].message == CLASSIC_130


@pytest.mark.parametrize(
    ("version", "generic"),
    [
        ("1.35", True),
        ("1.36", True),
        ("1.34", True),
        ("1.34.2", True),
        ("1.34.3", True),
        ("1.34.1", False),
        ("1.33", False),
        ("1.28", False),
        ("1.25", False),
    ],
)
def test_taint_wording_by_version(k, version: str, generic: bool) -> None:
    msg = k.run(classic(k), kubernetes_version=version).pending[0].message
    assert ("1 node(s) had untolerated taint(s)," in msg) is generic
    assert ("1 node(s) had untolerated taint {sku: gpu}," in msg) is not generic


def test_spec_version_is_the_default_then_the_newest(k) -> None:
    docs = classic(k)
    docs[1]["spec"]["kubernetesVersion"] = "1.31"
    r = k.run(docs)
    assert r.kubernetes_version == "1.31" and "{sku: gpu}" in r.pending[0].message
    r = k.run(classic(k))
    assert r.kubernetes_version == facts.version_text(facts.default_version()) == "1.35"  # AKS's default


def test_double_period_before_128(k) -> None:
    msg = k.run(classic(k), kubernetes_version="1.27").pending[0].message
    assert msg.endswith("2 No preemption victims found for incoming pod..")
    assert k.run(classic(k), kubernetes_version="1.28").pending[0].message.endswith("incoming pod.")
    assert not k.run(classic(k), kubernetes_version="1.28").pending[0].message.endswith("pod..")


def test_taint_with_empty_value_old_wording(k) -> None:
    docs = [
        k.pool("cp", "Standard_D4s_v5", 1, taints=["node-role.kubernetes.io/control-plane:NoSchedule"]),
        k.pod("web", cpu="100m"),
    ]
    msg = k.run(docs, kubernetes_version="1.26").pending[0].message
    assert msg == (
        "0/1 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. "
        "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.."
    )


def test_reasons_sort_as_plain_strings() -> None:
    assert messages.histogram(Counter({"Insufficient cpu": 10, "node(s) had untolerated taint(s)": 2})) == [
        "10 Insufficient cpu",
        "2 node(s) had untolerated taint(s)",
    ]
    assert messages.histogram(
        Counter({"Too many pods": 3, "node(s) were unschedulable": 3, "Insufficient nvidia.com/gpu": 1})
    ) == ["1 Insufficient nvidia.com/gpu", "3 Too many pods", "3 node(s) were unschedulable"]


def test_ten_before_two_in_a_real_message(k) -> None:
    docs = [
        k.pool("cpu", "Standard_D2s_v5", 10),
        k.pool("gpu", "Standard_NC4as_T4_v3", 2, taints=["sku=gpu:NoSchedule"]),
        k.pod("big", cpu="3"),
    ]
    msg = k.run(docs, kubernetes_version="1.35").pending[0].message
    assert msg.startswith(
        "0/12 nodes are available: 10 Insufficient cpu, 2 node(s) had untolerated taint(s). "
    )
    # from 1.34 a node that can never hold the request is not helpful for preemption
    assert msg.endswith("preemption: 0/12 nodes are available: 12 Preemption is not helpful for scheduling.")
    msg = k.run(docs, kubernetes_version="1.33").pending[0].message
    assert msg.endswith(
        "preemption: 0/12 nodes are available: 10 No preemption victims found for incoming pod, "
        "2 Preemption is not helpful for scheduling."
    )


def test_several_fit_reasons_on_one_node_all_count(k) -> None:
    docs = [k.pool("small", "Standard_D2s_v5", 1), k.pod("huge", gpu=1, cpu="4", memory="64Gi")]
    msg = k.run(docs).pending[0].message
    assert msg.startswith(
        "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 Insufficient nvidia.com/gpu. "
    )
    assert msg.endswith("preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.")
    msg = k.run(docs, kubernetes_version="1.33").pending[0].message
    assert msg.endswith(
        "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
    )


def test_no_nodes_at_all(k) -> None:
    docs = [k.pool("gpunp", count=0), k.pod("p", gpu=1)]
    r = k.run(docs, autoscaler="none")
    assert r.pending[0].message == "no nodes available to schedule pods"


def test_preemption_policy_never(k) -> None:
    docs = [*classic(k), k.priority_class("batch", 100, policy="Never")]
    docs[2]["spec"]["priorityClassName"] = "batch"
    msg = k.run(docs, kubernetes_version="1.35").pending[0].message
    assert msg == (
        "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient nvidia.com/gpu. "
        "no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never."
    )
    msg = k.run(docs, kubernetes_version="1.27").pending[0].message
    assert msg.endswith("preemption: not eligible due to preemptionPolicy=Never..")


def test_conflicting_node_name_terms_fail_in_prefilter(k) -> None:
    aff = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    {
                        "matchFields": [
                            {"key": "metadata.name", "operator": "In", "values": ["a"]},
                            {"key": "metadata.name", "operator": "In", "values": ["b"]},
                        ]
                    }
                ]
            }
        }
    }
    docs = [k.system(2), k.pod("p", cpu="10m", affinity=aff)]
    msg = k.run(docs).pending[0].message
    assert msg == (
        "0/2 nodes are available: pod affinity terms conflict. no new claims to deallocate, "
        "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
    )


def test_fit_error_renderer_directly() -> None:
    m = facts.messages(facts.parse_version("1.35"))
    post = messages.preemption(m, 3, Counter({m.not_helpful: 3}))
    text = messages.fit_error(
        m, 3, Counter({m.taint("sku", "gpu"): 1, m.insufficient_of("nvidia.com/gpu"): 2}), post
    )
    assert text == CLASSIC_135


def test_autoscaler_event_texts() -> None:
    m = facts.messages(facts.parse_version("1.35"))
    assert (
        messages.ca_triggered(m, "aks-gpupool-29545764-vmss", 0, 1, 1)
        == "pod triggered scale-up: [{aks-gpupool-29545764-vmss 0->1 (max: 1)}]"
    )
    assert messages.ca_not_triggered(
        m,
        Counter(
            {
                "max node group size reached": 1,
                "node(s) didn't match Pod's node affinity/selector": 2,
                "Insufficient nvidia.com/mig-1g.10gb": 1,
            }
        ),
    ) == (
        "pod didn't trigger scale-up: 1 Insufficient nvidia.com/mig-1g.10gb, 1 max node group size reached, "
        "2 node(s) didn't match Pod's node affinity/selector"
    )
