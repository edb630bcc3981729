"""Every GP6xx rule is documented like the other families: what, why, fix, source with a date, examples."""

from __future__ import annotations

import re

import pytest

from gpupool.rules import family

DOCTOR = family("gpupool.doctor.rules")


def test_family_is_registered() -> None:
    assert len(DOCTOR) >= 20
    assert all(re.fullmatch(r"GP6\d\d", r.id) for r in DOCTOR)


@pytest.mark.parametrize("rule", DOCTOR, ids=[r.id for r in DOCTOR])
def test_doc_sections(rule) -> None:  # type: ignore[no-untyped-def]
    doc = rule.doc
    assert doc.splitlines()[0].startswith(f"{rule.id} {rule.name}:")
    for section in ("What it checks", "Why:", "Fix:", "Source:", "Failing example", "Passing example"):
        assert section in doc, f"{rule.id} doc lacks {section!r}"
    source = doc[doc.index("Source:") : doc.index("Failing example")]
    assert re.search(r"\b20\d\d-\d\d-\d\d\b", source), f"{rule.id}: source needs an as-of date"
    assert callable(getattr(rule.module, "check", None))
