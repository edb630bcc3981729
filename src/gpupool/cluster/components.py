"""Which pods and DaemonSets are parts of the NVIDIA GPU stack, by name and image.

Names and images as the NVIDIA device plugin (static manifest, Helm chart, AKS docs manifest), GPU Operator
and DCGM exporter charts deploy them (NVIDIA/k8s-device-plugin ``deployments/``, NVIDIA/gpu-operator
``assets/``, NVIDIA/dcgm-exporter ``deployment/``; AKS docs ``use-nvidia-gpu.md``; checked 2026-12-03).
GPU Feature Discovery ships in the device plugin's image since v0.15, so names are looked at before images.
"""

from __future__ import annotations

from typing import Any

DEVICE_PLUGIN = "device-plugin"
GFD = "gpu-feature-discovery"
DRIVER = "driver"
DCGM_EXPORTER = "dcgm-exporter"
DCGM = "dcgm"
VALIDATOR = "operator-validator"
MIG_MANAGER = "mig-manager"
TOOLKIT = "container-toolkit"

# (role, name fragments, image fragments); first match wins, names before images
_RULES: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    (GFD, ("gpu-feature-discovery",), ("/gpu-feature-discovery",)),
    (VALIDATOR, ("nvidia-operator-validator", "nvidia-cuda-validator"), ("/gpu-operator-validator",)),
    (MIG_MANAGER, ("nvidia-mig-manager",), ("/k8s-mig-manager",)),
    (TOOLKIT, ("nvidia-container-toolkit",), ("/container-toolkit",)),
    (DCGM_EXPORTER, ("dcgm-exporter",), ("/dcgm-exporter",)),
    (DRIVER, ("nvidia-driver-daemonset", "nvidia-driver"), ("nvcr.io/nvidia/driver",)),
    (DCGM, ("nvidia-dcgm",), ("/dcgm:",)),
    (DEVICE_PLUGIN, ("nvidia-device-plugin", "nvdp-"), ("/k8s-device-plugin",)),
)
LOG_ROLES = frozenset({DEVICE_PLUGIN, GFD, DRIVER, DCGM_EXPORTER, VALIDATOR})


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


def _match(text: str, which: int) -> str | None:
    for rule in _RULES:
        for frag in rule[which]:
            if frag in text:
                return rule[0]
    return None


def role(obj: Any) -> str | None:
    """The GPU stack role of a Pod or DaemonSet (``device-plugin``, ``dcgm-exporter``...), or None."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    if not isinstance(meta, dict):
        return None
    r = _match((str(meta.get("name") or "") + "\n" + _owner_text(meta)).lower(), 1)
    if r is None:
        r = _match("\n".join(images(obj)).lower(), 2)
    return r
