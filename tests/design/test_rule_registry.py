"""Every registered rule (all families) is documented and well-formed; the design engine's contract."""

from __future__ import annotations

import re

import pytest

from gpupool.design import check as engine
from gpupool.findings import Finding, Severity, sort_key
from gpupool.rules import all_rules, lookup
from gpupool.spec import load_many
from support import EXAMPLES, make_pool

ALL = sorted(all_rules().values(), key=lambda r: r.id)
DESIGN = engine.design_rules()


@pytest.mark.parametrize("rule", ALL, ids=[r.id for r in ALL])
def test_rule_is_well_formed(rule) -> None:
    assert re.fullmatch(r"GP[1-8]\d\d", rule.id)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name)
    assert isinstance(rule.severity, Severity)
    assert rule.summary.strip() and "\n" not in rule.summary and len(rule.summary) <= 120
    assert len(rule.doc) > 200, f"{rule.id} needs documentation (its module docstring)"
    assert lookup(rule.id) is rule and lookup(rule.name) is rule


def test_ids_and_names_are_unique() -> None:
    ids = [r.id for r in ALL]
    names = [r.name for r in ALL]
    assert len(ids) == len(set(ids))
    assert len(names) == len(set(names))


@pytest.mark.parametrize("rule", DESIGN, ids=[r.id for r in DESIGN])
def test_design_rule_doc_sections(rule) -> None:
    doc = rule.doc
    assert doc.splitlines()[0].startswith(f"{rule.id} {rule.name}:"), "first line: 'ID name: what'"
    for section in ("What it checks", "Why:", "Fix:", "Source:", "Failing example", "Passing example"):
        assert section in doc, f"{rule.id} doc lacks {section!r}"
    source = doc[doc.index("Source:"):doc.index("Failing example")]
    assert re.search(r"\b20\d\d-\d\d-\d\d\b", source), f"{rule.id}: source needs an as-of date"
    assert callable(getattr(rule.module, "check", None))
    assert rule.id.startswith("GP1")


def test_design_ids_are_contiguous_from_gp101() -> None:
    ids = [int(r.id[2:]) for r in DESIGN]
    assert ids == list(range(101, 101 + len(ids)))


def test_check_pools_contract_sorted_pure_and_typed() -> None:
    pools = load_many(sorted(str(p) for p in EXAMPLES.glob("*.yaml")))
    first = engine.check_pools(pools)
    assert first == engine.check_pools(pools)
    assert first == sorted(first, key=sort_key)
    assert all(isinstance(f, Finding) and f.path and f.line for f in first)
    assert engine.check_pools([]) == []


def test_clean_example_has_no_findings() -> None:
    assert engine.check_pools(load_many([str(EXAMPLES / "t4-driver-only.yaml")])) == []


def test_findings_point_at_the_field() -> None:
    import textwrap

    from gpupool.spec import parse_pool
    from gpupool.yamlio import load_documents

    text = textwrap.dedent("""\
        apiVersion: gpupool/v1
        kind: GpuNodePool
        metadata:
          name: gpunp
        spec:
          resourceGroup: rg
          clusterName: aks
          vmSize: Standard_NC4as_T4_v3
          nodeTaints: ["sku=gpu:NoSchedule"]
          gpu:
            driver: Install
            instanceProfile: MIG1g
        """)
    (doc,) = load_documents(text, "p.yaml")
    (f,) = engine.check_pools([parse_pool(doc.data, "p.yaml", doc.line)])
    assert (f.rule, f.line, f.object) == ("GP109", 12, "GpuNodePool gpunp")


def test_context_looks_up_catalog_rows() -> None:
    (ctx,) = engine.contexts([make_pool("standard_nc4as_t4_v3", osSku="ubuntu")])
    assert ctx.size is not None and ctx.size.name == "Standard_NC4as_T4_v3"
    assert ctx.os is not None and ctx.os.name == "Ubuntu"
    assert ctx.gpu_pool_with_gpu_size and ctx.nvidia
    (unknown,) = engine.contexts([make_pool("Standard_X1")])
    assert unknown.size is None and not unknown.is_gpu_size
