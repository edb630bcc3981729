"""``--skus FILE`` (sizes from the user's az vm list-skus) on check, plan, simulate; ``gpupool catalog``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from gpupool import catalog
from support import run_cli

SKUS = Path(__file__).parent / "preflight" / "data" / "eastus" / "skus.json"


@pytest.fixture(autouse=True)
def _fresh_catalog():
    catalog.clear_user_sizes()
    yield
    catalog.clear_user_sizes()


def _spec(tmp_path: Path, vm_size: str = "Standard_ND40rs_v2") -> Path:
    doc = {
        "apiVersion": "gpupool/v1",
        "kind": "GpuNodePool",
        "metadata": {"name": "gpunp"},
        "spec": {
            "resourceGroup": "rg",
            "clusterName": "c",
            "kubernetesVersion": "1.35",
            "vmSize": vm_size,
            "nodeTaints": ["sku=gpu:NoSchedule"],
            "nodeCount": 1,
        },
    }
    f = tmp_path / "p.yaml"
    f.write_text(yaml.safe_dump(doc))
    return f


def test_check_without_skus_says_unknown_size(tmp_path) -> None:
    d = json.loads(run_cli("check", str(_spec(tmp_path)), "-o", "json").stdout)
    assert [f["rule"] for f in d["findings"]] == ["GP101"]


def test_check_with_skus_uses_list_skus_facts(tmp_path) -> None:
    r = run_cli("check", str(_spec(tmp_path)), "--skus", str(SKUS), "-o", "json")
    d = json.loads(r.stdout)
    rules = {f["rule"]: f for f in d["findings"]}
    assert "GP101" not in rules and rules["GP141"]["severity"] == "warning"
    assert "40 vCPUs, 672 GiB, 8 GPU(s)" in rules["GP141"]["message"]
    assert "driver AKS installs" in rules["GP141"]["message"]


def test_catalog_rows_win_over_list_skus(tmp_path) -> None:
    from gpupool.catalog.listskus import use_list_skus

    added = {s.name for s in use_list_skus(SKUS)}
    assert added == {"Standard_ND40rs_v2"}  # every other size of the file is in the catalog
    assert catalog.vm_size("Standard_NC4as_T4_v3").origin == "catalog"
    s = catalog.vm_size("standard_nd40rs_v2")
    assert (s.vcpu, s.memory_gib, int(s.gpus), s.quota_family, s.driver) == (
        40,
        672.0,
        8,
        "standardNDSv2Family",
        None,
    )


def test_plan_with_skus_shows_the_size(tmp_path) -> None:
    r = run_cli("plan", str(_spec(tmp_path)), "--skus", str(SKUS), "-o", "json")
    d = json.loads(r.stdout)
    pool = d["pools"][0] if "pools" in d else d
    assert pool["vcpu"] == 40 and pool["gpusPerNode"] == 8 and pool["advertised"] == {"nvidia.com/gpu": 8}


def test_simulate_with_skus_places_on_the_size(tmp_path) -> None:
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "train"},
        "spec": {
            "tolerations": [{"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}],
            "containers": [{"name": "c", "image": "x", "resources": {"limits": {"nvidia.com/gpu": 8}}}],
        },
    }
    w = tmp_path / "w.yaml"
    w.write_text(yaml.safe_dump(pod))
    r = run_cli("simulate", str(_spec(tmp_path)), str(w), "--skus", str(SKUS), "-o", "json")
    assert r.exit_code == 0, r.stdout + r.stderr


def test_bad_skus_file_is_exit_2(tmp_path) -> None:
    bad = tmp_path / "s.json"
    bad.write_text("{")
    r = run_cli("check", str(_spec(tmp_path)), "--skus", str(bad))
    assert r.exit_code == 2 and "not JSON" in r.stderr


def test_catalog_command_json_and_text() -> None:
    d = json.loads(run_cli("catalog", "-o", "json").stdout)
    assert d["version"] == 1 and set(d) == {"version", "sizes", "os", "gpus", "versions"}
    assert all(
        row["source"] and row["asOf"] for sect in ("sizes", "os", "gpus", "versions") for row in d[sect]
    )
    rtx = next(s for s in d["sizes"] if s["name"] == "Standard_NC36ds_xl_RTXPRO6000BSE_v6")
    assert rtx["unverified"] == ["memory", "gpus"] and rtx["driver"] == "grid-v20"
    w19 = next(o for o in d["os"] if o["name"] == "Windows2019")
    assert w19["retired"] == "2026-03-01" and w19["kubernetes"] == [None, "1.32"]
    d = json.loads(run_cli("catalog", "--versions", "-o", "json").stdout)
    assert set(d) == {"version", "versions"}
    assert {v["version"]: v["status"] for v in d["versions"]}["1.35"] == "supported"
    r = run_cli("catalog", "--sizes", "--sources")
    assert r.exit_code == 0 and "unverified: memory, gpus" in r.stdout and "AgentBaker" in r.stdout
