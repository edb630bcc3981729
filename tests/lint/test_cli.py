"""`gpupool lint` end to end: the design notes' kubeconform example, inputs, exit codes, bad input."""

from __future__ import annotations

import json
from pathlib import Path

from support import DATA, EXAMPLES, run_cli, run_program

NOTES = DATA / "lint" / "design-notes"
FILES = [str(NOTES / n) for n in ("nvidia-device-plugin-ds.yaml", "gpu-test.yaml", "gpu-test-bad.yaml")]
POOL = str(EXAMPLES / "t4-driver-only.yaml")


def test_design_notes_kubeconform_example() -> None:
    r = run_program("lint", "--no-config", *FILES)
    assert r.exit_code == 1, r.stdout + r.stderr
    lines = [ln for ln in r.stdout.splitlines() if ln.strip()]
    errors = [ln for ln in lines if " error " in ln]
    assert len(errors) == 1
    bad_line = next(n for n, t in enumerate(Path(FILES[2]).read_text().splitlines(), 1) if "resource:" in t)
    assert errors[0].startswith(f"{FILES[2]}:{bad_line}:5: error GP201 Pod gpu-test-bad: ")
    assert 'spec.containers[0]: unknown field "resource" (did you mean "resources"?)' in errors[0]
    assert lines[-1].startswith(
        "Summary: 3 resources found in 3 files - Valid: 2, Invalid: 1, Errors: 0, Skipped: 0"
    )


def test_design_notes_example_with_its_pool() -> None:
    # With the design notes' pool the GPU rules run too: the plugin and gpu-test still pass; the typo also
    # leaves gpu-test-bad with a toleration for the GPU taint and no GPU request (GP308).
    r = run_cli("lint", "--no-config", "--pool", POOL, *FILES, "-o", "json")
    assert r.exit_code == 1
    out = json.loads(r.stdout)
    assert out["version"] == 1
    by_obj = {(f["object"], f["rule"]) for f in out["findings"]}
    assert by_obj == {("Pod gpu-test-bad", "GP201"), ("Pod gpu-test-bad", "GP308")}
    s = out["summary"]
    assert (s["resources"], s["valid"], s["invalid"], s["errors"], s["skipped"]) == (3, 2, 1, 0, 0)
    assert s["pools"] == ["gpunp"] and s["strict"] is True


def test_pool_directory_reads_its_specs(tmp_path: Path) -> None:
    specs = tmp_path / "pools"
    specs.mkdir()
    (specs / "gpu.yaml").write_text(Path(POOL).read_text())
    (specs / "notes.yaml").write_text("not: a pool\n")  # other YAML beside the specs is left alone
    by_file = run_cli("lint", "--no-config", "--pool", POOL, *FILES, "-o", "json")
    by_dir = run_cli("lint", "--no-config", "--pool", str(specs), *FILES, "-o", "json")
    assert by_dir.exit_code == by_file.exit_code == 1
    assert json.loads(by_dir.stdout)["findings"] == json.loads(by_file.stdout)["findings"]


def test_stdin_multi_document_and_list(tmp_path: Path) -> None:
    text = (
        Path(FILES[1]).read_text()
        + "---\n---\n"
        + """
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: a}
  data: {x: "1"}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: b}
  dta: {x: "1"}
"""
    )
    r = run_program("lint", "--no-config", "-", input=text)
    assert r.exit_code == 1
    assert "<stdin>:" in r.stdout and 'ConfigMap b: unknown field "dta" (did you mean "data"?)' in r.stdout
    assert "Summary: 3 resources found in 1 file - Valid: 2, Invalid: 1" in r.stdout


def test_directory_recursion_binary_and_syntax_errors(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "ok.yml").write_text(Path(FILES[1]).read_text())
    (tmp_path / "ok.json").write_text(
        json.dumps({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ml"}}, indent="\t")
    )
    (tmp_path / "broken.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n labels: {}\n")
    (tmp_path / "chart.tgz.yaml").write_bytes(b"\x1f\x8b\x08\x00\x00binary")
    (tmp_path / "notes.txt").write_text("not linted")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x.yaml").write_text("not: linted")
    r = run_cli("lint", "--no-config", str(tmp_path))
    assert r.exit_code == 2  # GP200: unusable input
    assert f"{tmp_path / 'broken.yaml'}:5: error GP200 invalid YAML:" in r.stdout
    assert "info GP210 skipped: binary file" in r.stdout
    assert "Summary: 4 resources found in 4 files - Valid: 2, Invalid: 0, Errors: 1, Skipped: 1" in r.stdout


def test_exit_codes_and_bad_usage(tmp_path: Path) -> None:
    ok = tmp_path / "ok.yaml"
    ok.write_text(Path(FILES[1]).read_text())
    assert run_cli("lint", "--no-config", str(ok)).exit_code == 0
    r = run_cli("lint", "--no-config", str(tmp_path / "missing.yaml"))
    assert r.exit_code == 2 and "no such file" in r.stderr
    assert run_cli("lint", "--no-config").exit_code == 2
    r = run_cli("lint", "--no-config", "-k", "1.99", str(ok))
    assert r.exit_code == 2 and "newer than the newest bundled" in r.stderr
    r = run_cli("lint", "--no-config", "-k", "banana", str(ok))
    assert r.exit_code == 2
    bad_pool = tmp_path / "pool.yaml"
    bad_pool.write_text(
        "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\nspec: {vmSize: x}\n"
    )
    r = run_cli("lint", "--no-config", "--pool", str(bad_pool), str(ok))
    assert r.exit_code == 2 and "pool.yaml" in r.stderr


def test_kubernetes_version_and_no_strict(tmp_path: Path) -> None:
    f = tmp_path / "cj.yaml"
    f.write_text("apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: c}\nspec: {}\n")
    r = run_cli("lint", "--no-config", "-k", "1.25", str(f))
    assert r.exit_code == 1 and "GP207" in r.stdout and "served: batch/v1" in r.stdout
    loose = tmp_path / "loose.yaml"
    loose.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\nextra: 1\n")
    assert run_cli("lint", "--no-config", str(loose)).exit_code == 1
    assert run_cli("lint", "--no-config", "--no-strict", str(loose)).exit_code == 0


def test_pools_mixed_into_inputs_apply_to_other_files(tmp_path: Path) -> None:
    pod = tmp_path / "a-pod.yaml"
    pod.write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
        "    image: busybox\n    resources: {limits: {nvidia.com/gpu: 1}}\n"
    )
    (tmp_path / "z-pools.yaml").write_text(Path(POOL).read_text())
    r = run_cli("lint", "--no-config", str(tmp_path))
    assert r.exit_code == 1 and "GP305" in r.stdout and "sku=gpu:NoSchedule" in r.stdout


def test_unknown_kinds_and_reject_unknown(tmp_path: Path) -> None:
    f = tmp_path / "ws.yaml"
    f.write_text("apiVersion: kaito.sh/v1beta1\nkind: Workspace\nmetadata: {name: w}\n")
    r = run_cli("lint", "--no-config", str(f))
    assert r.exit_code == 0 and "info GP208" in r.stdout and "Skipped: 1" in r.stdout
    r = run_cli("lint", "--no-config", "--reject-unknown", str(f))
    assert r.exit_code == 1 and "error GP208" in r.stdout


def test_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]']
    lines += [
        f"a{i}: &a{i} [*a{i - 1},*a{i - 1},*a{i - 1},*a{i - 1},*a{i - 1},*a{i - 1},*a{i - 1},*a{i - 1},"
        f"*a{i - 1},*a{i - 1}]"
        for i in range(1, 10)
    ]
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("\n".join(lines) + "\n")
    ok = tmp_path / "ok.yaml"
    ok.write_text(Path(FILES[1]).read_text())
    r = run_cli("lint", "--no-config", str(bomb), str(ok))
    assert r.exit_code == 2  # GP200: unusable input
    assert "GP200" in r.stdout and "alias" in r.stdout
    assert "Valid: 1" in r.stdout
