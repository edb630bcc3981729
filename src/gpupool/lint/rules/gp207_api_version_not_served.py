"""GP207 api-version-not-served: a built-in kind in an API version this Kubernetes version does not serve.

What it checks
  Objects of the API groups Kubernetes itself serves (the core group, `apps`, `batch`, `policy`,
  `extensions`, `networking.k8s.io`, `rbac.authorization.k8s.io` ...: the list is
  `lint/data/builtin_groups.yaml`) must name a kind and version that the selected Kubernetes version
  serves. Removed versions (`extensions/v1beta1` Deployments, `policy/v1beta1` PodSecurityPolicy,
  `batch/v1beta1` CronJobs) and misspelt kinds (`Deploymnet`) are reported with the versions that are
  served, or the closest kind. Other groups, `*.k8s.io` ones included (Gateway API
  `gateway.networking.k8s.io`, `snapshot.storage.k8s.io`, `metrics.k8s.io`, kustomize's
  `kustomize.config.k8s.io`, `x-k8s.io` projects), are custom or aggregated APIs: GP208, never GP207.

Why
  `kubectl apply` fails: `no matches for kind "Deployment" in version "extensions/v1beta1"`.
  kubernetes-validate only warns that it found no schema; kubeconform fails the same way as kubectl.

Fix
  Move to a served API version (the message lists them) and adapt the fields that changed.

Failing example:

    apiVersion: extensions/v1beta1
    kind: Deployment
    metadata: {name: old}

Passing example: `apiVersion: apps/v1` with `spec.selector` set.
"""

from gpupool.findings import Severity

ID = "GP207"
NAME = "api-version-not-served"
SEVERITY = Severity.ERROR
SUMMARY = (
    "A built-in kind/apiVersion that the selected Kubernetes version does not serve (removed or misspelt)."
)
