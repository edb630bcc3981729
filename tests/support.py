"""Shared test helpers (import as ``from support import run_cli, make_pool``): run the real CLI in-process
or as a program, and small spec builders."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from gpupool.cli.main import app
from gpupool.spec import parse_pool

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
DATA = Path(__file__).resolve().parent / "data"


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
