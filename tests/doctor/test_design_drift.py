"""--pool SPEC: the nodes against the design (GP680)."""

from __future__ import annotations

import json
from pathlib import Path

from support import run_cli

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"


def _spec(tmp_path: Path, name: str, body: str) -> Path:
    p = tmp_path / f"{name}.yaml"
    p.write_text(
        "apiVersion: gpupool/v1\nkind: GpuNodePool\n"
        f"metadata: {{name: {name}}}\n"
        "spec:\n  resourceGroup: myResourceGroup\n  clusterName: myAKSCluster\n" + body
    )
    return p


def _run(case: str, *specs: Path) -> list[dict]:
    args = ["doctor", "--snapshot", str(SNAPSHOTS / case), "-o", "json"]
    for s in specs:
        args += ["--pool", str(s)]
    r = run_cli(*args)
    assert r.exit_code in (0, 1), r.stderr
    return [f for f in json.loads(r.stdout)["findings"] if f["rule"] == "GP680"]


def test_matching_design_is_clean(tmp_path: Path) -> None:
    spec = _spec(tmp_path, "gpunp", "  vmSize: Standard_NC4as_T4_v3\n  nodeTaints: ['sku=gpu:NoSchedule']\n")
    assert _run("healthy-self-managed", spec) == []


def test_taint_and_missing_pool(tmp_path: Path) -> None:
    spec = _spec(
        tmp_path,
        "gpunp",
        "  vmSize: Standard_NC4as_T4_v3\n  nodeTaints: ['nvidia.com/gpu=present:NoSchedule']\n",
    )
    other = _spec(tmp_path, "gpunp2", "  vmSize: Standard_NC4as_T4_v3\n")
    found = _run("healthy-self-managed", spec, other)
    assert [(f["object"], f["severity"]) for f in found] == [
        ("pool gpunp", "warning"),
        ("pool gpunp2", "info"),
    ]
    assert "taints sku=gpu:NoSchedule (design nvidia.com/gpu=present:NoSchedule)" in found[0]["evidence"][0]


def test_mig_design_not_applied(tmp_path: Path) -> None:
    spec = _spec(
        tmp_path,
        "a100mig",
        "  vmSize: Standard_NC24ads_A100_v4\n  nodeTaints: ['sku=gpu:NoSchedule']\n"
        "  gpu: {instanceProfile: MIG1g, migStrategy: Mixed}\n",
    )
    (f,) = _run("mig-single-mismatch", spec)
    assert "advertised {'nvidia.com/gpu': 7} (design {'nvidia.com/mig-1g.10gb': 7})" in f["evidence"][0]


def test_bad_spec_is_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: x}\nspec: {vmSiz: 1}\n")
    r = run_cli("doctor", "--snapshot", str(SNAPSHOTS / "healthy-managed"), "--pool", str(bad))
    assert r.exit_code == 2 and "bad.yaml" in r.stderr
