"""DaemonSets: one pod per eligible node, counted as overhead, taking capacity; pending DaemonSet pods."""

from __future__ import annotations


def test_one_pod_per_eligible_node_counted_as_overhead(k) -> None:
    docs = [
        k.system(2),
        k.pool("gpunp", count=3, taints=["sku=gpu:NoSchedule"]),
        k.daemonset("node-exporter", cpu="100m"),
        k.daemonset(
            "nvidia-device-plugin",
            cpu="50m",
            tolerations=k.tolerate,
            nodeSelector={"kubernetes.azure.com/accelerator": "nvidia"},
        ),
    ]
    r = k.run(docs)
    assert (r.placed, r.daemonset_pods, r.pending) == (0, 2 + 3, [])
    assert {p.name: p.daemonset_pods for p in r.pools} == {"system": 2, "gpunp": 3}
    assert r.exit_code == 0
    d = r.to_dict()
    assert d["daemonSetPods"] == 5 and d["placed"] == 0
    assert d["pools"][1]["resources"]["cpu"]["used"] == 0.15


def test_daemonset_overhead_takes_capacity_from_workloads(k) -> None:
    docs = [k.pool("gpunp", count=1), k.pod("p", gpu=1, cpu="3800m")]
    assert not k.run(docs).pending  # 3860m allocatable
    r = k.run([*docs, k.daemonset("agent", cpu="100m")])
    assert r.pending[0].message.startswith("0/1 nodes are available: 1 Insufficient cpu.")


def test_daemonset_pods_tolerate_cordoned_nodes(k) -> None:
    r = k.run([k.system(2), k.daemonset("agent", cpu="10m")], cordon=("system",))
    assert r.daemonset_pods == 2


def test_pending_daemonset_pod_message(k) -> None:
    docs = [k.pool("sys", "Standard_D2s_v5", 3), k.daemonset("a", cpu="1500m"), k.daemonset("b", cpu="500m")]
    r = k.run(docs)
    (e,) = r.pending
    assert (e.workload, e.count) == ("DaemonSet default/b", 3)
    assert e.message == (
        "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) "
        "[NodeAffinity]. no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption "
        "victims found for incoming pod, 2 Preemption is not helpful for scheduling."
    )
    assert e.autoscaler is None


def test_daemonset_lands_on_nodes_the_autoscaler_adds_and_in_its_template(k) -> None:
    docs = [
        k.system(1),
        k.pool("gpunp", count=0, taints=["sku=gpu:NoSchedule"], autoscaler={"minCount": 0, "maxCount": 4}),
        k.daemonset("plugin", cpu="1", tolerations=k.tolerate),
        k.deployment("jobs", 4, gpu=1, cpu="2", tolerations=k.tolerate),
    ]
    r = k.run(docs)
    gpunp = r.pools[1]
    assert (gpunp.nodes, gpunp.daemonset_pods, r.placed) == (4, 4, 4)


def test_daemonset_overhead_in_template_changes_the_estimate(k) -> None:
    # T4 template: 4 CPU (allocatable = capacity). 3 CPU pods fit one per node; with a 1.5 CPU DaemonSet the
    # template has 2.5 CPU left, so the autoscaler sees the pods can't fit and does not scale up.
    docs = [
        k.system(1),
        k.pool("gpunp", count=0, autoscaler={"minCount": 0, "maxCount": 4}),
        k.daemonset("heavy", cpu="1500m"),
        k.deployment("jobs", 2, cpu="3"),
    ]
    r = k.run(docs)
    assert r.pools[1].nodes == 0
    assert r.pending[0].autoscaler == "pod didn't trigger scale-up: 1 Insufficient cpu"


def test_daemonset_with_missing_priority_class(k) -> None:
    r = k.run([k.system(2), k.daemonset("agent", cpu="10m", priorityClassName="nope")])
    (e,) = r.pending
    assert e.count == 2 and "no PriorityClass with name nope" in e.message
