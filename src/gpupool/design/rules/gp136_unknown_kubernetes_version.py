"""GP136 unknown-kubernetes-version: the Kubernetes version is not one AKS offers.

What it checks: the minor version of `spec.kubernetesVersion` against AKS's release calendar
(`kubernetes_versions.yaml`, 1.29-1.37). Older than the calendar (e.g. "1.24"): error, AKS no longer
offers it under any support plan. Far newer than the calendar (two or more minors past its newest, e.g.
"1.99"): error, no such version is announced. One minor past the newest: a warning, since the calendar
gpupool ships is dated and a newer version may have come since.

Why: `az aks nodepool add --kubernetes-version` fails for a version the region does not offer, after
the rest of a pipeline has run. `gpupool preflight` checks the region's real list
(`az aks get-versions`).

Fix: pick a version AKS supports today (`az aks get-versions -l REGION -o table`), or leave
`kubernetesVersion` out to follow the cluster.

Source: MicrosoftDocs/azure-aks-docs articles/aks/supported-kubernetes-versions.md (release calendar,
LTS table) @fb060abe6a8f; as of 2026-08-21 (re-checked 2026-12-03; nothing newer was reachable).

Failing example:

    spec:
      kubernetesVersion: "1.24"

Passing example:

    spec:
      kubernetesVersion: "1.34"
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.catalog import version_tuple
from gpupool.catalog.aks import calendar_source, calendar_span, kubernetes_version, minor_of
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP136"
NAME = "unknown-kubernetes-version"
SEVERITY = Severity.ERROR
SUMMARY = "Kubernetes version AKS does not offer (too old, or not released)"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    minor = minor_of(pool.kubernetes_version)
    if minor is None or kubernetes_version(minor) is not None:
        return
    oldest, newest = calendar_span()
    _, as_of = calendar_source()
    have, lo, hi = version_tuple(minor), version_tuple(oldest), version_tuple(newest)
    if have < lo:
        yield ctx.finding(
            ID,
            SEVERITY,
            f"kubernetesVersion {pool.kubernetes_version} is no longer offered by AKS (the oldest minor "
            f"still in any support window is {oldest})",
            at=("kubernetesVersion",),
            fix=f"use a supported version ({oldest}-{newest} as of {as_of}; "
            "az aks get-versions lists the region's)",
            oldest=oldest,
            newest=newest,
        )
        return
    ahead = (have[1] - hi[1]) if have[0] == hi[0] else 99
    severity = Severity.WARNING if ahead == 1 else SEVERITY
    what = "is newer than AKS's calendar" if ahead == 1 else "is not a Kubernetes version AKS has announced"
    yield ctx.finding(
        ID,
        severity,
        f"kubernetesVersion {pool.kubernetes_version} {what} (newest {newest}, calendar as of {as_of})",
        at=("kubernetesVersion",),
        fix="check az aks get-versions -l REGION, or run gpupool preflight",
        oldest=oldest,
        newest=newest,
    )
