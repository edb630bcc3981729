"""Which VM sizes a NodePool admits, and what each would carry: NAP's instance types from gpupool's catalog.

For every catalog size (and every size of NAP's GPU registry the catalog lacks) this module builds the labels
karpenter-provider-azure gives the instance type (``karpenter.azure.com/sku-*``, ``kubernetes.azure.com/*``,
``kubernetes.io/arch`` ...) and its capacity (CPU, memory less NAP's overhead,
``nvidia.com/gpu``/``amd.com/gpu``),
from the facts in ``catalog/data/nap.yaml``. A NodePool's requirements are matched the way Karpenter's
``Requirements.Intersects`` does (per key: the values every requirement on it allows; NotIn/DoesNotExist
accept a
missing label), with one more answer than Karpenter has: *cannot tell*, for a label gpupool does not know per
size (zone, region, disk and network capabilities) or a size whose name NAP's parser may not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from gpupool import catalog
from gpupool.nap.model import DEFAULT_NODE_CLASS, NodeClass, NodePool, Requirement


class _Unknown:
    """A label whose value gpupool cannot know for a size (distinct from None: the label is absent)."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()


class OneOf(tuple):
    """A label with one value gpupool does not know among these candidates (a registry GPU size's count)."""


GPU_COUNTS = OneOf(("1", "2", "4", "8"))  # GPUs per Azure GPU VM [INFERRED from the catalog's sizes]


@dataclass(frozen=True)
class NapSize:
    """A VM size as NAP would offer it (before a NodeClass's filters)."""

    name: str
    size: catalog.VmSize | None  # None: a size of NAP's GPU registry that the catalog lacks
    manufacturer: str | None  # nvidia | amd (NAP's GPU registry); None: not a registered GPU size
    registry_os: tuple[str, ...] = ()
    parsed: bool = True  # False: NAP's size-name parser may not read the name (then NAP skips it) [INFERRED]
    labels: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)  # value | None | UNKNOWN

    @property
    def gpu_count(self) -> int:
        if self.manufacturer is None or self.size is None:
            return 0
        return self.size.gpu_devices

    @property
    def vcpu(self) -> int | None:
        return self.size.vcpu if self.size else None

    @property
    def memory_gib(self) -> float | None:
        return self.size.memory_gib if self.size else None

    def capacity(self, resource: str) -> Fraction | None:
        """The instance type's capacity Karpenter compares limits with (None: unknown)."""
        if resource == "cpu":
            return Fraction(self.vcpu) if self.vcpu is not None else None
        if resource == "memory":
            if self.memory_gib is None:
                return None
            overhead = Fraction(str(_facts()["capacity"]["memoryOverheadPercent"]))
            return Fraction(str(self.memory_gib)) * (1 - overhead) * 1024**3
        if resource == "nvidia.com/gpu":
            return Fraction(self.gpu_count if self.manufacturer == "nvidia" else 0)
        if resource == "amd.com/gpu":
            return Fraction(self.gpu_count if self.manufacturer == "amd" else 0)
        return None

    def advertised(self) -> dict[str, int]:
        """Extended resources the node advertises (``{"nvidia.com/gpu": 4}``); empty for plain sizes."""
        if self.manufacturer and self.gpu_count:
            return {f"{self.manufacturer}.com/gpu": self.gpu_count}
        return {}


def _facts() -> dict[str, Any]:
    return catalog._data("nap.yaml")


def _registry() -> dict[str, tuple[str, tuple[str, ...]]]:
    return {k.lower(): (v[0], tuple(v[1])) for k, v in _facts()["gpuRegistry"].items()}


@cache
def nap_sizes() -> tuple[NapSize, ...]:
    """Every size NAP could offer that gpupool knows of: catalog sizes not excluded by NAP's size filters,
    then
    registry GPU sizes the catalog lacks (their CPU, memory and GPU count unknown)."""
    facts = _facts()
    offer = facts["offering"]
    labels = facts["sizeLabels"]
    reg = _registry()
    out = []
    for name, size in catalog.vm_sizes().items():
        entry = reg.get(name.lower())
        if size.is_gpu and entry is None:
            continue  # NAP drops GPU sizes outside its registry (isUnsupportedGPU)
        if size.vcpu < offer["minVcpu"] or size.memory_gib < offer["minMemoryGiB"]:
            continue
        if name.removeprefix("Standard_").startswith(tuple(offer["confidentialPrefixes"])):
            continue
        if size.retirement() is not None and size.retirement()[0] == "retired":  # type: ignore[index]
            continue
        parts = labels.get(name)
        out.append(_make(name, size, entry, parts))
    for lower, entry in reg.items():
        if catalog.vm_size(lower) is None:
            out.append(_make(_display(lower), None, entry, None, known=False))
    return tuple(out)


def _display(lower: str) -> str:
    return "Standard_" + lower.removeprefix("standard_")


def _make(name: str, size: catalog.VmSize | None, entry: Any, parts: Any, known: bool = True) -> NapSize:
    manufacturer = entry[0] if entry else None
    lab: dict[str, Any] = {
        "node.kubernetes.io/instance-type": name,
        "karpenter.azure.com/sku-name": name,
        "kubernetes.io/os": "linux",
        "karpenter.sh/capacity-type": ("on-demand", "spot"),
        "kubernetes.azure.com/mode": ("system", "user"),
        "kubernetes.azure.com/scalesetpriority": ("regular", "spot"),
        "kubernetes.azure.com/priority": ("regular", "spot"),
        "kubernetes.azure.com/fips_enabled": None,
        "karpenter.azure.com/sku-gpu-manufacturer": manufacturer,
    }
    if size is not None:
        arch = {"x64": "amd64", "Arm64": "arm64", "arm64": "arm64"}.get(size.arch, size.arch)
        mem = str(int(size.memory_gib * 1024))
        lab.update({
            "kubernetes.io/arch": arch,
            "karpenter.azure.com/sku-cpu": str(size.vcpu),
            "kubernetes.azure.com/sku-cpu": str(size.vcpu),
            "karpenter.azure.com/sku-memory": mem,
            "kubernetes.azure.com/sku-memory": mem,
        })
    else:
        for k in ("kubernetes.io/arch", "karpenter.azure.com/sku-cpu", "kubernetes.azure.com/sku-cpu",
                  "karpenter.azure.com/sku-memory", "kubernetes.azure.com/sku-memory"):
            lab[k] = UNKNOWN
    if parts:
        family, series, version, gpu_name = parts
        lab["karpenter.azure.com/sku-family"] = str(family)
        lab["karpenter.azure.com/sku-series"] = str(series)
        lab["karpenter.azure.com/sku-version"] = str(version)
        lab["karpenter.azure.com/sku-gpu-name"] = str(gpu_name) if gpu_name and manufacturer else None
    else:
        for k in ("karpenter.azure.com/sku-family", "karpenter.azure.com/sku-series",
                  "karpenter.azure.com/sku-version", "karpenter.azure.com/sku-gpu-name"):
            lab[k] = UNKNOWN
        # Family and GPU name read from the name [INFERRED]: the family is its first letter; the GPU name can
        # only be a letter and digits between underscores (A100, T4), so a name without one has none to match.
        short = name.removeprefix("Standard_").lower()
        lab["karpenter.azure.com/sku-family"] = short[:1].upper()
        acc = re.search(r"_([a-z][0-9]+)(?=_|$)", short)
        lab["karpenter.azure.com/sku-gpu-name"] = acc.group(1).upper() if acc and manufacturer else None
    count = GPU_COUNTS if size is None and manufacturer else (
        str(size.gpu_devices if manufacturer and size is not None else 0))
    lab["karpenter.azure.com/sku-gpu-count"] = count
    for k in _facts()["labels"]["unknownPerSize"]:
        lab[k] = UNKNOWN
    parsed = bool(parts) if known else not re.search(r"_(flex|noib)_", name.lower())
    return NapSize(name, size, manufacturer, tuple(entry[1]) if entry else (), parsed=parsed,
                   labels=lab)


# ---- requirement matching ------------------------------------------------------------------------------


def _accepts(req: Requirement, value: str | None) -> bool:
    """Whether one requirement accepts one label value (None: the label is absent)."""
    op = req.operator
    if op == "Exists":
        return value is not None
    if op == "DoesNotExist":
        return value is None
    if op == "In":
        return value is not None and value in req.values
    if op == "NotIn":
        return value is None or value not in req.values
    if value is None:
        return False
    try:
        have, want = int(value), int(req.values[0])
    except ValueError:
        return False
    return {"Gt": have > want, "Lt": have < want, "Gte": have >= want, "Lte": have <= want}[op]


def _key_matches(reqs: list[Requirement], value: Any) -> bool | None:
    if value is UNKNOWN:
        return None
    if isinstance(value, OneOf):
        results = {all(_accepts(r, v) for r in reqs) for v in value}
        return results.pop() if len(results) == 1 else None
    values = value if isinstance(value, tuple) else (value,)
    return any(all(_accepts(r, v) for r in reqs) for v in values)


def match(size: NapSize, requirements: Iterable[Requirement], node_class: NodeClass) -> bool | None:
    """True: the NodePool's requirements admit the size; False: they exclude it; None: cannot tell.

    Keys no instance type defines (custom labels) do not filter sizes: Karpenter puts them on the node."""
    by_key: dict[str, list[Requirement]] = {}
    for r in requirements:
        by_key.setdefault(r.key, []).append(r)
    labels = dict(size.labels)
    os_sku = _facts()["offering"]["imageFamilyOsSku"][node_class.effective_image_family]
    labels["kubernetes.azure.com/os-sku"] = os_sku
    verdict: bool | None = True
    for key, reqs in by_key.items():
        if key not in labels:
            continue
        ok = _key_matches(reqs, labels[key])
        if ok is False:
            return False
        if ok is None:
            verdict = None
    if verdict and not size.parsed:
        return None
    return verdict


def offered_by(size: NapSize, node_class: NodeClass) -> str | None:
    """Why the NodeClass keeps NAP from offering the size (None: it is offered)."""
    if size.manufacturer is None:
        return None
    offer = _facts()["offering"]
    family = node_class.effective_image_family
    if not set(offer["imageFamilyOs"][family]) & set(size.registry_os):
        return f"NAP installs no {size.manufacturer} driver for it on {family}"
    installs = offer["driverInstallManufacturers"]
    if node_class.effective_gpu_mode == "Driver" and size.manufacturer not in installs:
        return f"gpu.mode Driver: NAP installs drivers for NVIDIA sizes only, not {size.manufacturer}"
    return None


@dataclass(frozen=True)
class Admitted:
    """The sizes a NodePool admits under its NodeClass, split by certainty."""

    sure: tuple[NapSize, ...]  # the requirements admit them and NAP offers them
    maybe: tuple[NapSize, ...]  # cannot tell (unknown label or name)
    filtered: tuple[tuple[NapSize, str], ...]  # admitted by the requirements, removed by the NodeClass (why)

    @property
    def gpu(self) -> tuple[NapSize, ...]:
        return tuple(s for s in self.sure if s.advertised())

    @property
    def any_gpu(self) -> bool:
        return bool(self.gpu) or any(s.manufacturer for s in self.maybe)

    @property
    def none(self) -> bool:
        return not self.sure and not self.maybe


def admitted(pool: NodePool, node_class: NodeClass | None) -> Admitted:
    nc = node_class or DEFAULT_NODE_CLASS
    sure, maybe, filtered = [], [], []
    for s in nap_sizes():
        m = match(s, pool.requirements, nc)
        if m is False:
            continue
        why = offered_by(s, nc)
        if why:
            filtered.append((s, why))
        elif m:
            sure.append(s)
        else:
            maybe.append(s)
    key = lambda s: (s.gpu_count, s.vcpu or 0, s.memory_gib or 0, s.name)  # noqa: E731
    return Admitted(tuple(sorted(sure, key=key)), tuple(sorted(maybe, key=key)), tuple(filtered))


_NAME_KEYS = ("karpenter.azure.com/sku-name", "node.kubernetes.io/instance-type")


def _is_gpu_name(name: str) -> bool:
    size = catalog.vm_size(name)
    return name.lower() in _registry() or (size is not None and size.is_gpu)


def gpu_scoped(pool: NodePool) -> bool:
    """True when the requirements alone rule out every size without a GPU label (only GPU sizes can match):
    then gpupool's catalog, which holds every GPU size AKS documents and NAP's GPU registry, is the
    authority."""
    gpu_keys = ("karpenter.azure.com/sku-gpu-name", "karpenter.azure.com/sku-gpu-manufacturer")
    for r in pool.requirements:
        if r.key in gpu_keys and r.operator in ("In", "Exists"):
            return True
        count_key = r.key == "karpenter.azure.com/sku-gpu-count"
        if count_key and not _accepts(r, "0") and r.operator != "DoesNotExist":
            return True
        if r.key == "karpenter.azure.com/sku-family" and r.operator == "In" and set(r.values) == {"N"}:
            return True
        if r.key in _NAME_KEYS and r.operator == "In" and all(_is_gpu_name(v) for v in r.values):
            return True
    return False
