"""PodTopologySpread's system default constraints in scoring: Deployment (ReplicaSet-owned) pods spread.

The default constraints (hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway) apply to pods owned by a
ReplicaSet or StatefulSet that set none of their own; bare Pods and Jobs are scored without them.
"""

from __future__ import annotations

import math


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
        {"maxSkew": 1, "topologyKey": "example.com/none", "whenUnsatisfiable": "ScheduleAnyway",
         "labelSelector": {"matchLabels": {"app": "web"}}}
    ]
    r = k.run(docs, autoscaler="none")
    assert {p.pod: p.node[-1] for p in r.placements}["web-1"] == "1"


def test_score_formula() -> None:
    """count x ln(feasible + 2) + maxSkew - 1 per constraint, rounded half away from zero, normalised as
    100 x (max + min - s) / max (podtopologyspread/scoring.go)."""
    from gpupool.simulate.cluster import MAX_SCORE, Cluster
    from gpupool.simulate.facts import messages, parse_version, scoring
    from gpupool.simulate.pods import Registry

    c = Cluster(Registry(), messages(parse_version("1.35")), scoring(), [])
    labels = [{"kubernetes.io/hostname": "a", "topology.kubernetes.io/zone": "0"},
              {"kubernetes.io/hostname": "b", "topology.kubernetes.io/zone": "0"}]
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
    docs[2] = k.workload("Job", "web", 2, cpu="100m")  # no default spreading: the lowest node index
    r = k.run(docs, autoscaler="none")
    assert [(p.pod, p.pool) for p in r.placements] == [("web-0", "a"), ("web-1", "a")]
