"""AKS's default Kubernetes version, one function for every command: N-1 of the minors whose AKS GA the
calendar confirms (a planned GA is not a GA), judged on today (GPUPOOL_TODAY). Each command that assumes it
says so in text and JSON; a cluster's own version (server, kubelets) always wins over it."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest
import yaml

from gpupool.catalog import aks
from support import EXAMPLES, run_cli

NOTE = "assuming Kubernetes 1.35, AKS's default on 2026-12-03; set kubernetesVersion"
SNAPSHOTS = Path(__file__).parent / "doctor" / "snapshots"


@pytest.mark.parametrize(
    ("day", "minor"),
    [
        ("2026-12-03", "1.35"),  # GA: ..1.36 (1.37's Oct 2026 GA is only planned)
        ("2026-05-01", "1.34"),  # before 1.36's GA (Jun 2026)
        ("2026-06-01", "1.35"),  # 1.36 GA that month
        ("2030-01-01", "1.35"),  # a planned GA never counts, however late
    ],
)
def test_default_is_n_minus_1_of_confirmed_ga(day: str, minor: str) -> None:
    d = aks.default_kubernetes_version(dt.date.fromisoformat(day))
    assert d.minor == minor and "1.37" not in d.ga_minors


def test_note_and_json() -> None:
    d = aks.default_kubernetes_version()
    assert d.note() == NOTE
    assert d.to_dict()["kubernetesVersion"] == "1.35" and "N-1" in d.source


def _pool(tmp_path: Path, **fields) -> Path:
    doc = {"apiVersion": "gpupool/v1", "kind": "GpuNodePool", "metadata": {"name": "gpunp"},
           "spec": {"resourceGroup": "rg", "clusterName": "c", "vmSize": "Standard_NC4as_T4_v3",
                    "nodeCount": 1, "nodeTaints": ["sku=gpu:NoSchedule"], **fields}}
    f = tmp_path / "pool.yaml"
    f.write_text(yaml.safe_dump(doc))
    return f


def test_check_and_plan_say_what_they_assumed(tmp_path) -> None:
    f = str(_pool(tmp_path, osSku="AzureLinux3"))
    check = run_cli("check", f)
    assert NOTE in check.stdout and check.exit_code == 0  # AzureLinux3 runs on 1.35: no GP123
    assert json.loads(run_cli("check", f, "-o", "json").stdout)["assumed"] == NOTE
    plan = json.loads(run_cli("plan", f, "-o", "json").stdout)
    assert plan["assumed"] == NOTE and plan["pools"][0]["kubernetesVersion"] == "1.35"
    assert plan["pools"][0]["kubernetesVersionAssumed"] is True
    pinned = str(_pool(tmp_path, kubernetesVersion="1.34"))
    assert json.loads(run_cli("check", pinned, "-o", "json").stdout)["assumed"] is None
    assert "assuming" not in run_cli("check", pinned).stdout


def test_lint_says_what_it_assumed() -> None:
    w = str(EXAMPLES / "workloads" / "training.yaml")
    d = json.loads(run_cli("lint", w, "-o", "json", "--no-config").stdout)
    assert d["summary"]["kubernetesVersion"] == "1.35" and d["summary"]["assumed"] == NOTE
    given = json.loads(run_cli("lint", w, "-o", "json", "--no-config", "-k", "1.33").stdout)
    assert given["summary"]["assumed"] is None


def _no_version_snapshot(tmp_path: Path, src: str) -> Path:
    snap = tmp_path / "snap"
    shutil.copytree(SNAPSHOTS / src, snap)
    meta = snap / "meta.json"
    if meta.is_file():
        m = json.loads(meta.read_text())
        m.pop("kubernetesVersion", None)
        meta.write_text(json.dumps(m))
    for name in ("nodes.json",):
        p = snap / name
        d = json.loads(p.read_text())
        for n in d.get("items", []):
            (n.get("status") or {}).get("nodeInfo", {}).pop("kubeletVersion", None)
        p.write_text(json.dumps(d))
    (snap / "nodepools.json").unlink(missing_ok=True)
    return snap


def test_doctor_uses_the_clusters_version_else_says_it_assumed(tmp_path) -> None:
    src = "pending-max-size"
    have = json.loads(run_cli("doctor", "--snapshot", str(SNAPSHOTS / src), "-o", "json").stdout)
    assert "assumed" not in have["summary"] and have["summary"]["kubernetesVersion"]
    bare = json.loads(run_cli("doctor", "--snapshot", str(_no_version_snapshot(tmp_path, src)), "-o",
                              "json").stdout)
    assert bare["summary"]["assumed"] == NOTE and bare["summary"]["kubernetesVersion"] == "1.35"


def test_simulate_snapshot_without_nodepools_uses_the_kubelets(tmp_path) -> None:
    """No nodepools.json and no server version: the kubelets' version, never a default (it was 1.37)."""
    snap = tmp_path / "snap"
    shutil.copytree(SNAPSHOTS / "pending-max-size", snap)
    (snap / "nodepools.json").unlink(missing_ok=True)
    meta = snap / "meta.json"
    if meta.is_file():
        m = json.loads(meta.read_text())
        m.pop("kubernetesVersion", None)
        meta.write_text(json.dumps(m))
    nodes = json.loads((snap / "nodes.json").read_text())
    for n in nodes["items"]:
        n.setdefault("status", {}).setdefault("nodeInfo", {})["kubeletVersion"] = "v1.33.2"
    (snap / "nodes.json").write_text(json.dumps(nodes))
    w = tmp_path / "w.yaml"
    w.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
                 "    image: busybox\n    resources: {limits: {nvidia.com/gpu: 1}}\n")
    d = json.loads(run_cli("simulate", "--snapshot", str(snap), str(w), "-o", "json").stdout)
    assert d["kubernetesVersion"] == "1.33.2" and d["assumed"] is None
    bare = _no_version_snapshot(tmp_path / "b", "pending-max-size")
    d = json.loads(run_cli("simulate", "--snapshot", str(bare), str(w), "-o", "json").stdout)
    assert d["kubernetesVersion"] == "1.35" and d["assumed"] == NOTE


def test_catalog_stale_lists_rows_to_recheck() -> None:
    d = json.loads(run_cli("catalog", "--stale", "--days", "90", "-o", "json").stdout)
    keys = {(r["file"], r["key"]): r for r in d["stale"]}
    assert "planned" in keys[("kubernetes_versions.yaml", "versions.1.37")]["reasons"]
    assert keys[("gpus.yaml", "gpus.K80")]["ageDays"] == 793  # asOf 2024-10-01 on 2026-12-03
    assert ("vm_sizes.yaml", "sizes.Standard_NC8ads_A10_v4") in keys  # secondary source: unverified
    assert ("os_skus.yaml", "osSkus.CBLMariner") not in keys  # re-read 2026-12-03
    fewer = json.loads(run_cli("catalog", "--stale", "--days", "1000", "-o", "json").stdout)["stale"]
    assert all(not any(x.startswith("older") for x in r["reasons"]) for r in fewer)
    text = run_cli("catalog", "--stale").stdout
    assert text.startswith("stale (") and "versions.1.37" in text


def test_explain_states_the_default_version_rule_and_the_severity_policy() -> None:
    k = run_cli("explain", "kubernetes-version")
    assert k.exit_code == 0 and "N-1" in k.stdout and "the default is 1.35" in k.stdout and NOTE in k.stdout
    assert "planned is not a GA" in k.stdout.replace("\n", " ") or "only plans is not a GA" in k.stdout
    s = run_cli("explain", "severity")
    assert s.exit_code == 0 and "Severity follows evidence" in s.stdout
    for word in ("error:", "warning:", "info:", "90 days", "never an error"):
        assert word in s.stdout.replace("\n", " ")
    assert json.loads(run_cli("explain", "severity", "-o", "json").stdout)["topic"] == "severity"
