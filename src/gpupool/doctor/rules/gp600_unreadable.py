"""GP600 could-not-read: something doctor could not read, so the diagnosis may be incomplete.

What it checks: reads that RBAC forbade (403), resources the cluster does not have (404, e.g. the GPU
Operator's ClusterPolicy CRD), reads that timed out, and snapshot files or logs that were skipped. Node Auto
Provisioning's CRDs (`nodeclaims.karpenter.sh`, `nodepools.karpenter.sh`) absent is no note: most clusters do
not run it, and doctor's summary names them as not installed.

Why: doctor never crashes on a partial view, but a rule cannot report what it could not see (no events: no
autoscaler or XID evidence; no logs: no driver evidence).

Fix: depends on the cause. Forbidden (403): grant get/list on nodes, pods, daemonsets, events and
configmaps and get on pods/log (a read-only ClusterRole such as `view` plus nodes), or collect the
snapshot with an account that can read them. Not found (404): the cluster does not serve that API; for
`clusterpolicies.nvidia.com` that means the GPU Operator is not installed, and there is nothing to grant.
A server error (5xx): retry, and check the control plane if it persists. A timeout: retry with a larger
`--timeout`. Logs skipped on NotReady nodes or past `--log-budget`: read them by hand or raise the budget.

Source: Kubernetes API concepts, "Status" responses (403 Forbidden, 404 NotFound, 410 Gone/Expired, 5xx):
https://kubernetes.io/docs/reference/using-api/api-concepts/ ; as of 2026-12-03.

Failing example:

    could not read events: forbidden (events is forbidden: User "viewer" cannot list resource "events" ...)

Passing example:

    # every read answered
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context, finding
from gpupool.findings import Finding, Severity

ID = "GP600"
NAME = "could-not-read"
SEVERITY = Severity.INFO
READS = ()  # kinds it must read to conclude (doctor.engine)
SUMMARY = "A read was forbidden, absent or timed out: the diagnosis may be incomplete"


GENERIC = "grant read access (get/list) to what is named, or ignore it if it is not used"
FIXES = {
    "forbidden": "grant read access (get/list, or get on pods/log for logs) to what is named: e.g. the "
    "ClusterRole view plus nodes, or collect with an account that can read it",
    "not-found": "nothing to grant: the cluster does not serve this resource",
    "gone": "the list changed while it was read: run doctor again",
    "bad-request": "the server refused the request as malformed: run doctor again, and report it if it stays",
    "server-error": "the API server failed the request: run doctor again; if it persists, check the "
    "control plane's health (or, for logs, the node's kubelet)",
    "timeout": "no answer in time: run again with a larger --timeout (logs: the node's kubelet may be down)",
    "skipped": "read those logs by hand (kubectl logs) once the nodes are Ready, if they matter",
    "budget": "raise --log-budget, or read the remaining logs by hand (kubectl logs)",
    "partial": "the list is incomplete: run doctor again",
    "invalid": "the server did not answer JSON: check that the context points at a Kubernetes API server",
}
NO_OPERATOR = (
    "nothing to grant: the ClusterPolicy CRD is not installed, so the NVIDIA GPU Operator is not installed "
    "here (ignore this unless you expected it)"
)


def fix_for(note: str, cause: str | None) -> str:
    if cause == "not-found" and "clusterpolicies.nvidia.com" in note:
        return NO_OPERATOR
    return FIXES.get(cause or "", GENERIC)


def check(ctx: Context) -> Iterator[Finding]:
    causes = ctx.view.snap.causes
    for note in ctx.view.snap.notes:
        yield finding(ID, SEVERITY, note, "cluster", "input", fix=fix_for(note, causes.get(note)))
