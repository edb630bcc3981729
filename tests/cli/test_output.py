"""Text output as CI sees it: through a real pipe, every command's text output keeps each value on one line
(nothing wraps at any width), and colour follows --color, NO_COLOR and FORCE_COLOR (checked on a pipe and
on a real pseudo-terminal)."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from support import EXAMPLES, REPO

ESC = "\x1b["
AZ = REPO / "tests" / "diff" / "data" / "az-list.json"


def piped(*args: str, env: dict[str, str] | None = None, cwd: Path = REPO) -> subprocess.CompletedProcess:
    """Run gpupool as a program with stdout and stderr on pipes (what a CI log gets)."""
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "COLUMNS")}
    return subprocess.run(
        [sys.executable, "-m", "gpupool", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**base, **(env or {})},
        timeout=120,
    )


def commands(tmp: Path) -> dict[str, list[str]]:
    """Every command with text output, on inputs that make it print tables, long values and findings."""
    ex = str(EXAMPLES)
    return {
        "check": ["check", f"{ex}/mistakes.yaml", f"{ex}/a100-mig-mixed.yaml"],
        "plan": ["plan", f"{ex}/a100-mig-mixed.yaml", f"{ex}/t4-time-sliced-spot.yaml"],
        "render": ["render", f"{ex}/t4-driver-only.yaml", "--out", str(tmp / "out"), "--format", "az"],
        "render-blocked": ["render", f"{ex}/mistakes.yaml", "--out", str(tmp / "none")],
        "lint": ["lint", f"{ex}/workloads", "--pool", f"{ex}/a100-mig-mixed.yaml"],
        "diff": [
            "diff", f"{ex}/diff/current-gpunp.json", f"{ex}/diff/desired-gpunp-a100.yaml",
            "-w", f"{ex}/workloads",
        ],
        "import": ["import", str(AZ)],
        "simulate": [
            "simulate", f"{ex}/a100-mig-mixed.yaml", f"{ex}/t4-driver-only.yaml",
            f"{ex}/workloads/training.yaml",
        ],
        "rules": ["rules"],
        "explain": ["explain", "GP105"],
        "preflight": ["preflight", f"{ex}/preflight/gpu.yaml", "--from", f"{ex}/preflight/az"],
        "preflight-commands": ["preflight", f"{ex}/preflight/gpu.yaml", "--print-commands"],
        "catalog": ["catalog", "--sources"],
    }


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """Each command's stdout+stderr at 40 and at 400 columns (COLUMNS is what Rich reads off a terminal)."""
    out: dict[str, dict[str, str]] = {}
    for width in ("40", "400"):
        tmp = tmp_path_factory.mktemp(f"w{width}")
        for name, argv in commands(tmp).items():
            r = piped(*argv, env={"COLUMNS": width})
            assert r.returncode in (0, 1), (name, r.stderr)
            text = (r.stdout + r.stderr).replace(str(tmp), "<TMP>")
            out.setdefault(name, {})[width] = text
    return out


def test_piped_output_does_not_depend_on_the_width(outputs: dict[str, dict[str, str]]) -> None:
    """Nothing wraps off a terminal: the text is the same at 40 and 400 columns, for every command."""
    for name, by_width in outputs.items():
        assert by_width["40"] == by_width["400"], name
        assert by_width["40"].strip(), name


def test_piped_output_keeps_values_whole(outputs: dict[str, dict[str, str]]) -> None:
    """Values once split at 80 columns (``28 \\n GiB``, ``...:No`` / ``Schedule``) stay on one line."""
    plan = outputs["plan"]["40"]
    assert "Standard_ND96asr_v4  (8 x NVIDIA A100 SXM4 40GB, 96 vCPU, 900 GiB)" in plan
    assert re.search(r"^taints +sku=gpu:NoSchedule$", plan, re.M)
    assert re.search(r"--node-vm-size 'Standard_ND96asr_v4'", plan)
    diff = outputs["diff"]["40"]
    taints = r"^nodeTaints +sku=gpu:NoSchedule +nvidia\.com/gpu=present:NoSchedule +update$"
    assert re.search(taints, diff, re.M)
    assert re.search(r"^vmSize +Standard_NC4as_T4_v3 +Standard_NC24ads_A100_v4 +recreate$", diff, re.M)
    sim = outputs["simulate"]["40"]
    assert re.search(r"^gpunp +Standard_NC4as_T4_v3 .*nvidia\.com/gpu \d+ used, \d+ free", sim, re.M)
    assert re.search(r"^ +scheduler: +0/\d+ nodes are available: .*preemption: ", sim, re.M)
    check = outputs["check"]["40"]
    assert re.search(r"^\S+mistakes\.yaml:9: error GP105 .* was retired on 2025-09-30", check, re.M)
    assert re.search(r"^    fix: ", check, re.M)
    lint = outputs["lint"]["40"]
    assert re.search(r"^Summary: \d+ resources found in \d+ files - Valid: ", lint, re.M)
    pre = outputs["preflight"]["40"]
    assert re.search(r"^\S+gpu\.yaml:15: error GP704 .* short by 24 vCPUs$", pre, re.M)
    cat = outputs["catalog"]["40"]
    t4 = r"^Standard_NC4as_T4_v3 +4 +28 +1 +T4 +recommended +cuda-lts +\d{4}-\d\d-\d\d$"
    assert re.search(t4, cat, re.M)
    assert re.search(r"^    source: \S.*AgentBaker", cat, re.M)
    for name, by_width in outputs.items():
        text = by_width["40"]
        assert ESC not in text, name
        assert not re.search(r" +$", text, re.M), f"{name}: trailing spaces"


def test_table_rows_are_aligned(outputs: dict[str, dict[str, str]]) -> None:
    lines = outputs["diff"]["40"].splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("FIELD"))
    header = lines[head]
    for row in lines[head + 1 : head + 5]:
        assert row[header.index("FROM") - 1] == " " and row[header.index("FROM")] != " ", row
        assert row[header.index("ACTION") - 1] == " ", row


@pytest.mark.parametrize(
    ("args", "env", "coloured"),
    [
        ([], {}, False),
        (["--color", "always"], {}, True),
        (["--color", "never"], {"FORCE_COLOR": "1"}, False),
        ([], {"FORCE_COLOR": "1"}, True),
        ([], {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
        (["--color", "always"], {"NO_COLOR": "1"}, True),
    ],
)
def test_colour_on_a_pipe(args: list[str], env: dict[str, str], coloured: bool) -> None:
    for argv in (["check", str(EXAMPLES / "mistakes.yaml")], ["lint", str(EXAMPLES / "workloads")]):
        r = piped(*args, *argv, env=env)
        assert r.returncode == 1
        assert (ESC in r.stdout) is coloured, (args, env, argv)


def on_a_terminal(*args: str, env: dict[str, str] | None = None) -> str:
    """Run gpupool with stdout on a real pseudo-terminal; return what it wrote there."""
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    leader, follower = pty.openpty()
    try:
        p = subprocess.Popen(
            [sys.executable, "-m", "gpupool", *args],
            stdout=follower,
            stderr=subprocess.DEVNULL,
            cwd=REPO,
            env={**base, "TERM": "xterm-256color", "COLUMNS": "100", **(env or {})},
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                data = os.read(leader, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        p.wait(timeout=120)
    finally:
        os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def test_colour_on_a_terminal_follows_no_color() -> None:
    spec = str(EXAMPLES / "mistakes.yaml")
    assert ESC in on_a_terminal("check", spec)
    assert ESC not in on_a_terminal("check", spec, env={"NO_COLOR": "1"})
    assert ESC not in on_a_terminal("--color", "never", "check", spec)
    assert ESC in on_a_terminal("--color", "always", "check", spec, env={"NO_COLOR": "1"})
