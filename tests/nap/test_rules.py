"""Fixture-driven tests for every NodePool rule (GP8xx), through the real input discovery.

Layout as for the design rules: ``tests/nap/rules/<ID>/pass-*.yaml`` and ``fail-*.yaml`` (or ``pass-*/`` /
``fail-*/`` directories of several files, read together: NodePools beside pool specs). A failing fixture marks
each line where the rule must report with ``# <- GP8xx`` (``# <- GP8xx:warning`` pins the severity).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpupool.cli.pool_inputs import load_inputs
from gpupool.nap.check import check_nap, nap_rules

RULES_DIR = Path(__file__).parent / "rules"
MARK = re.compile(r"#\s*<-\s*(GP\d{3})(?::(error|warning|info))?")


def _fixtures() -> list[tuple[str, Path]]:
    return [
        (d.name, e)
        for d in sorted(p for p in RULES_DIR.iterdir() if p.is_dir())
        for e in sorted(d.iterdir())
        if e.name.startswith(("pass-", "fail-"))
    ]


FIXTURES = _fixtures()


def _files(entry: Path) -> list[Path]:
    return sorted(entry.glob("*.yaml")) if entry.is_dir() else [entry]


@pytest.mark.parametrize(("rule", "fixture"), FIXTURES, ids=[f"{r}/{e.name}" for r, e in FIXTURES])
def test_rule_fixture(rule: str, fixture: Path) -> None:
    files = _files(fixture)
    pools, nap = load_inputs([str(f) for f in files])
    mine = [f for f in check_nap(nap, pools) if f.rule == rule]
    if fixture.name.startswith("pass-"):
        assert not mine, f"{rule} should not report on {fixture.name}: " + "; ".join(f.message for f in mine)
        return
    expected = {}
    for f in files:
        for n, text in enumerate(f.read_text().splitlines(), start=1):
            for m in MARK.finditer(text):
                if m.group(1) == rule:
                    expected[(str(f), n)] = m.group(2)
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
        assert f.object and f.object.startswith(("NodePool ", "GpuNodePool "))
        assert f.fix
        assert f.message[0].islower()


def test_every_nap_rule_has_pass_and_fail_fixtures() -> None:
    for r in nap_rules():
        names = [p.name for p in (RULES_DIR / r.id).iterdir()]
        assert any(n.startswith("pass-") for n in names), r.id
        assert any(n.startswith("fail-") for n in names), r.id
    assert {p.name for p in RULES_DIR.iterdir() if p.is_dir()} <= {r.id for r in nap_rules()}
