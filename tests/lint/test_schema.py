"""Schema validation: offline bundle, versions, kubeconform-quality messages at the right line, CRDs."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpupool.errors import InputError
from gpupool.lint import schema
from gpupool.lint.engine import LintOptions, lint_paths, lint_text


def _lint(text: str, **opts):
    return lint_text(text, "m.yaml", options=LintOptions(**opts))


def test_versions_bundled_and_resolved() -> None:
    versions = schema.available_versions()
    assert versions[0] == "1.25" and versions[-1] == schema.newest_version()
    assert schema.resolve_version(None) == versions[-1]
    assert schema.resolve_version("v1.33.4") == "1.33"
    for bad in ("1.24", "2.0", "x"):
        with pytest.raises(InputError):
            schema.resolve_version(bad)


def test_validators_are_compiled_once_per_kind_and_version() -> None:
    s = schema.schema_set("1.33", True)
    assert schema.schema_set("1.33", True) is s and schema.schema_set("1.33", False) is not s
    a = s.lookup("apps/v1", "Deployment")
    assert isinstance(a, schema.Found) and s.lookup("apps/v1", "Deployment") is a


@pytest.mark.parametrize(
    ("text", "rule", "line", "message"),
    [
        (
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n  "
            "  image: x\n"
            "    resource: {}\n",
            "GP201",
            8,
            'spec.containers[0]: unknown field "resource" (did you mean "resources"?)',
        ),
        (
            "apiVersion: v1\nkind: Pod\nmetdata: {name: p}\nspec: {containers: [{name: c, image: x}]}\n",
            "GP201",
            3,
            'unknown field "metdata" (did you mean "metadata"?)',
        ),
        (
            'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: "2"\n'
            "  selector: {matchLabels: {a: b}}\n  template: {spec: {containers: [{name: c, image: x}]}}\n",
            "GP202",
            5,
            'spec.replicas: expected integer, got string "2"',
        ),
        (
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - image: x\n",
            "GP203",
            6,
            'spec.containers[0]: missing required field "name"',
        ),
        (
            "apiVersion: v1\nkind: Pod\nmetadata: {labels: {a: b}}\nspec: "
            "{containers: [{name: c, image: x}]}\n",
            "GP203",
            3,
            "metadata.name: Required value: name or generateName is required",
        ),
        (
            "apiVersion: v1\nkind: pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: x}]}\n",
            "GP204",
            2,
            'kind: "pod" is not one of "Pod" (did you mean "Pod"?)',
        ),
        (
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n  "
            "  image: x\n"
            "    resources: {limits: {cpu: true}}\n",
            "GP202",
            8,
            "spec.containers[0].resources.limits[cpu]: expected a quantity",
        ),
        (
            "apiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: d}\n",
            "GP207",
            1,
            "did you mean 'Deployment'?",
        ),
        ("kind: Pod\nmetadata: {name: p}\n", "GP206", 1, "apiVersion missing"),
        ("- a\n- b\n", "GP206", 1, "not an array"),
        (
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nmetadata: {name: q}\nspec: {containers: []}\n",
            "GP205",
            4,
            'duplicate key "metadata" (first at line 3)',
        ),
    ],
)
def test_messages_and_lines(text: str, rule: str, line: int, message: str) -> None:
    result = _lint(text)
    hits = [f for f in result.findings if f.rule == rule]
    assert hits, result.findings
    assert hits[0].line == line, hits[0]
    assert message in hits[0].message, hits[0].message


def test_list_items_are_located_inside_the_list() -> None:
    text = (
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n"
        "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b, namespace: x}\n  dta: {}\n"
    )
    result = _lint(text)
    (f,) = result.findings
    assert (f.rule, f.line, f.column, f.object) == ("GP201", 10, 3, "ConfigMap x/b")


def test_non_string_keys_and_huge_integers() -> None:
    text = (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: {1: x}\n"
        'data: {a: "1"}\nbinaryData: {}\nimmutable: true\n'
    )
    assert _lint(text).findings == []
    text = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n"
        "spec: {replicas: 123456789012345678901234567890}\n"
    )
    rules = {f.rule for f in _lint(text).findings}
    assert "GP203" in rules  # selector and template are missing; the big number does not crash the validator


CRD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: workspaces.kaito.sh}
spec:
  group: kaito.sh
  names: {kind: Workspace, plural: workspaces}
  scope: Namespaced
  versions:
  - name: v1beta1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          resource:
            type: object
            properties:
              count: {type: integer, minimum: 1}
              instanceType: {type: string, nullable: true}
              port: {x-kubernetes-int-or-string: true}
          inference:
            type: object
            x-kubernetes-preserve-unknown-fields: true
"""


def test_crd_instances_are_validated(tmp_path: Path) -> None:
    crds = tmp_path / "crds"
    crds.mkdir()
    (crds / "ws.yaml").write_text(CRD)
    m = tmp_path / "m.yaml"
    m.write_text(
        "apiVersion: kaito.sh/v1beta1\nkind: Workspace\nmetadata: {name: w}\n"
        "resource: {count: 0, instanceType: null, port: http, gpus: 2}\n"
        "inference: {anything: goes}\n"
    )
    plain = lint_paths([str(m)], options=LintOptions(jobs=1))
    assert [f.rule for f in plain.findings] == ["GP208"]
    result = lint_paths([str(m)], options=LintOptions(crds=(str(crds),), jobs=1))
    got = sorted((f.rule, f.message) for f in result.findings)
    assert got == [
        ("GP201", 'resource: unknown field "gpus"'),
        ("GP204", "resource.count: 0 is less than the minimum of 1"),
    ]
    loose = lint_paths([str(m)], options=LintOptions(crds=(str(crds),), strict=False, jobs=1))
    assert [f.rule for f in loose.findings] == ["GP204"]


def test_crd_path_without_crds_is_bad_usage(tmp_path: Path) -> None:
    f = tmp_path / "x.yaml"
    f.write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n")
    with pytest.raises(InputError):
        lint_paths([str(f)], options=LintOptions(crds=(str(f),)))
