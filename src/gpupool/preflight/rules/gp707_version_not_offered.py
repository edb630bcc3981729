"""GP707 version-not-offered: the pool's Kubernetes version is not offered in the region.

What it checks: the pool's version (`spec.kubernetesVersion`, else the cluster's current version from
`az aks show`) against `az aks get-versions -l REGION -o json`: the minor must be listed (and a full
patch version among its `patchVersions`). A minor the region marks `isPreview`: warning. A minor
offered only with the `AKSLongTermSupport` plan: warning.

Why: AKS rolls versions out region by region and removes old ones; `az aks nodepool add
--kubernetes-version` fails for a version the region does not list.

Fix: use a version the region lists (`az aks get-versions -l REGION -o table`), or leave
`kubernetesVersion` out to follow the control plane. For a preview or LTS-only minor, the finding lists
the GA minors under standard support (never the one written), or enable LTS on the cluster.

Source: azure-cli 2.91.0 acs/custom.py aks_get_versions (`KubernetesVersionListResult`: values[].version,
isPreview, capabilities.supportPlan, patchVersions); MicrosoftDocs/azure-aks-docs
supported-kubernetes-versions.md; as of 2026-12-03.

Failing example (get-versions lists 1.33-1.35):

    spec:
      kubernetesVersion: "1.32"

Passing example:

    spec:
      kubernetesVersion: "1.34"
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.catalog import version_tuple
from gpupool.catalog.aks import minor_of
from gpupool.findings import Finding, Severity

if TYPE_CHECKING:
    from gpupool.preflight.engine import PoolContext

ID = "GP707"
NAME = "version-not-offered"
SEVERITY = Severity.ERROR
SUMMARY = "Kubernetes version not offered in the region (az aks get-versions)"


def check(ctx: PoolContext) -> Iterator[Finding]:
    versions = ctx.inputs.versions
    version = ctx.kubernetes_version
    minor = minor_of(version)
    if versions is None or minor is None:
        return
    where = f"the {ctx.version_from}'s" if ctx.version_from == "cluster" else "spec"
    offered = sorted(versions.minors, key=version_tuple)
    row = versions.minors.get(minor)
    fix = f"use one of {', '.join(offered)}" if offered else "check az aks get-versions"
    if row is None:
        yield ctx.finding(
            ID,
            SEVERITY,
            f"Kubernetes {version} ({where} version) is not offered in {ctx.region or 'the region'} "
            f"({versions.path} lists {', '.join(offered) or 'none'})",
            at=("kubernetesVersion",),
            fix=fix,
            version=version,
            offered=offered,
        )
        return
    if version != minor and row.patches and version not in row.patches:
        yield ctx.finding(
            ID,
            SEVERITY,
            f"Kubernetes patch {version} is not offered (the region has {', '.join(row.patches)})",
            at=("kubernetesVersion",),
            fix=f'write "{minor}" (AKS picks the newest patch) or a listed patch',
            version=version,
            offered=list(row.patches),
        )
        return
    standard = [
        m
        for m in offered
        if not versions.minors[m].preview
        and (not versions.minors[m].support_plans or "KubernetesOfficial" in versions.minors[m].support_plans)
    ]
    if row.preview:
        yield ctx.finding(
            ID,
            Severity.WARNING,
            f"Kubernetes {minor} is preview in this region",
            at=("kubernetesVersion",),
            fix=f"use a GA version ({', '.join(standard)})" if standard else "use a GA version",
            version=version,
        )
    elif row.support_plans and "KubernetesOfficial" not in row.support_plans:
        yield ctx.finding(
            ID,
            Severity.WARNING,
            f"Kubernetes {minor} is offered only with {', '.join(row.support_plans)} (LTS, Premium tier)",
            at=("kubernetesVersion",),
            fix=(f"use a version under standard support ({', '.join(standard)}), or " if standard else "")
            + "enable LTS (az aks update --tier premium --k8s-support-plan AKSLongTermSupport)",
            version=version,
            supportPlans=list(row.support_plans),
        )
