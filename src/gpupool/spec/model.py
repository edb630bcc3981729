"""The pool spec as plain, immutable data (``apiVersion: gpupool/v1``, kinds GpuNodePool / NodePool).

Loading and validation live in :mod:`gpupool.spec.load`; this module only defines the shapes and the
small pure helpers every engine needs (taint parsing, effective MIG strategy, ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

API_VERSION = "gpupool/v1"
KINDS = ("GpuNodePool", "NodePool")

MODES = ("User", "System")
PRIORITIES = ("Regular", "Spot")
EVICTION_POLICIES = ("Delete", "Deallocate")
GPU_DRIVERS = ("Install", "None")
INSTANCE_PROFILES = ("MIG1g", "MIG2g", "MIG3g", "MIG4g", "MIG7g")
MIG_STRATEGIES = ("None", "Single", "Mixed")
TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")

SPOT_TAINT_KEY = "kubernetes.azure.com/scalesetpriority"

# Kubernetes qualified name / label value shapes (k8s.io/apimachinery validation).
_NAME = r"[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?"
LABEL_KEY_RE = re.compile(rf"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?{_NAME}$")
LABEL_VALUE_RE = re.compile(rf"^({_NAME})?$")


@dataclass(frozen=True)
class Taint:
    key: str
    value: str
    effect: str

    @staticmethod
    def parse(text: str) -> Taint:
        """``key=value:Effect`` or ``key:Effect`` (as ``--node-taints`` takes them). Raises ValueError."""
        if ":" not in text:
            raise ValueError(f"taint {text!r} has no effect; write key=value:NoSchedule")
        kv, effect = text.rsplit(":", 1)
        key, _, value = kv.partition("=")
        if effect not in TAINT_EFFECTS:
            raise ValueError(f"taint {text!r}: effect must be one of {', '.join(TAINT_EFFECTS)}")
        if not key or len(key) > 316 or not LABEL_KEY_RE.match(key):
            raise ValueError(f"taint {text!r}: key {key!r} is not a valid Kubernetes label key")
        if len(value) > 63 or not LABEL_VALUE_RE.match(value):
            raise ValueError(f"taint {text!r}: value {value!r} is not a valid Kubernetes label value")
        return Taint(key, value, effect)

    def __str__(self) -> str:
        return f"{self.key}={self.value}:{self.effect}" if self.value else f"{self.key}:{self.effect}"


@dataclass(frozen=True)
class TimeSlicing:
    replicas: int
    rename_by_default: bool = False
    fail_requests_greater_than_one: bool = False


@dataclass(frozen=True)
class GpuSettings:
    driver: str = "Install"  # Install | None  (--gpu-driver)
    managed: bool = False  # --enable-managed-gpu (preview)
    instance_profile: str | None = None  # MIG1g..MIG7g  (--gpu-instance-profile)
    mig_strategy: str | None = None  # None | Single | Mixed; None means "not given"
    time_slicing: TimeSlicing | None = None

    @property
    def effective_mig_strategy(self) -> str:
        """Default Single when a MIG profile is set, else None (the spec contract)."""
        if self.mig_strategy is not None:
            return self.mig_strategy
        return "Single" if self.instance_profile else "None"


@dataclass(frozen=True)
class Autoscaler:
    min_count: int
    max_count: int


@dataclass(frozen=True)
class Where:
    """Where a pool was written: file, the line of the document, and the line of each field given."""

    path: str = "<spec>"
    line: int = 1
    fields: dict[str, int] = field(default_factory=dict)  # dotted spec path -> line

    def line_of(self, *dotted: str) -> int:
        for d in dotted:
            if d in self.fields:
                return self.fields[d]
        return self.line


@dataclass(frozen=True)
class PoolSpec:
    kind: str
    name: str
    resource_group: str
    cluster_name: str
    vm_size: str
    location: str | None = None
    kubernetes_version: str | None = None
    mode: str = "User"
    os_sku: str = "Ubuntu"
    priority: str = "Regular"
    node_count: int = 1
    autoscaler: Autoscaler | None = None
    node_taints: tuple[Taint, ...] = ()
    node_labels: dict[str, str] = field(default_factory=dict)
    max_pods: int | None = None
    zones: tuple[str, ...] = ()
    gpu: GpuSettings | None = None
    cuda_version: str | None = None
    spot_max_price: float = -1.0  # Spot only: -1 = up to the on-demand price (--spot-max-price)
    eviction_policy: str = "Delete"  # Spot only: Delete | Deallocate (--eviction-policy)
    # rule ID -> reason, from the gpupool.io/ignore annotation (spec/suppress.py)
    ignores: dict[str, str] = field(default_factory=dict, compare=False)
    where: Where = field(default_factory=Where, compare=False)

    @property
    def is_gpu_pool(self) -> bool:
        return self.kind == "GpuNodePool"

    @property
    def is_windows(self) -> bool:
        return self.os_sku.lower().startswith("windows")

    @property
    def os_type(self) -> str:
        return "Windows" if self.is_windows else "Linux"

    @property
    def gpu_settings(self) -> GpuSettings:
        return self.gpu or GpuSettings()

    @property
    def effective_taints(self) -> tuple[Taint, ...]:
        """The taints nodes really carry: the spec's plus the one AKS adds to Spot pools."""
        taints = list(self.node_taints)
        if self.priority == "Spot" and not any(t.key == SPOT_TAINT_KEY for t in taints):
            taints.append(Taint(SPOT_TAINT_KEY, "spot", "NoSchedule"))
        return tuple(taints)

    @property
    def label(self) -> str:
        return f"{self.kind} {self.name}"
