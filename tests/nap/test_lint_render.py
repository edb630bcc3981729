"""NodePools as landing places in lint, and render for Node Auto Provisioning, through the real entry point;
Karpenter's allocatable and requirement intersection worked out by hand from its code."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from gpupool import catalog
from gpupool.cli.pool_inputs import load_inputs
from gpupool.nap.placement import allocatable, nodepool_views
from gpupool.nap.sizes import nap_sizes
from gpupool.render.nap import normalize
from support import EXAMPLES, pool_doc, run_cli, run_program

GOOD = str(EXAMPLES / "nap" / "gpu-nodepool.yaml")
MISTAKES = str(EXAMPLES / "nap" / "mistakes.yaml")
WORKLOADS = str(EXAMPLES / "nap" / "placed-workloads.yaml")

POD = """apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
%s  containers:
  - {name: c, image: nvidia/cuda:12.4.1-base-ubuntu22.04, resources: {limits: {nvidia.com/gpu: %d}}}
"""
TOL = "  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]\n"


def _lint_json(*args: str, input: str | None = None) -> tuple[int, dict]:
    r = run_cli("lint", "-o", "json", *args, input=input)
    return r.exit_code, json.loads(r.stdout)


# ---- lint ----------------------------------------------------------------------------------------


def test_the_example_workloads_land_on_the_example_nodepool() -> None:
    r = run_cli("lint", "--pool", GOOD, WORKLOADS)
    assert r.exit_code == 0, r.stdout
    code, doc = _lint_json("--pool", GOOD, WORKLOADS)
    assert code == 0 and doc["summary"]["nodePools"] == ["gpu-a100-h100"]


@pytest.mark.parametrize(
    ("extra", "gpus", "rule", "words"),
    [
        ("", 1, "GP305", "taint nvidia.com/gpu=true:NoSchedule of NodePool gpu-a100-h100"),
        (TOL + "  nodeSelector: {karpenter.azure.com/sku-gpu-name: T4}\n", 1, "GP306",
         "NodePool gpu-a100-h100 admits no size with karpenter.azure.com/sku-gpu-name=T4"),
        (TOL, 4, "GP307", "one node of NodePool gpu-a100-h100 (Standard_"),
    ],
)
def test_each_placement_finding_names_the_nodepool(tmp_path: Path, extra: str, gpus: int, rule: str,
                                                   words: str) -> None:
    f = tmp_path / "pod.yaml"
    f.write_text(POD % (extra, gpus))
    code, doc = _lint_json("--pool", GOOD, str(f))
    assert code == 1
    hits = [x for x in doc["findings"] if x["rule"] == rule]
    assert len(hits) == 1 and words in hits[0]["message"], doc["findings"]
    assert {x["rule"] for x in doc["findings"]} == {rule}


def test_nodepools_mixed_into_the_inputs_and_stdin() -> None:
    text = Path(GOOD).read_text() + "\n---\n" + POD % ("", 1)
    code, doc = _lint_json("-", input=text)
    assert code == 1 and [x["rule"] for x in doc["findings"]] == ["GP305"]
    assert doc["summary"]["nodePools"] == ["gpu-a100-h100"]
    assert all(o["kind"] not in ("NodePool", "AKSNodeClass") for o in doc["objects"])  # not linted as objects


def test_a_nodepool_with_errors_is_reported_and_not_used(tmp_path: Path) -> None:
    f = tmp_path / "pod.yaml"
    f.write_text(POD % (TOL, 1))
    code, doc = _lint_json("--pool", MISTAKES, str(f))
    assert code == 1
    assert {x["rule"] for x in doc["findings"] if x["severity"] == "error"} >= {"GP801", "GP804"}
    assert doc["summary"]["nodePoolsRejected"] == ["a100-typo", "h100-8", "mi300x"]


def test_a_pool_spec_or_a_nodepool_is_enough(tmp_path: Path) -> None:
    f = tmp_path / "in.yaml"
    pool = yaml.safe_dump(pool_doc(nodeTaints=["sku=gpu:NoSchedule"]))  # a T4 pool whose taint it lacks
    f.write_text(pool + "\n---\n" + Path(GOOD).read_text() + "\n---\n" + POD % (TOL, 1))
    code, doc = _lint_json(str(f))
    assert code == 0, doc["findings"]


def test_a_broken_nodepool_given_with_pool_is_bad_input(tmp_path: Path) -> None:
    f = tmp_path / "np.yaml"
    f.write_text("apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: x}\nspec:\n  template: {}\n")
    w = tmp_path / "pod.yaml"
    w.write_text(POD % (TOL, 1))
    r = run_cli("lint", "--pool", str(f), str(w))
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and f"{f}:" in r.stderr and "Traceback" not in r.stderr


def test_a_broken_nodepool_among_the_inputs_is_linted_as_a_custom_resource(tmp_path: Path) -> None:
    f = tmp_path / "in.yaml"
    f.write_text("apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: x}\nspec:\n  template: {}\n")
    code, doc = _lint_json(str(f))
    assert code == 0 and [x["rule"] for x in doc["findings"]] == ["GP208"]
    assert "nodePools" not in doc["summary"]


def test_as_a_real_program() -> None:
    assert run_program("lint", "--pool", GOOD, WORKLOADS).exit_code == 0


# ---- Karpenter's arithmetic and intersection, by hand --------------------------------------------


def _size(name: str):
    return next(s for s in nap_sizes() if s.name == name)


def test_allocatable_as_karpenter_computes_it() -> None:
    # Standard_NC80adis_H100_v5: 80 vCPUs, 640 GiB. CPU: 1 x 6% + 1 x 4% + 2 x 2% + 76 x 1% = 0.9 cores.
    # Memory: 640Gi less ceil(7.5%) = 592Gi; kube-reserved 4 x 25% + 4 x 20% + 8 x 10% + 112 x 6% + 512 x 2% =
    # 19.56 GiB -> int(1024 x 19.56) = 20029 MiB; eviction threshold 750 MiB.
    a = allocatable(_size("Standard_NC80adis_H100_v5"))
    assert a == {"cpu": 79_100, "memory": (592 * 1024 - 20029 - 750) * 2**20}
    # Standard_NC4as_T4_v3: 4 vCPUs, 28 GiB: CPU 0.06 + 0.04 + 0.04 = 0.14; memory 28Gi - ceil(2.1Gi);
    # reserved 1 + 0.8 + 0.8 + 12 x 6% = 3.32 GiB -> 3399 MiB.
    a = allocatable(_size("Standard_NC4as_T4_v3"))
    mem = 28 * 2**30
    mem -= -(-mem * 75 // 1000)
    assert a == {"cpu": 3_860, "memory": mem - (3399 + 750) * 2**20}


def _views(tmp_path: Path, requirements: str, labels: str = ""):
    f = tmp_path / "np.yaml"
    f.write_text(f"""apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {{name: np}}
spec:
  template:
{labels}    spec:
      nodeClassRef: {{group: karpenter.azure.com, kind: AKSNodeClass, name: default}}
      requirements:
{requirements}""")
    _, nap = load_inputs([str(f)])
    return nodepool_views(nap)


def _terms(*terms: list) -> dict:
    required = {"nodeSelectorTerms": [{"matchExpressions": t} for t in terms]}
    return {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": required}}}


@pytest.mark.parametrize(
    ("pod", "lands"),
    [
        ({"nodeSelector": {"node.kubernetes.io/instance-type": "Standard_NC40ads_H100_v5"}}, True),
        # a deprecated key, normalized as Karpenter does
        ({"nodeSelector": {"beta.kubernetes.io/instance-type": "Standard_NC40ads_H100_v5"}}, True),
        ({"nodeSelector": {"node.kubernetes.io/instance-type": "Standard_NC4as_T4_v3"}}, False),
        ({"nodeSelector": {"karpenter.sh/nodepool": "other"}}, False),
        ({"nodeSelector": {"team": "ml"}}, True),  # the NodePool's template label
        ({"nodeSelector": {"example.com/rack": "r1"}}, False),  # undefined custom label: no known values
        (_terms([{"key": "example.com/rack", "operator": "NotIn", "values": ["r1"]}]),
         True),  # NotIn on an undefined label is compatible
        (_terms([{"key": "karpenter.azure.com/sku-gpu-count", "operator": "Gt", "values": ["1"]}],
                [{"key": "kubernetes.io/arch", "operator": "In", "values": ["arm64"]}]),
         True),  # terms ORed: the first admits the 2-GPU H100 size
        ({"nodeSelector": {"kubernetes.io/arch": "arm64"}}, False),
        ({"nodeSelector": {"topology.kubernetes.io/zone": "westeurope-2"}}, True),  # unknown per size
        ({"nodeSelector": {"karpenter.sh/capacity-type": "spot"}}, True),  # both offered when not required
    ],
)
def test_requirement_intersection(tmp_path: Path, pod: dict, lands: bool) -> None:
    h100 = "        - {key: karpenter.azure.com/sku-gpu-name, operator: In, values: [H100]}\n"
    views = _views(tmp_path, h100, "    metadata: {labels: {team: ml}}\n")
    assert views and all(v.nodepool.name == "np" for v in views)
    assert any(v.selects(pod) for v in views) is lands


# ---- render --------------------------------------------------------------------------------------


def test_render_needs_the_cluster(tmp_path: Path) -> None:
    r = run_cli("render", GOOD, "--out", str(tmp_path / "out"))
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert f"{GOOD}:" in r.stderr and "--cluster RESOURCE_GROUP/NAME" in r.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("bad", ["noslash", "rg/", "/name", "rg/$(reboot)", "rg/a b", "r'g/name", "rg/-x"])
def test_render_refuses_a_cluster_that_is_no_name(tmp_path: Path, bad: str) -> None:
    r = run_cli("render", GOOD, "--cluster", bad, "--out", str(tmp_path / "out"))
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_render_writes_the_enable_step_and_the_manifests_lint_clean(tmp_path: Path) -> None:
    out = tmp_path / "out"
    r = run_cli("render", GOOD, "--cluster", "my-rg/my-aks", "--out", str(out))
    assert r.exit_code == 0, r.stdout + r.stderr
    script = (out / "nap" / "enable-node-auto-provisioning.sh").read_text()
    assert "az aks update \\\n    --resource-group 'my-rg' \\\n    --name 'my-aks' \\\n" \
           "    --node-provisioning-mode 'Auto'\n" in script
    assert 'kubectl apply -f "$ROOT/nap/nodepools.yaml"' in script
    assert os.access(out / "nap" / "enable-node-auto-provisioning.sh", os.X_OK)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        ".gpupool-render.json", "README.md", "nap/enable-node-auto-provisioning.sh", "nap/nodepools.yaml"]
    # the manifests are the objects given
    _, given = load_inputs([GOOD])
    _, rendered = load_inputs([str(out / "nap" / "nodepools.yaml")])
    assert rendered.node_pools == given.node_pools and rendered.node_classes == given.node_classes
    # and lint-clean, alone and as the landing place of the example workloads
    code, doc = _lint_json(str(out))
    assert code == 0 and not [f for f in doc["findings"] if f["severity"] != "info"]
    code, doc = _lint_json("--pool", str(out / "nap"), WORKLOADS)
    assert code == 0 and doc["summary"]["nodePools"] == ["gpu-a100-h100"]


def test_render_takes_the_cluster_of_the_pool_specs(tmp_path: Path) -> None:
    spec = tmp_path / "pools.yaml"
    pool = yaml.safe_dump(pool_doc(nodeTaints=["sku=gpu:NoSchedule"]))
    spec.write_text(pool + "\n---\n" + Path(GOOD).read_text())
    out = tmp_path / "out"
    r = run_cli("render", str(spec), "--out", str(out), "--format", "az")
    assert r.exit_code == 0, r.stdout + r.stderr
    script = (out / "nap" / "enable-node-auto-provisioning.sh").read_text()
    assert "--node-provisioning-mode 'Auto'" in script
    assert (out / "az" / "create-node-pools.sh").exists() and not (out / "nap" / "nodepools.yaml").exists()
    assert "render --format k8s" in script


def test_render_refuses_nodepools_with_errors(tmp_path: Path) -> None:
    r = run_cli("render", MISTAKES, "--cluster", "rg/c", "--out", str(tmp_path / "out"))
    assert r.exit_code == 1 and "nothing rendered" in r.stderr
    assert not (tmp_path / "out").exists()


def test_normalize_drops_what_the_server_sets() -> None:
    doc = {"apiVersion": "karpenter.sh/v1", "kind": "NodePool",
           "metadata": {"name": "a", "namespace": "x", "uid": "u", "resourceVersion": "1",
                        "managedFields": [],
                        "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}"},
                        "labels": {"k": "v"}},
           "spec": {"template": {}}, "status": {"conditions": []}}
    assert normalize(doc) == {"apiVersion": "karpenter.sh/v1", "kind": "NodePool",
                              "metadata": {"name": "a", "labels": {"k": "v"}}, "spec": {"template": {}}}


def test_the_facts_carry_their_sources() -> None:
    facts = catalog._data("nap.yaml")
    for block in ("scheduling", "allocatable", "enable"):
        assert facts[block]["source"] and facts[block]["asOf"]
