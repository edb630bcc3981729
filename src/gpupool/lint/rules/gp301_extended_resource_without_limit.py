"""GP301 extended-resource-without-limit: a GPU (or other extended resource) under `requests` only.

What it checks
  For every container of a pod template (Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob,
  ReplicationController): each extended resource (a domain-prefixed name outside `kubernetes.io/`, such as
  `nvidia.com/gpu`, `nvidia.com/mig-1g.10gb`, `amd.com/gpu`) that appears under `requests` must also
  appear under `limits`. No schema says so; the API server checks it by hand and rejects the pod with the
  words mirrored here.

Why
  `kubectl apply` of a Pod fails; for a Deployment the ReplicaSet never creates pods, and the error only
  shows up in the ReplicaSet's events (`FailedCreate`).

Source
  kubernetes/kubernetes `pkg/apis/core/validation/validation.go` `ValidateResourceRequirements`
  (extended resources are not overcommitable; kubernetes/kubernetes#57170).

Fix
  Put the GPU under `limits` (a limit alone also sets the request).

Failing example:

    resources:
      requests: {nvidia.com/gpu: 1}

Passing example:

    resources:
      limits: {nvidia.com/gpu: 1}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.k8s.resources import is_extended_resource
from gpupool.lint.schema import format_path, safe

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext

ID = "GP301"
NAME = "extended-resource-without-limit"
SEVERITY = Severity.ERROR
SUMMARY = "A GPU/extended resource is requested without a limit (the API server rejects the pod)."


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    for cpath, req, lim in ctx.resource_sections():
        for name in req:
            if isinstance(name, str) and is_extended_resource(name) and name not in lim:
                at = (*cpath, "resources", "requests", name)
                value = safe(str(req[name]))
                yield ctx.finding(
                    ID,
                    SEVERITY,
                    f"{format_path((*cpath, 'resources', 'limits'))}: Required value: Limit must "
                    "be set for non "
                    f"overcommitable resources ({safe(name)} is requested but has no limit)",
                    at,
                    fix=f"move it to limits: {{{safe(name)}: {value}}} (a limit alone also sets the request)",
                )
