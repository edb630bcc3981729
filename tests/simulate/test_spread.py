"""PodTopologySpread's system default constraints in scoring: Deployment (ReplicaSet-owned) pods spread.

The default constraints (hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway) apply to pods owned by a
ReplicaSet or StatefulSet that set none of their own; bare Pods and Jobs are scored without them.
"""

from __future__ import annotations

import math
from collections import Counter


def _docs(k, kind: str):  # type: ignore[no-untyped-def]
    big = k.pod("big", cpu="500m")
    if kind == "Deployment":
        web = k.deployment("web", 2, cpu="100m")
    else:
        web = k.workload("Job", "web", 2, cpu="100m")
    return [k.pool("cpu", "Standard_D4s_v5", 2), big, web]


def test_deployment_replicas_spread_away_from_their_sibling(k) -> None:
    # big (500m) lands on node 0, web-0 on the less allocated node 1. For web-1 LeastAllocated and
    # BalancedAllocation prefer node 1 (100m used) to node 0 (500m); spreading prefers node 0, which has no
    # web pod, and outweighs them (weight 2).
    r = k.run(_docs(k, "Deployment"), autoscaler="none")
    nodes = {p.pod: p.node[-1] for p in r.placements}
    assert nodes["big"] == "0" and nodes["web-0"] == "1"
    assert nodes["web-1"] == "0"  # spreading wins
    job = k.run(_docs(k, "Job"), autoscaler="none")
    nodes = {p.pod: p.node[-1] for p in job.placements}
    assert nodes["web-1"] == "1"  # no default spreading for Job pods: the less allocated node


def test_own_constraints_turn_the_defaults_off(k) -> None:
    docs = _docs(k, "Deployment")
    docs[2]["spec"]["template"]["spec"]["topologySpreadConstraints"] = [
        {
            "maxSkew": 1,
            "topologyKey": "example.com/none",
            "whenUnsatisfiable": "ScheduleAnyway",
            "labelSelector": {"matchLabels": {"app": "web"}},
        }
    ]
    r = k.run(docs, autoscaler="none")
    assert {p.pod: p.node[-1] for p in r.placements}["web-1"] == "1"


def test_score_formula() -> None:
    """count x ln(feasible + 2) + maxSkew - 1 per constraint, rounded half away from zero, normalised as
    100 x (max + min - s) / max (podtopologyspread/scoring.go)."""
    from gpupool.k8s.facts import messages, parse_version, scoring
    from gpupool.simulate.cluster import MAX_SCORE, Cluster
    from gpupool.simulate.pods import Registry

    c = Cluster(Registry(), messages(parse_version("1.35")), scoring(), [])
    labels = [
        {"kubernetes.io/hostname": "a", "topology.kubernetes.io/zone": "0"},
        {"kubernetes.io/hostname": "b", "topology.kubernetes.io/zone": "0"},
    ]
    zone = {("topology.kubernetes.io/zone", "0"): 1}
    raws = c._spread_raw(None, 2, [1, 0], labels, zone)  # type: ignore[arg-type]
    want = [math.floor(n * math.log(4) + 2 + math.log(3) + 4 + 0.5) for n in (1, 0)]
    assert raws == want
    assert raws == [8, 7]
    assert c._spread_normalised(raws) == [MAX_SCORE * 7 // 8, MAX_SCORE]


def test_replicas_spread_over_zones(k) -> None:
    # pool a: 2 nodes in zone 1, pool b: 1 node in zone 2, all alike. web-0 takes a's first node (all tie);
    # web-1 has two empty nodes to choose from, a's second and b's: the zone constraint prefers zone 2.
    docs = [
        k.pool("a", "Standard_D4s_v5", 2, zones=["1"], location="eastus"),
        k.pool("b", "Standard_D4s_v5", 1, zones=["2"], location="eastus"),
        k.deployment("web", 2, cpu="100m"),
    ]
    r = k.run(docs, autoscaler="none")
    assert [(p.pod, p.pool) for p in r.placements] == [("web-0", "a"), ("web-1", "b")]
    docs[2] = k.workload("Job", "web", 2, cpu="100m")  # no default spreading: a tie between a-1 and b-0
    # up to 1.34 the scheduler picks at random (gpupool: the lowest node index); from 1.35 the heap's
    # pre-order over the node-tree order (a-0, b-0, a-1: zones in turn) puts b-0 first
    r = k.run(docs, autoscaler="none", kubernetes_version="1.34")
    assert [(p.pod, p.pool) for p in r.placements] == [("web-0", "a"), ("web-1", "a")]
    r = k.run(docs, autoscaler="none", kubernetes_version="1.35")
    assert [(p.pod, p.pool) for p in r.placements] == [("web-0", "a"), ("web-1", "b")]


def test_bare_pods_with_the_deployments_label_count(k) -> None:
    """The scheduler counts every pod of the namespace that matches the owner's selector: three bare pods
    labelled app: web on node 0, then Deployment web x4 (the real 1.35.4 scheduler places 1 / 3)."""
    pin = {"kubernetes.io/hostname": "aks-p0-87478411-vmss000000"}
    pool = k.pool("p0", "Standard_D8s_v5", 2, location="eastus", mode="System")
    pool["spec"]["resourceGroup"], pool["spec"]["clusterName"] = "rg", "c1"
    docs: list = [pool]
    for i in range(3):
        bare = k.pod(f"b{i}", cpu="100m", memory="128Mi", nodeSelector=pin)
        bare["metadata"]["labels"] = {"app": "web"}
        docs.append(bare)
    docs.append(k.deployment("web", 4, cpu="100m", memory="128Mi"))
    docs[-1]["spec"]["selector"] = {"matchLabels": {"app": "web"}}
    docs[-1]["spec"]["template"]["metadata"] = {"labels": {"app": "web"}}
    r = k.run(docs, autoscaler="none", kubernetes_version="1.35")
    web = Counter(p.node[-1] for p in r.placements if p.pod.startswith("web"))
    assert (web["0"], web["1"]) == (1, 3)
    for bare in docs[1:4]:
        bare["metadata"]["labels"] = {"role": "filler"}  # no longer matched: only the Deployment's own count
    r = k.run(docs, autoscaler="none", kubernetes_version="1.35")
    web = Counter(p.node[-1] for p in r.placements if p.pod.startswith("web"))
    assert (web["0"], web["1"]) == (2, 2)
