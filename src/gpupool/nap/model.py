"""Karpenter NodePool (karpenter.sh/v1) and AKSNodeClass (karpenter.azure.com) as plain, immutable data.

Only what gpupool reasons about is kept; :mod:`gpupool.nap.load` has validated the whole object against the
CRD's
shape first. Field lines are kept in :class:`Where` so findings point at the field they are about.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from gpupool.spec.model import Where  # where an object was written, as for a pool spec

NODEPOOL_API = "karpenter.sh/v1"
NODECLASS_GROUP = "karpenter.azure.com"
NODECLASS_APIS = ("karpenter.azure.com/v1beta1", "karpenter.azure.com/v1alpha2")

GPU_RESOURCES = ("nvidia.com/gpu", "amd.com/gpu")


@dataclass(frozen=True)
class Requirement:
    key: str
    operator: str  # In | NotIn | Exists | DoesNotExist | Gt | Lt | Gte | Lte
    values: tuple[str, ...] = ()
    min_values: int | None = None
    index: int = 0  # position in spec.template.spec.requirements

    def __str__(self) -> str:
        if self.operator in ("Exists", "DoesNotExist"):
            return f"{self.key} {self.operator}"
        if self.operator in ("In", "NotIn"):
            return f"{self.key} {self.operator} [{', '.join(self.values)}]"
        return f"{self.key} {self.operator} {self.values[0] if self.values else ''}"


@dataclass(frozen=True)
class Taint:
    key: str
    effect: str
    value: str = ""

    def __str__(self) -> str:
        return f"{self.key}={self.value}:{self.effect}" if self.value else f"{self.key}:{self.effect}"


@dataclass(frozen=True)
class Budget:
    nodes: str  # "10%" or "0"
    reasons: tuple[str, ...] = ()  # empty: every reason
    schedule: str | None = None
    duration: str | None = None

    @property
    def blocks(self) -> bool:
        """True when the budget allows no disruption at all while active (``nodes: "0"`` or ``"0%"``)."""
        return self.nodes.rstrip("%") == "0"

    @property
    def always_active(self) -> bool:
        return self.schedule is None


@dataclass(frozen=True)
class NodePool:
    name: str
    requirements: tuple[Requirement, ...]
    node_class: tuple[str, str, str]  # (group, kind, name) of spec.template.spec.nodeClassRef
    taints: tuple[Taint, ...] = ()
    startup_taints: tuple[Taint, ...] = ()
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)  # spec.template.metadata.annotations
    limits: dict[str, Fraction] = field(default_factory=dict)
    consolidation_policy: str = "WhenEmptyOrUnderutilized"  # the CRD's default
    consolidate_after: str | None = None
    budgets: tuple[Budget, ...] | None = None  # None: not given (the CRD's default: one budget of 10%)
    expire_after: str = "720h"  # the CRD's default
    weight: int | None = None
    replicas: int | None = None
    where: Where = field(default_factory=Where, compare=False)
    raw: Any = field(default=None, compare=False, repr=False)  # the document as read (render writes it back)

    @property
    def label(self) -> str:
        return f"NodePool {self.name}"

    @property
    def blocking_taints(self) -> tuple[Taint, ...]:
        """Taints that keep pods without a toleration off the nodes (startupTaints are removed after
        start)."""
        return tuple(t for t in self.taints if t.effect in ("NoSchedule", "NoExecute"))


@dataclass(frozen=True)
class NodeClass:
    name: str
    api_version: str
    image_family: str | None = None  # None: the CRD default (Ubuntu)
    gpu_mode: str | None = None  # None: the CRD default (Driver)
    os_disk_size_gb: int | None = None
    max_pods: int | None = None
    tags: dict[str, str] = field(default_factory=dict)
    fips_mode: str | None = None
    where: Where = field(default_factory=Where, compare=False)
    raw: Any = field(default=None, compare=False, repr=False)  # the document as read (render writes it back)

    @property
    def label(self) -> str:
        return f"AKSNodeClass {self.name}"

    @property
    def effective_image_family(self) -> str:
        return self.image_family or "Ubuntu"

    @property
    def effective_gpu_mode(self) -> str:
        return self.gpu_mode or "Driver"


DEFAULT_NODE_CLASS = NodeClass(name="(default)", api_version=NODECLASS_APIS[0])
"""What a NodePool gets when its AKSNodeClass is not among the inputs: the CRD's defaults."""


@dataclass(frozen=True)
class NapInputs:
    """The Karpenter objects found among the inputs."""

    node_pools: tuple[NodePool, ...] = ()
    node_classes: tuple[NodeClass, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.node_pools or self.node_classes)

    def node_class_of(self, pool: NodePool) -> NodeClass | None:
        group, kind, name = pool.node_class
        if group != NODECLASS_GROUP or kind != "AKSNodeClass":
            return None
        for c in self.node_classes:
            if c.name == name:
                return c
        return None
