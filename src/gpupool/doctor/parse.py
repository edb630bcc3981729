"""Texts the cluster writes, read back: kube-scheduler's FitError (every wording since 1.17), the cluster
autoscaler's events and status ConfigMap (YAML and the older text form), CUDA versions of images, log lines.

Wordings: kubernetes/kubernetes ``pkg/scheduler/framework/types.go`` (FitError) and
``pkg/scheduler/framework/plugins/tainttoleration`` (its reasons by version: #109119, #134740);
kubernetes/autoscaler ``cluster-autoscaler/processors/status/eventing_scale_up_processor.go`` and
``skippedreasons.go``; the status ConfigMap's YAML form since kubernetes/autoscaler PR #6375 (2023-12);
checked 2026-12-03.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from gpupool.doctor import facts

_FIT = re.compile(r"^0/(\d+) nodes are available:\s*(.*)$", re.S)
_SPLIT = re.compile(r",\s+(?=\d+ )")
_COUNTED = re.compile(r"^(\d+) (.+)$", re.S)
_TAINT_KV = re.compile(r"taint \{([^:}]*):\s*([^}]*)\}")


@dataclass(frozen=True)
class Reason:
    count: int
    text: str
    kind: str  # taint | affinity | unschedulable | resource | pods | plugin | other
    resource: str | None = None
    taint: tuple[str, str] | None = None  # (key, value) when the wording names it


@dataclass(frozen=True)
class FitError:
    nodes: int
    reasons: tuple[Reason, ...]
    preemption: tuple[Reason, ...]
    text: str


def classify(count: int, text: str) -> Reason:
    t = text.strip().rstrip(".")
    if "taint" in t:
        m = _TAINT_KV.search(t)
        return Reason(count, t, "taint", taint=(m.group(1).strip(), m.group(2).strip()) if m else None)
    if t.startswith("Insufficient "):
        return Reason(count, t, "resource", resource=t[len("Insufficient ") :].strip())
    if t == "Too many pods":
        return Reason(count, t, "pods")
    if "node affinity/selector" in t or "scheduler-enforced node affinity" in t:
        return Reason(count, t, "affinity")
    if "were unschedulable" in t:
        return Reason(count, t, "unschedulable")
    if "didn't satisfy plugin" in t:
        return Reason(count, t, "plugin")
    return Reason(count, t, "other")


def _histogram(part: str) -> tuple[Reason, ...]:
    part = part.strip()
    while part.endswith("."):
        part = part[:-1]
    out = []
    for item in _SPLIT.split(part):
        m = _COUNTED.match(item.strip())
        if m:
            out.append(classify(int(m.group(1)), m.group(2)))
    return tuple(out)


def fit_error(text: str) -> FitError | None:
    """Parse ``0/N nodes are available: ... preemption: ...``; None when the text is something else."""
    m = _FIT.match(text.strip())
    if not m:
        return None
    rest = m.group(2).replace("no new claims to deallocate, ", "")
    main, _, post = rest.partition(" preemption: ")
    pre: tuple[Reason, ...] = ()
    if post:
        pm = _FIT.match(post.strip())
        pre = _histogram(pm.group(2)) if pm else ()
    return FitError(int(m.group(1)), _histogram(main), pre, text.strip())


@dataclass(frozen=True)
class ScaleUp:
    triggered: bool
    reasons: tuple[Reason, ...] = ()
    groups: tuple[tuple[str, int, int, int], ...] = ()  # (group, from, to, max)
    text: str = ""


_GROUP = re.compile(r"\{(\S+) (\d+)->(\d+) \(max: (\d+)\)\}")


def scale_up_event(message: str) -> ScaleUp | None:
    a = facts.signals()["autoscaler"]
    if message.startswith(a["triggered"]):
        groups = tuple((g, int(x), int(y), int(z)) for g, x, y, z in _GROUP.findall(message))
        return ScaleUp(True, groups=groups, text=message)
    if message.startswith(a["notTriggered"]):
        rest = message[len(a["notTriggered"]) :].lstrip(":").strip()
        if rest.startswith("("):  # legacy: "(it wouldn't fit if a new node is added)"
            return ScaleUp(False, (Reason(1, rest.strip("()"), "other"),), text=message)
        return ScaleUp(False, _histogram(rest), text=message)
    return None


@dataclass
class GroupStatus:
    name: str
    health: str = ""
    scale_up: str = ""
    max_size: int | None = None
    target: int | None = None
    backoff: str = ""


@dataclass
class AutoscalerStatus:
    health: str = ""
    scale_up: str = ""
    resource_unready: int | None = None
    groups: dict[str, GroupStatus] = field(default_factory=dict)
    form: str = "yaml"


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def autoscaler_status(text: str) -> AutoscalerStatus | None:
    """``kube-system/cluster-autoscaler-status`` ``data.status`` in either form; None when unreadable."""
    if text.lstrip().startswith("Cluster-autoscaler status at"):
        return _status_text(text)
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    if not isinstance(doc, dict):
        return None
    st = AutoscalerStatus()
    cw = doc.get("clusterWide") if isinstance(doc.get("clusterWide"), dict) else {}
    health = cw.get("health") if isinstance(cw.get("health"), dict) else {}
    st.health = str(health.get("status") or "")
    counts = health.get("nodeCounts") if isinstance(health.get("nodeCounts"), dict) else {}
    unready = counts.get("unready") if isinstance(counts.get("unready"), dict) else {}
    st.resource_unready = _int(unready.get("resourceUnready"))
    su = cw.get("scaleUp") if isinstance(cw.get("scaleUp"), dict) else {}
    st.scale_up = str(su.get("status") or "")
    for g in doc.get("nodeGroups") or []:
        if not isinstance(g, dict) or not g.get("name"):
            continue
        gh = g.get("health") if isinstance(g.get("health"), dict) else {}
        gs = g.get("scaleUp") if isinstance(g.get("scaleUp"), dict) else {}
        bo = gs.get("backoffInfo") if isinstance(gs.get("backoffInfo"), dict) else {}
        gst = GroupStatus(
            name=str(g["name"]),
            health=str(gh.get("status") or ""),
            scale_up=str(gs.get("status") or ""),
            max_size=_int(gh.get("maxSize")),
            target=_int(gh.get("cloudProviderTarget")),
            backoff=" ".join(str(bo.get(k) or "") for k in ("errorCode", "errorMessage")).strip(),
        )
        st.groups[gst.name] = gst
    return st


_TXT_FIELD = re.compile(r"^\s*(Name|Health|ScaleUp):\s+(\S+)(.*)$")


def _status_text(text: str) -> AutoscalerStatus:
    st = AutoscalerStatus(form="text")
    current: GroupStatus | None = None
    in_groups = False
    for line in text.splitlines():
        if line.strip().startswith("NodeGroups:"):
            in_groups = True
            continue
        m = _TXT_FIELD.match(line)
        if not m:
            continue
        key, value, rest = m.groups()
        if key == "Name" and in_groups:
            current = GroupStatus(name=value)
            st.groups[value] = current
        elif key == "Health":
            ru = re.search(r"resourceUnready=(\d+)", rest)
            if current is None:
                st.health = value
                st.resource_unready = int(ru.group(1)) if ru else None
            else:
                current.health = value
                mx = re.search(r"maxSize=(\d+)", rest)
                tg = re.search(r"cloudProviderTarget=(\d+)", rest)
                current.max_size = int(mx.group(1)) if mx else None
                current.target = int(tg.group(1)) if tg else None
        elif key == "ScaleUp":
            if current is None:
                st.scale_up = value
            else:
                current.scale_up = value
    return st


# ---- images and logs -----------------------------------------------------------------------------------

_CUDA_IN_IMAGE = re.compile(r"(?:^|[/:_-])cuda[-_:]?v?(\d{2})\.(\d)(?:\d*)?(?=[^0-9]|$)", re.I)
_CUDA_IMAGE_TAG = re.compile(r"/cuda:(\d+)\.(\d+)")
_REQUIRE = re.compile(r"cuda>=(\d+)\.(\d+)")


def image_cuda(image: str, env: list | None = None) -> str | None:
    """The CUDA version an image is built for: ``NVIDIA_REQUIRE_CUDA``, a ``cuda:X.Y`` tag, ``-cudaX.Y``."""
    for e in env or []:
        if isinstance(e, dict) and e.get("name") == "NVIDIA_REQUIRE_CUDA":
            m = _REQUIRE.search(str(e.get("value") or ""))
            if m:
                return f"{m.group(1)}.{m.group(2)}"
    m = _CUDA_IMAGE_TAG.search(image) or _CUDA_IN_IMAGE.search(image)
    if m:
        return f"{int(m.group(1))}.{int(m.group(2))}"
    return None


def matching_lines(text: str, patterns: tuple[tuple[re.Pattern[str], str], ...], limit: int = 3) -> list[str]:
    out = []
    for line in text.splitlines():
        if any(p.search(line) for p, _ in patterns):
            out.append(line.strip()[:300])
            if len(out) >= limit:
                break
    return out


def cuda_requirement(text: str) -> str | None:
    m = re.search(facts.signals()["cudaRequirement"]["pattern"], text)
    return m.group(1) if m else None
