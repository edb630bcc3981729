"""Shared test helpers (import as ``from support import run_cli, make_pool``): run the real CLI in-process
or as a program, and small spec builders."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gpupool.cli.main import app
from gpupool.spec import parse_pool

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
DATA = Path(__file__).resolve().parent / "data"


def shared_dir() -> Path | None:
    """The team's shared folder (published manifests, recorded oracles), which is not part of the repository:
    ``$GPUPOOL_SHARED``, else ``<repo>/../shared`` (a checkout next to it). None when absent: tests that need
    it skip."""
    env = os.environ.get("GPUPOOL_SHARED")
    candidates = [Path(env)] if env else []
    candidates.append(REPO.parent / "shared")
    for c in candidates:
        if (c / "corpus" / "real").is_dir():
            return c
    return None


SHARED = shared_dir()
CORPUS = SHARED / "corpus" / "real" if SHARED else None
NO_CORPUS = "the shared corpus of published manifests (<repo>/../shared/corpus/real) is absent"
# Real Azure responses (the Azure CLI's test recordings) and what azure-cli 2.91.0 prints for them.
AZURE = SHARED / "corpus" / "azure" if SHARED and (SHARED / "corpus" / "azure" / "az").is_dir() else None
NO_AZURE = "the recorded Azure responses (<repo>/../shared/corpus/azure) are absent"


def shared_file(*parts: str) -> Path | None:
    """A file of the shared folder (``$GPUPOOL_SHARED``, else ``<repo>/../shared``), whether or not the corpus
    is there; None when absent."""
    env = os.environ.get("GPUPOOL_SHARED")
    for c in ([Path(env)] if env else []) + [REPO.parent / "shared"]:
        if (c.joinpath(*parts)).is_file():
            return c.joinpath(*parts)
    return None


# The OASIS SARIF 2.1.0 schema (with its source and licence in the shared folder; fetched files are not
# committed): SARIF output is validated against it where it is present, else the test skips.
SARIF_SCHEMA_FILE = shared_file("schemas", "sarif", "sarif-schema-2.1.0.json")
NO_SARIF_SCHEMA = "the SARIF 2.1.0 schema (<repo>/../shared/schemas/sarif) is absent"


def sarif_schema() -> dict:
    """The SARIF 2.1.0 schema; skips the calling test where the shared folder does not have it."""
    if SARIF_SCHEMA_FILE is None:
        pytest.skip(NO_SARIF_SCHEMA)
    return _load_json(SARIF_SCHEMA_FILE)


@functools.cache
def _load_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str


def run_cli(*args: str, input: str | None = None) -> Result:
    """Invoke the Typer app in-process (fast), with stdout and stderr kept apart."""
    runner = CliRunner()
    r = runner.invoke(
        app, list(args), input=input, catch_exceptions=False, env={"NO_COLOR": "1", "COLUMNS": "200"}
    )
    return Result(r.exit_code, r.stdout, r.stderr)


def run_program(*args: str, input: str | None = None, cwd: Path | None = None) -> Result:
    """Run ``python -m gpupool`` as a separate program: the real entry point, exit codes and streams."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    p = subprocess.run(
        [sys.executable, "-m", "gpupool", *args],
        input=input,
        capture_output=True,
        text=True,
        cwd=cwd or REPO,
        env=env,
        timeout=120,
    )
    return Result(p.returncode, p.stdout, p.stderr)


def pool_doc(
    vm_size: str = "Standard_NC4as_T4_v3",
    kind: str = "GpuNodePool",
    name: str = "gpunp",
    gpu: dict[str, Any] | None = None,
    **spec: Any,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "resourceGroup": "myResourceGroup",
        "clusterName": "myAKSCluster",
        "vmSize": vm_size,
    }
    body.update(spec)
    if gpu is not None:
        body["gpu"] = gpu
    return {"apiVersion": "gpupool/v1", "kind": kind, "metadata": {"name": name}, "spec": body}


def make_pool(vm_size: str = "Standard_NC4as_T4_v3", **kw: Any):
    return parse_pool(pool_doc(vm_size, **kw), "test.yaml")


def plain_same(a: Any, b: Any) -> bool:
    """``a`` (plain dicts and lists, as lint's readers build them) holds what ``b`` (yamlio's LineDict and
    LineList) holds: the same keys in the same order, the same values and the same types (1 is not True)."""
    if isinstance(b, dict):
        return (
            type(a) is dict
            and list(a) == list(b)
            and all(type(x) is type(y) for x, y in zip(a, b, strict=True))
            and all(plain_same(a[k], b[k]) for k in b)
        )
    if isinstance(b, list):
        return type(a) is list and len(a) == len(b) and all(map(plain_same, a, b))
    return type(a) is type(b) and (a == b or (a != a and b != b))


def data_paths(data: Any, prefix: tuple = ()) -> Any:
    """Every path into ``data``, and a missing key / index below each container (for locate tests)."""
    yield prefix
    if isinstance(data, dict):
        yield (*prefix, "no-such-key")
        for k, v in data.items():
            yield from data_paths(v, (*prefix, k))
    elif isinstance(data, list):
        yield (*prefix, len(data))
        for i, v in enumerate(data):
            yield from data_paths(v, (*prefix, i))


# One tainted T4 pool (1 GPU per node) as spec text: the pool most lint tests judge workloads against.
T4_POOL_YAML = """\
apiVersion: gpupool/v1
kind: GpuNodePool
metadata: {name: gpunp}
spec:
  resourceGroup: rg
  clusterName: aks
  vmSize: Standard_NC4as_T4_v3
  nodeTaints: ["sku=gpu:NoSchedule"]
"""
