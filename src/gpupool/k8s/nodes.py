"""What a Node object says (plain ``kubectl get node -o json`` dicts in, plain data out).

AKS labels: the pool name is ``kubernetes.azure.com/agentpool`` (older clusters and docs also carry the
deprecated ``agentpool``); the VM size is ``node.kubernetes.io/instance-type``
(``beta.kubernetes.io/instance-type`` on very old nodes). Source: AKS docs ``use-labels.md`` (checked
2026-12-02); Kubernetes well-known labels.
"""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from gpupool.k8s.resources import parse_quantities
from gpupool.spec.model import Taint

POOL_LABELS = ("kubernetes.azure.com/agentpool", "agentpool")
VM_SIZE_LABELS = ("node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type")
ACCELERATOR_LABELS = ("kubernetes.azure.com/accelerator", "accelerator")


def _dict(obj: Any, *path: str) -> dict:
    for key in path:
        obj = obj.get(key) if isinstance(obj, dict) else None
    return obj if isinstance(obj, dict) else {}


def name(obj: Any) -> str:
    return str(_dict(obj, "metadata").get("name") or "")


def namespace(obj: Any) -> str:
    return str(_dict(obj, "metadata").get("namespace") or "")


def labels(obj: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in _dict(obj, "metadata", "labels").items()}


def pool_name(node: Any) -> str | None:
    lab = _dict(node, "metadata", "labels")
    for key in POOL_LABELS:
        if lab.get(key):
            return str(lab[key])
    return None


def vm_size(node: Any) -> str | None:
    lab = _dict(node, "metadata", "labels")
    for key in VM_SIZE_LABELS:
        if lab.get(key):
            return str(lab[key])
    return None


def accelerator(node: Any) -> str | None:
    lab = _dict(node, "metadata", "labels")
    for key in ACCELERATOR_LABELS:
        if lab.get(key):
            return str(lab[key])
    return None


def capacity(node: Any) -> dict[str, Fraction]:
    return parse_quantities(_dict(node, "status", "capacity"))


def allocatable(node: Any) -> dict[str, Fraction]:
    return parse_quantities(_dict(node, "status", "allocatable"))


def taints(node: Any) -> tuple[Taint, ...]:
    raw = _dict(node, "spec").get("taints")
    out = []
    for t in raw if isinstance(raw, list) else []:
        if isinstance(t, dict) and t.get("key") and t.get("effect"):
            out.append(Taint(str(t["key"]), str(t.get("value") or ""), str(t["effect"])))
    return tuple(out)


def unschedulable(node: Any) -> bool:
    return _dict(node, "spec").get("unschedulable") is True


def conditions(node: Any) -> list[dict]:
    raw = _dict(node, "status").get("conditions")
    return [c for c in raw if isinstance(c, dict)] if isinstance(raw, list) else []


def condition(node: Any, type_: str) -> dict | None:
    return next((c for c in conditions(node) if c.get("type") == type_), None)


def is_ready(node: Any) -> bool:
    c = condition(node, "Ready")
    return c is not None and c.get("status") == "True"


def created(obj: Any) -> datetime | None:
    """``metadata.creationTimestamp`` (RFC 3339, as the API server writes it); None: absent or unreadable."""
    text = _dict(obj, "metadata").get("creationTimestamp")
    return timestamp(text)


def timestamp(text: Any) -> datetime | None:
    """An API server timestamp (``2026-12-03T10:00:00Z``) as an aware datetime, or None."""
    if not isinstance(text, str) or not text:
        return None
    try:
        t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


_VERSION = __import__("re").compile(r"v?(\d+)\.(\d+)(?:\.(\d+))?")


def kubelet_version(node: Any) -> str | None:
    """``status.nodeInfo.kubeletVersion`` (``v1.34.2``), or None."""
    v = _dict(node, "status", "nodeInfo").get("kubeletVersion")
    return v if isinstance(v, str) else None


def cluster_version(server: Any, nodes: Any) -> tuple[int, int, int] | None:
    """The cluster's own Kubernetes version: the server's (``kubectl version`` gitVersion, a snapshot's
    meta.json ``kubernetesVersion``), else the newest kubelet's; None when neither says. The one reading of
    it for doctor and ``simulate --live/--snapshot``: what the cluster says always wins over a default."""
    texts = [server] if isinstance(server, str) else []
    texts += [v for v in map(kubelet_version, nodes or ()) if v]
    found = []
    for t in texts:
        m = _VERSION.match(t.strip())
        if m:
            found.append((int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)))
    if not found:
        return None
    if isinstance(server, str) and _VERSION.match(server.strip()):
        return found[0]  # the control plane's version is the cluster's; nodes may lag it
    return max(found)
