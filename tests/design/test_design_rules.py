"""Fixture-driven tests for every design rule (GP1xx).

Layout: ``tests/design/rules/<ID>/pass-*.yaml`` and ``fail-*.yaml`` (or ``pass-*/`` / ``fail-*/``
directories of several spec files, checked together, for cross-file rules). A failing fixture marks each
line where the rule must report with a trailing comment ``# <- GP1xx`` (optionally ``# <- GP1xx:warning``
to pin the severity of that finding); the rule must report on exactly those lines. A passing fixture must
not produce the rule at all.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpupool.design.check import check_pools, design_rules
from gpupool.spec import load_many

RULES_DIR = Path(__file__).parent / "rules"
MARK = re.compile(r"#\s*<-\s*(GP\d{3})(?::(error|warning|info))?")


def _fixtures() -> list[tuple[str, Path]]:
    out = []
    for rule_dir in sorted(p for p in RULES_DIR.iterdir() if p.is_dir()):
        for entry in sorted(rule_dir.iterdir()):
            if entry.name.startswith(("pass-", "fail-")):
                out.append((rule_dir.name, entry))
    return out


FIXTURES = _fixtures()


def _files(entry: Path) -> list[Path]:
    return sorted(entry.glob("*.yaml")) if entry.is_dir() else [entry]


def _expected(rule: str, files: list[Path]) -> dict[tuple[str, int], str | None]:
    """(path, line) -> expected severity (None: any) for every ``# <- RULE`` marker."""
    out = {}
    for f in files:
        for n, text in enumerate(f.read_text().splitlines(), start=1):
            for m in MARK.finditer(text):
                if m.group(1) == rule:
                    out[(str(f), n)] = m.group(2)
    return out


@pytest.mark.parametrize(
    ("rule", "fixture"),
    FIXTURES,
    ids=[f"{rule}/{entry.name}" for rule, entry in FIXTURES],
)
def test_rule_fixture(rule: str, fixture: Path) -> None:
    files = _files(fixture)
    skus = fixture / "skus.json" if fixture.is_dir() else None  # sizes from the user's az vm list-skus
    try:
        if skus is not None and skus.is_file():
            from gpupool.preflight.listskus import use_list_skus

            use_list_skus(skus)
        findings = check_pools(load_many([str(f) for f in files]))
    finally:
        from gpupool import catalog

        catalog.clear_user_sizes()
    mine = [f for f in findings if f.rule == rule]
    if fixture.name.startswith("pass-"):
        assert not mine, f"{rule} should not report on {fixture.name}: " + "; ".join(f.message for f in mine)
        return
    expected = _expected(rule, files)
    assert expected, f"{fixture} has no '# <- {rule}' marker"
    got = {(f.path, f.line) for f in mine}
    assert got == set(expected), (
        f"{rule} reported at {sorted(got)}, expected {sorted(expected)}: "
        + "; ".join(f"{f.line}: {f.message}" for f in mine)
    )
    for f in mine:
        want = expected[(f.path, f.line)]
        if want is not None:
            assert f.severity.value == want, f"{rule} at line {f.line}: {f.severity.value}, expected {want}"
        assert f.object and f.object.startswith(("GpuNodePool ", "NodePool "))
        assert f.fix, f"{rule} finding without a fix: {f.message}"
        assert (f.message and f.message[0].islower()) or f.message[0] in "\"'"


def test_every_design_rule_has_pass_and_fail_fixtures() -> None:
    for r in design_rules():
        d = RULES_DIR / r.id
        assert d.is_dir(), f"no fixtures for {r.id}"
        names = [p.name for p in d.iterdir()]
        assert any(n.startswith("pass-") for n in names), f"{r.id}: no pass fixture"
        assert any(n.startswith("fail-") for n in names), f"{r.id}: no fail fixture"


def test_no_fixture_dir_without_a_rule() -> None:
    ids = {r.id for r in design_rules()}
    assert {p.name for p in RULES_DIR.iterdir() if p.is_dir()} <= ids


def test_reported_severity_never_exceeds_the_rules_severity() -> None:
    by_id = {r.id: r for r in design_rules()}
    for _, entry in FIXTURES:
        for f in check_pools(load_many([str(p) for p in _files(entry)])):
            assert f.severity.rank <= by_id[f.rule].severity.rank, f
