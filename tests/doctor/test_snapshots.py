"""Every snapshot fixture gives exactly its findings (rule ID + object), through the real CLI and the API."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from gpupool.cluster import read_snapshot
from gpupool.doctor import diagnose
from support import run_cli

HERE = Path(__file__).resolve().parent
SNAPSHOTS = HERE / "snapshots"
sys.path.insert(0, str(HERE))
import build_snapshots  # noqa: E402

EXPECTED: dict[str, list[tuple[str, str]]] = {
    "healthy-self-managed": [],
    "healthy-managed": [],
    "no-device-plugin": [
        ("GP601", "pool gpunp"),
        ("GP651", "cluster"),
        ("GP671", "pool gpunp"),
        ("GP610", "ReplicaSet ml/trainer-7d9c6b5f4"),
    ],
    "plugin-untolerated-spot": [("GP602", "pool spotgpu"), ("GP610", "ReplicaSet ml/trainer-7d9c6b5f4")],
    "plugin-selector-miss": [("GP603", "pool gpunp")],
    "plugin-crashloop": [("GP604", "pool gpunp")],
    "driver-missing": [("GP605", "pool gpunp")],
    "pending-untolerated-taint": [("GP610", "ReplicaSet ml/inference-5f7b9c6d8"), ("GP670", "pool gpunp")],
    "pending-max-size": [("GP610", "ReplicaSet ml/trainer-7d9c6b5f4")],
    "mig-single-mismatch": [
        ("GP610", "ReplicaSet ml/mig-job-8f6d4c2b1"),
        ("GP620", "Pod ml/mig-job-8f6d4c2b1-k3j5h"),
    ],
    "mig-mixed-unadvertised": [
        ("GP622", "pool a100mig"),
        ("GP610", "ReplicaSet ml/mig-job-8f6d4c2b1"),
        ("GP621", "Pod ml/mig-job-8f6d4c2b1-z9x8c"),
    ],
    "gpu-health": [
        ("GP630", "Node aks-ndv4-28993262-vmss000000"),
        ("GP631", "Node aks-ndv4-28993262-vmss000001"),
        ("GP632", "Node aks-ndv4-28993262-vmss000001"),
    ],
    "stack-conflict": [("GP640", "pool gpunp"), ("GP641", "pool gpunp")],
    "time-slicing-not-applied": [("GP650", "pool gpunp")],
    "dcgm-misses-spot": [("GP652", "pool spotgpu")],
    "cuda-too-new": [("GP660", "Pod ml/render-5b8c7d6f9-u7y6t")],
    "idle-gpu-nodes": [("GP670", "pool gpunp")],
    "ca-resource-unready": [("GP671", "pool a100mig")],
    "nap-quota": [
        ("GP690", "NodeClaim gpu-x7k2p"),
        ("GP610", "ReplicaSet ml/trainer-7d9c6b5f4"),
        ("GP691", "ReplicaSet ml/trainer-7d9c6b5f4"),
    ],
    "nap-untolerated": [
        ("GP610", "ReplicaSet ml/inference-5f7b9c6d8"),
        ("GP691", "ReplicaSet ml/inference-5f7b9c6d8"),
        ("GP692", "NodePool gpu"),
    ],
    "nap-compatible": [("GP610", "ReplicaSet ml/trainer-7d9c6b5f4")],
}


def test_every_case_is_expected() -> None:
    assert sorted(EXPECTED) == sorted(build_snapshots.CASES)
    assert sorted(p.name for p in SNAPSHOTS.iterdir() if p.is_dir()) == sorted(EXPECTED)


@pytest.mark.parametrize("case", sorted(build_snapshots.CASES))
def test_fixture_files_are_what_the_builder_writes(case: str) -> None:
    want = build_snapshots.render(build_snapshots.CASES[case]())
    d = SNAPSHOTS / case
    have = {str(p.relative_to(d)): p.read_text(encoding="utf-8") for p in d.rglob("*") if p.is_file()}
    assert sorted(have) == sorted(want)
    for name, text in want.items():
        assert have[name] == text, f"{case}/{name} differs: run python tests/doctor/build_snapshots.py"


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_findings(case: str) -> None:
    result = diagnose(read_snapshot(SNAPSHOTS / case))
    assert [(f.rule, f.object) for f in result.findings] == EXPECTED[case]
    for f in result.findings:
        assert f.extra["stage"] and f.extra["evidence"] and f.fix, f


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_cli_json_and_exit_code(case: str) -> None:
    r = run_cli("doctor", "--snapshot", str(SNAPSHOTS / case), "-o", "json")
    doc = json.loads(r.stdout)
    assert doc["version"] == 1
    assert [(f["rule"], f["object"]) for f in doc["findings"]] == EXPECTED[case]
    errors = any(f["severity"] == "error" for f in doc["findings"])
    assert r.exit_code == (1 if errors else 0)
    assert set(doc) == {"version", "source", "findings", "nodes", "pendingPods", "summary"}
    for n in doc["nodes"]:
        assert set(n) >= {"name", "pool", "vmSize", "gpu", "conditions"}
        assert set(n["gpu"]) == {"capacity", "allocatable", "requested"}


def test_pending_pod_detail() -> None:
    doc = json.loads(
        run_cli("doctor", "--snapshot", str(SNAPSHOTS / "pending-max-size"), "-o", "json").stdout
    )
    (p,) = doc["pendingPods"]
    assert p["pod"] == "ml/trainer-7d9c6b5f4-p4n6m"
    assert p["wouldLandOn"] == "gpunp" and p["fitsNowOn"] is None
    assert p["autoscaler"] == "pod didn't trigger scale-up: 1 max node group size reached"
    assert p["pools"]["gpunp"]["reasons"] == {"Insufficient cpu, Insufficient nvidia.com/gpu": 3}
    assert p["scheduler"].startswith(
        "0/5 nodes are available: 3 Insufficient cpu, 5 Insufficient nvidia.com/gpu."
    )
    (f,) = doc["findings"]
    assert "maxCount 3" in f["fix"]


def test_untolerated_taint_fix_names_the_toleration() -> None:
    doc = json.loads(
        run_cli("doctor", "--snapshot", str(SNAPSHOTS / "pending-untolerated-taint"), "-o", "json").stdout
    )
    f = next(f for f in doc["findings"] if f["rule"] == "GP610")
    assert (
        f["fix"] == "add to the pod template: tolerations: "
        "[{key: sku, operator: Equal, value: gpu, effect: NoSchedule}]"
    )
    assert "no GPU pool admits it" in f["message"]
    assert f["pods"] == ["ml/inference-5f7b9c6d8-h2k4p", "ml/inference-5f7b9c6d8-q8w3e"]


def test_driver_missing_quotes_both_log_wordings() -> None:
    (f,) = diagnose(read_snapshot(SNAPSHOTS / "driver-missing")).findings
    ev = "\n".join(f.extra["evidence"])
    assert "Incompatible strategy detected auto" in ev
    assert "pool gpunp: gpuProfile.driver=None" in ev and "no GPU Operator driver DaemonSet" in ev
    assert "--gpu-driver None" in (f.fix or "")


def test_cpu_node_no_devices_log_is_noise() -> None:
    snap = read_snapshot(SNAPSHOTS / "healthy-self-managed")
    assert any("No devices found" in t for t in snap.logs.values())
    assert diagnose(snap).findings == []


def test_text_output_groups_along_the_chain() -> None:
    r = run_cli("doctor", "--snapshot", str(SNAPSHOTS / "no-device-plugin"))
    assert r.exit_code == 1
    heads = [line for line in r.stdout.splitlines() if line.startswith("== ")]
    assert heads == ["== Device plugin and GPU stack", "== Advertised GPU resources and health", "== Pods"]
    assert "fix: deploy the NVIDIA device plugin DaemonSet" in r.stdout
    assert r.stdout.rstrip().endswith("3 errors, 0 warnings, 1 info")


def test_fail_on_and_ignore() -> None:
    case = str(SNAPSHOTS / "idle-gpu-nodes")
    assert run_cli("doctor", "--snapshot", case).exit_code == 0
    assert run_cli("doctor", "--snapshot", case, "--fail-on", "warning").exit_code == 1
    r = run_cli("doctor", "--snapshot", case, "--fail-on", "warning", "--ignore", "unused-gpu-nodes")
    assert r.exit_code == 0 and "no problems found" in r.stdout


def test_namespace_filter() -> None:
    case = str(SNAPSHOTS / "pending-max-size")
    doc = json.loads(run_cli("doctor", "--snapshot", case, "-o", "json", "-n", "other").stdout)
    assert doc["findings"] == [] and doc["pendingPods"] == []


def test_cuda_from_catalog_driver_is_a_warning() -> None:
    """No GFD labels: the driver AKS installs for the size (catalog) stands in; the finding is a warning."""
    from gpupool.cluster import Snapshot

    case = build_snapshots.cuda_too_new()
    for n in case["nodes"]:
        n["metadata"]["labels"] = {
            k: v for k, v in n["metadata"]["labels"].items() if not k.startswith("nvidia.com/")
        }
    bad = next(p for p in case["pods"] if p["metadata"]["name"].startswith("render-"))
    bad["status"]["containerStatuses"][0]["lastState"] = {}
    snap = Snapshot("x", case["nodes"], case["pods"], case["daemonsets"], case["events"], None, None, None)
    (f,) = diagnose(snap).findings
    assert (f.rule, f.severity.value) == ("GP660", "warning")
    assert (
        "570.211.01 (the driver AKS installs for Standard_NV36ads_A10_v5 per gpupool's catalog"
        in "\n".join(f.extra["evidence"])
    )


# ---- GP610 beside Node Auto Provisioning -----------------------------------------------------------------


def _gp610(snap) -> dict:  # type: ignore[no-untyped-def]
    f = next(f for f in diagnose(snap).findings if f.rule == "GP610")
    return {"severity": f.severity.value, "message": f.message, "fix": f.fix, **f.extra}


@pytest.mark.parametrize(
    ("case", "why", "points"),
    [
        ("nap-compatible", "(NodePool gpu is compatible)", ["GP690", "GP691"]),
        ("nap-quota", "(Karpenter nominated it to nodeclaim/gpu-x7k2p)", ["GP690", "GP691"]),
        ("nap-untolerated", "(Karpenter cannot provision it: see GP691)", ["GP691", "GP692"]),
    ],
)
def test_gp610_defers_to_nap(case: str, why: str, points: list[str]) -> None:
    f = _gp610(read_snapshot(SNAPSHOTS / case))
    assert f["severity"] == "info" and f["deferredTo"] == "nap" and f["wouldLandOn"] is None
    deferred = "no agent pool admits it; it is Node Auto Provisioning's to provision "
    assert f["message"].endswith(deferred + why)
    assert all(rule in f["fix"] for rule in points), f["fix"]
    assert "nodeSelector" not in f["fix"] and "(s)" not in f["message"] + f["fix"]


def _snap(case: dict):  # type: ignore[no-untyped-def]
    from gpupool.cluster import Snapshot

    return Snapshot(
        "x",
        case["nodes"],
        case["pods"],
        case["daemonsets"],
        case["events"],
        None,
        None,
        None,
        nodeclaims=case.get("nodeclaims"),
        karpenter_nodepools=case.get("karpenter_nodepools"),
    )


def test_gp610_stays_an_error_without_evidence_for_nap() -> None:
    """No compatible NodePool and no word from Karpenter: the pod is nobody's to provision."""
    case = build_snapshots.nap_untolerated()
    case["events"] = [e for e in case["events"] if (e.get("source") or {}).get("component") != "karpenter"]
    result = diagnose(_snap(case))
    assert [(f.rule, f.severity.value) for f in result.findings] == [("GP610", "error"), ("GP692", "warning")]
    # and without the NodePools at all (no karpenter-nodepools.json): nothing says NAP will provision it
    case = build_snapshots.nap_compatible()
    del case["karpenter_nodepools"]
    assert _gp610(_snap(case))["severity"] == "error"


def test_gp610_defers_only_when_no_agent_pool_admits_the_pod() -> None:
    """A GPU agent pool that admits the pod keeps GP610's verdict on that pool (room, maxCount)."""
    base = build_snapshots.pending_max_size()
    case = build_snapshots.nap_compatible()
    case["nodes"] = base["nodes"]
    pending = [p for p in case["pods"] if p["status"].get("phase") == "Pending"]
    pending[0]["spec"]["tolerations"].append(build_snapshots.TOL_SKU)  # gpunp's taint too
    case["pods"] = [p for p in base["pods"] if p["status"].get("phase") != "Pending"] + pending
    f = _gp610(_snap(case))
    assert f["severity"] == "error" and f["wouldLandOn"] == "gpunp" and "deferredTo" not in f
