"""GP4xx: warnings about the changes (taints changed in place, workloads that would not follow, ...)."""

from __future__ import annotations

import pytest

from diff.helpers import AZ_A100, AZ_T4, SKU_GPU, deployment, spec
from gpupool import rules
from gpupool.diff import diff, load_workloads
from gpupool.findings import Severity
from gpupool.spec import azjson, parse_pool

NO_EXECUTE = {"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoExecute"}


def t4():
    return azjson.load_az_pools(AZ_T4)[0]


def run(desired, workloads=None, write=None):
    az = t4()
    items = load_workloads([write("w.yaml", workloads)]) if workloads is not None else None
    return diff(az.pool, parse_pool(desired, "desired.yaml"), current_az=az, workloads=items)


def by_rule(result, rule):
    return [f for f in result.findings if f.rule == rule]


@pytest.mark.parametrize("rule_id", ["GP401", "GP402", "GP403", "GP404", "GP405"])
def test_rules_are_registered_and_documented(rule_id):
    info = rules.lookup(rule_id)
    assert info is not None and info.module.__name__.startswith("gpupool.diff.rules.")
    for part in ("What it checks", "Why", "Fix", "Source", "Failing example", "Passing example"):
        assert part in info.doc, (rule_id, part)


# ---- GP401: taints added in place --------------------------------------------------------------------


def test_new_no_execute_taint_warns_about_evictions():
    r = run(spec(nodeTaints=["sku=gpu:NoSchedule", "sku=gpu:NoExecute"]))
    (f,) = by_rule(r, "GP401")
    assert f.severity is Severity.WARNING
    assert "evicts" in f.message and "sku=gpu:NoExecute" in f.message
    assert f.path == "desired.yaml" and f.line == 1
    assert "toleration" in f.fix


def test_new_no_schedule_taint_warns_about_rescheduling(write):
    r = run(
        spec(nodeTaints=["sku=gpu:NoSchedule", "nvidia.com/gpu=present:NoSchedule"]),
        [
            deployment("train", tolerations=[SKU_GPU]),
            deployment(
                "ready",
                tolerations=[
                    SKU_GPU,
                    {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
                ],
            ),
        ],
        write,
    )
    (f,) = by_rule(r, "GP401")
    assert "will not be scheduled onto pool gpunp again" in f.message
    assert "Deployment ml/train" in f.message and "ready" not in f.message
    assert f.extra["workloads"] == ["Deployment ml/train"]


def test_no_warning_when_every_workload_tolerates_the_new_taint(write):
    r = run(
        spec(nodeTaints=["sku=gpu:NoSchedule", "sku=gpu:NoExecute"]),
        [deployment("train", tolerations=[SKU_GPU, NO_EXECUTE])],
        write,
    )
    assert by_rule(r, "GP401") == []


def test_no_in_place_taint_warning_when_a_new_pool_is_made():
    r = run(spec(vm_size="Standard_NC8as_T4_v3", nodeTaints=["sku=gpu:NoExecute"]))
    assert by_rule(r, "GP401") == []


# ---- GP402: workloads that would not follow ----------------------------------------------------------


def test_workload_pinned_to_the_old_pool_name(write):
    r = run(
        spec(vm_size="Standard_NC8as_T4_v3"),
        [
            deployment(
                "pinned", tolerations=[SKU_GPU], node_selector={"kubernetes.azure.com/agentpool": "gpunp"}
            ),
            deployment(
                "fine", tolerations=[SKU_GPU], node_selector={"kubernetes.azure.com/accelerator": "nvidia"}
            ),
        ],
        write,
    )
    (f,) = by_rule(r, "GP402")
    assert f.severity is Severity.ERROR and f.object == "Deployment ml/pinned"
    assert "pinned to the old pool name gpunp" in f.message and "gpunp2" in f.message
    assert f.path.endswith("w.yaml") and f.line == 1


def test_workload_missing_toleration_for_a_new_taint(write):
    r = run(
        spec(vm_size="Standard_NC8as_T4_v3", nodeTaints=["sku=gpu:NoSchedule", "nvidia.com/gpu:NoSchedule"]),
        [deployment("train", tolerations=[SKU_GPU])],
        write,
    )
    (f,) = by_rule(r, "GP402")
    assert "does not tolerate taint nvidia.com/gpu:NoSchedule" in f.message
    assert "add toleration {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}" in f.fix


def test_workload_requesting_a_resource_the_new_pool_does_not_advertise(write):
    az = azjson.load_az_pools(AZ_A100)[0]
    doc = azjson.pool_document(az.pool)
    doc["spec"]["gpu"]["instanceProfile"] = "MIG2g"
    tol = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
    items = load_workloads(
        [
            write(
                "w.yaml",
                [
                    deployment("mig", tolerations=[tol], resource="nvidia.com/mig-1g.10gb"),
                ],
            )
        ]
    )
    r = diff(az.pool, parse_pool(doc, "d.yaml"), current_az=az, workloads=items)
    (f,) = by_rule(r, "GP402")
    assert "requests nvidia.com/mig-1g.10gb" in f.message and "nvidia.com/mig-2g.20gb" in f.message


def test_bare_pod_on_a_replaced_pool(write):
    r = run(
        spec(vm_size="Standard_NC8as_T4_v3"), [deployment("job", kind="Pod", tolerations=[SKU_GPU])], write
    )
    (f,) = by_rule(r, "GP402")
    assert "bare Pod" in f.message


def test_workloads_that_do_not_rely_on_the_pool_are_ignored(write):
    r = run(
        spec(vm_size="Standard_NC8as_T4_v3", nodeTaints=["other=x:NoSchedule"]),
        [
            deployment("web", namespace="default", gpus=None),  # cannot run on the tainted pool today
            deployment(
                "cpu", gpus=None, tolerations=[{"operator": "Exists"}]
            ),  # tolerates all, needs nothing
        ],
        write,
    )
    assert by_rule(r, "GP402") == []
    assert all(not f.relies_on_old for f in r.follows)


def test_in_place_label_change_breaking_a_selector(write):
    cur = parse_pool(spec(nodeLabels={"tier": "gpu"}), "c.yaml")
    des = parse_pool(spec(nodeLabels={"tier": "accel"}), "d.yaml")
    items = load_workloads(
        [write("w.yaml", [deployment("t", tolerations=[SKU_GPU], node_selector={"tier": "gpu"})])]
    )
    r = diff(cur, des, workloads=items)
    (f,) = by_rule(r, "GP402")
    assert "would no longer be scheduled on pool gpunp" in f.message


def _pytorchjob(master_tols, worker_tols):
    def replica(tols, n):
        return {
            "replicas": n,
            "template": {"spec": {
                "tolerations": tols,
                "containers": [{"name": "pytorch", "image": "x",
                                "resources": {"limits": {"nvidia.com/gpu": 1}}}],
            }},
        }

    return {
        "apiVersion": "kubeflow.org/v1",
        "kind": "PyTorchJob",
        "metadata": {"name": "train", "namespace": "ml"},
        "spec": {
            "pytorchReplicaSpecs": {"Master": replica(master_tols, 1), "Worker": replica(worker_tols, 3)}
        },
    }


def test_workload_custom_resources_are_judged_per_pod_template(write):
    """A PyTorchJob's Master and Worker are judged as the two pod templates they are (as lint does)."""
    gpu_tol = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
    r = run(
        spec(vm_size="Standard_NC8as_T4_v3", nodeTaints=["sku=gpu:NoSchedule", "nvidia.com/gpu:NoSchedule"]),
        [_pytorchjob([SKU_GPU, gpu_tol], [SKU_GPU])],
        write,
    )
    assert [f.ref for f in r.follows] == ["PyTorchJob ml/train (Master)", "PyTorchJob ml/train (Worker)"]
    (f,) = by_rule(r, "GP402")
    assert f.object == "PyTorchJob ml/train (Worker)" and "nvidia.com/gpu:NoSchedule" in f.message
    assert f.line == 1


def test_operator_placed_workloads_are_not_judged(write):
    """KAITO's Workspace: the operator makes its own nodes and tolerations; diff claims nothing about it."""
    ws = {
        "apiVersion": "kaito.sh/v1beta1",
        "kind": "Workspace",
        "metadata": {"name": "phi", "namespace": "ml"},
        "resource": {
            "instanceType": "Standard_NC24ads_A100_v4", "labelSelector": {"matchLabels": {"a": "b"}}
        },
        "inference": {"template": {"spec": {"containers": [
            {"name": "m", "image": "x", "resources": {"limits": {"nvidia.com/gpu": 1}}}
        ]}}},
    }
    r = run(spec(vm_size="Standard_NC8as_T4_v3", nodeTaints=["other=x:NoSchedule"]), [ws], write)
    (f,) = r.follows
    assert f.ref == "Workspace ml/phi (inference)" and f.workload.placement == "operator"
    assert by_rule(r, "GP402") == [] and not f.relies_on_old


# ---- GP403 / GP404 / GP405 ---------------------------------------------------------------------------


def test_conflicting_sources_are_reported():
    r = run(spec(gpu={"driver": "None"}))
    (f,) = by_rule(r, "GP403")
    assert f.severity is Severity.INFO and "per the AKS docs" in f.message


def test_taint_removed_in_place():
    r = run(spec(nodeTaints=None))
    (f,) = by_rule(r, "GP404")
    assert "sku=gpu:NoSchedule" in f.message and f.severity is Severity.INFO


def test_settings_not_carried_to_the_new_pool():
    r = run(spec(vm_size="Standard_NC8as_T4_v3"))
    (f,) = by_rule(r, "GP405")
    assert "osDiskSizeGb=128" in f.message and "upgradeSettings.maxSurge=10%" in f.message
    assert f.path.endswith("az-show-t4.json")
    assert by_rule(run(spec(nodeLabels={"a": "b"})), "GP405") == []  # in place: nothing is lost


def test_lint_placement_rules_agree_with_the_verdict():
    """diff judges with gpupool.k8s; lint's GP304-GP307 (same semantics) must agree on GPU workloads."""
    from gpupool.diff import adapters
    from gpupool.k8s.workloads import workload_of

    gpu = workload_of(deployment("t", tolerations=[SKU_GPU]))
    follows = parse_pool(spec(vm_size="Standard_NC8as_T4_v3"), "d.yaml")
    tainted = parse_pool(spec(vm_size="Standard_NC8as_T4_v3", nodeTaints=["x=y:NoSchedule"]), "d.yaml")
    mig = parse_pool(spec(vm_size="Standard_NC24ads_A100_v4", gpu={"instanceProfile": "MIG1g",
                                                                   "migStrategy": "Mixed"}), "d.yaml")
    verdicts = [adapters.lint_will_not_follow(gpu, p) for p in (follows, tainted, mig)]
    if verdicts[0] is None:
        pytest.skip("gpupool.lint.gpu not available")
    assert verdicts[0] == []
    assert verdicts[1] and verdicts[1][0].startswith("GP305")
    assert verdicts[2] and verdicts[2][0].startswith("GP304")
