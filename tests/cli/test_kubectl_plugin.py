"""``kubectl gpupool ...``: the ``kubectl-gpupool`` console script is a kubectl plugin. Checked with the real
kubectl (Debian: kubernetes-client; .ci/run installs it where missing): `kubectl plugin list` finds it and
commands run through kubectl with gpupool's exit codes and one-line errors."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support import EXAMPLES, REPO

BIN = Path(sys.executable).parent
KUBECTL = shutil.which("kubectl")

pytestmark = pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed (.ci/run installs it)")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    if not (BIN / "kubectl-gpupool").exists():
        pytest.fail("kubectl-gpupool is not installed next to this Python: pip install -e . again")
    kubeconfig = tmp_path / "kubeconfig"  # no cluster: nothing here may reach one
    kubeconfig.write_text("apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n")
    path = os.pathsep.join([str(BIN), str(Path(KUBECTL).parent), os.environ.get("PATH", "")])
    return {**os.environ, "PATH": path, "KUBECONFIG": str(kubeconfig), "NO_COLOR": "1"}


def kubectl(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [KUBECTL, *args], capture_output=True, text=True, env=env, cwd=REPO, timeout=120  # type: ignore[list-item]
    )


def test_plugin_list_finds_it(env: dict[str, str]) -> None:
    r = kubectl(env, "plugin", "list")
    assert r.returncode == 0, r.stderr
    found = [line for line in r.stdout.splitlines() if line.endswith("/kubectl-gpupool")]
    assert found and Path(found[0]).parent == BIN, r.stdout
    assert not [w for w in r.stderr.splitlines() if "kubectl-gpupool" in w], r.stderr  # not shadowed


def test_commands_run_through_kubectl(env: dict[str, str]) -> None:
    r = kubectl(env, "gpupool", "--version")
    assert r.returncode == 0 and r.stdout.startswith("gpupool "), r.stderr
    r = kubectl(env, "gpupool", "lint", str(EXAMPLES / "workloads" / "training.yaml"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("assuming Kubernetes 1.35, AKS's default on")  # no -k: AKS's default
    assert r.stdout.splitlines()[-1].startswith("Summary: 1 resource found in 1 file - Valid: 1")
    pool = str(EXAMPLES / "t4-driver-only.yaml")
    r = kubectl(env, "gpupool", "lint", str(EXAMPLES / "workloads"), "--pool", pool)
    assert r.returncode == 1 and "error GP" in r.stdout
    r = kubectl(env, "gpupool", "check", "-o", "json", str(EXAMPLES / "mistakes.yaml"))
    assert r.returncode == 1 and '"version": 1' in r.stdout


def test_usage_errors_through_kubectl(env: dict[str, str]) -> None:
    r = kubectl(env, "gpupool", "lnit")
    assert r.returncode == 2
    assert r.stderr.strip() == 'gpupool: error: no such command "lnit" (did you mean lint?)'
    r = kubectl(env, "gpupool", "--help")
    assert r.returncode == 0 and r.stdout.startswith("Usage: kubectl gpupool [OPTIONS] COMMAND")


def test_every_command_runs_through_kubectl(env: dict[str, str]) -> None:
    """`kubectl gpupool <command> --help` for every command in COMMANDS (doctor too, once it is there)."""
    from gpupool.cli.main import COMMANDS

    for name in COMMANDS:
        r = kubectl(env, "gpupool", name, "--help")
        assert r.returncode == 0, (name, r.stderr)
        assert r.stdout.startswith(f"Usage: kubectl gpupool {name} "), (name, r.stdout[:200])
