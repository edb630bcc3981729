"""Each filter in kube-scheduler's order, and the first failure per node."""

from __future__ import annotations


def placed_on(result, pool: str) -> int:  # type: ignore[no-untyped-def]
    return next(p.pods for p in result.pools if p.name == pool)


def test_node_unschedulable_cordoned_pool(k) -> None:
    docs = [k.system(2), k.pod("web", cpu="100m")]
    r = k.run(docs, cordon=("system",))
    assert r.pending[0].message.startswith("0/2 nodes are available: 2 node(s) were unschedulable. ")
    assert r.pending[0].message.endswith("2 Preemption is not helpful for scheduling.")
    assert r.pools[0].cordoned


def test_node_unschedulable_is_checked_before_taints(k) -> None:
    docs = [k.pool("gpunp", count=1, taints=["sku=gpu:NoSchedule"]), k.pod("p", gpu=1)]
    msg = k.run(docs, cordon=("gpunp",)).pending[0].message
    assert msg.startswith("0/1 nodes are available: 1 node(s) were unschedulable.")


def test_unschedulable_toleration_passes_cordon(k) -> None:
    tol = [{"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}]
    r = k.run([k.system(1), k.pod("p", cpu="100m", tolerations=tol)], cordon=("system",))
    assert not r.pending and r.placed == 1


def test_taint_noschedule_and_noexecute_filter_prefer_does_not(k) -> None:
    for effect, filtered in (("NoSchedule", True), ("NoExecute", True), ("PreferNoSchedule", False)):
        docs = [k.pool("g", "Standard_D4s_v5", 1, taints=[f"team=ml:{effect}"]), k.pod("p", cpu="100m")]
        r = k.run(docs)
        assert bool(r.pending) is filtered, effect


def test_toleration_operators(k) -> None:
    pools = [k.pool("g", count=1, taints=["sku=gpu:NoSchedule"])]
    ok = [
        [{"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}],
        [{"key": "sku", "operator": "Exists"}],
        [{"operator": "Exists"}],
    ]
    bad = [
        [{"key": "sku", "operator": "Equal", "value": "cpu", "effect": "NoSchedule"}],
        [{"key": "sku", "operator": "Exists", "effect": "NoExecute"}],
    ]
    for tols in ok:
        assert not k.run([*pools, k.pod("p", gpu=1, tolerations=tols)]).pending, tols
    for tols in bad:
        assert k.run([*pools, k.pod("p", gpu=1, tolerations=tols)]).pending, tols


def test_spot_pool_carries_the_spot_taint(k) -> None:
    docs = [k.pool("spot", count=1, priority="Spot"), k.pod("p", gpu=1)]
    msg = k.run(docs, kubernetes_version="1.30").pending[0].message
    assert "1 node(s) had untolerated taint {kubernetes.azure.com/scalesetpriority: spot}" in msg


def test_node_selector_and_required_affinity(k) -> None:
    pools = [k.system(2), k.pool("gpunp", count=1, taints=["sku=gpu:NoSchedule"])]
    sel = k.pod("p", gpu=1, tolerations=k.tolerate, nodeSelector={"agentpool": "other"})
    msg = k.run([*pools, sel]).pending[0].message
    # NodeAffinity runs before NodeResourcesFit: the system nodes fail on the selector, not on the GPU
    assert msg.startswith("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.")
    aff = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    {
                        "matchExpressions": [
                            {"key": "kubernetes.azure.com/agentpool", "operator": "In", "values": ["gpunp"]}
                        ]
                    }
                ]
            }
        }
    }
    r = k.run([*pools, k.pod("p", cpu="100m", tolerations=k.tolerate, affinity=aff)])
    assert not r.pending and placed_on(r, "gpunp") == 1
    notin = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    {
                        "matchExpressions": [
                            {"key": "kubernetes.azure.com/mode", "operator": "NotIn", "values": ["system"]}
                        ]
                    }
                ]
            }
        }
    }
    r = k.run([*pools, k.pod("p", cpu="100m", affinity=notin)])
    assert r.pending[0].message.startswith(
        "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match Pod's node "
        "affinity/selector."
    )


def test_first_failure_per_node_taint_hides_resources(k) -> None:
    """The tainted GPU node reports only the taint, not also Insufficient cpu."""
    docs = [k.pool("gpunp", count=1, taints=["sku=gpu:NoSchedule"]), k.pod("p", gpu=1, cpu="64")]
    msg = k.run(docs).pending[0].message
    assert msg.startswith("0/1 nodes are available: 1 node(s) had untolerated taint(s). ")


def test_hostname_selector_is_evaluated_per_node(k) -> None:
    first = k.run([k.system(3), k.pod("x", cpu="10m")])
    docs = [
        k.system(3),
        k.pod("p", cpu="10m", nodeSelector={"kubernetes.io/hostname": "aks-system-nope-vmss000001"}),
    ]
    msg = k.run(docs).pending[0].message
    assert msg.startswith("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.")
    assert first.placed == 1
    from gpupool.design.nodeshape import node_name
    from gpupool.spec import parse_pool

    name = node_name(parse_pool(k.system(3), "x.yaml"), 2)
    r = k.run([k.system(3), k.pod("p", cpu="10m", nodeSelector={"kubernetes.io/hostname": name})])
    assert not r.pending


def test_too_many_pods_uses_max_pods(k) -> None:
    docs = [k.pool("tiny", "Standard_D4s_v5", 1, maxPods=3), k.deployment("web", 4, cpu="10m")]
    r = k.run(docs)
    assert r.placed == 3
    assert r.pending[0].message.startswith("0/1 nodes are available: 1 Too many pods. ")


def test_default_max_pods_is_overridable(k) -> None:
    docs = [k.pool("tiny", "Standard_D16s_v5", 1), k.deployment("web", 300, cpu="1m")]
    assert k.run(docs).placed == 250  # Azure CNI Overlay, AKS's default network
    assert k.run(docs, default_max_pods=110).placed == 110  # kubenet / CNI pod subnet


def test_insufficient_cpu_memory_and_extended(k) -> None:
    base = [k.pool("gpunp", count=1)]  # 4 vCPU (3860m allocatable), 28 GiB, 1 x T4
    assert k.run([*base, k.pod("p", cpu="3860m")]).placed == 1
    assert (
        k.run([*base, k.pod("p", cpu="3861m")])
        .pending[0]
        .message.startswith("0/1 nodes are available: 1 Insufficient cpu.")
    )
    assert (
        k.run([*base, k.pod("p", memory="27Gi")])
        .pending[0]
        .message.startswith("0/1 nodes are available: 1 Insufficient memory.")
    )
    assert (
        k.run([*base, k.pod("p", gpu=2)])
        .pending[0]
        .message.startswith("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.")
    )
    assert (
        k.run([*base, k.pod("p", gpu=1, resource="amd.com/gpu")])
        .pending[0]
        .message.startswith("0/1 nodes are available: 1 Insufficient amd.com/gpu.")
    )


def test_requests_include_init_containers_and_overhead(k) -> None:
    spec_extra = {
        "initContainers": [{"name": "init", "image": "x", "resources": {"requests": {"cpu": "3900m"}}}]
    }
    r = k.run([k.pool("gpunp", count=1), k.pod("p", cpu="100m", **spec_extra)])
    assert r.pending[0].message.startswith("0/1 nodes are available: 1 Insufficient cpu.")
    r = k.run([k.pool("gpunp", count=1), k.pod("p", cpu="3800m", overhead={"cpu": "100m"})])
    assert r.pending and "Insufficient cpu" in r.pending[0].message


def test_pods_that_never_reach_the_scheduler(k) -> None:
    pools = [k.system(1)]
    gated = k.pod("gated", cpu="10m", schedulingGates=[{"name": "wait"}])
    other = k.pod("other", cpu="10m", schedulerName="volcano")
    pinned = k.pod("pinned", cpu="10m", nodeName="aks-elsewhere-0")
    missing = k.pod("missing", cpu="10m", priorityClassName="nope")
    r = k.run([*pools, gated, other, pinned, missing])
    msgs = {e.pod: e.message for e in r.pending}
    assert msgs["gated"].startswith("SchedulingGated")
    assert msgs["other"].startswith("spec.schedulerName is volcano")
    assert msgs["pinned"].startswith("spec.nodeName is aks-elsewhere-0")
    assert msgs["missing"].startswith(
        'pods "missing" is forbidden: no PriorityClass with name nope was found'
    )
    assert all(e.autoscaler is None for e in r.pending)
