"""The texts doctor reads back: FitError in every wording, autoscaler events and status (both forms), CUDA
versions of images."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from gpupool.doctor import parse

sys.path.insert(0, str(Path(__file__).resolve().parent))


def test_fit_error_current_wording_with_dra_fragment() -> None:
    f = parse.fit_error(
        "0/5 nodes are available: 2 node(s) had untolerated taint(s), 3 Insufficient nvidia.com/gpu. "
        "no new claims to deallocate, preemption: 0/5 nodes are available: 2 Preemption is not helpful for "
        "scheduling, 3 No preemption victims found for incoming pod."
    )
    assert f is not None and f.nodes == 5
    assert [(r.count, r.kind, r.resource) for r in f.reasons] == [
        (2, "taint", None),
        (3, "resource", "nvidia.com/gpu"),
    ]
    assert [r.count for r in f.preemption] == [2, 3]


def test_fit_error_older_wordings() -> None:
    f = parse.fit_error(
        "0/3 nodes are available: 1 node(s) had untolerated taint {sku: gpu}, 2 Insufficient nvidia.com/gpu. "
        "preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption "
        "victims found for incoming pod.."
    )
    assert f is not None and f.reasons[0].taint == ("sku", "gpu")
    old = parse.fit_error(
        "0/4 nodes are available: 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod "
        "didn't tolerate, 3 node(s) didn't match Pod's node affinity/selector."
    )
    assert old is not None
    assert [(r.count, r.kind) for r in old.reasons] == [(1, "taint"), (3, "affinity")]
    assert old.reasons[0].taint == ("node-role.kubernetes.io/master", "")
    ds = parse.fit_error(
        "0/4 nodes are available: 1 Too many pods, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. "
        "preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, 3 Preemption "
        "is not helpful for scheduling."
    )
    assert ds is not None and [r.kind for r in ds.reasons] == ["pods", "plugin"]
    assert parse.fit_error("no nodes available to schedule pods") is None


def test_autoscaler_events() -> None:
    e = parse.scale_up_event("pod triggered scale-up: [{aks-gpupool-29545764-vmss 0->1 (max: 1)}]")
    assert e is not None and e.triggered and e.groups == (("aks-gpupool-29545764-vmss", 0, 1, 1),)
    n = parse.scale_up_event(
        "pod didn't trigger scale-up: 1 max node group size reached, 2 node(s) didn't match Pod's node "
        "affinity/selector, 1 Insufficient nvidia.com/mig-1g.10gb"
    )
    assert n is not None and not n.triggered
    assert [(r.count, r.kind) for r in n.reasons] == [(1, "other"), (2, "affinity"), (1, "resource")]
    legacy = parse.scale_up_event("pod didn't trigger scale-up (it wouldn't fit if a new node is added)")
    assert legacy is not None and legacy.reasons[0].text == "it wouldn't fit if a new node is added"
    assert parse.scale_up_event("Scale-up: setting group x size to 2") is None


def test_autoscaler_status_both_forms() -> None:
    import build_snapshots as b

    y = parse.autoscaler_status(
        b.ca_status_yaml(2, 1, 3, resource_unready=2, backoff="QuotaExceeded: x")["data"]["status"]
    )
    assert y is not None and y.form == "yaml" and y.health == "Healthy" and y.resource_unready == 2
    (g,) = y.groups.values()
    assert g.max_size == 3 and g.scale_up == "Backoff" and g.backoff == "QuotaExceeded x"
    t = parse.autoscaler_status(b.ca_status_text(3, 3)["data"]["status"])
    assert t is not None and t.form == "text" and t.health == "Healthy" and t.resource_unready == 0
    (g,) = t.groups.values()
    assert (g.name, g.max_size, g.target, g.scale_up) == ("aks-gpunp-28993262-vmss", 3, 3, "NoActivity")
    assert parse.autoscaler_status(": [") is None


def test_image_cuda() -> None:
    assert parse.image_cuda("nvcr.io/nvidia/cuda:13.1.0-runtime-ubuntu24.04") == "13.1"
    assert parse.image_cuda("pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime") == "12.4"
    assert parse.image_cuda("vllm/vllm-openai:v0.6.3") is None
    env = [{"name": "NVIDIA_REQUIRE_CUDA", "value": "cuda>=12.8 brand=tesla,driver>=470,driver<471"}]
    assert parse.image_cuda("nvcr.io/nvidia/pytorch:25.01-py3", env) == "12.8"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_parsers_never_raise(text: str) -> None:
    parse.fit_error(text)
    parse.scale_up_event(text)
    parse.autoscaler_status(text)
    parse.image_cuda(text)
    parse.cuda_requirement(text)


def test_describe_command_names_namespace_and_daemonset_quoted() -> None:
    """GP652's fix when no exporter pod exists: a command kubectl accepts (namespace flag, then name)."""
    import shlex

    from gpupool.doctor.context import describe_command

    cmd = describe_command({"metadata": {"namespace": "gpu-operator", "name": "nvidia-dcgm-exporter"}})
    assert cmd == "kubectl describe daemonset -n gpu-operator nvidia-dcgm-exporter"
    hostile = describe_command({"metadata": {"namespace": "a b", "name": "x;rm -rf /"}})
    assert shlex.split(hostile) == ["kubectl", "describe", "daemonset", "-n", "a b", "x;rm -rf /"]
    assert describe_command({"metadata": {"name": "d"}}).endswith("-n default d")
