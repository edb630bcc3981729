"""Queue order (priority, then creation) and DefaultPreemption: its three texts and a real eviction."""

from __future__ import annotations


def test_queue_order_priority_before_creation(k) -> None:
    docs = [
        k.pool("gpunp", count=1),
        k.priority_class("high", 1000),
        k.pod("first-low", gpu=1),
        k.pod("second-high", gpu=1, priorityClassName="high"),
    ]
    r = k.run(docs)
    assert [e.pod for e in r.pending] == ["first-low"]


def test_creation_order_breaks_priority_ties(k) -> None:
    r = k.run([k.pool("gpunp", count=1), k.pod("a", gpu=1), k.pod("b", gpu=1)])
    assert [e.pod for e in r.pending] == ["b"]


def test_global_default_and_builtin_priorities(k) -> None:
    docs = [
        k.pool("gpunp", count=1),
        k.priority_class("everyone", 500, global_default=True),
        k.priority_class("low", 10),
        k.pod("low", gpu=1, priorityClassName="low"),
        k.pod("default", gpu=1),
    ]
    assert [e.pod for e in k.run(docs).pending] == ["low"]
    docs = [
        k.pool("gpunp", count=1),
        k.pod("a", gpu=1),
        k.pod("crit", gpu=1, priorityClassName="system-node-critical"),
    ]
    assert [e.pod for e in k.run(docs).pending] == ["a"]


def test_not_helpful_and_no_victims(k) -> None:
    docs = [k.system(2), k.pool("gpunp", count=1, taints=["sku=gpu:NoSchedule"]), k.pod("p", gpu=1)]
    msg = k.run(docs, kubernetes_version="1.33").pending[0].message
    assert msg.endswith(
        "preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, "
        "2 No preemption victims found for incoming pod."
    )
    # from 1.34 nodes without any GPU can never hold the pod: not helpful either
    msg = k.run(docs, kubernetes_version="1.34.7").pending[0].message
    assert msg.endswith(
        "no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for "
        "scheduling."
    )


def test_victims_that_would_not_make_room_give_the_filter_reason(k) -> None:
    docs = [
        k.pool("sys", "Standard_D2s_v5", 1),
        k.daemonset("agent", cpu="200m"),
        k.priority_class("high", 1000),
        k.pod("big", cpu="3", priorityClassName="high"),
    ]
    (e,) = k.run(docs, kubernetes_version="1.33").pending
    assert e.message == (
        "0/1 nodes are available: 1 Insufficient cpu. "
        "preemption: 0/1 nodes are available: 1 Insufficient cpu."
    )
    (e,) = k.run(docs, kubernetes_version="1.35").pending  # 3 CPUs never fit a 2-vCPU node
    assert e.message == (
        "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, "
        "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
    )


def test_preemption_evicts_a_lower_priority_daemonset_pod(k) -> None:
    docs = [
        k.pool("sys", "Standard_D2s_v5", 1),
        k.daemonset("agent", cpu="1"),
        k.priority_class("high", 1000),
        k.pod("important", cpu="1500m", priorityClassName="high"),
    ]
    r = k.run(docs)
    assert r.placed == 1 and r.daemonset_pods == 0
    (e,) = r.pending
    assert e.workload == "DaemonSet default/agent"
    assert e.message == (
        "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, "
        "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
    )


def test_preemption_keeps_victims_it_can_reprieve(k) -> None:
    docs = [
        k.pool("sys", "Standard_D2s_v5", 1),
        k.daemonset("a", cpu="400m"),
        k.daemonset("b", cpu="400m"),
        k.priority_class("high", 1000),
        k.pod("important", cpu="1400m", priorityClassName="high"),
    ]
    r = k.run(docs)
    # 1900m allocatable: both agents (800m) leave 1100m; evicting one of them is enough
    assert r.placed == 1 and r.daemonset_pods == 1
    assert [e.workload for e in r.pending] == ["DaemonSet default/b"]
