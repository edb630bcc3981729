"""simulate with Node Auto Provisioning: Karpenter's provisioning scheduler for the pods left Pending.

Every expected value below was worked out by hand from kubernetes-sigs/karpenter @2266468104f3
(pkg/controllers/provisioning/scheduling: scheduler.go add/addToInflightNode/addToNewNodeClaim, subtractMax,
filterByRemainingResources; nodeclaim.go CanAdd, filterInstanceTypesByRequirements, InstanceTypeFilterError;
queue.go byCPUAndMemoryDescending; pkg/utils/nodepool OrderByWeight) and Azure/karpenter-provider-azure
@352646f59929 (instancetype.go: capacity, KubeReservedResources, EvictionThreshold; allocationstrategy
offering_rank.go: the launch choice), with the catalog's sizes (A100 v4: NC24ads 24 vCPU/220 GiB/1 GPU,
NC48ads 48/440/2, NC96ads 96/880/4; T4 v3: NC4as 4/28/1, NC8as 8/56/1, NC16as 16/110/1, NC64as 64/440/4). The
prices are the labelled test figures, not facts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpupool.errors import InputError
from gpupool.nap.sizes import nap_sizes
from gpupool.simulate import Options, load_inputs, simulate
from gpupool.simulate.cost import parse_table
from gpupool.simulate.nap import allocatable, capacity

PRICES = parse_table(
    {
        "region": "eastus",
        "currency": "USD",
        "asOf": "2025-06-01",
        "source": "test figures (not facts)",
        "prices": {
            "Standard_NC24ads_A100_v4": 3.673,
            "Standard_NC48ads_A100_v4": 7.346,
            "Standard_NC96ads_A100_v4": 14.692,
            "Standard_NC4as_T4_v3": 0.526,
            "Standard_NC8as_T4_v3": 0.752,
            "Standard_NC16as_T4_v3": 1.204,
            "Standard_NC64as_T4_v3": {"perHour": 4.352, "spot": 1.1},
        },
    },
    "test",
)


def nodepool(
    name: str, reqs: str, *, weight: int | None = None, limits: str = "", taint: bool = True, labels: str = ""
) -> str:
    w = f"  weight: {weight}\n" if weight is not None else ""
    lim = f"  limits: {limits}\n" if limits else ""
    t = "      taints: [{key: nvidia.com/gpu, value: 'true', effect: NoSchedule}]\n" if taint else ""
    lab = f"    metadata: {{labels: {labels}}}\n" if labels else ""
    return (
        f"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {{name: {name}}}\nspec:\n{w}{lim}"
        f"  template:\n{lab}    spec:\n"
        "      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}\n"
        f"{t}      requirements: {reqs}\n"
    )


A100_LE4 = (
    "[{key: karpenter.azure.com/sku-gpu-name, operator: In, values: [A100]}, "
    "{key: karpenter.azure.com/sku-gpu-count, operator: Lte, values: ['4']}]"
)
T4 = "[{key: karpenter.azure.com/sku-gpu-name, operator: In, values: [T4]}]"


def deployment(
    name: str, replicas: int, cpu: str, memory: str, gpus: int, *, tolerate: bool = True, selector: str = ""
) -> str:
    tol = (
        "      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]\n"
        if tolerate
        else ""
    )
    sel = f"      nodeSelector: {selector}\n" if selector else ""
    return (
        f"apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: {name}}}\nspec:\n  replicas: {replicas}\n"
        f"  selector: {{matchLabels: {{app: {name}}}}}\n  template:\n"
        f"    metadata: {{labels: {{app: {name}}}}}\n"
        f"    spec:\n{tol}{sel}      containers:\n        - name: c\n          image: example.com/x:1\n"
        f"          resources:\n            requests: {{cpu: '{cpu}', memory: {memory}}}\n"
        f"            limits: {{nvidia.com/gpu: {gpus}}}\n"
    )


def run(tmp_path: Path, *docs: str, prices=PRICES):
    f = tmp_path / "in.yaml"
    f.write_text("---\n".join(docs))
    return simulate(load_inputs([f]), Options(prices=prices))


def size(name: str):
    return next(s for s in nap_sizes() if s.name == name)


def test_allocatable_of_a_nap_node() -> None:
    """Standard_NC24ads_A100_v4, maxPods 250. CPU: 24 cores, kube-reserved 6% + 4% + 2 x 2% + 20 x 1% of a
    core = 340m -> 23660m. Memory: capacity 220Gi less ceil(7.5%) = 203.5Gi = 208384Mi; kube-reserved of 220
    GiB = 4 x .25 + 4 x .20 + 8 x .10 + 112 x .06 + 92 x .02 = 11.16 GiB -> int(11427.84) = 11427Mi; eviction
    750Mi -> 196207Mi. One GPU."""
    s = size("Standard_NC24ads_A100_v4")
    assert capacity(s, 250)["memory"] == 208384 * 2**20
    alloc = allocatable(s, 250)
    assert alloc == {"cpu": 23660, "memory": 196207 * 2**20, "pods": 250, "nvidia.com/gpu": 1}


def test_pods_pack_onto_the_largest_size_then_the_cheapest_launches(tmp_path: Path) -> None:
    """Five 1-GPU pods, A100 sizes with at most 4 GPUs. Pod 1: a new NodeClaim, options {NC24, NC48, NC96}.
    Pods 2-4 join it (the in-flight NodeClaim is tried first), narrowing its options to the sizes holding them
    all: {NC48, NC96} then {NC96}. Pod 5 needs a fifth GPU: a second NodeClaim, options {NC24, NC48, NC96}.
    Launch: the first can only be NC96 (14.692/h); the second the cheapest of three, NC24 (3.673/h)."""
    r = run(tmp_path, nodepool("a100", A100_LE4), deployment("infer", 5, "4", "16Gi", 1))
    assert not r.pending
    groups = r.nap.groups()
    assert [(g["nodes"], g["pods"], g["chosen"], g["fitting"]) for g in groups] == [
        (1, 4, "Standard_NC96ads_A100_v4", ["Standard_NC96ads_A100_v4"]),
        (
            1,
            1,
            "Standard_NC24ads_A100_v4",
            ["Standard_NC24ads_A100_v4", "Standard_NC48ads_A100_v4", "Standard_NC96ads_A100_v4"],
        ),
    ]
    assert r.nap.cost_per_hour == pytest.approx(14.692 + 3.673)
    assert r.cost_per_hour == pytest.approx(14.692 + 3.673)
    assert sum(1 for p in r.placements if p.pool == "NodePool a100") == 5


def test_two_t4_pods_share_the_four_gpu_size_and_spot_wins_at_a_lower_price(tmp_path: Path) -> None:
    """Two 1-GPU pods on T4 sizes: the second joins the first NodeClaim, whose only size with two GPUs is
    NC64as (4 GPUs), so Karpenter plans one NC64as, not two NC4as (consolidation may replace it later). The
    NodePool allows spot (no capacity-type requirement): the test table's spot price 1.1 is below 4.352."""
    r = run(tmp_path, nodepool("t4", T4), deployment("small", 2, "2", "8Gi", 1))
    (g,) = r.nap.groups()
    assert (g["nodes"], g["chosen"], g["capacityType"], g["pricePerNodeHour"]) == (
        1,
        "Standard_NC64as_T4_v3",
        "spot",
        1.1,
    )


def test_without_prices_the_choice_is_not_ranked(tmp_path: Path) -> None:
    """No price: the fitting sizes are listed smallest first (GPUs, vCPUs, memory) and none is called
    chosen."""
    from gpupool.simulate.cost import bundled

    r = run(tmp_path, nodepool("t4", T4), deployment("one", 1, "2", "8Gi", 1), prices=bundled())
    (g,) = r.nap.groups()
    assert g["chosen"] is None and not g["rankedByPrice"]
    assert g["fitting"] == [
        "Standard_NC4as_T4_v3",
        "Standard_NC8as_T4_v3",
        "Standard_NC16as_T4_v3",
        "Standard_NC64as_T4_v3",
    ]
    assert r.cost_per_hour is None
    assert any("cannot be ranked by price" in n for n in r.nap.notes)


def test_weight_order_and_equal_weights_by_name(tmp_path: Path) -> None:
    """OrderByWeight: weight 50 before weight 10; at equal weight the name later in the alphabet first."""
    r = run(
        tmp_path,
        nodepool("t4", T4, weight=10),
        nodepool("a100", A100_LE4, weight=50),
        deployment("one", 1, "2", "8Gi", 1),
    )
    assert [g["nodePool"] for g in r.nap.groups()] == ["a100"]
    r = run(tmp_path, nodepool("alpha", T4), nodepool("beta", T4), deployment("one", 1, "2", "8Gi", 1))
    assert [g["nodePool"] for g in r.nap.groups()] == ["beta"]


def test_limits_charged_with_the_largest_option(tmp_path: Path) -> None:
    """limits nvidia.com/gpu: 8, nine 1-GPU pods. NodeClaim 1 is created with options {NC24, NC48, NC96} and
    charges 4 GPUs (subtractMax); it takes pods 1-4. NodeClaim 2: every size has <= 4 GPUs left, it charges 4
    more and takes pods 5-8. Pod 9: both full, 0 GPUs left: every size exceeds the limit."""
    r = run(
        tmp_path, nodepool("a100", A100_LE4, limits="{nvidia.com/gpu: 8}"), deployment("w", 9, "1", "4Gi", 1)
    )
    assert [g["podsPerNode"] for g in r.nap.groups()] == [[4, 4]]
    (e,) = r.pending
    assert e.count == 1
    assert e.karpenter == (
        "Failed to schedule pod, all available instance types exceed limits for nodepool (NodePool=a100)"
    )
    (f,) = [f for f in r.findings if f.rule == "GP508"]
    assert "1 pod of Deployment default/w" in f.message


def test_untolerated_taint_and_unknown_label(tmp_path: Path) -> None:
    """A NodePool taint the pod does not tolerate: "did not tolerate taint (taint=...)". A nodeSelector on a
    label neither well-known nor defined by the NodePool: "incompatible requirements, label ... does not have
    known values"; once the NodePool's template carries the label, the pod is placed."""
    r = run(tmp_path, nodepool("gpu", T4), deployment("u", 1, "1", "1Gi", 1, tolerate=False))
    assert r.pending[0].karpenter == (
        "Failed to schedule pod, did not tolerate taint (taint=nvidia.com/gpu=true:NoSchedule)"
    )
    (f,) = [f for f in r.findings if f.rule == "GP508"]
    assert f.severity == "error"
    r = run(tmp_path, nodepool("gpu", T4), deployment("s", 1, "1", "1Gi", 1, selector="{team: ml}"))
    assert r.pending[0].karpenter == (
        'Failed to schedule pod, incompatible requirements, label "team" does not have known values'
    )
    r = run(
        tmp_path,
        nodepool("gpu", T4, labels="{team: ml}"),
        deployment("s", 1, "1", "1Gi", 1, selector="{team: ml}"),
    )
    assert not r.pending


def test_every_nodepool_says_why_joined(tmp_path: Path) -> None:
    """Two NodePools, each failing its own way: the errors in weight order, joined by "; ". A 5-GPU pod on
    sizes with at most 4 GPUs meets the requirements but fits nowhere: "no instance type has enough
    resources"."""
    r = run(
        tmp_path,
        nodepool("b", A100_LE4, weight=5),
        nodepool("a", T4, weight=1, taint=False),
        deployment("big", 1, "1", "1Gi", 5),
    )
    msg = r.pending[0].karpenter
    first, second = msg.removeprefix("Failed to schedule pod, ").split("; ")
    assert first.startswith("no instance type has enough resources, requirements=")
    assert '"nvidia.com/gpu":"5"' in first
    assert second.startswith("no instance type has enough resources")


def test_daemonset_overhead_moves_the_choice(tmp_path: Path) -> None:
    """NC24ads_A100_v4 allocates 23660m CPU. A pod of 23.5 CPUs fits it alone; with a DaemonSet of 200m that
    tolerates everything, 23700m does not: NC48 is the smallest fitting size."""
    ds = (
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: "
        "{app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n"
        "      tolerations: [{operator: Exists}]\n      containers:\n        - name: a\n          image: x\n"
        "          resources: {requests: {cpu: 200m, memory: 64Mi}}\n"
    )
    pod = deployment("fat", 1, "23.5", "16Gi", 1)
    r = run(tmp_path, nodepool("a100", A100_LE4), pod)
    assert r.nap.groups()[0]["chosen"] == "Standard_NC24ads_A100_v4"
    r = run(tmp_path, nodepool("a100", A100_LE4), pod, ds)
    assert r.nap.groups()[0]["chosen"] == "Standard_NC48ads_A100_v4"


def test_pools_first_then_nap(tmp_path: Path) -> None:
    """A pod the pools' nodes take never reaches Karpenter."""
    pool = (
        "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: t4}\nspec:\n  clusterName: c\n"
        "  resourceGroup: rg\n  vmSize: Standard_NC4as_T4_v3\n  nodeCount: 1\n"
    )
    r = run(
        tmp_path, pool, nodepool("t4", T4, taint=False), deployment("two", 2, "1", "1Gi", 1, tolerate=False)
    )
    assert [p.pool for p in r.placements] == ["t4", "NodePool t4"]


def test_bad_nodepool_is_one_line(tmp_path: Path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(
        "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: x}\nspec:\n  template:\n"
        "    spec:\n      requirements: []\n"
    )
    with pytest.raises(InputError) as e:
        load_inputs([f])
    assert e.value.path == str(f) and e.value.line
