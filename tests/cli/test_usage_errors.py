"""Usage errors (Click's) are one line ``gpupool: error: ...`` on stderr with exit 2, for every command,
through the real program; with a did-you-mean for commands and options."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from gpupool.cli.main import COMMANDS, build_app
from support import EXAMPLES, run_cli, run_program

SPEC = str(EXAMPLES / "t4-driver-only.yaml")

CASES = [
    # argv, words the one line must hold
    (["check", "-o", "xml", SPEC], ["check:", "'xml' is not one of 'text', 'json'"]),
    (["lint", "-o", "xml", SPEC], ["lint:", "'xml'", "sarif"]),
    (["check", "--outptu", "json", SPEC], ["no such option: --outptu", "(did you mean --output?)"]),
    (["lint", "--kubernetes-versoin", "1.33", SPEC], ["(did you mean --kubernetes-version?)"]),
    (["chek", SPEC], ['no such command "chek"', "(did you mean check?)"]),
    (["simulat", SPEC], ["(did you mean simulate?)"]),
    (["xyzzy"], ['no such command "xyzzy"', "gpupool --help"]),
    (["check"], ["check:", "missing argument 'SPEC...'"]),
    (["preflight"], ["preflight:", "missing argument 'SPEC...'"]),
    (["diff", SPEC], ["diff:", "missing argument"]),
    (["--colr", "always", "check", SPEC], ["no such option: --colr", "(did you mean --color?)"]),
    (["--color", "sometimes", "check", SPEC], ["'sometimes' is not one of"]),
    (["simulate", "--default-max-pods", "0", SPEC], ["simulate:", "--default-max-pods"]),
    (["explain"], ["explain:", "missing argument 'RULE'"]),
    (["completion", "tcsh"], ["completion:", "'tcsh'"]),
]


def _one_error_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("gpupool: error: "), stderr
    assert "╭" not in lines[0] and "Usage:" not in lines[0]
    return lines[0]


@pytest.mark.parametrize(("argv", "words"), CASES, ids=[" ".join(c[0][:2]) for c in CASES])
def test_usage_error_is_one_line_exit_2_in_process(argv: list[str], words: list[str]) -> None:
    r = run_cli(*argv)
    assert r.exit_code == 2, (r.stdout, r.stderr)
    line = _one_error_line(r.stderr)
    for w in words:
        assert w in line
    assert r.stdout == ""


@pytest.mark.parametrize(
    "argv",
    [["check", "-o", "xml", SPEC], ["chek", SPEC], ["lint", "--outptu", "json"], ["check"]],
)
def test_usage_error_through_the_real_program(argv: list[str]) -> None:
    r = run_program(*argv)
    assert r.exit_code == 2
    _one_error_line(r.stderr)
    assert r.stdout == ""


def test_input_errors_keep_their_form() -> None:
    r = run_program("check", "no-such-file.yaml")
    assert r.exit_code == 2
    assert _one_error_line(r.stderr).startswith("gpupool: error: no-such-file.yaml")


def test_bare_gpupool_prints_help() -> None:
    r = run_program()
    assert r.exit_code == 0
    assert "Usage: gpupool" in r.stdout and "check" in r.stdout


def test_a_command_added_later_gets_the_same_errors() -> None:
    """Commands registered on the app (another module in COMMANDS) run under the same root class."""
    app = build_app(("gpupool.cli.check",))

    @app.command("later")
    def later(count: int = typer.Option(1, "--count")) -> None:
        typer.echo(f"count {count}")

    runner = CliRunner()
    r = runner.invoke(app, ["later", "--count", "many"])
    assert r.exit_code == 2
    line = _one_error_line(r.stderr)
    assert line.startswith("gpupool: error: later: invalid value for '--count'")
    r = runner.invoke(app, ["later", "--cuont", "2"])
    assert "(did you mean --count?)" in _one_error_line(r.stderr)
    assert runner.invoke(app, ["later", "--count", "2"]).stdout == "count 2\n"


def test_misspelt_command_suggests_commands_not_loaded() -> None:
    """main() loads only the module of the command run; a typo still gets a suggestion from COMMANDS."""
    app = build_app(("gpupool.cli.check",))
    r = CliRunner().invoke(app, ["simulat"])
    assert "(did you mean simulate?)" in _one_error_line(r.stderr)
    assert "simulate" in COMMANDS


def test_help_never_cuts_option_names() -> None:
    for argv in (["lint", "--help"], ["simulate", "--help"], ["diff", "--help"]):
        r = run_program(*argv)
        assert r.exit_code == 0
        assert "…" not in r.stdout
        assert "╭" not in r.stdout
    lint_help = run_program("lint", "--help").stdout
    for name in ("--kubernetes-version", "--reject-unknown / --skip-unknown", "--disallow-ignores"):
        assert name in lint_help
    sim_help = run_program("simulate", "--help").stdout
    assert "--extended-resource-toleration" in sim_help


def test_help_at_80_columns_keeps_option_names() -> None:
    env = {**os.environ, "COLUMNS": "80"}
    out = subprocess.run(
        [sys.executable, "-m", "gpupool", "simulate", "--help"], capture_output=True, text=True, env=env
    ).stdout
    assert "--extended-resource-toleration" in out
    assert "--kubernetes-version" in out
    assert max(len(line) for line in out.splitlines()) <= 110
    check = subprocess.run(
        [sys.executable, "-m", "gpupool", "check", "--help"], capture_output=True, text=True, env=env
    ).stdout
    assert not re.search(r"-\n", check), check  # no word (--fail-on, scale-from-zero) broken at a hyphen
    assert "--fail-on warning" in check.replace("\n", " ") or "--fail-on\n" in check
