"""Scoring like the default profile (cpu and memory only), GPU fragmentation, and the grouped fast path
giving exactly the node-by-node answer."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpupool.simulate import Options, load_inputs
from gpupool.simulate.cluster import Cluster
from gpupool.simulate.engine import Simulation
from gpupool.simulate.pods import Pod


def gpus_per_node(result) -> list[int]:  # type: ignore[no-untyped-def]
    cluster = result.simulation.run("none").cluster
    idx = cluster.registry.index["nvidia.com/gpu"]
    return sorted((cluster.node_state[n].vec[idx] for n in range(cluster.num_nodes)), reverse=True)


def test_one_gpu_pods_spread_and_fragment_eight_gpu_nodes(k) -> None:
    docs = [
        k.pool("a100", "Standard_ND96asr_v4", 2),
        k.deployment("small", 8, gpu=1, cpu="1", memory="8Gi"),
        k.pod("whole-node", gpu=8, cpu="8", memory="64Gi"),
    ]
    r = k.run(docs)
    assert r.placed == 8
    assert gpus_per_node(r) == [4, 4]  # LeastAllocated on cpu/memory spreads them; GPUs are not scored
    (e,) = r.pending
    assert (e.workload, e.count) == ("Pod default/whole-node", 1)
    assert e.message == (
        "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. no new claims to deallocate, "
        "preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod."
    )
    (f,) = [f for f in r.findings if f.rule == "GP503"]
    assert "has 8 nvidia.com/gpu free, spread over 2 nodes with at most 4 each" in f.message
    assert f.object == "Pod default/whole-node"


def test_higher_priority_large_pod_schedules_first_and_gets_a_node(k) -> None:
    docs = [
        k.pool("a100", "Standard_ND96asr_v4", 2),
        k.priority_class("training", 1000),
        k.deployment("small", 8, gpu=1, cpu="1", memory="8Gi"),
        k.pod("whole-node", gpu=8, cpu="8", memory="64Gi", priorityClassName="training"),
    ]
    r = k.run(docs)
    assert not r.pending and r.placed == 9
    assert not [f for f in r.findings if f.rule == "GP503"]


def test_identical_nodes_take_one_pod_each(k) -> None:
    r = k.run([k.pool("gpunp", count=3), k.deployment("d", 3, gpu=1, cpu="1")])
    assert gpus_per_node(r) == [1, 1, 1]


def test_least_allocated_and_balanced_scores_by_hand(k) -> None:
    sim = Simulation(
        load_inputs([k.write([k.pool("gpunp", count=1), k.pod("p", cpu="1", memory="4Gi")])]), Options()
    )
    cluster = sim.run("none").cluster  # the pod is bound: score a second identical pod on that node
    pool = cluster.pools[0]
    shape = sim.workloads[0].shape
    state = cluster.node_state[0]
    cpu_cap, mem_cap = pool.alloc[1], pool.alloc[2]
    assert cpu_cap == 3860  # 4 vCPU - 140m kube-reserved
    req_cpu, req_mem = 2000, 8 * 2**30
    least = ((cpu_cap - req_cpu) * 100 // cpu_cap + (mem_cap - req_mem) * 100 // mem_cap) // 2
    std = abs(req_cpu / cpu_cap - req_mem / mem_cap) / 2
    assert cluster._base_score(pool.alloc, state, shape) == least + int((1 - std) * 100)


def test_best_effort_pods_use_non_zero_requests_for_least_allocated(k) -> None:
    sim = Simulation(load_inputs([k.write([k.pool("gpunp", count=1), k.pod("p")])]), Options())
    cluster = sim.run("none").cluster
    shape = sim.workloads[0].shape
    assert (shape.cpu, shape.mem, shape.nz_cpu, shape.nz_mem) == (0, 0, 100, 200 * 2**20)
    pool = cluster.pools[0]
    state = cluster.node_state[0]
    least = (
        (pool.alloc[1] - 200) * 100 // pool.alloc[1] + (pool.alloc[2] - 400 * 2**20) * 100 // pool.alloc[2]
    ) // 2
    assert cluster._base_score(pool.alloc, state, shape) == least  # BalancedAllocation skips best-effort pods


def test_prefer_no_schedule_steers_away(k) -> None:
    docs = [
        k.pool("soft", "Standard_D4s_v5", 1, taints=["dedicated=batch:PreferNoSchedule"]),
        k.pool("plain", "Standard_D4s_v5", 1),
        k.pod("p", cpu="100m"),
    ]
    r = k.run(docs)
    assert [p.pods for p in r.pools] == [0, 1]


def test_preferred_node_affinity_steers_toward(k) -> None:
    aff = {
        "nodeAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {
                    "weight": 50,
                    "preference": {
                        "matchExpressions": [{"key": "tier", "operator": "In", "values": ["gold"]}]
                    },
                }
            ]
        }
    }
    docs = [
        k.pool("a", "Standard_D4s_v5", 1),
        k.pool("b", "Standard_D4s_v5", 1, labels={"tier": "gold"}),
        k.pod("p", cpu="100m", affinity=aff),
    ]
    assert [p.pods for p in k.run(docs).pools] == [0, 1]


POOLS = st.lists(
    st.tuples(
        st.sampled_from(["Standard_D2s_v5", "Standard_NC4as_T4_v3", "Standard_NC64as_T4_v3"]),
        st.integers(1, 4),
        st.booleans(),
        st.booleans(),
    ),
    min_size=1,
    max_size=3,
)
PODS = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.sampled_from([None, "100m", "1", "2500m"]),
        st.sampled_from([None, "1Gi", "12Gi"]),
        st.booleans(),
        st.integers(0, 2),
        st.booleans(),
    ),
    min_size=1,
    max_size=40,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pools=POOLS, pods=PODS)
def test_grouped_fast_path_equals_node_by_node(k, pools, pods) -> None:
    docs = []
    for i, (size, count, tainted, prefer) in enumerate(pools):
        taints = (["sku=gpu:NoSchedule"] if tainted else []) + (["soft=x:PreferNoSchedule"] if prefer else [])
        docs.append(k.pool(f"p{i}", size, count, taints=taints, maxPods=6))
    for j, (gpu, cpu, mem, tol, prio, sel) in enumerate(pods):
        spec = {"gpu": gpu or None, "cpu": cpu, "memory": mem, "tolerations": k.tolerate if tol else None}
        if sel:
            spec["nodeSelector"] = {"agentpool": "p0"}
        if prio:
            spec["priorityClassName"] = f"prio{prio}"
        docs.append(k.pod(f"pod{j}", **spec))
    docs += [k.priority_class("prio1", 10), k.priority_class("prio2", 20)]
    sim = Simulation(load_inputs([k.write(docs)]), Options())
    cluster = Cluster(
        sim.registry,
        sim.msgs,
        sim.scoring,
        [(p, s, False) for p, s in zip(sim.pools, sim.shapes_real, strict=True)],
    )
    for i, p in enumerate(sim.pools):
        cluster.add_nodes(i, p.node_count)
    for n, w in enumerate(sim.workloads):
        fast = Pod(w.name, n, w.shape, n)
        slow = Pod(w.name, n, dataclasses.replace(w.shape, varying=True, cache={}), n)
        a, b = cluster.select(fast), cluster._select_nodes(slow.shape, range(cluster.num_nodes))
        assert a == b
        if a is None:
            assert cluster.diagnose(fast).message == cluster.diagnose(slow).message
        else:
            cluster.bind(fast, a)
