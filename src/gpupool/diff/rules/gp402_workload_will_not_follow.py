"""GP402 workload-will-not-follow: a workload that relies on the pool would not run after the change.

What it checks (only with `--workloads`): every workload that can run on CURRENT and relies on it (it
requests a GPU resource the pool advertises, targets it with nodeSelector / required node affinity, or
tolerates one of its hard taints by key) is matched against the pool that will carry it: the new pool when
the change needs one, DESIRED otherwise. It reports workloads whose pods would not be scheduled there:

- nodeSelector / affinity pinned to the old pool name (`agentpool` or `kubernetes.azure.com/agentpool`);
  a new pool always has a new name;
- no toleration for a `NoSchedule` / `NoExecute` taint of the new pool;
- a GPU resource the new pool does not advertise (MIG profile or strategy, time-slicing rename) or more of
  it than one node has;
- a bare Pod on a pool being replaced (`kubectl drain` refuses to evict it; nothing recreates it).

In-place taint additions are GP401's; this rule reports the other problems then.

Why: the runbook cordons and drains the old pool; pods that cannot land on the new pool stay Pending and the
workload is down. The runbook stops before the drain when such workloads exist (unless `--force`).

Fix: change the workload first (select a label both pools carry, add the toleration, request the resource the
new pool advertises), or keep the old pool.

Source: Kubernetes scheduler NodeAffinity / TaintToleration / NodeResourcesFit filters (gpupool.k8s);
node labels from MicrosoftDocs/azure-aks-docs articles/aks/use-labels.md; kubectl drain documentation;
as of 2026-08-21.

Failing example (vmSize changes, so the pool gets a new name):

    spec:
      nodeSelector: {kubernetes.azure.com/agentpool: gpunp}

Passing example:

    spec:
      nodeSelector: {kubernetes.azure.com/accelerator: nvidia}
      tolerations: [{key: sku, operator: Equal, value: gpu, effect: NoSchedule}]
"""

from __future__ import annotations

from gpupool.findings import Finding, Severity

ID = "GP402"
NAME = "workload-will-not-follow"
SEVERITY = Severity.ERROR
SUMMARY = "a workload that relies on the pool would not run on the new (or changed) pool"


def check(ctx):
    if ctx.follows is None:
        return
    if ctx.requires_new_pool and ctx.migration is None:
        return  # another cluster: no migration in this cluster to judge
    new_pool = ctx.migration.new.name if ctx.migration is not None else ctx.desired.name
    in_place = ctx.migration is None
    for f in ctx.follows:
        if not f.relies_on_old:
            continue
        items = [
            (p, fx)
            for p, fx, k in zip(f.problems, f.fixes, f.kinds or ("",) * len(f.problems), strict=False)
            if not (in_place and k == "taint")
        ]
        if not items:
            continue
        why = "; ".join(p for p, _ in items)
        if in_place:
            msg = f"after this change {f.ref} would no longer be scheduled on pool {new_pool}: {why}"
        else:
            msg = (
                f"{f.ref} runs on pool {ctx.current.name} but would not run on the new pool "
                f"{new_pool}: {why}"
            )
        yield Finding(
            rule=ID,
            severity=SEVERITY,
            message=msg,
            path=f.item.path,
            line=f.item.line,
            object=f.ref,
            fix="; ".join(dict.fromkeys(fx for _, fx in items)),
            extra={"pool": new_pool},
        )
