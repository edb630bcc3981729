"""The library API other engines reuse: lint_paths / lint_text, check_workload / placement."""

from __future__ import annotations

import socket

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpupool import yamlio
from gpupool.k8s.workloads import workload_of
from gpupool.lint.engine import LintOptions, lint_paths, lint_text
from gpupool.lint.gpu import PoolIndex, check_workload, placement
from support import EXAMPLES, make_pool

POD = """apiVersion: v1
kind: Pod
metadata: {name: train, namespace: ml}
spec:
  tolerations: [{key: sku, operator: Equal, value: gpu, effect: NoSchedule}]
  containers:
  - name: c
    image: nvidia/cuda:12.4.1-base-ubuntu22.04
    resources: {limits: {nvidia.com/gpu: 1}}
"""


def _workload(text: str = POD):
    doc = yamlio.load_documents(text, "pod.yaml")[0]
    return workload_of(doc.data), doc


def test_check_workload_against_a_new_pool() -> None:
    w, doc = _workload()
    old = make_pool(nodeTaints=["sku=gpu:NoSchedule"])
    assert check_workload(w, [old]) == []
    new = make_pool(
        "Standard_NC24ads_A100_v4",
        name="a100",
        nodeTaints=["sku=gpu:NoSchedule"],
        gpu={"instanceProfile": "MIG1g", "migStrategy": "Mixed"},
    )
    findings = check_workload(w, [new], path="pod.yaml", root=doc.data)
    assert [f.rule for f in findings] == ["GP304"]
    assert (findings[0].path, findings[0].line, findings[0].object) == ("pod.yaml", 9, "Pod ml/train")
    tainted = make_pool(name="t", nodeTaints=["team=ml:NoExecute"])
    assert [f.rule for f in check_workload(w, PoolIndex([tainted]))] == ["GP305"]


def test_placement_explains_each_pool() -> None:
    w, _ = _workload()
    fits = placement(
        w,
        [
            make_pool(nodeTaints=["sku=gpu:NoSchedule"]),
            make_pool(name="cpu", kind="NodePool", vm_size="Standard_D4s_v5"),
        ],
    )
    assert [(f.view.name, f.eligible, f.offers_all) for f in fits] == [
        ("gpunp", True, True),
        ("cpu", False, False),
    ]


def test_pool_independent_rules_run_without_pools() -> None:
    w, _ = _workload(POD.replace("limits: {nvidia.com/gpu: 1}", "requests: {nvidia.com/gpu: 0.5}"))
    assert sorted(f.rule for f in check_workload(w, [])) == ["GP301", "GP303"]


def test_lint_paths_api(tmp_path) -> None:
    f = tmp_path / "pod.yaml"
    f.write_text(POD)
    pools = [make_pool(nodeTaints=["sku=gpu:NoSchedule"])]
    result = lint_paths([f], pools=pools, options=LintOptions(kubernetes_version="1.33", jobs=1))
    assert result.findings == [] and result.exit_code == 0
    assert result.summary["kubernetesVersion"] == "1.33" and result.objects == [
        (str(f), "Pod ml/train", "valid")
    ]
    assert lint_text(POD, pools=pools).summary["valid"] == 1


def test_parallel_and_serial_runs_agree(tmp_path) -> None:
    for i in range(60):
        body = "\n---\n".join(POD.replace("name: train", f"name: t{i}-{j}") for j in range(40))
        if i % 7 == 0:
            body = body.replace("resources:", "resource:", 1)
        (tmp_path / f"f{i:02d}.yaml").write_text(body)
    (tmp_path / "pools.yaml").write_text((EXAMPLES / "t4-driver-only.yaml").read_text())
    serial = lint_paths([tmp_path], options=LintOptions(jobs=1))
    parallel = lint_paths([tmp_path], options=LintOptions(jobs=2))
    assert serial.findings == parallel.findings and serial.summary == parallel.summary
    assert serial.summary["resources"] == 2400 and serial.summary["invalid"] == 9


def test_lints_without_network(monkeypatch, tmp_path) -> None:
    def refuse(*a, **k):
        raise AssertionError("gpupool lint must not open a network connection")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    f = tmp_path / "pod.yaml"
    f.write_text(POD)
    result = lint_paths([f], options=LintOptions(kubernetes_version="1.29", jobs=1))
    assert result.exit_code == 0


@pytest.mark.parametrize("kind", ["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"])
def test_every_workload_kind_is_checked(kind: str) -> None:
    api = "batch/v1" if kind == "Job" else "apps/v1"
    text = (
        f"apiVersion: {api}\nkind: {kind}\nmetadata: {{name: w}}\nspec:\n  selector: "
        f"{{matchLabels: {{a: b}}}}\n"
        "  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers:\n      - name: c\n"
        "        image: x\n        resources: {requests: {nvidia.com/gpu: 1}}\n"
    )
    if kind == "Job":
        text = text.replace("  selector: {matchLabels: {a: b}}\n", "").replace(
            "    spec:\n      containers", "    spec:\n      restartPolicy: Never\n      containers"
        )
    rules = [f.rule for f in lint_text(text).findings]
    assert rules == ["GP301"], rules


def test_cronjob_and_custom_job_kinds() -> None:
    cron = (
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  schedule: '* * * * *'\n"
        "  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n"
        "          containers:\n          - {name: c, image: x, resources: {limits: {nvidia.com/gpu: 0.5}}}\n"
    )
    assert [f.rule for f in lint_text(cron).findings] == ["GP303"]
    # Volcano's Job (batch.volcano.sh) is not a batch/v1 Job: no pod template rules, just skipped.
    vc = (
        "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: v}\n"
        "spec: {template: {spec: {}}}\n"
    )
    assert [f.rule for f in lint_text(vc).findings] == ["GP208"]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300) | st.sampled_from([POD, POD.replace("  ", "\t"), "a: &x [*x]\n", "{" * 50]))
def test_lint_never_crashes(text: str) -> None:
    result = lint_text(text, "fuzz.yaml", pools=[make_pool(nodeTaints=["sku=gpu:NoSchedule"])])
    assert result.exit_code in (0, 1)
    assert all(f.path == "fuzz.yaml" for f in result.findings)
