"""GPU stack DaemonSets told apart by what they run: device plugin, GPU Feature Discovery, DCGM exporter, MIG
manager, GPU Operator validator (facts: ``catalog/data/gpu_operator.yaml``, matched by image name, container
name or command). GFD runs from the device plugin's image, so the image alone does not tell them apart."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from gpupool import catalog


@dataclass(frozen=True)
class Component:
    id: str
    what: str
    images: tuple[str, ...]
    commands: tuple[str, ...]
    names: tuple[str, ...]
    consequence: str


@cache
def components() -> tuple[Component, ...]:
    rows = catalog._data("gpu_operator.yaml")["components"]["items"]
    return tuple(
        Component(
            str(r["id"]),
            str(r["what"]),
            tuple(r.get("images") or ()),
            tuple(r.get("commands") or ()),
            tuple(r.get("names") or ()),
            str(r["consequence"]),
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
    """The GPU stack component the pod's (app) containers run, or None. Command beats container name beats
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
