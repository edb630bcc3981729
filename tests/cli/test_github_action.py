"""action.yml (a composite GitHub Action): the example workflow that uses it passes the real actionlint
(which reads action.yml for the inputs and outputs a workflow may use), the action's shell steps take every
input through env (never ``${{ }}`` inside a script) and pass shellcheck, and the steps themselves, run
here with bash as the runner would, write the exit codes and a SARIF report; hostile input stays data."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from support import EXAMPLES, REPO

BIN = Path(sys.executable).parent
ACTION = REPO / "action.yml"
WORKFLOW = EXAMPLES / "ci" / "github-workflow.yml"


def action() -> dict:
    return yaml.safe_load(ACTION.read_text())


def tool(name: str) -> str:
    found = shutil.which(name, path=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    if found is None:
        pytest.skip(f"{name} is not installed (test extra)")
    return found


def actionlint_repo(tmp_path: Path, workflow: str) -> subprocess.CompletedProcess:
    """A repository with the action at its root (``uses: ./``) and the workflow; actionlint over it."""
    shutil.copy(ACTION, tmp_path / "action.yml")
    (tmp_path / ".git").mkdir()  # actionlint finds the project root by its .git
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "gpupool.yml").write_text(workflow)
    env = {**os.environ, "PATH": f"{Path(tool('shellcheck')).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(
        [tool("actionlint"), "-no-color"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120
    )


def test_example_workflow_passes_actionlint(tmp_path: Path) -> None:
    r = actionlint_repo(tmp_path, WORKFLOW.read_text())
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("fail-on: error", "fail_on: error"), 'input "fail_on" is not defined in action'),
        (("outputs.lint-exit-code", "outputs.lint-status"), 'property "lint-status" is not defined'),
    ],
)
def test_actionlint_reads_the_action(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    """The check is real: a misspelt input or output of the action is an actionlint error."""
    text = WORKFLOW.read_text()
    assert change[0] in text
    r = actionlint_repo(tmp_path, text.replace(change[0], change[1]))
    assert r.returncode == 1 and message in r.stdout, r.stdout


def run_steps() -> list[dict]:
    return [s for s in action()["runs"]["steps"] if "run" in s]


def test_inputs_reach_scripts_only_through_env() -> None:
    meta = action()
    assert meta["runs"]["using"] == "composite"
    used: set[str] = set()
    for step in meta["runs"]["steps"]:
        if "run" in step:
            assert "${{" not in step["run"], step["name"]  # no expression is pasted into shell code
            assert step["shell"] == "bash"
        values = [*(step.get("env") or {}).values(), *(step.get("with") or {}).values(), step.get("if", "")]
        for value in values:
            used.update(re.findall(r"inputs\.([a-z-]+)", str(value)))
    assert used == set(meta["inputs"]), "every input is used, and only declared ones"
    text = ACTION.read_text()
    assert not re.search(r"run:[^\n]*\$\{\{", text)


def test_action_scripts_pass_shellcheck(tmp_path: Path) -> None:
    for i, step in enumerate(run_steps()):
        script = tmp_path / f"step{i}.sh"
        script.write_text("#!/usr/bin/env bash\n" + step["run"])
        r = subprocess.run([tool("shellcheck"), "-s", "bash", str(script)], capture_output=True, text=True)
        assert r.returncode == 0, (step["name"], r.stdout)


def run_step(name: str, env: dict[str, str], cwd: Path) -> tuple[int, dict[str, str]]:
    """Run one of the action's steps with bash, as a runner does (GITHUB_OUTPUT file, the step's env)."""
    step = next(s for s in run_steps() if s["name"] == name)
    out = cwd / f"output-{name.replace(' ', '-')}"
    out.write_text("")
    path = f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"
    full = {**os.environ, "PATH": path, "GITHUB_OUTPUT": str(out), **env}
    r = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=cwd, env=full, capture_output=True, text=True)
    outputs = dict(line.split("=", 1) for line in out.read_text().splitlines() if "=" in line)
    return r.returncode, outputs


def test_check_step(tmp_path: Path) -> None:
    ok = f"{EXAMPLES}/t4-driver-only.yaml\n{EXAMPLES}/a100-mig-mixed.yaml"
    assert run_step("gpupool check", {"POOLS": ok, "FAIL_ON": "error"}, tmp_path) == (0, {"exit-code": "0"})
    assert run_step("gpupool check", {"POOLS": ok, "FAIL_ON": "warning"}, tmp_path)[1] == {"exit-code": "1"}
    bad = str(EXAMPLES / "mistakes.yaml")
    assert run_step("gpupool check", {"POOLS": bad, "FAIL_ON": "error"}, tmp_path)[1] == {"exit-code": "1"}
    # hostile input is an argument, never shell code
    evil = f"{bad} $(touch pwned1) ;touch pwned2 `touch pwned3`"
    _, outputs = run_step("gpupool check", {"POOLS": evil, "FAIL_ON": "error; touch pwned4"}, tmp_path)
    assert outputs == {"exit-code": "2"}
    assert not list(tmp_path.glob("pwned*"))


def lint_has_fail_on() -> bool:
    r = subprocess.run([sys.executable, "-m", "gpupool", "lint", "--help"], capture_output=True, text=True)
    return "--fail-on" in r.stdout


def test_each_command_runs_once_and_one_sarif_file_has_every_run(tmp_path: Path) -> None:
    """check and lint each run once (text to the log, SARIF to a file); the SARIF step merges them into ONE
    SARIF 2.1.0 file (valid against the OASIS schema) with one run per command."""
    import jsonschema

    from support import sarif_schema

    temp = tmp_path / "runner-temp"
    temp.mkdir()
    common = {"FAIL_ON": "error", "RUNNER_TEMP": str(temp)}
    pools = str(EXAMPLES / "mistakes.yaml")
    rc, outputs = run_step("gpupool check", {**common, "POOLS": pools}, tmp_path)
    assert rc == 0 and outputs == {"exit-code": "1"}
    env = {**common, "PATHS": str(EXAMPLES / "workloads"), "POOLS": str(EXAMPLES / "t4-driver-only.yaml"),
           "KUBERNETES_VERSION": ""}
    rc, outputs = run_step("gpupool lint", env, tmp_path)
    assert rc == 0 and outputs == {"exit-code": "1"}
    rc, outputs = run_step("SARIF", {**common, "SARIF_FILE": "gpupool.sarif"}, tmp_path)
    assert rc == 0 and outputs == {"sarif-file": "gpupool.sarif"}
    sarif = json.loads((tmp_path / "gpupool.sarif").read_text())
    jsonschema.validate(sarif, sarif_schema())
    assert [r["automationDetails"]["id"] for r in sarif["runs"]] == ["gpupool/check/", "gpupool/lint/"]
    rules = [{x["ruleId"] for x in r["results"]} for r in sarif["runs"]]
    assert "GP105" in rules[0] and "GP201" in rules[1]
    assert not list(temp.iterdir())  # the per-command files are merged and removed
    one = str(EXAMPLES / "workloads" / "gpu-test.yaml")
    _, outputs = run_step("gpupool lint", {**env, "PATHS": one}, tmp_path)
    assert outputs["exit-code"] == "0"
    _, outputs = run_step("gpupool lint", {**env, "PATHS": "no-such-dir"}, tmp_path)
    assert outputs == {"exit-code": "2"}
    (temp / "gpupool-lint.sarif").unlink(missing_ok=True)
    (tmp_path / "gpupool.sarif").unlink()
    # nothing reported (bad input everywhere): no SARIF file, no output
    assert run_step("SARIF", {**common, "SARIF_FILE": "gpupool.sarif"}, tmp_path) == (0, {})
    assert not (tmp_path / "gpupool.sarif").exists()


def test_result_step_fails_on_the_worst_exit_code(tmp_path: Path) -> None:
    assert run_step("Result", {"CHECK_STATUS": "", "LINT_STATUS": ""}, tmp_path)[0] == 0
    assert run_step("Result", {"CHECK_STATUS": "0", "LINT_STATUS": "1"}, tmp_path)[0] == 1
    assert run_step("Result", {"CHECK_STATUS": "2", "LINT_STATUS": "1"}, tmp_path)[0] == 2


def test_lint_step_takes_a_directory_of_pools(tmp_path: Path) -> None:
    """pools: a directory (as the README's example has it) goes to lint's --pool as given: every command finds
    the pool specs in a directory the same way (other files and hidden folders are left); the real lint
    accepts it. The step runs with a gpupool on PATH that records its arguments."""
    import shutil

    pools = tmp_path / "gpu-pools"
    (pools / ".old").mkdir(parents=True)
    (pools / "sub").mkdir()
    shutil.copy(EXAMPLES / "t4-driver-only.yaml", pools / "gpu.yaml")
    shutil.copy(EXAMPLES / "a100-mig-mixed.yaml", pools / "sub" / "a100.yml")
    (pools / ".old" / "broken.yaml").write_text("apiVersion: gpupool/v1\nkind: GpuNodePool\n")
    (pools / "values.yaml").write_text("replicas: 1\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "argv"
    stub = bin_dir / "gpupool"
    stub.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" >> "{log}"\necho "--" >> "{log}"\n')
    stub.chmod(0o755)
    out = tmp_path / "output"
    out.write_text("")
    env = {
        **os.environ,
        "PATHS": str(EXAMPLES / "workloads"),
        "POOLS": str(pools),
        "FAIL_ON": "error",
        "KUBERNETES_VERSION": "",
        "SARIF_FILE": "gpupool.sarif",
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "GITHUB_OUTPUT": str(out),
    }
    step = next(x for x in run_steps() if x["name"] == "gpupool lint")
    r = subprocess.run(
        ["bash", "-e", "-c", step["run"]], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    first = log.read_text().split("--\n")[0].splitlines()
    given = sorted(first[i + 1] for i, a in enumerate(first) if a == "--pool")
    assert given == [str(pools)]
    from support import run_cli

    r = run_cli("lint", "--no-config", "--pool", str(pools), str(EXAMPLES / "workloads" / "gpu-test.yaml"))
    assert r.exit_code in (0, 1), r.stderr


def test_action_installs_gpupool_from_its_own_checkout(tmp_path: Path) -> None:
    """The install step runs ``pip install "$GITHUB_ACTION_PATH"`` (the checkout of the ref in ``uses:``)
    and nothing else: no version input, no package name a package index could serve (gpupool is on none,
    and the name could be taken). Run with bash and a ``python`` on PATH that records its arguments."""
    meta = action()
    assert "gpupool-version" not in meta["inputs"]
    step = next(s for s in run_steps() if s["name"] == "Install gpupool")
    assert "env" not in step  # no input reaches it
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "argv"
    for name in ("python", "gpupool"):
        stub = bin_dir / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\n')
        stub.chmod(0o755)
    checkout = tmp_path / "actions" / "owner repo" / "v1"  # a path with a space stays one argument
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "GITHUB_ACTION_PATH": str(checkout)}
    r = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=tmp_path, env=env, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    assert log.read_text().splitlines() == [
        f"python -m pip install --disable-pip-version-check {checkout}",
        "gpupool --version",
    ]
    docs = [ACTION, WORKFLOW, REPO / "README.md", REPO / ".pre-commit-hooks.yaml"]
    docs.append(REPO / "docs" / "DEVELOPING.md")
    text = "".join(p.read_text() for p in docs)
    index_install = r"pip install (?:-\S+ )*['\"]?gpupool(?:\[[^\]]*\])?(?:[=<>~!]=\S*)?['\"]?(?:\s|$|`)"
    assert not re.search(index_install, text, re.M), re.search(index_install, text, re.M)
    assert not re.search(r"(?i)gpupool (from|on) (pypi|the package index)", text)
    assert "gpupool==" not in text
