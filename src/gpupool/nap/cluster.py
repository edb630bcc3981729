"""The cluster-level fact "NAP is on": ``nodeProvisioningProfile.mode`` of ``az aks show -o json``.

``Auto``: Node Auto Provisioning creates nodes for pending pods; ``Manual`` (or no
``nodeProvisioningProfile``: clusters created before the field, and what ``az`` prints as ``null`` for
them): it does not. Read wherever gpupool reads ``az aks show`` (``preflight --cluster``, ``check
--cluster``), with the names of the agent pools the cluster autoscaler scales (``enableAutoScaling``), which
GP806 judges against the mode. Facts: ``catalog/data/nap.yaml`` ``enable`` (profileField, modes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpupool import catalog, yamlio
from gpupool.errors import InputError
from gpupool.errors import safe_text as _safe


@dataclass(frozen=True)
class ClusterNap:
    """What ``az aks show`` says about NAP on one cluster."""

    path: str
    line: int
    name: str
    mode: str  # Auto | Manual ("Manual" also when the profile is absent or null)
    stated: bool  # nodeProvisioningProfile.mode was in the file (not absent or null)
    autoscaled: tuple[str, ...] = ()  # agent pools with enableAutoScaling true

    @property
    def on(self) -> bool:
        return self.mode == "Auto"

    @property
    def label(self) -> str:
        return f"cluster {self.name}"


def _line(data: Any, key: str, default: int) -> int:
    pos = yamlio.locate(data, (key,)) if isinstance(data, dict) else None
    return pos[0] if pos else default


def mode_of(data: Any, path: str, line: int = 1) -> ClusterNap:
    """The NAP fact of one ``az aks show`` object. Raises InputError (``file:line``) for a mode that is not
    one AKS has."""
    modes = catalog._data("nap.yaml")["enable"]["modes"]
    profile = data.get("nodeProvisioningProfile") if isinstance(data, dict) else None
    stated = False
    mode = "Manual"
    if profile is not None:
        if not isinstance(profile, dict):
            raise InputError(path, _line(data, "nodeProvisioningProfile", line),
                             f"nodeProvisioningProfile: expected an object, got {yamlio.type_name(profile)}",
                             "az aks show -g RESOURCE_GROUP -n CLUSTER -o json")
        raw = profile.get("mode")
        if raw is not None:
            match = [m for m in modes if isinstance(raw, str) and m.lower() == raw.lower()]
            if not match:
                where = yamlio.locate(data, ("nodeProvisioningProfile", "mode"))
                raise InputError(path, where[0] if where else line,
                                 f"nodeProvisioningProfile.mode: {_safe(str(raw), 40)!r} is not "
                                 f"{' or '.join(modes)}")
            mode, stated = match[0], True
    pools = data.get("agentPoolProfiles") if isinstance(data, dict) else None
    autoscaled = tuple(
        str(p["name"]) for p in (pools if isinstance(pools, list) else [])
        if isinstance(p, dict) and p.get("enableAutoScaling") is True and isinstance(p.get("name"), str)
    )
    name = data.get("name") if isinstance(data, dict) and isinstance(data.get("name"), str) else "?"
    return ClusterNap(path, line, name, mode, stated, autoscaled)
