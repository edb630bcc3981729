"""Packaging proof: build the sdist and the wheel (``python -m build``), check them (``twine check``), install
each wheel into a fresh virtual environment and run ``gpupool --version``, ``check`` and ``lint`` on the
examples from there, outside the source tree.

Two wheels: one with the optional C reader (``gpupool._cyaml``, built where libyaml's headers are, as here
and in CI), one built where the extension cannot be compiled. The second is made with ``CC=false``: the
compiler fails the way it fails without ``yaml.h``, so setuptools takes the same path it takes on a machine
without libyaml's headers (``optional=True``: a warning, and a wheel without the extension). Both wheels
must give the same results.

Offline: ``build --no-isolation`` uses the setuptools of this environment (a test extra) instead of
fetching one, and the wheel is installed with ``--no-index --no-deps``; its dependencies (typer, rich,
PyYAML, ...) come from this environment through a ``.pth`` line in the fresh environment (a plain path
entry, so this checkout's editable gpupool stays invisible there; the test checks which gpupool runs).
CI also reaches PyPI, but nothing here needs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

from gpupool import __version__
from support import REPO

pytestmark = pytest.mark.packaging

SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "src/")


def run(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None, check: bool = True):
    r = subprocess.run(
        list(args), cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True, timeout=600
    )
    if check and r.returncode != 0:
        raise AssertionError(f"{args} -> {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return r


def source_copy(dest: Path) -> Path:
    """This checkout's package sources (tracked and new files, nothing ignored: no built .so)."""
    listed = run("git", "ls-files", "--cached", "--others", "--exclude-standard", cwd=REPO, check=False)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    for name in listed.stdout.splitlines():
        if name.startswith(SOURCES) and (REPO / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, dest / name)
    return dest


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    src = source_copy(tmp_path_factory.mktemp("src"))
    dist = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(src))
    sdist = next(dist.glob("gpupool-*.tar.gz"))
    wheel = next(dist.glob("gpupool-*.whl"))
    plain_dir = tmp_path_factory.mktemp("dist-no-cext")
    shutil.rmtree(src / "build", ignore_errors=True)
    r = run(
        sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(plain_dir), str(src),
        env={"CC": "false"},
    )
    # setuptools skipped the optional extension, as it does without yaml.h
    assert 'building extension "gpupool._cyaml" failed' in r.stdout + r.stderr
    plain = next(plain_dir.glob("gpupool-*.whl"))
    return {"sdist": sdist, "wheel": wheel, "plain": plain}


def test_twine_check(built: dict[str, Path]) -> None:
    r = run(sys.executable, "-m", "twine", "check", "--strict", *(str(p) for p in built.values()))
    assert r.stdout.count("PASSED") == 3, r.stdout


def test_contents(built: dict[str, Path]) -> None:
    with tarfile.open(built["sdist"]) as tar:
        names = tar.getnames()
    root = f"gpupool-{__version__}"
    for needed in ("src/gpupool/_cyaml.c", "src/gpupool/catalog/data/vm_sizes.yaml", "setup.py", "README.md"):
        assert f"{root}/{needed}" in names, needed
    with zipfile.ZipFile(built["wheel"]) as whl:
        wheel_names = whl.namelist()
        entry_points = next(whl.read(n).decode() for n in wheel_names if n.endswith("entry_points.txt"))
    assert any(n.startswith("gpupool/_cyaml") and n.endswith(".so") for n in wheel_names)
    data = {
        p.relative_to(REPO / "src").as_posix()
        for p in (REPO / "src" / "gpupool").rglob("*")
        if p.is_file() and p.suffix in (".yaml", ".json", ".txt") and "__pycache__" not in p.parts
    }
    assert data and data <= set(wheel_names), sorted(data - set(wheel_names))  # every data file is shipped
    assert "gpupool = gpupool.cli.main:main" in entry_points
    assert "kubectl-gpupool = gpupool.cli.main:kubectl_main" in entry_points
    with zipfile.ZipFile(built["plain"]) as whl:
        assert not [n for n in whl.namelist() if n.startswith("gpupool/_cyaml") and n.endswith(".so")]


def fresh_env(root: Path, wheel: Path) -> Path:
    """A new virtual environment with ``wheel`` installed offline; dependencies from this environment."""
    run(sys.executable, "-m", "venv", "--without-pip", str(root))
    python = root / "bin" / "python"
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    purelib = run(str(python), "-c", code).stdout.strip()
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(purelib, "zz-gpupool-test-deps.pth").write_text("\n".join(sorted(deps)) + "\n")
    run(
        sys.executable, "-m", "pip", "--python", str(python), "install", "--no-index", "--no-deps",
        "--disable-pip-version-check", "-q", str(wheel),
    )
    return root


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The examples, away from the source tree (so data files must come from the installed wheel)."""
    work = tmp_path_factory.mktemp("work")
    shutil.copytree(REPO / "examples", work / "examples")
    return work


@pytest.mark.parametrize("kind", ["wheel", "plain"])
def test_installed_wheel_runs(kind: str, built: dict[str, Path], workdir: Path, tmp_path: Path) -> None:
    env_root = fresh_env(tmp_path / "venv", built[kind])
    gp = str(env_root / "bin" / "gpupool")
    python = str(env_root / "bin" / "python")
    code = "import gpupool, gpupool._yamlfast as f; print(gpupool.__file__, f._cyaml)"
    where = run(python, "-c", code).stdout
    assert where.startswith(str(env_root)), where  # the installed wheel runs, not this checkout
    assert ("None" in where) is (kind == "plain"), where  # C reader present only in the extension wheel
    env = {"NO_COLOR": "1"}
    assert run(gp, "--version", cwd=workdir, env=env).stdout == f"gpupool {__version__}\n"
    r = run(gp, "check", "examples/t4-driver-only.yaml", cwd=workdir, env=env)
    assert r.stdout.endswith("1 pool in 1 file: 0 errors, 0 warnings, 0 info\n")
    r = run(gp, "check", "examples/mistakes.yaml", cwd=workdir, env=env, check=False)
    assert r.returncode == 1 and "error GP105" in r.stdout
    pool = "examples/t4-driver-only.yaml"
    lint = [gp, "lint", "examples/workloads", "--pool", pool, "-o", "json", "-j", "1"]
    r = run(*lint, cwd=workdir, env=env, check=False)
    assert r.returncode == 1 and '"version": 1' in r.stdout
    dev = run(sys.executable, "-m", "gpupool", *lint[1:], cwd=workdir, env=env, check=False)
    assert r.stdout == dev.stdout  # same findings as the development install, with or without the C reader
    r = run(str(env_root / "bin" / "kubectl-gpupool"), "--version", cwd=workdir, env=env)
    assert r.stdout == f"gpupool {__version__}\n"
