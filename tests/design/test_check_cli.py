"""``gpupool check``, ``explain`` and ``rules`` through the CLI (in-process and as a program)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import EXAMPLES, run_cli, run_program

RULES = Path(__file__).parent / "rules"
CLEAN = str(EXAMPLES / "t4-driver-only.yaml")
RETIRED = str(RULES / "GP105" / "fail-ncv3.yaml")  # GP105 error + nothing worse
WARN_ONLY = str(RULES / "GP126" / "fail-no-taint.yaml")  # GP126 warning, no error
SPOT_INFO = str(RULES / "GP131" / "fail-spot.yaml")  # GP131 info only
OTHER_CLEAN = str(RULES / "GP127" / "pass-linux-12.yaml")  # another pool name, no findings


# ---- check: exit codes and text ---------------------------------------------------------------------


def test_check_clean_example_exits_0() -> None:
    r = run_cli("check", CLEAN)
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "1 pool in 1 file: 0 errors, 0 warnings, 0 info" in r.stdout
    assert r.stderr == ""


def test_check_error_exits_1_with_location_rule_and_fix() -> None:
    r = run_cli("check", RETIRED)
    assert r.exit_code == 1
    assert f"{RETIRED}:9: error GP105 GpuNodePool gpunp: vmSize Standard_NC6s_v3" in r.stdout
    assert "fix: use Standard_NC4as_T4_v3" in r.stdout
    assert "1 error" in r.stdout.splitlines()[-1]


def test_check_warnings_exit_0_unless_strict() -> None:
    assert run_cli("check", WARN_ONLY).exit_code == 0
    r = run_cli("check", "--strict", WARN_ONLY)
    assert r.exit_code == 1
    assert "--fail-on warning: warnings fail" in r.stdout
    assert run_cli("check", "--fail-on", "warning", WARN_ONLY).exit_code == 1


def test_info_never_fails_even_strict() -> None:
    assert run_cli("check", "--strict", SPOT_INFO).exit_code == 0


def test_fail_on_info_and_none() -> None:
    assert run_cli("check", "--fail-on", "info", SPOT_INFO).exit_code == 1
    assert run_cli("check", "--fail-on", "none", RETIRED).exit_code == 0
    assert run_cli("check", "--fail-on", "bogus", CLEAN).exit_code == 2


def test_ignore_by_id_name_and_comma_list() -> None:
    r = run_cli("check", "--ignore", "GP105", RETIRED)
    assert r.exit_code == 0
    assert "GP105" not in r.stdout.replace("(1 ignored)", "")
    assert "(1 ignored)" in r.stdout
    assert run_cli("check", "--ignore", "retired-vm-size", RETIRED).exit_code == 0
    assert run_cli("check", "--ignore", "gp126,GP105", RETIRED).exit_code == 0


def test_ignore_unknown_rule_is_bad_usage() -> None:
    r = run_cli("check", "--ignore", "GP1055", CLEAN)
    assert r.exit_code == 2
    assert 'unknown rule "GP1055"' in r.stderr
    assert "did you mean GP105" in r.stderr


def test_findings_grouped_per_file_and_sorted() -> None:
    prefer = str(RULES / "GP126" / "fail-prefer.yaml")
    r = run_cli("check", prefer, WARN_ONLY)  # both define pool gpunp of myAKSCluster
    lines = [ln for ln in r.stdout.splitlines() if ": error " in ln or ": warning " in ln]
    paths = [ln.split(":", 1)[0] for ln in lines]
    assert paths == sorted(paths)
    assert "2 pools in 2 files" in r.stdout
    assert any("GP132" in ln and "also defined at" in ln for ln in lines)
    assert r.exit_code == 1


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: x}\nspec: {vmSize: [}\n",
         "invalid YAML"),
        ("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n", "not a pool spec"),
        ("apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\nspec:\n  vmSise: x\n",
         'did you mean "vmSize"'),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path: Path, content: str, needle: str) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(content)
    r = run_cli("check", str(f))
    assert r.exit_code == 2
    assert r.stdout == ""
    assert needle in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert r.stderr.startswith(f"gpupool: error: {f}")


def test_missing_file_exits_2() -> None:
    r = run_cli("check", "does-not-exist.yaml")
    assert r.exit_code == 2
    assert "does-not-exist.yaml: no such file" in r.stderr


def test_stdin() -> None:
    r = run_cli("check", "-", input=Path(RETIRED).read_text())
    assert r.exit_code == 1
    assert "<stdin>:9: error GP105" in r.stdout


# ---- check -o json ------------------------------------------------------------------------------------


def test_json_shape() -> None:
    r = run_cli("check", "-o", "json", RETIRED, OTHER_CLEAN)
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    assert doc["version"] == 1
    assert doc["summary"] == {"error": 1, "warning": 0, "info": 0, "pools": 2, "files": 2, "ignored": 0}
    (f,) = doc["findings"]
    assert {"rule", "severity", "message", "path", "line", "fix", "object"} <= set(f)
    assert (f["rule"], f["severity"], f["path"], f["line"]) == ("GP105", "error", RETIRED, 9)
    assert f["object"] == "GpuNodePool gpunp"
    assert f["retired"] == "2025-09-30"


def test_json_ignore_and_clean() -> None:
    doc = json.loads(run_cli("check", "-o", "json", "--ignore", "GP105", RETIRED).stdout)
    assert doc["findings"] == []
    assert doc["summary"]["ignored"] == 1


# ---- explain / rules ------------------------------------------------------------------------------------


def test_explain_by_id_and_name() -> None:
    for key in ("GP105", "gp105", "retired-vm-size"):
        r = run_cli("explain", key)
        assert r.exit_code == 0, r.stderr
        assert r.stdout.startswith("GP105 retired-vm-size:")
        assert "Severity: error" in r.stdout
        assert "Source:" in r.stdout and "Failing example" in r.stdout and "Passing example" in r.stdout


def test_explain_unknown_rule_exits_2_with_close_matches() -> None:
    r = run_cli("explain", "retired-vm-sise")
    assert r.exit_code == 2
    assert "did you mean retired-vm-size" in r.stderr
    r = run_cli("explain", "GP1O5")
    assert r.exit_code == 2
    assert "GP105" in r.stderr


def test_explain_json() -> None:
    doc = json.loads(run_cli("explain", "-o", "json", "GP129").stdout)
    assert doc["version"] == 1
    assert doc["rule"]["id"] == "GP129" and doc["rule"]["name"] == "cuda-driver"
    assert "minor-version" in doc["rule"]["doc"]


def test_rules_lists_every_registered_rule() -> None:
    from gpupool.rules import all_rules

    r = run_cli("rules")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[0].split() == ["ID", "SEVERITY", "NAME", "SUMMARY"]
    for rid, info in all_rules().items():
        assert any(ln.startswith(rid) and info.name in ln for ln in r.stdout.splitlines()), rid
    doc = json.loads(run_cli("rules", "-o", "json").stdout)
    assert doc["version"] == 1
    assert [x["id"] for x in doc["rules"]] == sorted(all_rules())
    gp105 = next(x for x in doc["rules"] if x["id"] == "GP105")
    assert gp105 == {"id": "GP105", "name": "retired-vm-size", "severity": "error",
                     "summary": gp105["summary"], "family": "design (GP1xx)"}


def test_help_teaches() -> None:
    r = run_cli("check", "--help")
    assert r.exit_code == 0
    for needle in ("Exit codes", "--ignore", "--strict", "gpupool explain", "json"):
        assert needle in r.stdout


# ---- the real entry point --------------------------------------------------------------------------------


def test_program_exit_codes_and_json() -> None:
    ok = run_program("check", CLEAN)
    assert ok.exit_code == 0, ok.stderr
    bad = run_program("check", "-o", "json", RETIRED)
    assert bad.exit_code == 1
    doc = json.loads(bad.stdout)
    assert doc["version"] == 1 and doc["findings"][0]["rule"] == "GP105"
    missing = run_program("check", "nope.yaml")
    assert missing.exit_code == 2
    assert missing.stdout == ""
    assert missing.stderr.strip() == "gpupool: error: nope.yaml: no such file"
    assert run_program("explain", "GP999").exit_code == 2
