"""``gpupool diff``: which changes to an existing AKS node pool are in-place updates and which need a new
pool, the exact commands, and a migration runbook for the latter.

- :func:`diff`                    CURRENT (spec or ``az aks nodepool show`` JSON) vs DESIRED -> DiffResult
- :mod:`gpupool.catalog.mutability` the field classification table (``catalog/data/mutability.yaml``)
- :mod:`gpupool.diff.engine`      per-field comparison, Change / DiffResult, the exact update commands
- :mod:`gpupool.diff.workloads`   which workloads rely on the pool and whether they would follow
- :mod:`gpupool.diff.runbook`     the migration plan and its bash script (dry-run unless --execute)
- :mod:`gpupool.diff.rules`       GP4xx findings (taints changed in place, workloads that won't follow, ...)
"""

from gpupool.diff.engine import Change, DiffResult, Target
from gpupool.diff.plan import diff
from gpupool.diff.runbook import Migration, new_pool_name
from gpupool.diff.workloads import Follow, Located, load_workloads

__all__ = [
    "Change",
    "DiffResult",
    "Follow",
    "Located",
    "Migration",
    "Target",
    "diff",
    "load_workloads",
    "new_pool_name",
]
