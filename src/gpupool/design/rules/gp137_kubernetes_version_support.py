"""GP137 kubernetes-version-support: the Kubernetes version is past its end of life on AKS.

What it checks: the minor of `spec.kubernetesVersion` against AKS's calendar and today's date.
Past end of life (community support) but within long-term support (LTS, Premium tier): warning, with
both dates. Past end of life, only platform support left (N-3): warning. Past end of life and past LTS
and platform support: error (a warning when the version's dates are ones the calendar only plans).
Not yet GA (preview on AKS): warning. A version whose GA month has come but whose GA the calendar only
*planned* (1.37, "Oct 2026 (planned)", not confirmed by any release note gpupool can read): warning.

Why: after end of life AKS no longer patches the version; new clusters cannot use it, and node pools
get only platform support. LTS needs the Premium tier and the LTS support plan
(`az aks update --tier premium --k8s-support-plan AKSLongTermSupport`).

Fix: use a supported version (`az aks get-versions -l REGION`); upgrade the cluster first if the pool
follows it.

Source: MicrosoftDocs/azure-aks-docs articles/aks/supported-kubernetes-versions.md (release calendar:
1.33 EOL Jul 2026, 1.34 EOL Nov 2026, 1.35 EOL Mar 2027, 1.36 EOL Jun 2027, 1.37 EOL Oct 2027; LTS
table) @fb060abe6a8f; as of 2026-08-21 (re-checked 2026-12-03; nothing newer was reachable). "Today"
is the UTC date, or `GPUPOOL_TODAY` (YYYY-MM-DD) when set; another value is bad input (exit 2).

Failing example (on 2026-12-03):

    spec:
      kubernetesVersion: "1.30"

Passing example:

    spec:
      kubernetesVersion: "1.35"
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.catalog.aks import default_kubernetes_version, kubernetes_version, today
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.design.check import CheckContext
    from gpupool.spec.model import PoolSpec

ID = "GP137"
NAME = "kubernetes-version-support"
SEVERITY = Severity.ERROR
SUMMARY = "Kubernetes version past its end of life on AKS (LTS, platform support or none)"


def check(pool: PoolSpec, ctx: CheckContext) -> Iterator[Finding]:
    v = kubernetes_version(pool.kubernetes_version)
    if v is None:
        return
    on = today()
    status = v.status(on)
    fix = "use a supported version (az aks get-versions -l REGION)"
    extra = {
        "eol": v.eol.isoformat(),
        "ltsEol": v.lts_eol.isoformat() if v.lts_eol else None,
        "status": status,
    }
    k = pool.kubernetes_version
    if status == "supported" and v.planned:
        ga = v.ga.strftime("%b %Y") if v.ga else "a later date"
        yield ctx.finding(
            ID,
            Severity.WARNING,
            f"kubernetesVersion {v.minor}: AKS's GA was planned for {ga}, and no release note gpupool can "
            f"read confirms it (calendar as of {v.as_of}); AKS may still offer it as preview only",
            at=("kubernetesVersion",),
            fix="check az aks get-versions -l REGION (or gpupool preflight); AKS's default today is "
            f"{default_kubernetes_version().minor}",
            **extra,
        )
        return
    if status == "supported":
        return
    if status == "preview":
        ga = v.ga.strftime("%b %Y") if v.ga else "a later date"
        yield ctx.finding(
            ID,
            Severity.WARNING,
            f"kubernetesVersion {v.minor} is preview on AKS until GA ({ga})",
            at=("kubernetesVersion",),
            fix=None,
            **extra,
        )
    elif status == "lts":
        yield ctx.finding(
            ID,
            Severity.WARNING,
            f"kubernetesVersion {k} reached end of life on {v.eol}; supported only with LTS (Premium) until "
            f"{v.lts_eol}",
            at=("kubernetesVersion",),
            fix=fix + ", or enable LTS (az aks update --tier premium --k8s-support-plan AKSLongTermSupport)",
            **extra,
        )
    elif status == "platform":
        yield ctx.finding(
            ID,
            Severity.WARNING,
            f"kubernetesVersion {k} reached end of life on {v.eol}; AKS gives it platform support only "
            "(no Kubernetes fixes)",
            at=("kubernetesVersion",),
            fix=fix,
            **extra,
        )
    else:
        lts = f", LTS ended {v.lts_eol}" if v.lts_eol else ""
        # a date AKS's calendar only plans is an estimate: never an error on its own
        planned = f"; planned dates of AKS's calendar as of {v.as_of}" if v.planned else ""
        yield ctx.finding(
            ID,
            Severity.WARNING if v.planned else SEVERITY,
            f"kubernetesVersion {k} is out of AKS support (end of life {v.eol}{lts}{planned})",
            at=("kubernetesVersion",),
            fix=fix,
            **extra,
        )
