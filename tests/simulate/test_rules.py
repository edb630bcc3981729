"""GP5xx rules: documented like the other families; each fires on its fail fixtures, not on its pass ones."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpupool.rules import family
from gpupool.simulate import load_inputs, simulate

RULES = family("gpupool.simulate.rules")
FIXTURES = Path(__file__).parent / "rules"
CASES = sorted(FIXTURES.glob("GP5*/*.yaml"))


def test_the_family_is_registered() -> None:
    assert [r.id for r in RULES] == ["GP501", "GP502", "GP503", "GP504", "GP505", "GP506", "GP507", "GP508"]


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_rule_doc_sections(rule) -> None:
    doc = rule.doc
    assert doc.splitlines()[0].startswith(f"{rule.id} {rule.name}:")
    for section in ("What it checks", "Why:", "Fix:", "Source:", "Failing example", "Passing example"):
        assert section in doc, f"{rule.id} doc lacks {section!r}"
    source = doc[doc.index("Source:") : doc.index("Failing example")]
    assert re.search(r"\b20\d\d-\d\d-\d\d\b", source)
    assert callable(getattr(rule.module, "check", None))
    assert (FIXTURES / rule.id).is_dir(), f"{rule.id} needs fixtures"


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.name}" for p in CASES])
def test_fixture(path: Path) -> None:
    rule = path.parent.name
    result = simulate(load_inputs([path]))
    hits = [f for f in result.findings if f.rule == rule]
    if path.name.startswith("fail-"):
        assert hits, f"{rule} should fire on {path.name}"
        assert all(f.path == str(path) and f.line for f in hits)
    else:
        assert not hits, [f.message for f in hits]
