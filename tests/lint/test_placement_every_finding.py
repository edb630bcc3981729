"""Issue 19 (lint placement): every placement finding that applies, pods only judged against pools they can
land on, runtime-placed kinds merged with their runtime/config from any input file (lint, simulate, diff),
one placeholder finding per object, and the real line of a rendered stream first."""

from __future__ import annotations

import re
from pathlib import Path

from gpupool.diff.workloads import load_workloads
from gpupool.k8s.podspecs import pod_templates
from gpupool.k8s.runtimes import Runtimes, merge
from gpupool.lint.engine import LintOptions, lint_paths, lint_text
from gpupool.simulate.inputs import load_inputs
from support import T4_POOL_YAML

HERE = Path(__file__).parent
RUNTIME = (HERE / "rules" / "GP315" / "pass-trainjob-with-runtime.yaml").read_text().split("---\n")[-1]
TRAINJOB = """\
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: train}
spec:
  runtimeRef: {name: torch-distributed}
  trainer:
    numNodes: 3
    resourcesPerNode: {limits: {nvidia.com/gpu: 1}}
"""


def _rules(text: str) -> list[tuple[str, str]]:
    result = lint_text(T4_POOL_YAML + "---\n" + text, "in.yaml", options=LintOptions(jobs=1))
    return sorted((f.rule, f.object or "") for f in result.findings if f.rule.startswith(("GP3", "GP212")))


def test_gp305_and_gp306_and_gp307_report_together() -> None:
    pod = """\
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  nodeSelector: {agentpool: cpunp}
  containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: 4}}}]
"""
    assert [r for r, _ in _rules(pod)] == ["GP305", "GP306", "GP307"]


def test_gp305_beside_gp304_when_no_pool_advertises_the_name() -> None:
    pod = """\
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: x, resources: {limits: {nvidia.com/mig-1g.10gb: 1}}}]
"""
    assert [r for r, _ in _rules(pod)] == ["GP304", "GP305"]


def test_cpu_pods_are_not_judged_against_a_gpu_pool_they_cannot_land_on() -> None:
    ray = """\
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: rc}
spec:
  headGroupSpec:
    template:
      spec:
        containers:
        - {name: head, image: rayproject/ray:2.46.0, resources: {requests: {cpu: "8", memory: 32Gi}}}
  workerGroupSpecs:
  - groupName: gpu
    replicas: 1
    template:
      spec:
        tolerations: [{key: sku, operator: Exists}]
        containers: [{name: w, image: rayproject/ray:2.46.0-gpu, resources: {limits: {nvidia.com/gpu: 1}}}]
"""
    assert _rules(ray) == []
    # ...but a CPU pod that tolerates the taint is judged there (it can land): too big, and GP308.
    tolerating = ray.replace(
        "        containers:\n        - {name: head,",
        "        tolerations: [{key: sku, operator: Exists}]\n        containers:\n        - {name: head,",
    )
    assert [r for r, _ in _rules(tolerating)] == ["GP308", "GP314"]


def test_trainjob_runtime_in_another_file(tmp_path: Path) -> None:
    (tmp_path / "pool.yaml").write_text(T4_POOL_YAML)
    (tmp_path / "job.yaml").write_text(TRAINJOB)
    alone = lint_paths([str(tmp_path)], options=LintOptions(jobs=1))
    assert [f.rule for f in alone.findings if f.rule.startswith("GP3")] == ["GP315"]
    untolerating = re.sub(r" *tolerations: .*\n", "", RUNTIME)
    (tmp_path / "runtime.yaml").write_text(untolerating)
    both = lint_paths([str(tmp_path)], options=LintOptions(jobs=1))
    got = [(f.rule, f.path, f.line) for f in both.findings if f.rule.startswith("GP3")]
    assert got == [("GP305", str(tmp_path / "job.yaml"), 5)]  # at the TrainJob's runtimeRef
    # simulate and diff read the same pods: 3 trainer nodes with one GPU each
    sim = load_inputs([tmp_path / "pool.yaml", tmp_path / "job.yaml", tmp_path / "runtime.yaml"])
    assert [(w.workload.role, w.workload.replicas, w.workload.placement) for w in sim.workloads] == [
        ("node", 3, "")]
    diff = load_workloads([tmp_path])
    assert [(x.workload.kind, x.workload.role) for x in diff] == [("TrainJob", "node")]


def test_trainjob_overrides_replace_tolerations_later_entries_winning() -> None:
    runtime = RUNTIME  # tolerates sku=gpu
    job = TRAINJOB + """\
  podTemplateOverrides:
  - targetJobs: [{name: node}]
    spec:
      tolerations: [{key: sku, operator: Exists}]
  - targetJobs: [{name: node}]
    spec:
      tolerations: [{key: other, operator: Exists}]
"""
    objs = [__import__("yaml").safe_load(t) for t in (runtime, job)]
    (w,) = pod_templates(objs[1], Runtimes.collect(objs))
    assert w.pod_spec["tolerations"] == [{"key": "other", "operator": "Exists"}]
    assert w.pod_spec["containers"][0]["resources"] == {"limits": {"nvidia.com/gpu": 1}}
    assert w.replicas == 3
    assert w.source_path(("tolerations",)) == ("spec", "podTemplateOverrides", 1, "spec", "tolerations")
    assert [r for r, _ in _rules(runtime + "---\n" + job)] == ["GP305"]


def test_llmisvc_merge_follows_strategic_merge() -> None:
    main = {"name": "main", "image": "old", "env": [{"name": "A", "value": "1"}]}
    base = {"template": {"nodeSelector": {"a": "1"}, "tolerations": [{"key": "x", "operator": "Exists"}],
                         "containers": [main]}}
    over = {"template": {"nodeSelector": {"b": "2"}, "tolerations": [{"key": "y", "operator": "Exists"}],
                         "containers": [{"name": "main", "env": [{"name": "B", "value": "2"}]}]}}
    got = merge(base, over)["template"]
    assert got["nodeSelector"] == {"a": "1", "b": "2"}  # maps merge
    assert got["tolerations"] == [{"key": "y", "operator": "Exists"}]  # tolerations replaced
    assert got["containers"] == [{"name": "main", "image": "old", "env": [{"name": "A", "value": "1"},
                                                                          {"name": "B", "value": "2"}]}]


def test_placeholders_give_one_finding_per_object() -> None:
    text = (HERE / "rules" / "GP212" / "fail-placeholders.yaml").read_text()
    result = lint_text(text, "in.yaml", options=LintOptions(jobs=1))
    gp212 = [f for f in result.findings if f.rule == "GP212"]
    assert len(gp212) == 1 and gp212[0].extra["placeholders"] == 3
    assert not [f for f in result.findings if f.rule == "GP308"]  # $GPUS names a GPU: not "requests no GPU"


def test_malformed_pod_specs_are_findings_not_crashes() -> None:
    # found by mutating the fixtures: a container list that is a number, an affinity key that is a mapping
    bad = [
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: 5\n",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  affinity: {nodeAffinity: "
        "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: "
        "[{key: {a: 1}, operator: In, values: [x]}]}, {matchExpressions: true}]}}}\n"
        "  containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: 1}}}]\n",
        TRAINJOB + "---\n" + RUNTIME.replace("containers: [{name: node,", "containers: 7\n    x: [{name: n,"),
    ]
    opts = LintOptions(jobs=1)
    codes = [lint_text(T4_POOL_YAML + "---\n" + t, "in.yaml", options=opts).exit_code for t in bad]
    assert codes == [1, 1, 0]  # schema errors for the Pods; custom resources without a CRD are not validated
