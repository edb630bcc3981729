"""The cluster's own word on NAP (``az aks show``'s ``nodeProvisioningProfile.mode``) in GP806, through the
real entry point (``gpupool check --cluster FILE``), and where preflight reads the same file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from gpupool.nap.cluster import mode_of
from gpupool.preflight.inputs import load_cluster
from support import EXAMPLES, REPO, pool_doc, run_cli

GOOD = str(EXAMPLES / "nap" / "gpu-nodepool.yaml")
CORPUS = Path(os.environ.get("GPUPOOL_SHARED", REPO.parent / "shared")) / "corpus" / "azure" / "az"


def _cluster(tmp_path: Path, profile: object, autoscaled: bool = True, name: str = "myAKSCluster") -> str:
    body = {
        "name": name,
        "resourceGroup": "myResourceGroup",
        "location": "westus2",
        "networkProfile": {"networkPlugin": "azure", "networkPluginMode": "overlay"},
        "agentPoolProfiles": [{"name": "nodepool1", "mode": "System", "enableAutoScaling": autoscaled}],
    }
    if profile is not ...:
        body["nodeProvisioningProfile"] = profile
    f = tmp_path / "cluster.json"
    f.write_text(json.dumps(body, indent=2))
    return str(f)


def _check(*args: str) -> tuple[int, list[dict]]:
    r = run_cli("check", "-o", "json", *args)
    return r.exit_code, json.loads(r.stdout)["findings"]


def test_nap_on_with_an_autoscaled_agent_pool(tmp_path: Path) -> None:
    f = _cluster(tmp_path, {"mode": "Auto", "defaultNodePools": "Auto"})
    code, found = _check("--cluster", f, GOOD)
    assert code == 0
    [hit] = [x for x in found if x["rule"] == "GP806"]
    assert hit["object"] == "cluster myAKSCluster" and hit["path"] == f and hit["severity"] == "warning"
    assert "agent pool nodepool1" in hit["message"] and "nodeProvisioningProfile.mode Auto" in hit["message"]


def test_nap_on_and_an_autoscaled_pool_spec_of_that_cluster(tmp_path: Path) -> None:
    f = _cluster(tmp_path, {"mode": "Auto"}, autoscaled=False)
    spec = tmp_path / "pool.yaml"
    spec.write_text(yaml.safe_dump(pool_doc(nodeTaints=["sku=gpu:NoSchedule"],
                                            autoscaler={"minCount": 0, "maxCount": 2})))
    _, found = _check("--cluster", f, str(spec))  # no NodePool given: the cluster says NAP is on
    hits = [x for x in found if x["rule"] == "GP806"]
    assert [x["object"] for x in hits] == ["GpuNodePool gpunp"] and hits[0]["path"] == str(spec)


@pytest.mark.parametrize("profile", [{"mode": "Manual"}, None, ...])
def test_nap_off_says_no_even_beside_nodepools(tmp_path: Path, profile: object) -> None:
    f = _cluster(tmp_path, profile)
    spec = tmp_path / "pool.yaml"
    spec.write_text(yaml.safe_dump(pool_doc(nodeTaints=["sku=gpu:NoSchedule"],
                                            autoscaler={"minCount": 0, "maxCount": 2})))
    _, without = _check(GOOD, str(spec))  # NodePools given: NAP taken to be on
    assert [x["rule"] for x in without if x["rule"] == "GP806"] == ["GP806"]
    _, found = _check("--cluster", f, GOOD, str(spec))
    assert not [x for x in found if x["rule"] == "GP806"]


@pytest.mark.parametrize("profile", [{"mode": "Sometimes"}, "Auto", {"mode": 1}])
def test_a_mode_aks_has_not_is_bad_input(tmp_path: Path, profile: object) -> None:
    f = _cluster(tmp_path, profile)
    r = run_cli("check", "--cluster", f, GOOD)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and f"{f}:" in r.stderr
    assert "nodeProvisioningProfile" in r.stderr and "Traceback" not in r.stderr


def test_preflight_reads_the_mode(tmp_path: Path) -> None:
    assert load_cluster(_cluster(tmp_path, {"mode": "auto"})).node_provisioning == "Auto"  # ARM ignores case
    assert load_cluster(_cluster(tmp_path, None)).node_provisioning == "Manual"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus of real az output is absent")
def test_real_recordings_have_the_field_only_as_null() -> None:
    # What az 2.91.0 prints for the recorded clusters: the key with null (their API versions predate NAP).
    shows = sorted(CORPUS.glob("*aks_show*.json"))
    assert shows
    for p in shows:
        data = json.loads(p.read_text())
        assert data.get("nodeProvisioningProfile") is None
        assert mode_of(data, str(p)).mode == "Manual"
        assert load_cluster(p).node_provisioning == "Manual"
