"""The cluster autoscaler as on AKS: scale-up, its event texts, maxCount, and its blind spot at zero nodes."""

from __future__ import annotations

import re

import pytest

from gpupool.simulate import Options, load_inputs
from gpupool.simulate.engine import Simulation

MIG_MIXED = {"instanceProfile": "MIG1g", "migStrategy": "Mixed"}


def gpu_pool(k, count: int = 0, max_count: int = 3, **kw):  # type: ignore[no-untyped-def]
    vm = kw.pop("vm", "Standard_NC4as_T4_v3")
    return k.pool(
        "gpunp",
        vm,
        count,
        taints=["sku=gpu:NoSchedule"],
        autoscaler={"minCount": min(count, max_count), "maxCount": max_count},
        **kw,
    )


def test_scale_up_capped_at_max_count(k) -> None:
    docs = [k.system(2), gpu_pool(k, 0, 3), k.deployment("train", 5, gpu=1, cpu="1", tolerations=k.tolerate)]
    r = k.run(docs)
    gpunp = r.pools[1]
    assert (gpunp.nodes, gpunp.added, r.placed) == (3, 3, 3)
    (up,) = gpunp.scale_ups
    assert re.fullmatch(r"pod triggered scale-up: \[\{aks-gpunp-\d{8}-vmss 0->3 \(max: 3\)\}\]", up.event)
    assert (up.pods, up.template) == (3, "aks-template")
    (e,) = r.pending
    assert (e.workload, e.count, e.pod) == ("Deployment default/train", 2, "train-3")
    assert e.autoscaler == "pod didn't trigger scale-up: 1 max node group size reached"
    assert e.message == (
        "0/5 nodes are available: 5 Insufficient nvidia.com/gpu. no new claims to deallocate, "
        "preemption: 0/5 nodes are available: 2 Preemption is not helpful for scheduling, "
        "3 No preemption victims found for incoming pod."
    )
    assert r.to_dict()["pools"][1]["nodesAdded"] == 3


def test_mig_mixed_at_zero_is_the_blind_spot(k) -> None:
    docs = [
        k.system(2),
        gpu_pool(k, 0, 2, vm="Standard_ND96asr_v4", gpu=MIG_MIXED),
        k.deployment(
            "infer", 10, gpu=1, resource="nvidia.com/mig-1g.5gb", cpu="500m", tolerations=k.tolerate
        ),
    ]
    r = k.run(docs)
    assert r.pools[1].nodes == 0 and r.placed == 0
    (e,) = r.pending
    assert e.autoscaler == "pod didn't trigger scale-up: 1 Insufficient nvidia.com/mig-1g.5gb"
    assert e.message.startswith("0/2 nodes are available: 2 Insufficient nvidia.com/mig-1g.5gb.")
    (f,) = [f for f in r.findings if f.rule == "GP501"]
    assert f.severity.value == "error" and f.object == "Deployment default/infer"
    assert "nvidia.com/gpu: 8" in f.message and "nvidia.com/mig-1g.5gb: 56" in f.message
    assert "migStrategy Single" in (f.fix or "")
    exact = k.run(docs, autoscaler="exact")
    assert exact.pools[1].nodes == 1 and not exact.pending
    assert exact.pools[1].scale_ups[0].template == "node"


def test_a_real_node_is_the_template_once_the_pool_has_one(k) -> None:
    docs = [
        k.system(1),
        gpu_pool(k, 1, 3, vm="Standard_ND96asr_v4", gpu={"instanceProfile": "MIG1g"}),
        k.deployment("infer", 100, gpu=1, cpu="100m", tolerations=k.tolerate),
    ]
    r = k.run(docs)
    assert (r.pools[1].nodes, r.placed, r.pending) == (2, 100, [])
    assert r.pools[1].scale_ups[0].template == "node"
    assert not [f for f in r.findings if f.rule == "GP501"]


def test_mig_mixed_nodes_are_unready_to_the_autoscaler(k) -> None:
    """kubernetes/autoscaler#8095: the GPU label without nvidia.com/gpu is ResourceUnready; no real node
    becomes the template, so MIG pods never trigger a scale-up even when the pool has nodes."""
    docs = [
        k.system(1),
        gpu_pool(k, 1, 3, vm="Standard_ND96asr_v4", gpu=MIG_MIXED),
        k.deployment(
            "infer", 100, gpu=1, resource="nvidia.com/mig-1g.5gb", cpu="100m", tolerations=k.tolerate
        ),
    ]
    r = k.run(docs)
    assert (r.pools[1].nodes, r.placed, r.pending_pods) == (1, 56, 44)
    (e,) = r.pending
    assert e.autoscaler == "pod didn't trigger scale-up: 1 Insufficient nvidia.com/mig-1g.5gb"
    assert "counts them as unready" in (e.why or "") and "(nvidia.com/gpu: 8)" in (e.why or "")
    assert [f.rule for f in r.findings if f.rule == "GP506"] == ["GP506"]
    exact = k.run(docs, autoscaler="exact")
    assert (exact.pools[1].nodes, exact.placed) == (2, 100)


def test_renamed_time_slicing_at_zero(k) -> None:
    ts = {"sharing": {"timeSlicing": {"replicas": 4, "renameByDefault": True}}}
    docs = [
        gpu_pool(k, 0, 2, gpu=ts),
        k.deployment("infer", 2, gpu=1, resource="nvidia.com/gpu.shared", tolerations=k.tolerate),
    ]
    r = k.run(docs)
    assert r.pending[0].autoscaler == "pod didn't trigger scale-up: 1 Insufficient nvidia.com/gpu.shared"
    (f,) = [f for f in r.findings if f.rule == "GP501"]
    assert "renameByDefault: false" in (f.fix or "")


def test_mig_single_at_zero_over_provisions(k) -> None:
    docs = [
        gpu_pool(k, 0, 4, vm="Standard_ND96asr_v4", gpu={"instanceProfile": "MIG1g"}),
        k.deployment("infer", 40, gpu=1, cpu="500m", memory="2Gi", tolerations=k.tolerate),
    ]
    r = k.run(docs)
    assert (r.pools[0].added, r.placed) == (4, 40)
    assert k.run(docs, autoscaler="exact").pools[0].added == 1
    (f,) = [f for f in r.findings if f.rule == "GP502"]
    assert "adds 4 nodes to pool gpunp, where 1 would do" in f.message
    assert "nvidia.com/gpu: 8 where a node offers nvidia.com/gpu: 56" in f.message
    assert f.extra["nodesAddedAks"] == 4 and f.extra["nodesAddedExact"] == 1


def test_kube_proxy_on_the_zero_node_template(k) -> None:
    """CA's template at zero carries a kube-proxy pod (100m CPU): 4 CPUs never fit a 4-vCPU template."""
    docs = [gpu_pool(k, 0, 3), k.pod("p", gpu=1, cpu="4", tolerations=k.tolerate)]
    r = k.run(docs)
    assert r.pools[0].added == 0
    (e,) = r.pending
    assert e.autoscaler == "pod didn't trigger scale-up: 1 Insufficient cpu"
    assert e.why is not None and "kube-proxy pod the autoscaler puts on it (100m CPU)" in e.why
    (f,) = [f for f in r.findings if f.rule == "GP505"]
    assert "kube-proxy" in f.message and "100m" in f.message
    # without the kube-proxy pod the template (allocatable = capacity, 4000m) would have taken it
    docs[1] = k.pod("p", gpu=1, cpu="3900m", tolerations=k.tolerate)
    assert k.run(docs).pools[0].added == 1
    assert not [f for f in k.run(docs).findings if f.rule == "GP505"]


def test_allocatable_equals_capacity_adds_a_useless_node(k) -> None:
    docs = [gpu_pool(k, 0, 3), k.pod("p", gpu=1, cpu="3900m", tolerations=k.tolerate)]  # 3860m allocatable
    r = k.run(docs)
    assert r.pools[0].added == 1
    (e,) = r.pending
    # its latest event is the next loop's NotTriggerScaleUp (the template is the real node now); the story
    # says it triggered the scale-up and why the new node still doesn't take it
    assert e.autoscaler == "pod didn't trigger scale-up: 1 Insufficient cpu"
    assert e.why is not None and e.why.startswith("it triggered the scale-up of pool gpunp (0->1)")
    assert "a real node of the pool rejects it (Insufficient cpu)" in e.why
    (f,) = [f for f in r.findings if f.rule == "GP502"]
    assert "adds 1 node to pool gpunp that the Pending pods can't use, where 0 would do" in f.message
    assert "allocatable = capacity" in f.message


def test_accelerator_label_missing_from_h100_template(k) -> None:
    sel = {"kubernetes.azure.com/accelerator": "nvidia"}
    for vm, scales in (("Standard_NC40ads_H100_v5", False), ("Standard_NC24ads_A100_v4", True)):
        docs = [gpu_pool(k, 0, 2, vm=vm), k.pod("p", gpu=1, tolerations=k.tolerate, nodeSelector=sel)]
        r = k.run(docs)
        assert (r.pools[0].added == 1) is scales, vm
        if not scales:
            assert (
                r.pending[0].autoscaler
                == "pod didn't trigger scale-up: 1 node(s) didn't match Pod's node affinity/selector"
            )
            assert [f.rule for f in r.findings if f.rule == "GP501"] == ["GP501"]


def test_pod_larger_than_any_node_gets_both_messages(k) -> None:
    docs = [k.system(2), gpu_pool(k, 1, 3), k.pod("huge", gpu=16, tolerations=k.tolerate)]
    r = k.run(docs)
    (e,) = r.pending
    assert e.message.startswith("0/3 nodes are available: 3 Insufficient nvidia.com/gpu.")
    assert e.autoscaler == "pod didn't trigger scale-up: 1 Insufficient nvidia.com/gpu"
    assert r.pools[1].added == 0


def test_reasons_counted_once_per_node_group(k) -> None:
    docs = [
        k.pool("full", "Standard_NC4as_T4_v3", 1, autoscaler={"minCount": 1, "maxCount": 1}),
        k.pool(
            "tainted",
            "Standard_NC4as_T4_v3",
            0,
            taints=["team=x:NoSchedule"],
            autoscaler={"minCount": 0, "maxCount": 5},
        ),
        k.pool(
            "other",
            "Standard_NC4as_T4_v3",
            0,
            taints=["team=y:NoSchedule"],
            autoscaler={"minCount": 0, "maxCount": 5},
        ),
        k.deployment("d", 2, gpu=1),
    ]
    r = k.run(docs)
    (e,) = r.pending
    assert e.autoscaler == (
        "pod didn't trigger scale-up: 1 max node group size reached, 2 node(s) had untolerated taint(s)"
    )


def test_no_autoscaled_pool_means_no_autoscaler_message(k) -> None:
    r = k.run([k.pool("gpunp", count=1), k.pod("p", gpu=2)])
    assert r.pending[0].autoscaler is None


def test_autoscaler_none_keeps_node_counts(k) -> None:
    docs = [gpu_pool(k, 0, 3), k.deployment("d", 2, gpu=1, tolerations=k.tolerate)]
    r = k.run(docs, autoscaler="none")
    assert r.pools[0].nodes == 0 and r.pending[0].count == 2 and r.pending[0].autoscaler is None
    assert not [f for f in r.findings if f.rule in ("GP501", "GP502")]


def test_expanders(k) -> None:
    docs = [
        k.pool("t4", "Standard_NC4as_T4_v3", 0, autoscaler={"minCount": 0, "maxCount": 10}),
        k.pool("t4x4", "Standard_NC64as_T4_v3", 0, autoscaler={"minCount": 0, "maxCount": 10}),
        k.deployment("d", 4, gpu=1, cpu="1"),
    ]
    first = k.run(docs)  # random: modelled as the first pool that can help
    assert [p.added for p in first.pools] == [4, 0]
    waste = k.run(docs, expander="least-waste")  # 1 x 64 vCPU wastes more than 4 x 4 vCPU: t4 again
    assert [p.added for p in waste.pools] == [4, 0]
    docs[2]["spec"]["template"]["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "15"
    waste = k.run(docs, expander="least-waste")
    assert [p.added for p in waste.pools] == [0, 1]
    most = k.run(docs, expander="most-pods")
    assert sum(p.added for p in most.pools) >= 1 and not most.pending


def test_first_fit_decreasing_estimate(k) -> None:
    docs = [
        k.pool("d", "Standard_D4s_v5", 0, autoscaler={"minCount": 0, "maxCount": 10}),
        k.deployment("small", 4, cpu="1"),
        k.deployment("big", 2, cpu="3"),
    ]
    sim = Simulation(load_inputs([k.write(docs)]), Options())
    run = sim.run("none")
    t = sim.template_of(run, 0, "aks-template-bare")  # without CA's kube-proxy pod
    groups = [(w.shape, [p for p in run.pending if p.workload == w.index]) for w in sim.workloads]
    # with it (100m): 3.9 CPUs per node, so no small pod fits beside a big one: 2 + 2 nodes
    assert sim.template_of(run, 0, "aks-template").estimate(groups, 10)[0] == 4
    count, helped = t.estimate(groups, 10)
    # template: 4 CPU. Decreasing: big (3) first -> 2 nodes with 1 CPU left each; small (1) fill those, then
    # a third node takes the remaining two.
    assert count == 3 and len(helped) == 6
    assert [p.name for p in helped[:2]] == ["big-0", "big-1"]
    count, helped = t.estimate(groups, 2)
    assert count == 2 and len(helped) == 4


def test_gpu_pods_trigger_useless_scale_ups_of_mig_mixed_pools(k) -> None:
    """The template from the VM size promises 8 nvidia.com/gpu; the MIG-mixed nodes have none. The pool's
    starting node is old: plain unready to CA (not upcoming), so CA scales the pool up from the VM size, and
    again once the new nodes are past their start-up time, up to its maximum (as CA 1.31.5 answers)."""
    docs = [
        k.system(1),
        gpu_pool(k, 1, 3, vm="Standard_ND96asr_v4", gpu=MIG_MIXED),
        k.deployment("train", 12, gpu=1, cpu="1", tolerations=k.tolerate),
    ]
    r = k.run(docs)
    assert (r.pools[1].added, r.placed, r.pending_pods) == (2, 0, 12)
    assert all("max node group size reached" in (e.autoscaler or "") for e in r.pending)
    triggered = [e for e in r.pending if (e.why or "").startswith("it triggered the scale-up of pool gpunp")]
    assert sum(e.count for e in triggered) == 12
    assert all(
        "a real node of the pool rejects it (Insufficient nvidia.com/gpu)" in (e.why or "") for e in triggered
    )
    assert all("(GP506)" in (e.why or "") for e in triggered)
    (f,) = [f for f in r.findings if f.rule == "GP506"]
    assert f.severity.value == "error" and f.extra["pendingPods"] == 12


def test_enough_unready_gpu_nodes_make_the_cluster_unhealthy(k) -> None:
    docs = [
        k.system(2),
        gpu_pool(k, 4, 6, vm="Standard_ND96asr_v4", gpu=MIG_MIXED),  # 4 unready of 6: > 3 and > 45 %
        k.pool("cpu", "Standard_D4s_v5", 0, autoscaler={"minCount": 0, "maxCount": 3}),
        k.deployment("web", 4, cpu="3"),
    ]
    r = k.run(docs)
    assert sum(p.added for p in r.pools) == 0 and r.pending_pods == 2
    (e,) = r.pending
    assert e.autoscaler is None
    assert "calls the cluster unhealthy" in (e.why or "") and "4 of 6 nodes" in (e.why or "")
    unhealthy = [f for f in r.findings if f.rule == "GP506" and "unhealthy" in f.message]
    assert [f.severity.value for f in unhealthy] == ["error"]
    # 3 unready nodes are within ok-total-unready-count: the CPU pool scales up
    docs[1] = gpu_pool(k, 3, 6, vm="Standard_ND96asr_v4", gpu=MIG_MIXED)
    assert k.run(docs).pools[2].added == 2
    # the exact model (CA knows the real nodes) has no such limit
    docs[1] = gpu_pool(k, 4, 6, vm="Standard_ND96asr_v4", gpu=MIG_MIXED)
    assert k.run(docs, autoscaler="exact").pools[2].added == 2


def test_unready_gpu_nodes_in_a_pool_without_autoscaler_abort_every_scale_up(k) -> None:
    """From CA 1.35 the quota tracker fails on such a node (kubernetes/autoscaler#10301); CA 1.31-1.34 only
    count it for the cluster's health (CA 1.31.5's recorded answers agree)."""
    mig = k.pool("mig", "Standard_ND96asr_v4", 1, taints=["sku=gpu:NoSchedule"], gpu=MIG_MIXED)
    cpu = k.pool("cpu", "Standard_D4s_v5", 0, autoscaler={"minCount": 0, "maxCount": 3})
    docs = [mig, cpu, k.pod("web", cpu="1")]
    for version in ("1.35", "1.36"):
        r = k.run(docs, kubernetes_version=version)
        assert r.pools[1].added == 0
        why = r.pending[0].why or ""
        assert "is not autoscaled" in why and "could not create quotas tracker: failed to get custom" in why
        assert [f for f in r.findings if f.rule == "GP506" and f.severity.value == "error"]
    for version in ("1.31", "1.34"):
        r = k.run(docs, kubernetes_version=version)
        assert r.pools[1].added == 1 and not r.pending


def test_size_missing_from_the_static_table_stops_every_scale_up(k) -> None:
    docs = [
        gpu_pool(k, 0, 2, vm="Standard_ND128isr_NDR_GB200_v6"),
        k.pool("cpu", "Standard_D4s_v5", 0, autoscaler={"minCount": 0, "maxCount": 3}),
        k.pod("web", cpu="1"),
    ]
    r = k.run(docs, kubernetes_version="1.31")
    assert sum(p.added for p in r.pools) == 0
    (e,) = r.pending
    # the text CA 1.31.5 prints, colon included
    assert re.search(
        r"could not compute total resources: No node info for: aks-gpunp-\d{8}-vmss", e.why or ""
    )
    (f,) = [f for f in r.findings if f.rule == "GP507"]
    assert f.severity.value == "error" and "every scale-up in the cluster fails" in f.message
    # CA 1.35+ builds its limits from the existing nodes: only the pool without a template is skipped
    r = k.run(docs, kubernetes_version="1.35")
    assert [p.added for p in r.pools] == [0, 1] and not r.pending
    (f,) = [f for f in r.findings if f.rule == "GP507"]
    assert f.severity.value == "error" and '("not ready for scale-up")' in f.message
    docs[2] = k.pod("big", gpu=1, tolerations=k.tolerate)
    (e,) = k.run(docs, kubernetes_version="1.35").pending
    assert (
        e.autoscaler == "pod didn't trigger scale-up: 1 Insufficient nvidia.com/gpu, 1 not ready for scale-up"
    )
    docs[0] = gpu_pool(k, 1, 2, vm="Standard_ND128isr_NDR_GB200_v6")  # a real node is the template
    docs[2] = k.pod("web", cpu="1")
    r = k.run(docs, kubernetes_version="1.31")
    assert r.pools[1].added == 1 and not [f for f in r.findings if f.rule == "GP507"]


@pytest.mark.parametrize(
    "vm",
    ["Standard_NC144lds_xl_RTXPRO6000BSE_v6", "Standard_NC24lds_xl_RTXPRO6000BSE_v6",
     "Standard_ND128isrG5_GB300_v6"],
)
def test_rtx_pro_6000_and_gb300_g5_are_missing_from_the_static_table(k, vm: str) -> None:
    """The autoscaler's table (azure_instance_types.go @55c37cd5eb) lacks all 15 RTX PRO 6000 BSE v6 sizes."""
    docs = [gpu_pool(k, 0, 2, vm=vm), k.pod("web", cpu="1")]
    assert [f.rule for f in k.run(docs).findings if f.rule == "GP507"] == ["GP507"]


def test_nd96amsr_template_memory_is_the_static_tables(k) -> None:
    from gpupool.design.nodeshape import aks_template
    from gpupool.spec import parse_pool

    pool = parse_pool(gpu_pool(k, 0, 2, vm="Standard_ND96amsr_A100_v4"), "p.yaml", 1)
    assert aks_template(pool).capacity["memory"] == 1800 * 2**30


def test_gp506_fix_fits_the_pool(k) -> None:
    """Issue 21: GP506's fix named migStrategy for a time-sliced pool. A renamed time-sliced pool gets
    renameByDefault (in the spec's spelling), a MIG-mixed pool the MIG strategy; neither gets the other."""
    ts = {"sharing": {"timeSlicing": {"replicas": 4, "renameByDefault": True}}}
    sliced = k.run([
        k.system(1),
        gpu_pool(k, 1, 3, gpu=ts),
        k.deployment("infer", 8, gpu=1, resource="nvidia.com/gpu.shared", tolerations=k.tolerate),
    ])
    (f,) = [f for f in sliced.findings if f.rule == "GP506"]
    assert "gpu.sharing.timeSlicing.renameByDefault: false" in (f.fix or "")
    assert "migStrategy" not in (f.fix or "") and "=False" not in (f.fix or "")
    mig = k.run([
        k.system(1),
        gpu_pool(k, 1, 3, vm="Standard_ND96asr_v4", gpu=MIG_MIXED),
        k.deployment(
            "infer", 100, gpu=1, resource="nvidia.com/mig-1g.5gb", cpu="100m", tolerations=k.tolerate
        ),
    ])
    (f,) = [f for f in mig.findings if f.rule == "GP506"]
    assert "gpu.migStrategy: Single" in (f.fix or "") and "renameByDefault" not in (f.fix or "")
