"""--fail-on in plan, render, diff and import (check's own tests cover check)."""

from __future__ import annotations

from pathlib import Path

from support import EXAMPLES, REPO, run_cli

WARN_ONLY = str(EXAMPLES / "a100-mig-mixed.yaml")  # 0 errors, 1 warning
INFO_ONLY = str(EXAMPLES / "h100-gpu-operator.yaml")  # 0 errors, 0 warnings, 1 info
ERRORS = str(EXAMPLES / "mistakes.yaml")
AZ_LIST = str(REPO / "tests" / "diff" / "data" / "az-list.json")  # two info findings once imported
CURRENT = str(EXAMPLES / "diff" / "current-gpunp.json")
DESIRED = str(EXAMPLES / "diff" / "desired-gpunp-a100.yaml")


def test_plan_fail_on() -> None:
    assert run_cli("plan", WARN_ONLY).exit_code == 0
    assert run_cli("plan", WARN_ONLY, "--fail-on", "warning").exit_code == 1
    assert run_cli("plan", INFO_ONLY, "--fail-on", "warning").exit_code == 0
    assert run_cli("plan", INFO_ONLY, "--fail-on", "info").exit_code == 1
    assert run_cli("plan", ERRORS).exit_code == 1
    assert run_cli("plan", ERRORS, "--fail-on", "none").exit_code == 0
    assert run_cli("plan", ERRORS, "-o", "json", "--fail-on", "none").exit_code == 0


def test_render_fail_on_blocks_rendering(tmp_path: Path) -> None:
    r = run_cli("render", WARN_ONLY, "--out", str(tmp_path / "a"))
    assert r.exit_code == 0 and (tmp_path / "a").is_dir()
    r = run_cli("render", WARN_ONLY, "--out", str(tmp_path / "b"), "--fail-on", "warning")
    assert r.exit_code == 1
    assert "1 finding at --fail-on warning" in r.stderr and "nothing rendered" in r.stderr
    assert not (tmp_path / "b").exists()
    r = run_cli("render", ERRORS, "--out", str(tmp_path / "c"), "--fail-on", "none")
    assert r.exit_code == 1 and "error" in r.stderr and not (tmp_path / "c").exists()


def test_diff_fail_on() -> None:
    plain = ("diff", CURRENT, DESIRED)
    assert run_cli(*plain).exit_code == 0  # one GP405 warning
    assert run_cli(*plain, "--fail-on", "warning").exit_code == 1
    with_workloads = (*plain, "-w", str(EXAMPLES / "workloads"))
    assert run_cli(*with_workloads).exit_code == 1  # GP402 errors
    assert run_cli(*with_workloads, "--fail-on", "none").exit_code == 0
    assert run_cli(*with_workloads, "--fail-on", "none", "--exit-code").exit_code == 1


def test_import_checks_the_imported_pools() -> None:
    r = run_cli("import", AZ_LIST)
    assert r.exit_code == 0  # import converts; it fails on findings only when asked
    assert "info GP128" in r.stderr and "apiVersion: gpupool/v1" in r.stdout
    assert "GP128" not in r.stdout
    r = run_cli("import", AZ_LIST, "--fail-on", "info")
    assert r.exit_code == 1 and "apiVersion: gpupool/v1" in r.stdout  # the specs are printed all the same
    assert run_cli("import", AZ_LIST, "--fail-on", "error").exit_code == int("error GP" in r.stderr)
    r = run_cli("import", AZ_LIST, "--fail-on", "info", "--ignore", "GP128,GP131")
    assert r.exit_code == int(" warning GP" in r.stderr or " error GP" in r.stderr)
    assert "GP128" not in r.stderr
    r = run_cli("import", AZ_LIST, "--fail-on", "sometimes")
    assert r.exit_code == 2 and r.stderr.startswith("gpupool: error: import: invalid value for '--fail-on'")
