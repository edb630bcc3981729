"""Helpers shared by the preflight rules (not a rule: the registry skips ``_`` modules)."""

from __future__ import annotations

from gpupool.catalog import version_tuple
from gpupool.findings import Severity


def at_least(have: str | None, need: str) -> bool:
    """``have`` >= ``need`` for dotted versions such as 2.72.2 or 19.0.0b29 (pre-release tags sort first)."""
    if not have:
        return False
    return _key(have) >= _key(need)


def _key(text: str) -> tuple:
    import re

    m = re.match(r"^(\d+(?:\.\d+)*)(?:([a-z]+)(\d*))?", text.strip().lower())
    if not m:
        return (0,)
    nums = version_tuple(m.group(1))
    nums = nums + (0,) * (4 - len(nums))
    tag = m.group(2)
    # 19.0.0b29 < 19.0.0: a pre-release sorts before its release
    return (*nums, 0 if tag else 1, int(m.group(3) or 0))


def quota_check(ctx, rule: str, severity, counter: str | None, what: str):  # type: ignore[no-untyped-def]
    """One finding when the quota counter has fewer free vCPUs than all pools using it need.

    Reported once, on the first pool that uses the counter (the sum covers every pool in the run)."""
    from gpupool.preflight.model import norm

    usage = ctx.inputs.usage
    if usage is None or counter is None:
        return
    need = ctx.needs.get(norm(counter))
    if need is None or need.first is not ctx.pool:
        return
    row = usage.get(counter)
    if row is None and what in ("Spot", "regional"):
        # a regional total every list has today; older subscriptions' lists lack lowPriorityCores (the 2019
        # recording of az vm list-usage has none): not a quota of 0, a quota gpupool cannot see
        yield ctx.finding(
            rule,
            Severity.WARNING,
            f"{what} quota {counter}: cannot check, {usage.path} has no {counter} row; {need.vcpus} vCPUs "
            "needed",
            at=("vmSize",),
            fix=f"check the {counter} quota of the region in the Azure portal (Quotas), or save a new "
            "az vm list-usage output",
            counter=counter,
            need=need.vcpus,
            free=None,
            short=None,
        )
        return
    if row is None:
        # a family name only the catalog gives may be spelt differently by Azure: never an error then
        guessed = what == "family" and ctx.quota_family_from == "catalog"
        yield ctx.finding(
            rule,
            Severity.WARNING if guessed else severity,
            f"{what} quota {counter}: not in {usage.path} (no quota for it in this region); "
            f"{need.vcpus} vCPUs needed",
            at=("vmSize",),
            fix=f"request quota for {counter} (Azure portal: Quotas)",
            counter=counter,
            need=need.vcpus,
            free=0,
            short=need.vcpus,
        )
        return
    short = need.vcpus - row.free
    if short <= 0:
        return
    yield ctx.finding(
        rule,
        severity,
        f"{what} quota {row.local_name}: {row.free} of {row.limit} vCPUs free, {need.vcpus} needed "
        f"({'; '.join(need.pools)}): short by {short} vCPUs",
        at=("autoscaler.maxCount", "nodeCount", "vmSize"),
        fix=f"raise the {row.name} quota limit to {row.current + need.vcpus} vCPUs (now {row.limit}; "
        f"Azure portal: Quotas), or lower {'maxCount' if ctx.pool.autoscaler else 'nodeCount'}",
        counter=row.name,
        need=need.vcpus,
        free=row.free,
        short=short,
    )


def rendered_flags(pool) -> list[str]:  # type: ignore[no-untyped-def]
    """Option names of the ``az aks nodepool add`` command gpupool renders for the pool (``--x=y`` too)."""
    from gpupool.render.az import nodepool_add_argv

    out = []
    for token in nodepool_add_argv(pool):
        if token.startswith("--"):
            out.append(token.split("=", 1)[0])
    return out
