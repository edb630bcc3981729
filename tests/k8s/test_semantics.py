from __future__ import annotations

import contextlib
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpupool.k8s import affinity, quantity, resources, taints, workloads
from gpupool.spec.model import Taint

SKU = Taint("sku", "gpu", "NoSchedule")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1", 1),
        ("500m", Fraction(1, 2)),
        ("1Gi", 2**30),
        ("1G", 10**9),
        ("1e3", 1000),
        ("0.5", Fraction(1, 2)),
        (2, 2),
        ("100Mi", 100 * 2**20),
        ("+1", 1),
        (".5", Fraction(1, 2)),
    ],
)
def test_quantities(text, value):
    assert quantity.parse_quantity(text) == value


@pytest.mark.parametrize("bad", ["", "abc", "1Zi", "1.2.3", True, None, [1], "1e999"])
def test_bad_quantities(bad):
    with pytest.raises(ValueError):
        quantity.parse_quantity(bad)


@given(st.text(max_size=20))
def test_quantity_parser_never_crashes(text):
    with contextlib.suppress(ValueError):
        quantity.parse_quantity(text)


@pytest.mark.parametrize(
    ("tol", "ok"),
    [
        ({"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}, True),
        ({"key": "sku", "value": "gpu"}, True),  # operator defaults to Equal, empty effect matches all
        ({"key": "sku", "operator": "Exists"}, True),
        ({"operator": "Exists"}, True),  # empty key + Exists tolerates everything
        ({"key": "sku", "operator": "Equal", "value": "cpu", "effect": "NoSchedule"}, False),
        ({"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoExecute"}, False),
        ({"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}, False),
        ({"value": "gpu"}, False),  # empty key with Equal matches nothing
        ("not-a-dict", False),
    ],
)
def test_toleration_matching(tol, ok):
    assert taints.tolerates(tol, SKU) is ok


def test_untolerated_ignores_prefer_no_schedule():
    soft = Taint("soft", "", "PreferNoSchedule")
    assert taints.untolerated([SKU, soft], []) == [SKU]
    assert taints.untolerated([SKU], [taints.toleration_for(SKU)]) == []
    assert taints.toleration_for(Taint("k", "", "NoExecute")) == {
        "key": "k",
        "operator": "Exists",
        "effect": "NoExecute",
    }


LABELS = {"agentpool": "gpunp", "kubernetes.azure.com/accelerator": "nvidia", "gen": "5"}


@pytest.mark.parametrize(
    ("spec", "ok"),
    [
        ({}, True),
        ({"nodeSelector": {"agentpool": "gpunp"}}, True),
        ({"nodeSelector": {"agentpool": "other"}}, False),
        (
            {
                "affinity": {
                    "nodeAffinity": {
                        "requiredDuringSchedulingIgnoredDuringExecution": {
                            "nodeSelectorTerms": [
                                {
                                    "matchExpressions": [
                                        {"key": "agentpool", "operator": "In", "values": ["x"]}
                                    ]
                                },
                                {
                                    "matchExpressions": [
                                        {"key": "agentpool", "operator": "In", "values": ["gpunp"]}
                                    ]
                                },
                            ]
                        }
                    }
                }
            },
            True,
        ),
        (
            {
                "affinity": {
                    "nodeAffinity": {
                        "requiredDuringSchedulingIgnoredDuringExecution": {
                            "nodeSelectorTerms": [
                                {
                                    "matchExpressions": [
                                        {"key": "gen", "operator": "Gt", "values": ["4"]},
                                        {"key": "spot", "operator": "DoesNotExist"},
                                    ]
                                }
                            ]
                        }
                    }
                }
            },
            True,
        ),
        (
            {
                "affinity": {
                    "nodeAffinity": {
                        "requiredDuringSchedulingIgnoredDuringExecution": {
                            "nodeSelectorTerms": [
                                {"matchExpressions": [{"key": "gen", "operator": "Lt", "values": ["4"]}]}
                            ]
                        }
                    }
                }
            },
            False,
        ),
        (
            {
                "affinity": {
                    "nodeAffinity": {
                        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}
                    }
                }
            },
            False,
        ),
        (
            {
                "affinity": {
                    "nodeAffinity": {
                        "requiredDuringSchedulingIgnoredDuringExecution": {
                            "nodeSelectorTerms": [
                                {
                                    "matchExpressions": [
                                        {"key": "agentpool", "operator": "NotIn", "values": ["gpunp"]}
                                    ]
                                }
                            ]
                        }
                    }
                }
            },
            False,
        ),
        ({"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": []}}}, True),
    ],
)
def test_node_affinity(spec, ok):
    assert affinity.matches_node(spec, LABELS) is ok


def test_match_fields_on_node_name():
    spec = {
        "affinity": {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]}
                    ]
                }
            }
        }
    }
    assert affinity.matches_node(spec, {}, "n1") and not affinity.matches_node(spec, {}, "n2")


def test_effective_requests_with_init_and_sidecars():
    spec = {
        "containers": [
            {"resources": {"limits": {"nvidia.com/gpu": 1, "cpu": "1"}}},
            {"resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}},
        ],
        "initContainers": [
            {"resources": {"requests": {"cpu": "4"}}},
            {"restartPolicy": "Always", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}},
        ],
        "overhead": {"cpu": "100m"},
    }
    req = resources.pod_requests(spec)
    assert req["cpu"] == Fraction(41, 10)  # max(1 + 0.5 + 1 sidecar, 4 init) + 0.1 overhead
    assert req["memory"] == 2 * 2**30
    assert req["nvidia.com/gpu"] == 1  # request defaulted from the limit
    assert resources.extended(req) == {"nvidia.com/gpu": 1}


@pytest.mark.parametrize(
    ("obj", "count", "path"),
    [
        ({"kind": "Pod", "spec": {"containers": []}}, 1, ("spec",)),
        (
            {"kind": "Deployment", "spec": {"replicas": 5, "template": {"spec": {"containers": []}}}},
            5,
            ("spec", "template", "spec"),
        ),
        (
            {"kind": "StatefulSet", "spec": {"template": {"spec": {"containers": []}}}},
            1,
            ("spec", "template", "spec"),
        ),
        (
            {"kind": "Job", "spec": {"parallelism": 4, "completions": 2, "template": {"spec": {}}}},
            2,
            ("spec", "template", "spec"),
        ),
        (
            {"kind": "CronJob", "spec": {"jobTemplate": {"spec": {"template": {"spec": {}}}}}},
            1,
            ("spec", "jobTemplate", "spec", "template", "spec"),
        ),
        ({"kind": "DaemonSet", "spec": {"template": {"spec": {}}}}, None, ("spec", "template", "spec")),
    ],
)
def test_workloads(obj, count, path):
    obj["metadata"] = {"name": "w", "namespace": "ml"}
    w = workloads.workload_of(obj)
    assert w is not None and w.replicas == count and w.pod_spec_path == path and w.ref.endswith("ml/w")


def test_non_workloads_and_lists():
    assert workloads.workload_of({"kind": "Service", "spec": {}}) is None
    assert workloads.workload_of({"kind": "Deployment", "spec": {"template": "x"}}) is None
    lst = {
        "kind": "List",
        "items": [{"kind": "Pod"}, {"kind": "ConfigMapList", "items": [{"kind": "ConfigMap"}]}],
    }
    got = list(workloads.iter_objects(lst))
    assert [p for _, p in got] == [("items", 0), ("items", 1, "items", 0)]


def test_custom_resource_with_a_workload_kind_is_not_a_workload():
    volcano = {
        "apiVersion": "batch.volcano.sh/v1alpha1",
        "kind": "Job",
        "metadata": {"name": "v"},
        "spec": {"template": {"spec": {"containers": []}}},
    }
    assert workloads.workload_of(volcano) is None
    job = dict(volcano, apiVersion="batch/v1")
    assert workloads.workload_of(job) is not None
    old = {"apiVersion": "extensions/v1beta1", "kind": "DaemonSet", "spec": {"template": {"spec": {}}}}
    assert workloads.workload_of(old) is not None
