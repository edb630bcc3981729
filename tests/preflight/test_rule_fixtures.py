"""Fixture-driven tests for every preflight rule (GP7xx), as for the design rules.

Layout: ``tests/preflight/rules/<ID>/{pass,fail}-*/``: pool spec files (``*.yaml``), checked together,
and the az outputs that differ from the recorded region ``data/eastus`` (``skus.json``, ``usage.json``,
``versions.json``, ``cluster.json``, ``az-version.json``; a file here replaces the one of eastus). A failing
fixture marks each line where the rule must report with ``# <- GP7xx`` (``# <- GP7xx:warning`` pins the
severity); a passing fixture must not produce the rule at all.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpupool.preflight.engine import preflight_rules, run
from gpupool.preflight.inputs import facts, load_inputs
from gpupool.spec import load_many

HERE = Path(__file__).parent
RULES_DIR = HERE / "rules"
EASTUS = HERE / "data" / "eastus"
MARK = re.compile(r"#\s*<-\s*(GP\d{3})(?::(error|warning|info))?")
FIXTURES = [
    (d.name, e) for d in sorted(RULES_DIR.iterdir()) if d.is_dir() for e in sorted(d.iterdir()) if e.is_dir()
]


def _inputs(fixture: Path):  # type: ignore[no-untyped-def]
    names = facts()["files"]

    def pick(key: str) -> str:
        own = fixture / names[key]
        return str(own if own.is_file() else EASTUS / names[key])

    return load_inputs(
        skus=pick("skus"),
        usage=pick("usage"),
        versions=pick("versions"),
        clusters=[pick("cluster")],
        az_version=pick("azVersion"),
    )


@pytest.mark.parametrize(("rule", "fixture"), FIXTURES, ids=[f"{r}/{e.name}" for r, e in FIXTURES])
def test_rule_fixture(rule: str, fixture: Path) -> None:
    files = sorted(fixture.glob("*.yaml"))
    result = run(load_many([str(f) for f in files]), _inputs(fixture))
    mine = [f for f in result.findings if f.rule == rule]
    if fixture.name.startswith("pass-"):
        assert not mine, "; ".join(f.message for f in mine)
        return
    expected = {}
    for f in files:
        for n, text in enumerate(f.read_text().splitlines(), start=1):
            for m in MARK.finditer(text):
                if m.group(1) == rule:
                    expected[(str(f), n)] = m.group(2)
    assert expected, f"{fixture} has no '# <- {rule}' marker"
    got = {(f.path, f.line) for f in mine}
    assert got == set(expected), f"{rule} at {sorted(got)}, expected {sorted(expected)}: " + "; ".join(
        f"{f.line}: {f.message}" for f in mine
    )
    for f in mine:
        want = expected[(f.path, f.line)]
        assert want is None or f.severity.value == want, f"{rule} line {f.line}: {f.severity.value} != {want}"
        assert f.message and (f.fix is not None or f.severity.value == "info"), f"{rule}: no fix"


def test_every_preflight_rule_has_pass_and_fail_fixtures() -> None:
    for r in preflight_rules():
        names = [p.name for p in (RULES_DIR / r.id).iterdir()] if (RULES_DIR / r.id).is_dir() else []
        assert any(n.startswith("pass-") for n in names), f"{r.id}: no pass fixture"
        assert any(n.startswith("fail-") for n in names), f"{r.id}: no fail fixture"
