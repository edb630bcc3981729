"""GP600 could-not-read: something doctor could not read, so the diagnosis may be incomplete.

What it checks: reads that RBAC forbade (403), resources the cluster does not have (404, e.g. the GPU
Operator's ClusterPolicy CRD), reads that timed out, and snapshot files or logs that were skipped.

Why: doctor never crashes on a partial view, but a rule cannot report what it could not see (no events: no
autoscaler or XID evidence; no logs: no driver evidence).

Fix: grant get/list on nodes, pods, daemonsets, events and configmaps and get on pods/log (a read-only
ClusterRole such as ``view`` plus nodes), or collect the snapshot with an account that can read them.

Source: gpupool doctor (live reader: kubernetes API Status codes 403/404); as of 2026-12-03.

Failing example::

    could not read events: forbidden (events is forbidden: User "viewer" cannot list resource "events" ...)

Passing example::

    # every read answered
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool.doctor.context import Context, finding
from gpupool.findings import Finding, Severity

ID = "GP600"
NAME = "could-not-read"
SEVERITY = Severity.INFO
SUMMARY = "A read was forbidden, absent or timed out: the diagnosis may be incomplete"


def check(ctx: Context) -> Iterator[Finding]:
    for note in ctx.view.snap.notes:
        yield finding(
            ID,
            SEVERITY,
            note,
            "cluster",
            "input",
            fix="grant read access (get/list) to what is named, or ignore it if it is not used",
        )
