"""Reading inputs: pools and workloads told apart by kind, pod counts per kind, bad input as InputError."""

from __future__ import annotations

import pytest

from gpupool.errors import InputError
from gpupool.simulate import load_inputs


def test_mixed_files_and_kinds(k) -> None:
    docs = [
        k.system(3),
        k.pod("bare", cpu="10m"),
        k.deployment("dep", 2, cpu="10m"),
        k.workload("ReplicaSet", "rs", 2, cpu="10m"),
        k.workload("StatefulSet", "db", 3, cpu="10m"),
        k.workload("Job", "job", 4, cpu="10m"),
        k.workload("CronJob", "cron", 2, cpu="10m"),
        k.deployment("zero", 0, cpu="10m"),
        {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "svc"}},
        {
            "apiVersion": "v1",
            "kind": "List",
            "items": [k.pod("in-list", cpu="10m"), {"apiVersion": "v1", "kind": "ConfigMap"}],
        },
    ]
    r = k.run(docs)
    assert r.placed == 1 + 2 + 2 + 3 + 4 + 2 + 0 + 1 and not r.pending
    assert r.ignored == {"Service": 1, "ConfigMap": 1}
    names = {p.name for p in r.simulation.run("none").pods}
    assert {"bare", "dep-0", "dep-1", "db-0", "db-2", "job-3", "cron-1", "in-list"} <= names


def test_job_completions_cap_parallelism(k) -> None:
    job = k.workload("Job", "job", 5, cpu="10m")
    job["spec"]["completions"] = 2
    assert k.run([k.system(1), job]).placed == 2


def test_pools_in_separate_files(k) -> None:
    a = k.write([k.system(1)], "pools.yaml")
    b = k.write([k.pod("p", cpu="10m")], "work.yaml")
    inputs = load_inputs([a, b])
    assert [p.name for p in inputs.pools] == ["system"] and len(inputs.workloads) == 1


POOL_A = (
    "apiVersion: gpupool/v1\nkind: NodePool\nmetadata: {name: a}\n"
    "spec: {resourceGroup: r, clusterName: c1, vmSize: Standard_D4s_v5}\n"
)


@pytest.mark.parametrize(
    ("docs_text", "needle", "line"),
    [
        (
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n",
            "no pool spec",
            None,
        ),
        (
            POOL_A + "---\n"
            "apiVersion: gpupool/v1\nkind: NodePool\nmetadata: {name: b}\n"
            "spec: {resourceGroup: r, clusterName: c2, vmSize: Standard_D4s_v5}\n",
            "more than one cluster",
            9,
        ),
        (
            POOL_A + "---\n"
            "apiVersion: gpupool/v1\nkind: NodePool\nmetadata: {name: a}\n"
            "spec: {resourceGroup: r, clusterName: c1, vmSize: Standard_D4s_v5}\n",
            "defined twice",
            8,
        ),
        (
            POOL_A + "---\n"
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
            "  - name: c\n    resources:\n      requests:\n        cpu: lots\n",
            "quantities must match",
            14,
        ),
        (
            POOL_A + "---\n"
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
            "  - name: c\n    resources:\n      limits:\n        nvidia.com/gpu: 0.5\n",
            "must be an integer",
            14,
        ),
        (
            POOL_A + "---\n"
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
            "spec: {containers: [{name: c}]}\nmetadata: {name: q}\n",
            "duplicate key",
            10,
        ),
        (
            POOL_A.replace("Standard_D4s_v5}", "Standard_D4s_v5, nodeCount: many}"),
            "nodeCount",
            4,
        ),
        (
            POOL_A + "---\n"
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
            "metadata: {name: x}\nvalue: high\n",
            "value must be an integer",
            9,
        ),
        ("- just\n- a list\n", "expected a Kubernetes object", 1),
        (  # an item of a List: the line inside the item
            POOL_A + "---\n"
            "apiVersion: v1\nkind: List\nitems:\n"
            "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cm}\n"
            "- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n  spec:\n    containers:\n"
            "    - name: c\n      resources: {requests: {memory: -1Gi}}\n",
            "must not be negative",
            18,
        ),
        (  # a workload custom resource: the line in its replica spec's template
            POOL_A + "---\n"
            "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: train}\nspec:\n"
            "  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n      template:\n        spec:\n"
            "          containers:\n          - name: pytorch\n            image: x\n"
            "            resources: [1]\n",
            "resources must be a mapping",
            18,
        ),
        (  # flow style on one line, read back for the position only on the error
            POOL_A + "---\n"
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
            "spec: {containers: [{name: c, resources: {limits: {cpu: 1, nvidia.com/gpu: 1.5}}}]}\n",
            "must be an integer",
            9,
        ),
        (
            POOL_A + "---\n"
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
            "metadata: {name: x}\nvalue: 1\npreemptionPolicy: Sometimes\n",
            "preemptionPolicy must be",
            10,
        ),
    ],
)
def test_bad_input_is_one_input_error(k, docs_text: str, needle: str, line: int | None) -> None:
    path = k.tmp / "bad.yaml"
    path.write_text(docs_text, encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_inputs([path])
    assert needle in e.value.message, e.value.message
    assert e.value.line == line, (e.value.line, e.value.message)


def test_bad_options_are_input_errors(k) -> None:
    docs = [k.system(1)]
    with pytest.raises(InputError, match=r"older than 1\.25"):
        k.run(docs, kubernetes_version="1.24")
    with pytest.raises(InputError, match="not a Kubernetes version"):
        k.run(docs, kubernetes_version="latest")
    with pytest.raises(InputError, match="no such pool"):
        k.run(docs, cordon=("gpu",))


def test_absurd_replica_counts_are_refused(k) -> None:
    with pytest.raises(InputError, match="at most 2,000,000"):
        k.run([k.system(1), k.deployment("huge", 10**9, cpu="1m")])


def test_effective_requests_memo_is_exact_and_not_shared() -> None:
    """The memo (keyed by the pod's resources) answers what the computation does, a fresh dict each time."""
    from gpupool.simulate.pods import _effective_requests, effective_requests

    specs = [
        {"containers": [{"name": "a", "resources": {"limits": {"nvidia.com/gpu": 2, "memory": "1Gi"}}}]},
        {"containers": [{"name": "b", "resources": {"limits": {"nvidia.com/gpu": 2, "memory": "1Gi"}}}]},
        {"containers": [{"name": "a", "resources": {"requests": {"cpu": "500m"}}}]},
        {"containers": [{"name": "a"}], "initContainers": [
            {"name": "s", "restartPolicy": "Always", "resources": {"requests": {"cpu": "2"}}}]},
        {"containers": [{"name": "a"}],
         "initContainers": [{"name": "s", "resources": {"requests": {"cpu": "2"}}}]},
        {"containers": [{"name": "a"}], "overhead": {"cpu": "250m"}},
        {"containers": "not a list"},
    ]
    for spec in specs:
        first = effective_requests(spec)
        assert first == _effective_requests(spec)
        first[0]["cpu"] = -1
        assert effective_requests(spec) == _effective_requests(spec)
    assert effective_requests(specs[3])[0]["cpu"] == 2000  # a sidecar counts in the steady state
    assert effective_requests(specs[4])[0]["cpu"] == 2000
    assert effective_requests(specs[3]) != effective_requests({"containers": [{"name": "a"}]})
