"""Differential test: gpupool's schema verdict vs ``kubernetes-validate --strict`` on the real corpus.

For every file of the shared corpus ``<repo>/../shared/corpus/real`` (200 published manifests with SOURCES.md
and LICENSES/; not in the repository: the tests skip where it is absent),
the verdict "has a schema error" must be the same for both tools, for the same Kubernetes version.
kubernetes-validate runs through its own CLI code path (``utils.validate_file(..., strict=True)``, what
``kubernetes-validate -k VERSION --strict FILE`` runs, output captured; a YAML error raises SystemExit and
counts as invalid). Its per-call re-reading of the same schema files is memoised for speed; nothing in its
validation changes.

Every difference must be one of these, checked below in each tool's own words:

* GP207 (api-version-not-served): a built-in kind in a version the selected Kubernetes does not serve
  (``extensions/v1beta1``, ``policy/v1beta1``, ``batch/v1beta1``, ``resource.k8s.io/v1alpha2``; with
  ``-k 1.33`` also ``resource.k8s.io/v1``). kubernetes-validate finds no schema and only warns
  ("Couldn't find schema for kind ...", exit 0); the API server answers ``no matches for kind`` and gpupool
  fails like kubeconform does.
* kubernetes-validate's CLI crashes on objects named by ``metadata.generateName`` only (it prints
  ``metadata['name']``: "could not be validated: 'name'", exit 2). Such objects are valid; gpupool passes
  them.

Not in the corpus but shown with small files (tests/data/lint/differential): duplicate keys, which
kubernetes-validate cannot see (PyYAML keeps the last value; gpupool GP205), and ``kind: List`` items, which
it skips (no schema for List; gpupool validates each item).
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
from pathlib import Path

import pytest

from gpupool.lint.engine import LintOptions, lint_paths
from support import CORPUS, DATA, NO_CORPUS

kv_utils = pytest.importorskip("kubernetes_validate.utils")
needs_corpus = pytest.mark.skipif(CORPUS is None, reason=NO_CORPUS)
EXTRA = DATA / "lint" / "differential"
SCHEMA_RULES = {"GP200", "GP201", "GP202", "GP203", "GP204", "GP205", "GP206", "GP207", "GP209"}
GENERATE_NAME_ONLY = {
    "nvidia-gpu-operator/validator/manifests/cuda-workload-validation.yaml",
    "nvidia-gpu-operator/validator/manifests/plugin-workload-validation.yaml",
}
REMOVED_IN_137 = {
    "kubernetes-examples/_archived/cloud-controller-manager/persistent-volume-label-initializer-config.yaml",
    "kubernetes-examples/_archived/cockroachdb/cockroachdb-statefulset.yaml",
    "kubernetes-examples/_archived/newrelic-infrastructure/newrelic-infra-daemonset.yaml",
    "kubernetes-examples/_archived/podsecuritypolicy/rbac/policies.yaml",
    "kubernetes-examples/_archived/volumes/azure_disk/claim/managed-disk/managed-ssd/storageclass-managed-ssd.yaml",
    "kubernetes-website/content/en/examples/application/job/cronjob.yaml",
    "nvidia-k8s-dra-driver-gpu/demo/specs/selectors/claims.yaml",
}


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))


@pytest.fixture(scope="module")
def fast_kv():
    original = kv_utils.schema_contents
    kv_utils.schema_contents = functools.lru_cache(maxsize=None)(original)
    try:
        yield kv_utils
    finally:
        kv_utils.schema_contents = original


def _kv(kv, path: Path, version: str) -> tuple[bool, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            rc = kv.validate_file(str(path), version, True, False, False)
        except SystemExit as e:  # "Couldn't parse YAML from file ..."
            return True, str(e)
    return rc != 0, out.getvalue()


def _gp(paths: list[Path], version: str) -> dict[str, list]:
    result = lint_paths([str(p) for p in paths], options=LintOptions(kubernetes_version=version, jobs=1))
    bad: dict[str, list] = {str(p): [] for p in paths}
    for f in result.findings:
        if f.rule in SCHEMA_RULES and f.severity.value == "error":
            bad[f.path].append(f)
    return bad


def _compare(kv, paths: list[Path], version: str) -> dict[str, str]:
    gp = _gp(paths, version)
    differences: dict[str, str] = {}
    for p in paths:
        kv_bad, kv_out = _kv(kv, p, version)
        gp_bad = bool(gp[str(p)])
        if kv_bad == gp_bad:
            continue
        rel = os.path.relpath(p, CORPUS) if CORPUS is not None and p.is_relative_to(CORPUS) else p.name
        if gp_bad:
            rules = {f.rule for f in gp[str(p)]}
            if rules == {"GP207"}:
                # kubernetes-validate's own words: it has no schema for these kinds and versions.
                for f in gp[str(p)]:
                    kind = f.object.split()[0]
                    assert f"Couldn't find schema for kind {kind}" in kv_out, (rel, kv_out)
                differences[rel] = "GP207"
            elif rules == {"GP205"}:
                differences[rel] = "GP205"
            elif rules <= {"GP201", "GP202", "GP203", "GP204"} and "kind: List" in p.read_text():
                differences[rel] = "List"
            else:
                pytest.fail(
                    f"unexplained difference on {rel}: kubernetes-validate valid, gpupool "
                    f"{[(f.rule, f.line, f.message) for f in gp[str(p)]]}"
                )
        else:
            if "could not be validated: 'name'" in kv_out and "generateName" in p.read_text():
                differences[rel] = "generateName"
            else:
                pytest.fail(
                    f"unexplained difference on {rel}: gpupool valid, kubernetes-validate: {kv_out[-500:]}"
                )
    return differences


@needs_corpus
def test_corpus_is_complete() -> None:
    files = [p for p in CORPUS.rglob("*") if p.is_file()]
    assert len(files) == 217  # 200 manifests + SOURCES.md + 16 license files
    assert (CORPUS / "SOURCES.md").is_file() and len(list((CORPUS / "LICENSES").iterdir())) == 16
    assert len(_files(CORPUS)) == 200


@needs_corpus
def test_same_verdict_as_kubernetes_validate_newest(fast_kv) -> None:
    diffs = _compare(fast_kv, _files(CORPUS), "1.37")
    assert {k for k, v in diffs.items() if v == "GP207"} == REMOVED_IN_137
    assert {k for k, v in diffs.items() if v == "generateName"} == GENERATE_NAME_ONLY
    assert len(diffs) == len(REMOVED_IN_137) + len(GENERATE_NAME_ONLY)


@needs_corpus
def test_same_verdict_as_kubernetes_validate_133(fast_kv) -> None:
    diffs = _compare(fast_kv, _files(CORPUS), "1.33")
    assert set(diffs.values()) == {"GP207", "generateName"}
    assert {
        k for k, v in diffs.items() if v == "GP207"
    } > REMOVED_IN_137  # plus resource.k8s.io/v1 (GA in 1.34)
    assert {k for k, v in diffs.items() if v == "generateName"} == GENERATE_NAME_ONLY


def test_explained_differences_outside_the_corpus(fast_kv) -> None:
    diffs = _compare(fast_kv, _files(EXTRA), "1.37")
    assert diffs == {"duplicate-key.yaml": "GP205", "list-items.yaml": "List"}
    # quantity.yaml: same schema verdict (valid); gpupool's GP212 is an API-server check, not a schema one.
    result = lint_paths([str(EXTRA / "quantity.yaml")], options=LintOptions(jobs=1))
    assert [f.rule for f in result.findings] == ["GP212"]
