"""`check` and `plan`/`render` agree: a spec with an error renders nothing and plans no command (the typo
Standard_NC4as_T4_v4 among them), and no spec that check passes renders without its GPU manifests. The
walk covers every example and every pool spec among the test fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from gpupool import catalog
from gpupool.design.check import check_pools
from gpupool.design.node import device_plugin_mode
from gpupool.errors import InputError
from gpupool.findings import Severity
from gpupool.render import render_files
from gpupool.spec import load_many
from support import EXAMPLES, REPO, run_cli, run_program

TYPO = "Standard_NC4as_T4_v4"  # a near-miss of Standard_NC4as_T4_v3


def _spec(tmp_path: Path, vm_size: str, **fields) -> Path:
    doc = {
        "apiVersion": "gpupool/v1",
        "kind": "GpuNodePool",
        "metadata": {"name": "gpunp"},
        "spec": {"resourceGroup": "rg", "clusterName": "c", "vmSize": vm_size, "nodeCount": 1,
                 "nodeTaints": ["sku=gpu:NoSchedule"], "kubernetesVersion": "1.35", **fields},
    }
    f = tmp_path / "pool.yaml"
    f.write_text(yaml.safe_dump(doc, sort_keys=False))
    return f


def test_typo_size_is_an_error_with_did_you_mean(tmp_path) -> None:
    r = run_cli("check", str(_spec(tmp_path, TYPO)), "-o", "json")
    assert r.exit_code == 1
    (f,) = [f for f in json.loads(r.stdout)["findings"] if f["rule"] == "GP101"]
    assert f["severity"] == "error" and "did you mean Standard_NC4as_T4_v3" in f["message"]


def test_typo_size_renders_nothing(tmp_path) -> None:
    out = tmp_path / "out"
    r = run_program("render", str(_spec(tmp_path, TYPO)), "--out", str(out))
    assert r.exit_code == 1
    assert "GP101" in r.stdout and "nothing rendered" in r.stderr
    assert not out.exists() or not any(out.iterdir())


def test_typo_size_plans_no_command(tmp_path) -> None:
    r = run_cli("plan", str(_spec(tmp_path, TYPO)), "-o", "json")
    assert r.exit_code == 1
    d = json.loads(r.stdout)
    assert d["refused"] is True and d["pools"][0]["commands"] == []
    text = run_cli("plan", str(_spec(tmp_path, TYPO))).stdout
    assert "Not planned" in text and "az aks nodepool add" not in text


def test_typo_size_report_never_passes(tmp_path) -> None:
    r = run_cli("report", str(_spec(tmp_path, TYPO)), "--out", str(tmp_path / "r.html"), "--fail-on", "none")
    assert r.exit_code in (1, 2)  # 2: simulate cannot size an unknown VM (nothing written)


def test_declared_size_is_known_with_a_warning(tmp_path, monkeypatch) -> None:
    """A size the catalog lacks, declared in .gpupool.yaml: no GP101, GP141's warning, rendered in full."""
    (tmp_path / ".gpupool.yaml").write_text(
        "sizes:\n- {name: Standard_NC8ads_A10_v9, vcpus: 8, memoryGiB: 100, gpus: 1}\n"
    )
    spec = _spec(tmp_path, "Standard_NC8ads_A10_v9")
    monkeypatch.chdir(tmp_path)
    try:
        d = json.loads(run_cli("check", str(spec), "-o", "json").stdout)
        rules = {f["rule"]: f for f in d["findings"]}
        assert "GP101" not in rules and rules["GP141"]["severity"] == "warning"
        assert ".gpupool.yaml:2" in rules["GP141"]["message"]
        out = tmp_path / "out"
        r = run_cli("render", str(spec), "--out", str(out))
        assert r.exit_code == 0, r.stdout + r.stderr
        assert (out / "k8s" / "gpunp" / "10-device-plugin.yaml").is_file()
    finally:
        catalog.clear_user_sizes()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("sizes: {name: x}\n", "sizes: expected a list"),
        ("sizes:\n- {name: Standard_X, vcpus: 8, memoryGiB: 1}\n", "sizes[0]: missing gpus"),
        ("sizes:\n- {name: Standard_X, vcpus: 8, memoryGiB: 1, gpus: 1, gpu: 2}\n", 'unknown field "gpu"'),
        ("sizes:\n- {name: Standard_X, vcpus: -1, memoryGiB: 1, gpus: 1}\n",
         "sizes[0].vcpus: expected a number"),
    ],
)
def test_bad_declared_sizes_are_one_line_exit_2(tmp_path, monkeypatch, text: str, message: str) -> None:
    (tmp_path / ".gpupool.yaml").write_text(text)
    spec = _spec(tmp_path, "Standard_NC4as_T4_v3")
    monkeypatch.chdir(tmp_path)
    r = run_program("check", str(spec), cwd=tmp_path)
    assert r.exit_code == 2 and message in r.stderr and ".gpupool.yaml:" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_render_takes_skus_like_check(tmp_path) -> None:
    skus = REPO / "tests" / "preflight" / "data" / "eastus" / "skus.json"
    spec = _spec(tmp_path, "Standard_ND40rs_v2")
    try:
        assert run_cli("render", str(spec), "--out", str(tmp_path / "a")).exit_code == 1  # GP101
        r = run_cli("render", str(spec), "--skus", str(skus), "--out", str(tmp_path / "b"))
        assert r.exit_code == 0, r.stdout
    finally:
        catalog.clear_user_sizes()


def _spec_files() -> list[Path]:
    files = sorted(EXAMPLES.rglob("*.yaml"))
    files += sorted(p for p in (REPO / "tests").rglob("*.yaml") if "rules" in p.parts or "data" in p.parts
                    or "examples" in p.parts)
    return [f for f in files if "apiVersion: gpupool/v1" in f.read_text(encoding="utf-8", errors="replace")]


SPECS = _spec_files()


def test_the_walk_finds_the_specs() -> None:
    assert len(SPECS) > 150 and any(p.parent == EXAMPLES for p in SPECS)


@pytest.mark.parametrize("path", SPECS, ids=[str(p.relative_to(REPO)) for p in SPECS])
def test_check_passes_only_what_renders_with_its_gpu_manifests(path: Path) -> None:
    try:
        pools = load_many([str(path)])
    except InputError:
        return  # bad input: exit 2 everywhere, nothing rendered
    findings = check_pools(pools)
    if any(f.severity is Severity.ERROR for f in findings):
        return  # render refuses (test_typo_size_renders_nothing; tests/render/test_cli.py)
    files = render_files(pools)
    paths = [f.path for f in files]
    readme = next(f.text for f in files if f.path == "README.md")
    for p in pools:
        if not p.is_gpu_pool:
            continue
        mode = device_plugin_mode(p)
        assert mode != "none", f"{path}: check passes GpuNodePool {p.name} ({p.vm_size}) with no GPU stack"
        if mode in ("amd-gpu-operator", "windows-directx"):  # AKS's or AMD's stack: the README says how
            assert ("AMD GPU Operator" if mode.startswith("amd") else "DirectX device plugin") in readme
            continue
        own = [x for x in paths if x.startswith("k8s/") and f"/{p.name.lower()}" in x.lower()]
        assert own, f"{path}: check passes GpuNodePool {p.name} ({p.vm_size}); render writes no GPU manifest"
