"""The README's commands x formats/flags table is true: every cell is run through the real CLI on a bundled
example ("yes": it works and its output is what it claims; "no": refused with one line, exit 2). Also the
one exit-code contract, per command."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from support import EXAMPLES, REPO, run_cli, run_program, sarif_schema

SNAPSHOT = REPO / "tests" / "doctor" / "snapshots" / "cuda-too-new"
EX = str(EXAMPLES)


def table() -> tuple[list[str], dict[str, dict[str, str]]]:
    text = (REPO / "README.md").read_text()
    start = text.index("<!-- commands-table:")
    lines = text[start:].splitlines()[1:]
    rows = [line for line in lines[: next(i for i, x in enumerate(lines) if not x.startswith("|"))]]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    cells = {}
    for row in rows[2:]:
        values = [c.strip() for c in row.strip("|").split("|")]
        cells[values[0]] = dict(zip(header[1:], values[1:], strict=True))
    return header[1:], cells


COLUMNS, CELLS = table()


def base(command: str, tmp: Path) -> list[str]:
    """The command on a bundled example (files)."""
    return {
        "check": ["check", f"{EX}/t4-driver-only.yaml"],
        "plan": ["plan", f"{EX}/t4-driver-only.yaml"],
        "lint": ["lint", f"{EX}/workloads/gpu-test.yaml"],
        "diff": ["diff", f"{EX}/diff/current-gpunp.json", f"{EX}/diff/desired-gpunp-a100.yaml"],
        "simulate": ["simulate", f"{EX}/a100-mig-mixed.yaml", f"{EX}/workloads/training.yaml"],
        "doctor": ["doctor", "--snapshot", str(SNAPSHOT)],
        "preflight": ["preflight", f"{EX}/preflight/gpu.yaml", "--from", f"{EX}/preflight/az"],
        "render": ["render", f"{EX}/t4-driver-only.yaml", "--out", str(tmp / "out")],
        "report": ["report", f"{EX}/t4-driver-only.yaml", "--out", str(tmp / "page.html")],
    }[command]


def with_directory(command: str, tmp: Path) -> list[str]:
    """The same command given a directory instead of a file."""
    pools = tmp / "pools"
    pools.mkdir(exist_ok=True)
    (pools / "t4.yaml").write_text((EXAMPLES / "t4-driver-only.yaml").read_text())
    return {
        "check": ["check", str(pools)],
        "plan": ["plan", str(pools)],
        "lint": ["lint", f"{EX}/workloads"],
        "diff": ["diff", f"{EX}/diff/current-gpunp.json", f"{EX}/diff", "-w", f"{EX}/workloads"],
        "simulate": ["simulate", f"{EX}/a100-mig-mixed.yaml", f"{EX}/workloads"],
        "doctor": ["doctor", "--snapshot", str(SNAPSHOT), "--pool", str(pools)],
        "preflight": ["preflight", f"{EX}/preflight", "--from", f"{EX}/preflight/az"],
        "render": ["render", str(pools), "--out", str(tmp / "out")],
        "report": ["report", str(pools), f"{EX}/workloads", "--out", str(tmp / "page.html")],
    }[command]


def check_format(fmt: str, out: str) -> None:
    if fmt == "json":
        assert json.loads(out)["version"] == 1
    elif fmt == "sarif":
        log = json.loads(out)
        jsonschema.validate(log, sarif_schema())
        assert log["runs"][0]["automationDetails"]["id"].startswith("gpupool/")
    elif fmt == "junit":
        assert ET.fromstring(out.split("\n", 1)[1]).tag == "testsuites"
    elif fmt == "github":
        assert all(re.match(r"::(error|warning|notice) ", line) for line in out.splitlines())


CASES = [(cmd, col) for cmd in CELLS for col in COLUMNS]


@pytest.mark.parametrize(("command", "column"), CASES, ids=[f"{c}-{k}" for c, k in CASES])
def test_readme_table_cell(command: str, column: str, tmp_path: Path) -> None:
    want = CELLS[command][column]
    assert want in ("yes", "no"), (command, column, want)
    argv = base(command, tmp_path)
    if column in ("text", "json", "sarif", "junit", "github"):
        argv += ["-o", column]
    elif column == "--output-file":
        argv += ["-o", "json", "--output-file", str(tmp_path / "out.json")]
    elif column == "--fail-on":
        argv += ["--fail-on", "none"]
    elif column in ("--exit-zero", "--fail-if-empty"):
        argv += [column]
    elif column == "--severity":
        argv += ["--severity", "error"]
    elif column == "--exclude":
        argv += ["--exclude", "nothing-matches-*"]
    elif column == "directories":
        argv = with_directory(command, tmp_path)
    elif column == "--config":  # read and checked whole: a misspelt key in its section is bad input
        cfg = tmp_path / "gpupool-config.yaml"
        cfg.write_text(f"{command}:\n  rulez: {{}}\n")
        r = run_cli(*argv, "--config", str(cfg))
        assert r.exit_code == 2 and f'{command}: unknown field "rulez" (did you mean "rules"?)' in r.stderr
        cfg.write_text(f"rules: {{GP128: warning}}\n{command}:\n  rules: {{}}\n")
        argv = [*argv, "--config", str(cfg)]
    r = run_cli(*argv)
    if want == "no":
        assert r.exit_code == 2, (argv, r.stdout, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("gpupool: error:")
        return
    assert r.exit_code in (0, 1), (argv, r.stdout, r.stderr)
    if column in ("json", "sarif", "junit", "github"):
        check_format(column, r.stdout)
    elif column == "--output-file":
        check_format("json", (tmp_path / "out.json").read_text())
        assert not list(tmp_path.glob(".out.json.*"))  # no temporary file left behind
    elif column in ("--fail-on", "--exit-zero"):
        assert r.exit_code == 0 or command == "report"  # report: a spec with errors always fails
    elif column == "--severity":
        assert not re.search(r"\b(warning|info) GP\d+", r.stdout)


def test_table_covers_every_findings_command() -> None:
    assert set(CELLS) == {
        "check", "plan", "lint", "diff", "simulate", "doctor", "preflight", "render", "report"
    }


# ---- the exit-code contract, per command ---------------------------------------------------------------


def test_exit_2_for_unusable_input_in_every_command(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [\n")
    for argv in (
        ["check", str(bad)],
        ["plan", str(bad)],
        ["lint", "--no-config", str(bad)],
        ["diff", str(bad), f"{EX}/diff/desired-gpunp-a100.yaml"],
        ["simulate", str(bad)],
        ["doctor", "--snapshot", str(tmp_path / "missing")],
        ["preflight", str(bad), "--from", f"{EX}/preflight/az"],
        ["render", str(bad), "--out", str(tmp_path / "o")],
        ["report", str(bad), "--out", str(tmp_path / "p.html")],
    ):
        r = run_cli(*argv, "--exit-zero") if argv[0] not in ("render", "report") else run_cli(*argv)
        assert r.exit_code == 2, (argv, r.stdout, r.stderr)
        assert "gpupool: error:" in r.stderr or "GP200" in r.stdout


def test_exit_1_and_exit_zero(tmp_path: Path) -> None:
    for argv in (["check", f"{EX}/mistakes.yaml"], ["plan", f"{EX}/mistakes.yaml"],
                 ["lint", "--no-config", f"{EX}/workloads/gpu-test-bad.yaml"],
                 ["diff", f"{EX}/diff/current-gpunp.json", f"{EX}/diff/desired-gpunp-a100.yaml",
                  "-w", f"{EX}/workloads"],
                 ["simulate", f"{EX}/a100-mig-mixed.yaml", f"{EX}/workloads/training.yaml"],
                 ["doctor", "--snapshot", str(SNAPSHOT)],
                 ["preflight", f"{EX}/preflight/gpu.yaml", "--from", f"{EX}/preflight/az"]):
        assert run_cli(*argv).exit_code == 1
        assert run_cli(*argv, "--exit-zero").exit_code == 0
        assert run_cli(*argv, "--fail-on", "none").exit_code == 0


def test_nothing_to_check(tmp_path: Path) -> None:
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing here\n")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "x.yaml").write_bytes(b"\x00\x01\x02")
    for target in (empty, tmp_path / "bin"):
        r = run_cli("lint", "--no-config", str(target))
        assert r.exit_code == 0 and "nothing to check" in r.stderr, r.stderr
        assert run_cli("lint", "--no-config", str(target), "--fail-if-empty").exit_code == 4
        for command in ("check", "plan"):
            r = run_cli(command, str(target))
            assert r.exit_code == 0 and "nothing to check" in r.stderr, r.stderr
            assert run_cli(command, str(target), "--fail-if-empty").exit_code == 4
    # documents that are not pool specs are not "nothing": check refuses them (exit 2)
    assert run_cli("check", f"{EX}/workloads/gpu-test.yaml", "--fail-if-empty").exit_code == 2


def test_severity_filters_display_not_exit_code() -> None:
    r = run_cli("check", f"{EX}/mistakes.yaml", "--severity", "error", "-o", "json")
    d = json.loads(r.stdout)
    assert r.exit_code == 1 and {f["severity"] for f in d["findings"]} == {"error"}
    r = run_cli("check", f"{EX}/a100-mig-mixed.yaml", "--severity", "error", "--fail-on", "warning")
    assert r.exit_code == 1 and "warning GP" not in r.stdout


def test_output_file_is_atomic_and_text_stays_on_stdout(tmp_path: Path) -> None:
    out = tmp_path / "r.sarif"
    r = run_cli("check", f"{EX}/mistakes.yaml", "-o", "sarif", "--output-file", str(out))
    assert r.exit_code == 1 and "GP105" in r.stdout  # the text report for the log
    jsonschema.validate(json.loads(out.read_text()), sarif_schema())
    # a destination that cannot be written: exit 2, nothing half-written
    bad = str(tmp_path / "no" / "x.json")
    r = run_cli("check", f"{EX}/mistakes.yaml", "-o", "json", "--output-file", bad)
    assert r.exit_code == 2 and not (tmp_path / "no").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["r.sarif"]


def test_render_and_report_refuse_the_old_output_spelling(tmp_path: Path) -> None:
    for argv in (["report", f"{EX}/t4-driver-only.yaml", "-o", "json"],
                 ["render", f"{EX}/t4-driver-only.yaml", "--output", str(tmp_path / "out")]):
        r = run_program(*argv, cwd=tmp_path)
        assert r.exit_code == 2 and "--out" in r.stderr and len(r.stderr.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []  # no HTML file named json


def test_simulate_takes_a_directory() -> None:
    r = run_program("simulate", f"{EX}/a100-mig-mixed.yaml", f"{EX}/workloads", "-o", "json")
    assert r.exit_code in (0, 1), r.stderr
    assert json.loads(r.stdout)["version"] == 1


def test_internal_error_is_one_line_with_the_version(monkeypatch, capsys) -> None:
    from gpupool import __version__
    from gpupool.cli import common

    class Boom:
        def __call__(self, prog_name: str) -> None:
            raise RuntimeError("boom")

    monkeypatch.delenv("GPUPOOL_DEBUG", raising=False)
    with pytest.raises(SystemExit) as e:
        common.run_app(Boom())  # type: ignore[arg-type]
    assert e.value.code == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error" in err and __version__ in err and "report" in err
    assert "Traceback" not in err


def test_github_annotations_escape_as_the_spec_says() -> None:
    from gpupool.findings import Finding, Severity
    from gpupool.report.github import annotation

    f = Finding("GP101", Severity.WARNING, "100% bad\nnext\rline", path="a:b,c.yaml", line=3, column=2)
    assert annotation(f) == "::warning file=a%3Ab%2Cc.yaml,line=3,col=2,title=GP101::100%25 bad%0Anext%0Dline"
    info = Finding("GP130", Severity.INFO, "m", path="<stdin>", object="Pod x")
    assert annotation(info) == "::notice title=GP130::Pod x: m"


def test_summary_plurals() -> None:
    from gpupool.cli.findings_options import plural

    assert [plural(1, "warning"), plural(2, "warning"), plural(0, "error"), plural(2, "info")] == [
        "1 warning", "2 warnings", "0 errors", "2 info"]
    assert plural(1, "Pending GPU pod") == "1 Pending GPU pod"


def test_summary_lines_say_one_thing_in_the_singular(tmp_path: Path) -> None:
    """The glitches: "1 warnings", "1 Pending GPU pods", "6 pool(s)" on stderr."""
    from gpupool.cli.doctor import text_report as render
    from gpupool.doctor.engine import DoctorResult
    from gpupool.findings import Finding, Severity

    one = Finding("GP601", Severity.WARNING, "m", object="node n")
    summary = {"nodes": 1, "gpuNodes": 1, "gpuNodesAdvertising": 0, "pods": 1, "pendingGpuPods": 1,
               "findings": {"error": 0, "warning": 1, "info": 0}}
    text = render(DoctorResult("snapshot x", [one], [], [], summary))
    assert "1 node (1 GPU" in text and "1 pod, 1 Pending GPU pod\n" in text
    assert text.rstrip().endswith("0 errors, 1 warning, 0 info")
    r = run_cli("report", f"{EX}/t4-driver-only.yaml", "--out", str(tmp_path / "p.html"))
    assert "KiB, 1 pool)" in r.stderr and "(s)" not in r.stderr
    r = run_cli("check", f"{EX}/a100-mig-mixed.yaml")
    assert r.stdout.rstrip().endswith("2 pools in 1 file: 0 errors, 1 warning, 0 info")
