"""The hooks in .pre-commit-hooks.yaml, run by the real pre-commit in a temporary git repository: a pool spec
with design errors blocks the commit, a clean one passes; lint blocks a manifest GPU pods can't run from.

The hook repository is a git copy of this checkout's files (what `pre-commit try-repo` does), referenced by
path: nothing is fetched. ``*-system`` hooks use the gpupool installed next to this Python. The
``language: python`` hooks make pre-commit create a virtualenv and ``pip install .`` the hook repository;
offline, pip gets no index (PIP_NO_INDEX), no dependencies (PIP_NO_DEPS) and no build isolation, so it
builds gpupool with the setuptools of this environment; the dependencies (typer, rich, ...) come from this
environment through PYTHONPATH. gpupool itself runs from pre-commit's virtualenv (checked). With a package
index (CI has PyPI) the hook installs its dependencies itself, as for any user.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from support import EXAMPLES, REPO

BIN = Path(sys.executable).parent
PRE_COMMIT = BIN / "pre-commit"

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="needs git"),
    pytest.mark.skipif(not PRE_COMMIT.exists(), reason="pre-commit is not installed (test extra)"),
]

HOOK_FILES = (".pre-commit-hooks.yaml", "pyproject.toml", "setup.py", "README.md", "src/")


def git(cwd: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("home")
    (home / "gitconfig").write_text("[init]\n\tdefaultBranch = main\n")
    drop = ("GIT_", "PRE_COMMIT", "PIP_", "VIRTUALENV_")
    keep = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    return {
        **keep,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "GIT_CONFIG_GLOBAL": str(home / "gitconfig"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
        "PRE_COMMIT_HOME": str(home / "pre-commit-cache"),
        "NO_COLOR": "1",
    }


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory, env: dict[str, str]) -> tuple[Path, str]:
    """A git repository with this checkout's hook manifest and package sources (tracked and new files)."""
    listed = git(REPO, "ls-files", "--cached", "--others", "--exclude-standard", env=env)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    dest = tmp_path_factory.mktemp("hookrepo")
    for name in listed.stdout.splitlines():
        if name.startswith(HOOK_FILES) and (REPO / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, dest / name)
    assert (dest / ".pre-commit-hooks.yaml").is_file()
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "hooks"]):
        assert git(dest, *args, env=env).returncode == 0
    rev = git(dest, "rev-parse", "HEAD", env=env).stdout.strip()
    return dest, rev


def user_repo(root: Path, hook_repo: tuple[Path, str], hooks: str, env: dict[str, str]) -> Path:
    repo_path, rev = hook_repo
    root.mkdir()
    (root / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {repo_path}\n    rev: {rev}\n    hooks:\n{hooks}"
    )
    assert git(root, "init", "-q", env=env).returncode == 0
    r = subprocess.run([str(PRE_COMMIT), "install"], cwd=root, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return root


def commit(root: Path, env: dict[str, str], *files: str) -> tuple[int, str]:
    """git add + git commit; the exit code and everything printed (git prints the hooks' output on stderr)."""
    assert git(root, "add", *files, env=env).returncode == 0
    r = git(root, "commit", "-m", "change", env=env)
    return r.returncode, r.stdout + r.stderr


def test_system_hooks_block_a_bad_spec_and_pass_a_clean_one(
    tmp_path: Path, hook_repo: tuple[Path, str], env: dict[str, str]
) -> None:
    hooks = (
        "      - id: gpupool-check-system\n"
        "      - id: gpupool-lint-system\n"
        "        args: [--pool, pools/gpu.yaml]\n"
    )
    root = user_repo(tmp_path / "user", hook_repo, hooks, env)
    (root / "pools").mkdir()
    shutil.copy(EXAMPLES / "mistakes.yaml", root / "pools" / "gpu.yaml")
    (root / "notes.yaml").write_text("not: a pool spec\n")  # outside pools/: no hook sees it
    rc, out = commit(root, env, ".pre-commit-config.yaml", "pools/gpu.yaml", "notes.yaml")
    assert rc != 0, out
    assert "gpupool check (AKS GPU pool specs, installed gpupool)" in out and "Failed" in out
    assert "error GP105" in out  # the retired NCv3 size, with its line
    assert git(root, "rev-parse", "--verify", "HEAD", env=env).returncode != 0  # nothing committed

    shutil.copy(EXAMPLES / "t4-driver-only.yaml", root / "pools" / "gpu.yaml")
    rc, out = commit(root, env, "pools/gpu.yaml")
    assert rc == 0, out
    assert "gpupool check (AKS GPU pool specs, installed gpupool)....." in out and "Passed" in out
    assert "1 pool in 1 file: 0 errors" not in out  # passing hooks stay quiet

    (root / "deploy").mkdir()
    shutil.copy(EXAMPLES / "workloads" / "gpu-test-bad.yaml", root / "deploy" / "pod.yaml")
    rc, out = commit(root, env, "deploy/pod.yaml")
    assert rc != 0 and "gpupool lint (Kubernetes manifests, installed gpupool)" in out
    assert "error GP" in out
    shutil.copy(EXAMPLES / "workloads" / "gpu-test.yaml", root / "deploy" / "pod.yaml")
    rc, out = commit(root, env, "deploy/pod.yaml")
    assert rc == 0, out


def test_python_hook_installs_gpupool_from_the_hook_repo_offline(
    tmp_path: Path, hook_repo: tuple[Path, str], env: dict[str, str]
) -> None:
    offline = {
        **env,
        "PIP_NO_INDEX": "1",
        "PIP_NO_DEPS": "1",
        "PIP_NO_BUILD_ISOLATION": "0",  # pip reads 0 here as: build without isolation
        "PIP_FIND_LINKS": "",
        "PYTHONPATH": sysconfig.get_paths()["purelib"],
        "VIRTUALENV_NO_PERIODIC_UPDATE": "1",
        "PRE_COMMIT_HOME": str(tmp_path / "cache"),
    }
    root = user_repo(tmp_path / "user", hook_repo, "      - id: gpupool-check\n", offline)
    (root / "pools").mkdir()
    shutil.copy(EXAMPLES / "mistakes.yaml", root / "pools" / "gpu.yaml")
    rc, out = commit(root, offline, ".pre-commit-config.yaml", "pools/gpu.yaml")
    assert rc != 0 and "error GP105" in out, out
    pattern = "repo*/py_env-*/lib/python*/site-packages/gpupool/cli/main.py"
    installed = list((tmp_path / "cache").glob(pattern))
    assert installed, out  # gpupool was installed into pre-commit's own environment from the hook repo
    shutil.copy(EXAMPLES / "t4-driver-only.yaml", root / "pools" / "gpu.yaml")
    rc, out = commit(root, offline, "pools/gpu.yaml")
    assert rc == 0, out
