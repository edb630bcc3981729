"""``gpupool diff`` as one call: compare, classify, plan the migration when a new pool is needed, judge the
given workloads, run the GP4xx rules. Returns a :class:`~gpupool.diff.engine.DiffResult`; prints nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from gpupool.diff.engine import DiffContext, DiffResult, Target, compare, run_rules, target_of
from gpupool.diff.runbook import Migration, new_pool_name, plan_migration
from gpupool.diff.workloads import Follow, Located, judge
from gpupool.spec.azjson import AzPool
from gpupool.spec.model import PoolSpec


def same_cluster(current: PoolSpec, desired: PoolSpec, target: Target) -> bool:
    return (
        desired.resource_group.lower() == target.resource_group.lower()
        and desired.cluster_name.lower() == target.cluster_name.lower()
    )


def diff(
    current: PoolSpec,
    desired: PoolSpec,
    *,
    current_az: AzPool | None = None,
    resource_group: str | None = None,
    cluster_name: str | None = None,
    workloads: Sequence[Located] | None = None,
    new_name: str | None = None,
    taken_names: Sequence[str] = (),
    drain_timeout: str = "30m",
    wait_timeout: str = "20m",
) -> DiffResult:
    """Diff CURRENT (the pool as it is: a spec or ``az aks nodepool show`` JSON) against DESIRED.

    When a change needs a new pool and both are in the same cluster, the result carries the
    :class:`~gpupool.diff.runbook.Migration` (new pool name, steps, script). ``workloads`` (from
    ``--workloads``) are judged against the pool that will carry them: the new pool for a migration,
    DESIRED otherwise (for in-place taint changes).
    """
    target = target_of(current, current_az, resource_group, cluster_name)
    changes, skipped = compare(current, desired, target, from_az=current_az is not None)
    requires_new = any(c.action == "recreate" for c in changes)
    migration: Migration | None = None
    follows: tuple[Follow, ...] | None = None
    if requires_new and same_cluster(current, desired, target):
        name = new_pool_name(current, desired, new_name, tuple(taken_names))
        migration = plan_migration(
            current, desired, target, tuple(changes), name, None, drain_timeout, wait_timeout
        )
        if workloads is not None:
            follows = tuple(judge(workloads, migration.old, migration.new))
            migration = plan_migration(
                current, desired, target, tuple(changes), name, follows, drain_timeout, wait_timeout
            )
    elif workloads is not None:
        follows = tuple(judge(workloads, current, desired))
    ctx = DiffContext(current, desired, tuple(changes), current_az, follows, migration)
    findings = run_rules(ctx)
    return DiffResult(
        current,
        desired,
        target,
        tuple(changes),
        tuple(findings),
        tuple(skipped),
        current_az,
        migration,
        follows,
    )
