"""AKS facts about versions and node limits: the Kubernetes calendar, maxPods bounds, reserved labels.

Read from ``catalog/data/kubernetes_versions.yaml`` and ``aks_limits.yaml``; every value has its source.
"Today" for support windows is the UTC date, or ``GPUPOOL_TODAY`` (YYYY-MM-DD) when set, so that CI and
tests are reproducible.
"""

from __future__ import annotations

import datetime as _dt
import os
from dataclasses import dataclass
from functools import cache

from gpupool.catalog.datafiles import load as _data
from gpupool.catalog.datafiles import version_tuple


def today() -> _dt.date:
    """The date support windows are judged on: ``GPUPOOL_TODAY`` (YYYY-MM-DD) or today's UTC date (a value
    that is not a date is bad input, not silently today)."""
    text = os.environ.get("GPUPOOL_TODAY", "").strip()
    if text:
        try:
            return _dt.date.fromisoformat(text)
        except ValueError:
            from gpupool.errors import InputError, safe_text

            raise InputError(
                None,
                None,
                f"GPUPOOL_TODAY={safe_text(text, 40)}: not a date",
                "write YYYY-MM-DD, or unset it to judge support windows on today's date",
            ) from None
    return _dt.datetime.now(_dt.UTC).date()


def _month_start(text: str | None) -> _dt.date | None:
    if not text:
        return None
    y, m = str(text).split("-")[:2]
    return _dt.date(int(y), int(m), 1)


@dataclass(frozen=True)
class K8sVersion:
    """One Kubernetes minor version on AKS's calendar."""

    minor: str
    ga: _dt.date | None  # first day of the GA month
    eol: _dt.date  # end of community support (last day)
    lts_eol: _dt.date | None  # end of long-term support (Premium tier)
    platform_until: _dt.date | None  # platform support ends when this month's GA lands
    planned: bool
    source: str
    as_of: str

    def status(self, on: _dt.date) -> str:
        """``preview`` (GA not reached), ``supported``, ``lts`` (past EOL, only with LTS), ``platform``
        (past EOL, platform support only), or ``unsupported``."""
        if self.ga is not None and on < self.ga:
            return "preview"
        if on <= self.eol:
            return "supported"
        if self.lts_eol is not None and on <= self.lts_eol:
            return "lts"
        if self.platform_until is not None and on < self.platform_until:
            return "platform"
        return "unsupported"


@cache
def kubernetes_versions() -> dict[str, K8sVersion]:
    d = _data("kubernetes_versions.yaml")
    out = {}
    for minor, v in d["versions"].items():
        out[str(minor)] = K8sVersion(
            minor=str(minor),
            ga=_month_start(v.get("ga")),
            eol=_dt.date.fromisoformat(str(v["eol"])),
            lts_eol=_dt.date.fromisoformat(str(v["ltsEol"])) if v.get("ltsEol") else None,
            platform_until=_month_start(v.get("platformSupportUntil")),
            planned=bool(v.get("planned", False)),
            source=str(d["source"]),
            as_of=str(d["asOf"]),
        )
    return out


def minor_of(version: str | None) -> str | None:
    """``"1.34.2"`` -> ``"1.34"``; None for None or text that is not a version."""
    if not version:
        return None
    parts = version_tuple(version)
    if len(parts) < 2:
        return None
    return f"{parts[0]}.{parts[1]}"


def kubernetes_version(version: str | None) -> K8sVersion | None:
    m = minor_of(version)
    return kubernetes_versions().get(m) if m else None


def calendar_span() -> tuple[str, str]:
    """(oldest, newest) minor on the calendar."""
    keys = sorted(kubernetes_versions(), key=version_tuple)
    return keys[0], keys[-1]


def calendar_source() -> tuple[str, str]:
    d = _data("kubernetes_versions.yaml")
    return str(d["source"]), str(d["asOf"])


@dataclass(frozen=True)
class MaxPods:
    min: int
    max: int
    min_pods_per_pool: int
    defaults: dict[str, int]  # network (overlay | podSubnet | nodeSubnet | kubenet | none) -> default
    default_network: str
    source: str
    as_of: str

    @property
    def default(self) -> int:
        return self.defaults[self.default_network]


@cache
def max_pods() -> MaxPods:
    m = _data("aks_limits.yaml")["maxPods"]
    return MaxPods(
        min=int(m["min"]),
        max=int(m["max"]),
        min_pods_per_pool=int(m["minPodsPerPool"]),
        defaults={k: int(v) for k, v in m["defaults"].items()},
        default_network=str(m["defaultNetwork"]),
        source=str(m["source"]),
        as_of=str(m["asOf"]),
    )


@cache
def reserved_label_prefixes() -> tuple[tuple[str, ...], str, str]:
    """(prefixes, source, asOf) of the node-label prefixes AKS reserves."""
    r = _data("aks_limits.yaml")["reservedLabelPrefixes"]
    return tuple(r["prefixes"]), str(r["source"]), str(r["asOf"])


def reserved_prefix(label_key: str) -> str | None:
    """The reserved prefix a label key starts with (as the doc lists them: literal prefixes), or None."""
    prefixes, _, _ = reserved_label_prefixes()
    for p in prefixes:
        if label_key.startswith(p):
            return p
    return None


@dataclass(frozen=True)
class DefaultVersion:
    """The Kubernetes minor a command assumes when neither the spec nor the cluster says: AKS's own default
    for a new cluster on ``on`` (N-1 of the minors whose AKS GA the calendar confirms)."""

    minor: str
    on: _dt.date
    ga_minors: tuple[str, ...]  # the confirmed-GA minors it was chosen from, oldest first
    source: str
    configured: str | None = None  # the config file whose kubernetesVersion this is

    def note(self) -> str:
        """``assuming Kubernetes 1.35, AKS's default on 2026-12-03; set kubernetesVersion``."""
        if self.configured:
            return f"assuming Kubernetes {self.minor}, the kubernetesVersion of {self.configured}"
        on = self.on.isoformat()
        return f"assuming Kubernetes {self.minor}, AKS's default on {on}; set kubernetesVersion"

    def to_dict(self) -> dict[str, str]:
        reason = f"kubernetesVersion in {self.configured}" if self.configured else "AKS's default"
        return {"kubernetesVersion": self.minor, "reason": reason, "on": self.on.isoformat(),
                "note": self.note(), "source": self.configured or self.source}


_configured: tuple[str, str] | None = None  # (minor, config file): the run's .gpupool.yaml kubernetesVersion


def configure_default_version(minor: str | None, config_path: str | None = None) -> None:
    """Make ``minor`` the version every command assumes where nothing says one (the global
    ``kubernetesVersion`` of ``.gpupool.yaml``; set once per run by the CLI). None: AKS's default again."""
    global _configured
    _configured = (".".join(minor.split(".")[:2]), config_path or ".gpupool.yaml") if minor else None


def default_kubernetes_version(on: _dt.date | None = None) -> DefaultVersion:
    """AKS's default Kubernetes minor on ``on`` (default: :func:`today`): ``az aks create`` without
    ``--kubernetes-version`` takes N-1 of the generally available minors. Only a GA the calendar confirms
    counts: a row marked ``planned`` (1.37's "Oct 2026 (planned)") is not a GA, whatever its month.

    The one default of every command that needs a version and has none (check, plan, lint, simulate,
    doctor); a cluster's own version (kubelets, server) always wins over it. Source: azure-aks-docs
    supported-kubernetes-versions.md ("AKS defaults to N-1"), with the calendar in kubernetes_versions.yaml.
    """
    day = on or today()
    if _configured is not None and on is None:
        return DefaultVersion(_configured[0], day, (), _configured[1], configured=_configured[1])
    confirmed = (v for v in kubernetes_versions().values() if not v.planned and v.ga is not None)
    ga = sorted((v.minor for v in confirmed if v.ga is not None and v.ga <= day), key=version_tuple)
    if not ga:  # a date before the calendar: its oldest row
        ga = [calendar_span()[0]]
    minor = ga[-2] if len(ga) >= 2 else ga[-1]
    d = _data("kubernetes_versions.yaml")
    return DefaultVersion(minor, day, tuple(ga), str(d.get("defaultSource") or d["source"]))
