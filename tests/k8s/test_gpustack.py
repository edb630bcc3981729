"""The one GPU stack role table (k8s.gpustack) as lint and doctor use it."""

from __future__ import annotations

import importlib.util

import pytest

from gpupool import catalog
from gpupool.k8s import gpustack as gs


def _ds(name: str, image: str, *, command: list[str] | None = None, container: str = "ctr") -> dict:
    c: dict = {"name": container, "image": image}
    if command:
        c["command"] = command
    return {"kind": "DaemonSet", "metadata": {"name": name, "namespace": "gpu-operator"},
            "spec": {"template": {"spec": {"containers": [c]}}}}


def test_data_rows_complete_and_constants_match() -> None:
    block = catalog._data("gpu_operator.yaml")["components"]
    assert block["source"] and block["asOf"]
    ids = [c.id for c in gs.components()]
    assert len(ids) == len(set(ids))
    assert set(ids) == {gs.DEVICE_PLUGIN, gs.GFD, gs.DRIVER, gs.DCGM_EXPORTER, gs.DCGM, gs.VALIDATOR,
                        gs.MIG_MANAGER, gs.TOOLKIT}
    for c in gs.components():
        assert c.what and (c.object_names or c.object_images), c.id
        # a part lint can recognise in a manifest says what its absence costs (GP312 quotes it)
        if c.images or c.names or c.commands:
            assert c.consequence, c.id


@pytest.mark.parametrize(
    ("obj", "role"),
    [
        (_ds("nvidia-device-plugin-daemonset", "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"), gs.DEVICE_PLUGIN),
        (_ds("nvdp-nvidia-device-plugin", "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"), gs.DEVICE_PLUGIN),
        # GFD runs from the device plugin's image: the name decides
        (_ds("gpu-feature-discovery", "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"), gs.GFD),
        # "nvidia-dcgm-exporter" contains "nvidia-dcgm": the exporter row comes first
        (_ds("nvidia-dcgm-exporter", "nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5"), gs.DCGM_EXPORTER),
        (_ds("nvidia-dcgm", "nvcr.io/nvidia/cloud-native/dcgm:3.3.5"), gs.DCGM),
        (_ds("x", "nvcr.io/nvidia/cloud-native/dcgm:3.3.5"), gs.DCGM),  # by image
        (_ds("nvidia-driver-daemonset", "nvcr.io/nvidia/driver:550"), gs.DRIVER),
        (_ds("x", "nvcr.io/nvidia/driver:550"), gs.DRIVER),
        (_ds("nvidia-container-toolkit-daemonset", "busybox"), gs.TOOLKIT),
        (_ds("nvidia-cuda-validator-abcde", "busybox"), gs.VALIDATOR),
        (_ds("nvidia-mig-manager", "busybox"), gs.MIG_MANAGER),
        (_ds("web", "nginx:1.27"), None),
        ({"kind": "Pod", "metadata": {"name": "p", "labels": {"app": "nvidia-device-plugin-ds"}},
          "spec": {"containers": []}}, gs.DEVICE_PLUGIN),
        ({"kind": "Pod", "metadata": {"name": "p", "ownerReferences": [{"name": "gpu-feature-discovery"}]},
          "spec": {}}, gs.GFD),
        ({"kind": "Pod"}, None),
        ("not an object", None),
    ],
)
def test_role_of_running_objects(obj: object, role: str | None) -> None:
    assert gs.role(obj) == role


def _containers(obj: dict) -> list[dict]:
    return obj["spec"]["template"]["spec"]["containers"]


def test_classify_pod_spec_command_beats_name_beats_image() -> None:
    gfd = _ds("x", "nvcr.io/nvidia/k8s-device-plugin:v0.17.0", command=["/usr/bin/gpu-feature-discovery"],
              container="nvidia-device-plugin")
    assert gs.classify(_containers(gfd)).id == gs.GFD
    named = _ds("x", "nvcr.io/nvidia/k8s-device-plugin:v0.17.0", container="nvidia-dcgm-exporter")
    assert gs.classify(_containers(named)).id == gs.DCGM_EXPORTER
    plugin = _ds("x", "nvcr.io/nvidia/k8s-device-plugin@sha256:" + "a" * 64)
    comp = gs.classify(_containers(plugin))
    assert comp.id == gs.DEVICE_PLUGIN and comp.what == "NVIDIA device plugin" and comp.consequence


def test_classify_leaves_parts_only_known_on_running_objects() -> None:
    # driver / DCGM / toolkit have no pod-spec matchers: lint's GPU rules never see them
    for obj in (_ds("nvidia-driver-daemonset", "nvcr.io/nvidia/driver:550", container="nvidia-driver-ctr"),
                _ds("nvidia-dcgm", "nvcr.io/nvidia/cloud-native/dcgm:3.3.5", container="nvidia-dcgm-ctr")):
        assert gs.role(obj) is not None
        assert gs.classify(_containers(obj)) is None


@pytest.mark.parametrize(
    ("image", "name"),
    [("nvcr.io/nvidia/k8s-device-plugin:v0.18.0", "k8s-device-plugin"),
     ("localhost:5000/dcgm-exporter", "dcgm-exporter"), ("a/b@sha256:00", "b"),
     (None, ""), ("plain", "plain")],
)
def test_image_name(image: object, name: str) -> None:
    assert gs.image_name(image) == name


def test_one_implementation() -> None:
    assert importlib.util.find_spec("gpupool.lint.components") is None
    assert importlib.util.find_spec("gpupool.cluster.components") is None
