"""GP305 quotes kube-scheduler in the words of the run's Kubernetes version: simulate's message facts
(``k8s/data/scheduler.yaml``, checked against the recorded real scheduler in
``tests/simulate/test_oracle_scheduler.py``), not a second copy of them."""

from __future__ import annotations

import json

import yaml

from gpupool.k8s import facts
from gpupool.k8s.workloads import workload_of
from gpupool.lint.engine import LintOptions, lint_text
from gpupool.lint.gpu import PoolIndex, check_workload
from support import make_pool, run_cli

POD = """\
apiVersion: v1
kind: Pod
metadata: {name: gpu-test}
spec:
  containers:
  - name: c
    image: mcr.microsoft.com/azuredocs/samples-tf-mnist-demo:gpu
    resources:
      limits: {nvidia.com/gpu: 1}
"""
OLD = '("node(s) had untolerated taint {sku: gpu}")'  # the real 1.33.3 scheduler's words
NEW = '("node(s) had untolerated taint(s)")'  # the real 1.35.4 scheduler's words


def _gp305(version: str | None, **pool: object) -> str:
    pools = [make_pool(nodeTaints=["sku=gpu:NoSchedule"], **pool)]
    result = lint_text(POD, "pod.yaml", pools, LintOptions(kubernetes_version=version))
    found = [f for f in result.findings if f.rule == "GP305"]
    assert len(found) == 1, result.findings
    return found[0].message


def test_wording_follows_the_given_version() -> None:
    m133, m135 = _gp305("1.33"), _gp305("1.35")
    assert m133.endswith("the pod stays Pending " + OLD)
    assert m135.endswith("the pod stays Pending " + NEW)
    assert m133.replace(OLD, NEW) == m135  # only the quote differs
    # the same words simulate's scheduler model gives
    assert OLD[2:-2] == facts.messages(facts.parse_version("1.33")).taint("sku", "gpu")
    assert NEW[2:-2] == facts.messages(facts.parse_version("1.35")).taint("sku", "gpu")


def test_without_a_given_version_a_pool_stated_one_then_the_newest() -> None:
    assert _gp305(None, kubernetesVersion="1.33").endswith(OLD)
    assert _gp305("1.35", kubernetesVersion="1.33").endswith(NEW)  # -k is the cluster's: it wins
    assert _gp305(None).endswith(NEW)  # the newest AKS supports (1.37 on 2026-12-03)
    w = workload_of(yaml.safe_load(POD))
    pool = make_pool(nodeTaints=["sku=gpu:NoSchedule"])
    assert check_workload(w, PoolIndex([pool], "1.33"))[0].message.endswith(OLD)
    assert check_workload(w, [pool])[0].message.endswith(NEW)


def test_old_wording_names_the_first_untolerated_taint_only() -> None:
    pools = [make_pool(nodeTaints=["sku=gpu:NoSchedule", "team=ml:NoExecute"])]
    result = lint_text(POD, "pod.yaml", pools, LintOptions(kubernetes_version="1.33"))
    (f,) = [f for f in result.findings if f.rule == "GP305"]
    assert f.message.endswith('("node(s) had untolerated taint {sku: gpu}")'), f.message
    assert "sku=gpu:NoSchedule, team=ml:NoExecute of pool gpunp" in f.message


def test_simulate_fix_quotes_the_simulated_version(tmp_path) -> None:  # type: ignore[no-untyped-def]
    spec = (
        "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\n"
        "spec: {resourceGroup: rg, clusterName: aks, vmSize: Standard_NC4as_T4_v3, nodeCount: 1,\n"
        '       kubernetesVersion: "1.35", nodeTaints: ["sku=gpu:NoSchedule"]}\n---\n'
    )
    p = tmp_path / "in.yaml"
    p.write_text(spec + POD, encoding="utf-8")
    for k, words in ((None, NEW), ("1.30", OLD)):
        args = ["simulate", str(p), "-o", "json"] + (["-k", k] if k else [])
        pending = json.loads(run_cli(*args).stdout)["pending"][0]
        assert words[2:-2] in pending["message"]  # the simulated scheduler
        (fix,) = [f for f in pending["fixes"] if f["rule"] == "GP305"]
        assert fix["message"].endswith(words), fix["message"]
