"""What GP309 (device plugin) and GP312 (the rest of the GPU stack) share: does a GPU stack DaemonSet reach
the GPU pools it serves (selector), and does it tolerate their taints."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from gpupool.findings import Finding, Severity
from gpupool.k8s.taints import format_toleration

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext


def reach_findings(
    ctx: WorkloadContext,
    rule: str,
    severity: Severity,
    serving: list[Any],
    what: str,
    whose: str,
    consequence: str,
    fix_more: str = "",
    **extra: Any,
) -> Iterator[Finding]:
    """``serving``: the pool fits of the pools the DaemonSet is for. A DaemonSet scoped to other GPU pools
    (e.g. the GPU Operator's own copy on its pools) is not faulted for missing these."""
    selected = [f for f in serving if f.selector_ok]
    scoped_elsewhere = any(f.selector_ok and f.view.is_gpu for f in ctx.fits)
    if serving and not selected and not scoped_elsewhere:
        names = ", ".join(f.view.describe() for f in serving)
        yield ctx.finding(
            rule,
            severity,
            f"{what} DaemonSet: its nodeSelector/required node affinity selects none of the GPU pools "
            f"{whose} ({names}): {consequence}",
            ctx.spec_key("nodeSelector", "affinity"),
            fix=f"select the pool, e.g. nodeSelector kubernetes.azure.com/agentpool: {serving[0].view.name}"
            + fix_more,
            pool=serving[0].view.name,
            **extra,
        )
    for f in selected:
        if f.untolerated:
            taints = ", ".join(str(t) for t in f.untolerated)
            yield ctx.finding(
                rule,
                severity,
                f"{what} DaemonSet does not tolerate taint {taints} of GPU {f.view.describe()}: "
                f"{consequence}",
                ctx.spec_key("tolerations"),
                fix="add to the DaemonSet's tolerations: "
                + "; ".join(format_toleration(t) for t in f.untolerated),
                pool=f.view.name,
                **extra,
            )
