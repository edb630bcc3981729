"""Which part of the NVIDIA GPU stack an object is (device plugin, GPU Feature Discovery, driver, DCGM, DCGM
exporter, GPU Operator validator, MIG manager, container toolkit): one table of roles for lint and doctor,
facts in ``catalog/data/gpu_operator.yaml`` (``components``, with sources).

- :func:`classify` a pod spec's containers (lint: what a manifest runs): command beats container name beats
  image name, exact matches (GFD runs from the device plugin's image, so the image alone does not tell them
  apart).
- :func:`role` a Pod or DaemonSet read from a cluster (doctor, the live log reader): fragments of its name,
  owner references and app labels, then of its images; first row in the data's order wins.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

DEVICE_PLUGIN = "device-plugin"
GFD = "gpu-feature-discovery"
DRIVER = "driver"
DCGM_EXPORTER = "dcgm-exporter"
DCGM = "dcgm"
VALIDATOR = "operator-validator"
MIG_MANAGER = "mig-manager"
TOOLKIT = "container-toolkit"


@dataclass(frozen=True)
class Component:
    id: str
    what: str
    images: tuple[str, ...]  # image names (last path segment, no tag/digest), pod specs
    commands: tuple[str, ...]  # first command/args words (path dropped), pod specs
    names: tuple[str, ...]  # container names, pod specs
    object_names: tuple[str, ...]  # fragments of a running object's name, owners, app labels
    object_images: tuple[str, ...]  # fragments of a running object's image references
    consequence: str | None  # what a node without it lacks (None: not stated)


def _strs(v: Any) -> tuple[str, ...]:
    return tuple(str(x) for x in v or ())


@cache
def components() -> tuple[Component, ...]:
    from gpupool import catalog  # the catalog's loader; imported here so k8s stays light to import

    rows = catalog._data("gpu_operator.yaml")["components"]["items"]
    return tuple(
        Component(
            str(r["id"]),
            str(r["what"]),
            _strs(r.get("images")),
            _strs(r.get("commands")),
            _strs(r.get("names")),
            _strs(r.get("objectNames")),
            _strs(r.get("objectImages")),
            str(r["consequence"]) if r.get("consequence") else None,
        )
        for r in rows
    )


def image_name(image: Any) -> str:
    """``nvcr.io/nvidia/k8s-device-plugin:v0.18.0`` -> ``k8s-device-plugin``."""
    if not isinstance(image, str):
        return ""
    repo = image.split("@", 1)[0]
    if ":" in repo.rsplit("/", 1)[-1]:
        repo = repo.rsplit(":", 1)[0]
    return repo.rsplit("/", 1)[-1]


def _command_words(c: dict) -> list[str]:
    out = []
    for key in ("command", "args"):
        v = c.get(key)
        if isinstance(v, list):
            out.extend(str(x).rsplit("/", 1)[-1] for x in v[:2])
    return out


def classify(containers: Iterable[dict]) -> Component | None:
    """The GPU stack component a pod spec's (app) containers run, or None. Command beats container name beats
    image (GFD in the device plugin image is GFD)."""
    cs = [c for c in containers if isinstance(c, dict)]
    table = components()
    for c in cs:
        words = _command_words(c)
        for comp in table:
            if any(w in comp.commands for w in words):
                return comp
    for c in cs:
        for comp in table:
            if c.get("name") in comp.names:
                return comp
    for c in cs:
        img = image_name(c.get("image"))
        for comp in table:
            if img in comp.images:
                return comp
    return None


def _pod_spec(obj: Any) -> dict:
    if not isinstance(obj, dict):
        return {}
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        return {}
    if obj.get("kind") == "DaemonSet" or "template" in spec:
        tmpl = spec.get("template")
        inner = tmpl.get("spec") if isinstance(tmpl, dict) else None
        return inner if isinstance(inner, dict) else {}
    return spec


def images(obj: Any) -> list[str]:
    """Every image a Pod or DaemonSet runs (containers, then init containers)."""
    spec = _pod_spec(obj)
    out = []
    for key in ("containers", "initContainers"):
        for c in spec.get(key) or []:
            if isinstance(c, dict) and isinstance(c.get("image"), str):
                out.append(c["image"])
    return out


def _owner_text(meta: dict) -> str:
    parts = []
    for ref in meta.get("ownerReferences") or ():
        if isinstance(ref, dict) and ref.get("name"):
            parts.append(str(ref["name"]))
    labels = meta.get("labels")
    if isinstance(labels, dict):
        for key in ("app", "app.kubernetes.io/name", "name", "k8s-app"):
            v = labels.get(key)
            if isinstance(v, str):
                parts.append(v)
    return "\n".join(parts).lower()


def _match(text: str, field: str) -> str | None:
    for comp in components():
        for frag in getattr(comp, field):
            if frag in text:
                return comp.id
    return None


def role(obj: Any) -> str | None:
    """The GPU stack role of a Pod or DaemonSet (``device-plugin``, ``dcgm-exporter``...), or None."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    if not isinstance(meta, dict):
        return None
    r = _match((str(meta.get("name") or "") + "\n" + _owner_text(meta)).lower(), "object_names")
    if r is None:
        r = _match("\n".join(images(obj)).lower(), "object_images")
    return r
