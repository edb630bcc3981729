"""GPU rules on workload custom resources: hand-written fixtures for each kind gpupool knows
(tests/lint/workloads/*.yaml, shapes from each project's API documentation, sources in
gpupool/k8s/data/pod_templates.yaml), and the published manifests of the shared corpus.

Each fixture holds a T4 pool (1 GPU per node, taint ``sku=gpu:NoSchedule``) and objects marked ``# <- GPxxx``
where a GPU rule must fire; the GPU findings (GP3xx) must be exactly the marked ones.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpupool import yamlio
from gpupool.k8s.podspecs import pod_templates, supported_kinds
from gpupool.lint.engine import LintOptions, lint_paths, lint_text
from gpupool.simulate.inputs import load_inputs
from support import CORPUS, NO_CORPUS, REPO, T4_POOL_YAML

HERE = Path(__file__).parent / "workloads"
FIXTURES = sorted(HERE.glob("*.yaml"))
MARK = re.compile(r"#\s*<-\s*((?:GP\d{3}\s*)+)")


def _marked(path: Path) -> set[tuple[str, int]]:
    out = set()
    for n, line in enumerate(path.read_text().splitlines(), 1):
        m = MARK.search(line)
        if m:
            out |= {(rid, n) for rid in m.group(1).split()}
    return out


def test_at_least_ten_workload_kinds_have_fixtures() -> None:
    kinds = set()
    for p in FIXTURES:
        for doc in yamlio.load_file(p):
            d = doc.data
            if isinstance(d, dict) and d.get("apiVersion") != "gpupool/v1":
                kinds.add((d["apiVersion"].rpartition("/")[0], d["kind"]))
    assert len(kinds) >= 15, sorted(kinds)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_findings_are_exactly_the_marked_ones(path: Path) -> None:
    result = lint_paths([str(path)], options=LintOptions(jobs=1))
    got = {(f.rule, f.line) for f in result.findings if f.rule.startswith("GP3")}
    assert got == _marked(path), [(f.rule, f.line, f.object, f.message) for f in result.findings]
    for f in result.findings:
        assert f.path == str(path) and f.object


def test_findings_name_the_pod_template_role() -> None:
    result = lint_paths([str(HERE / "raycluster.yaml")], options=LintOptions(jobs=1))
    assert {f.object for f in result.findings if f.rule == "GP305"} == {"RayCluster rc (gpu-group)"}


def test_replica_counts() -> None:
    def counts(path: str) -> dict[str, int | None]:
        out = {}
        for doc in yamlio.load_file(HERE / path):
            for w in pod_templates(doc.data):
                out[w.role] = w.replicas
        return out

    assert counts("pytorchjob.yaml") == {"Master": 1, "Worker": 3}
    assert counts("raycluster.yaml") == {"head": 1, "gpu-group": 2}
    assert counts("leaderworkerset.yaml") == {"leader": 2, "worker": 6}  # 2 groups of 1 leader + 3 workers
    assert counts("jobset.yaml") == {"workers": 4}  # 2 Jobs x parallelism 2
    assert counts("volcano-job.yaml") == {"worker": 2}
    assert counts("trainjob.yaml") == {"node": 2}
    assert counts("kueue-workload.yaml") == {"main": 2}


def test_builtin_job_and_volcano_job_are_told_apart_by_group() -> None:
    ws = pod_templates({"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job", "spec": {"template": {
        "spec": {"containers": [{"name": "c", "image": "x"}]}}}})
    assert ws == []  # a Volcano Job has tasks, not spec.template


def test_objects_without_pod_specs_cost_nothing() -> None:
    for obj in (
        {"apiVersion": "v1", "kind": "ConfigMap", "data": {"containers": "x"}},
        {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "spec": {"rules": []}},
        {"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ClusterQueue", "spec": {"resourceGroups": [
            {"coveredResources": ["nvidia.com/gpu"], "flavors": []}]}},
    ):
        assert pod_templates(obj) == []


def test_simulate_places_a_raycluster_as_lint_sees_it(tmp_path: Path) -> None:
    inputs = load_inputs([HERE / "raycluster.yaml"])
    roles = sorted((w.workload.role, w.workload.replicas) for w in inputs.workloads)
    assert roles == [("gpu-group", 2), ("head", 1)]
    assert not inputs.ignored


def test_supported_kinds_are_documented_in_the_readme() -> None:
    readme = (REPO / "README.md").read_text()
    for shape in supported_kinds():
        if shape.group:
            assert f"`{shape.kind}`" in readme and shape.group in readme, (shape.group, shape.kind)


# ---- the published manifests of the shared corpus ---------------------------------------------------------

T4_POOL = T4_POOL_YAML
OPERATOR_KINDS = {("kaito.sh", "Workspace"), ("trainer.kubeflow.org", "TrainJob")}


def _pod_specs(node, path=()):
    """Every mapping with a ``containers`` list, by shape alone (independent of gpupool's table)."""
    if isinstance(node, dict):
        if isinstance(node.get("containers"), list):
            yield path, node
            return
        for k, v in node.items():
            yield from _pod_specs(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _pod_specs(v, (*path, i))


def _gpus(spec) -> int:
    total = 0
    for c in spec.get("containers") or []:
        res = (c or {}).get("resources") or {}
        lim = res.get("limits") or res.get("requests") or {}
        v = lim.get("nvidia.com/gpu")
        if v is not None:
            total += int(v)
    return total


def _tolerates(spec) -> bool:
    for t in spec.get("tolerations") or []:
        if not isinstance(t, dict):
            continue
        if t.get("key") == "sku" or (not t.get("key") and t.get("operator") == "Exists"):
            return True
    return False


def _expectations():
    out = []
    for p in sorted(CORPUS.rglob("*.y*ml")):
        try:
            docs = yamlio.load_file(p)
        except Exception:
            continue
        for doc in docs:
            d = doc.data
            if not isinstance(d, dict) or not isinstance(d.get("apiVersion"), str):
                continue
            if (d["apiVersion"].rpartition("/")[0], d.get("kind")) in OPERATOR_KINDS:
                continue
            for path, spec in _pod_specs(d):
                n = _gpus(spec)
                if n <= 0:
                    continue
                at = (*path, "tolerations") if "tolerations" in spec else path
                line = yamlio.locate(d, at)[0] if at else doc.line
                out.append((p, line, n, _tolerates(spec)))
    return out


@pytest.mark.skipif(CORPUS is None, reason=NO_CORPUS)
def test_corpus_gpu_objects_get_toleration_and_count_findings() -> None:
    expected = _expectations()
    assert len(expected) >= 40, len(expected)  # GPU pod specs in the corpus, custom resources included
    crd_gpu = [e for e in expected if "/crd/" in str(e[0])]
    assert len(crd_gpu) >= 10
    checked = 0
    for path, line, n, tolerated in expected:
        text = path.read_text(encoding="utf-8")
        result = lint_text(T4_POOL + "---\n" + text, str(path), options=LintOptions(jobs=1))
        offset = T4_POOL.count("\n") + 1
        got = {(f.rule, f.line - offset) for f in result.findings if f.line}
        where = f"{path.relative_to(CORPUS)}:{line}"
        if not tolerated:  # the toleration finding, whatever else fires (GP306 where a selector excludes)
            assert ("GP305", line) in got, (where, sorted(got))
        if n > 1:
            assert any(r == "GP307" for r, _ in got), (where, sorted(got))
        checked += 1
    assert checked == len(expected)


@pytest.mark.skipif(CORPUS is None, reason=NO_CORPUS)
def test_corpus_has_no_gp207_on_non_core_groups() -> None:
    result = lint_paths([str(CORPUS / "crd")], options=LintOptions(jobs=1))
    assert not [f for f in result.findings if f.rule == "GP207"]
    assert result.summary["skipped"] > 20


# ---- every GPU object that lacks the toleration gets GP305, whatever else fires ------------------------
# An oracle independent of gpupool's table: pod specs (a ``containers`` list) and any other mapping with
# ``resources`` (with the tolerations of the nearest mapping around it that has any), a GPU
# being any resource named ``nvidia.com/gpu`` or ``gpu`` (Dynamo). Objects whose pods come from elsewhere
# (KAITO's own nodes, a TrainJob's runtime, an LLMInferenceService's baseRefs) and templates that make no
# pods by themselves are left out.
NOT_JUDGED_KINDS = {"Workspace", "TrainJob", "ClusterTrainingRuntime", "TrainingRuntime",
                    "LLMInferenceServiceConfig"}


def _gpu_units(node, inherited):
    """(gpus, tolerated) of each pod spec or container-like object inside ``node``."""
    if isinstance(node, dict):
        tols = node.get("tolerations") if "tolerations" in node else inherited
        if isinstance(node.get("containers"), list):
            yield _gpus(node), _tolerates({"tolerations": tols})
            return
        res = node.get("resources")
        if isinstance(res, dict):  # an operator's container: image + resources (KServe's model has no image)
            lim = res.get("limits") or res.get("requests") or {}
            n = sum(int(v) for k, v in lim.items() if k in ("nvidia.com/gpu", "gpu") and str(v).isdigit())
            yield n, _tolerates({"tolerations": tols})
        for k, v in node.items():
            if k not in ("metadata", "status"):
                yield from _gpu_units(v, tols)
    elif isinstance(node, list):
        for v in node:
            yield from _gpu_units(v, inherited)


def _untolerated_gpu_objects(paths):
    for p in paths:
        try:
            docs = yamlio.load_file(p)
        except Exception:
            continue
        for doc in docs:
            d = doc.data
            if not isinstance(d, dict) or not isinstance(d.get("apiVersion"), str):
                continue
            if d.get("kind") in NOT_JUDGED_KINDS or d["apiVersion"] == "gpupool/v1":
                continue
            if d.get("kind") == "LLMInferenceService" and (d.get("spec") or {}).get("baseRefs"):
                continue
            if any(n > 0 and not tol for n, tol in _gpu_units(d, None)):
                meta = d.get("metadata") or {}
                yield p, str(d["kind"]), str(meta.get("name") or meta.get("generateName"))


def _assert_every_one_gets_gp305(paths) -> int:
    count = 0
    for path, kind, name in _untolerated_gpu_objects(paths):
        result = lint_text(T4_POOL + "---\n" + path.read_text(encoding="utf-8"), str(path),
                           options=LintOptions(jobs=1))
        objects = [f.object or "" for f in result.findings if f.rule == "GP305"]
        assert any(o.startswith(f"{kind} ") and (f"/{name}" in o or f" {name}" in o) for o in objects), (
            path, kind, name, sorted({(f.rule, f.line) for f in result.findings}))
        count += 1
    return count


def test_every_untolerated_gpu_object_of_the_fixtures_gets_gp305() -> None:
    # NIMService, NIMPipeline, OME, Dynamo, LLMInferenceService, container-like custom resources...
    assert _assert_every_one_gets_gp305(FIXTURES) >= 15


@pytest.mark.skipif(CORPUS is None, reason=NO_CORPUS)
def test_every_untolerated_gpu_object_of_the_corpus_gets_gp305() -> None:
    assert _assert_every_one_gets_gp305(sorted(CORPUS.rglob("*.y*ml"))) >= 15
