"""Hostile input through every command: one line on stderr, exit 2 (or a clean verdict), never a traceback,
never a hang, never a half-written output."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support import EXAMPLES, run_cli, run_program

POOL = str(EXAMPLES / "t4-driver-only.yaml")


def _bomb() -> str:
    lines = ["a: &a [x,x,x,x,x,x,x,x,x,x]"]
    prev = "a"
    for name in "bcdefghij":
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 10) + "]")
        prev = name
    return "\n".join(lines) + "\n"


HOSTILE = {
    "binary.yaml": b"\x7fELF\x00\x00\x01\x02" * 64,
    "latin1.yaml": "name: caf\xe9\n".encode("latin-1"),
    "bomb.yaml": _bomb().encode(),
    "deep.yaml": ("[" * 3000 + "]" * 3000).encode(),
    "syntax.yaml": b"apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: [\n",
    "list.yaml": b"- 1\n- 2\n",
    "scalar.yaml": b"just a string\n",
    "wrongtype.yaml": b"apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: g}\n"
    b"spec: {resourceGroup: r, clusterName: c, vmSize: Standard_NC4as_T4_v3, nodeCount: {a: 1}}\n",
    "inject.yaml": b"apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: g}\n"
    b"spec: {resourceGroup: r, clusterName: c, vmSize: 'x; rm -rf ~', nodeTaints: ['a=$(id):NoSchedule']}\n",
}


def _commands(path: str, out: str) -> list[list[str]]:
    return [
        ["check", path],
        ["plan", path],
        ["render", path, "--out", out],
        ["diff", path, POOL],
        ["diff", POOL, path],
        ["import", path],
        ["simulate", path],
        ["preflight", path, "--from", str(EXAMPLES.parent / "tests" / "preflight" / "data" / "eastus")],
        ["check", POOL, "--skus", path],
        ["report", path, "--out", out],
    ]


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_files_exit_2_one_line(tmp_path, name):
    f = tmp_path / name
    f.write_bytes(HOSTILE[name])
    out = tmp_path / "out"
    for argv in _commands(str(f), str(out)):
        r = run_cli(*argv)
        assert r.exit_code == 2, (argv, r.exit_code, r.stdout, r.stderr)
        assert r.stderr.startswith("gpupool: error: ") and r.stderr.count("\n") == 1, (argv, r.stderr)
        assert "Traceback" not in r.stderr + r.stdout
        assert not out.exists(), f"{argv} wrote output for bad input"


def test_lint_keeps_going_past_bad_files(tmp_path):
    for name, raw in HOSTILE.items():
        (tmp_path / name).write_bytes(raw)
    good = tmp_path / "good.yaml"
    good.write_text((EXAMPLES / "workloads" / "gpu-test.yaml").read_text())
    r = run_cli("lint", str(tmp_path), "-o", "json")
    assert r.exit_code in (1, 2), r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr


def test_missing_file_and_directory(tmp_path):
    for argv in (["check", str(tmp_path / "nope.yaml")], ["plan", str(tmp_path / "nodir")]):
        r = run_program(*argv)
        assert r.exit_code == 2 and "Traceback" not in r.stderr and r.stderr.count("\n") == 1
    # an empty directory is nothing to check: exit 0 with a note, 4 with --fail-if-empty (README)
    r = run_program("plan", str(tmp_path))
    assert r.exit_code == 0 and "nothing to check" in r.stderr and "Traceback" not in r.stderr
    assert run_program("plan", str(tmp_path), "--fail-if-empty").exit_code == 4


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=200))
def test_check_never_crashes(tmp_path, text):
    f = tmp_path / "fuzz.yaml"
    f.write_text(text, encoding="utf-8")
    r = run_cli("check", str(f))
    assert r.exit_code in (0, 1, 2)
    if r.exit_code == 2:
        assert r.stderr.count("\n") == 1
