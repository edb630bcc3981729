"""One fixture pair (at least) per GPU rule: tests/lint/rules/<ID>/{pass,fail}-*.yaml.

Fixtures are self-contained: pool specs (apiVersion gpupool/v1) sit next to the workload in the same file,
as ``gpupool lint`` accepts them mixed into its inputs. A failing fixture marks the offending line with
``# <- GPxxx``; the rule must fire at exactly that line. A passing fixture must lint without any error or
warning at all (so a fixture pair also guards the other rules against false positives).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpupool import rules as registry
from gpupool.lint.engine import LintOptions, lint_paths

RULES_DIR = Path(__file__).parent / "rules"
MARK = re.compile(r"#\s*<-\s*(GP\d{3})")
FIXTURES = sorted(RULES_DIR.glob("GP*/*.yaml"))


def _expected(path: Path) -> list[tuple[str, int]]:
    return [
        (m.group(1), n)
        for n, line in enumerate(path.read_text().splitlines(), 1)
        for m in MARK.finditer(line)
    ]


def _lint(path: Path):
    return lint_paths([str(path)], options=LintOptions(jobs=1))


@pytest.mark.parametrize(
    "path", [p for p in FIXTURES if p.name.startswith("fail-")], ids=lambda p: p.parent.name + "/" + p.name
)
def test_failing_fixture(path: Path) -> None:
    rule = path.parent.name
    expected = _expected(path)
    assert expected, f"{path}: mark the offending line with '# <- {rule}'"
    result = _lint(path)
    got = {(f.rule, f.line) for f in result.findings}
    for rid, line in expected:
        assert (rid, line) in got, f"{path}: expected {rid} at line {line}, got {sorted(got)}"
    hit = next(f for f in result.findings if f.rule == rule)
    assert hit.path == str(path) and hit.object and hit.message
    assert result.exit_code == (1 if any(f.severity.value == "error" for f in result.findings) else 0)


@pytest.mark.parametrize(
    "path", [p for p in FIXTURES if p.name.startswith("pass-")], ids=lambda p: p.parent.name + "/" + p.name
)
def test_passing_fixture(path: Path) -> None:
    result = _lint(path)
    loud = [f"{f.location()} {f.rule} {f.message}" for f in result.findings if f.severity.value != "info"]
    assert not loud, f"{path}: {loud}"
    assert result.exit_code == 0


def test_every_workload_rule_has_a_fixture_pair() -> None:
    ids = [r.id for r in registry.family("gpupool.lint.rules") if hasattr(r.module, "check")]
    assert ids and all(i.startswith(("GP212", "GP3")) for i in ids)
    for rid in ids:
        names = [p.name for p in (RULES_DIR / rid).glob("*.yaml")]
        assert any(n.startswith("pass-") for n in names), f"{rid} has no passing fixture"
        assert any(n.startswith("fail-") for n in names), f"{rid} has no failing fixture"


def test_rule_modules_are_documented() -> None:
    lint_rules = registry.family("gpupool.lint.rules")
    assert [r.id for r in lint_rules] == sorted({r.id for r in lint_rules})
    for r in lint_rules:
        assert re.fullmatch(r"GP[23]\d\d", r.id), r.id
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", r.name), r.name
        assert r.summary and r.doc.startswith(f"{r.id} {r.name}:"), r.id
        assert "Fix" in r.doc or "fix" in r.doc, f"{r.id}: the documentation says how to fix it"
        if hasattr(r.module, "check"):
            assert "Failing example" in r.doc and "Passing example" in r.doc, r.id
            assert "Source" in r.doc or r.id == "GP308", f"{r.id}: the documentation cites its source"
        assert registry.lookup(r.id) is r and registry.lookup(r.name) is r
