"""GP220 invalid-object-name: metadata.name, generateName or namespace in a form the kind does not allow.

What it checks
  `metadata.name` (and `generateName`, and the name the server generates from it) against the rule of
  the object's kind: an RFC 1123 subdomain (most kinds: at most 253 lower-case alphanumerics, '-' and '.'),
  an RFC 1123 label (Namespace; StatefulSet since Kubernetes 1.27; Service since 1.36, an RFC 1035 label
  before), or any name that is one URL path segment (Role, ClusterRole, RoleBinding, ClusterRoleBinding,
  PodDisruptionBudget: `Api-T4` is accepted there). A CronJob's name is at most 52 characters (its Jobs
  add 11). `metadata.namespace` must be an RFC 1123 label. Custom resources: an RFC 1123 subdomain.
  A PriorityClass may not start with `system-`.

Why
  Schemas cannot express these rules, so kubeconform and the schema check pass the object, but `kubectl
  apply` fails with `is invalid: <field>: ...`; for a workload nothing runs. The finding names the field
  as the API server does (`metadata.name`).

Source
  kubernetes/kubernetes `pkg/apis/core/validation/validation.go` (ValidateObjectMeta,
  ValidateNamespaceName),
  `pkg/apis/apps/validation` (ValidateStatefulSetName, kubernetes/kubernetes#114172),
  `pkg/apis/batch/validation`
  (ValidateCronJobCreate), `pkg/apis/rbac/validation` (ValidateRBACName), KEP-5311 (relaxed Service names);
  checked against a kube-apiserver v1.36 under server-side dry run, 2026-12-03.

Fix
  Use lower-case letters, digits and '-' (and '.' where the kind allows it), starting and ending with a
  letter or digit.

Failing example:

    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: <img src=x onerror=alert(1)>
      namespace: <script>

Passing example:

    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: llama-server
      namespace: ml
"""

from gpupool.findings import Severity

ID = "GP220"
NAME = "invalid-object-name"
SEVERITY = Severity.ERROR
SUMMARY = "metadata.name, generateName or namespace in a form the API server refuses for the kind."
AREA = "metadata"  # gpupool.k8s.validation's area this rule reports
FIX = (
    "use lower-case letters, digits and '-' (and '.' where the kind allows it), starting and "
    "ending with a letter or digit"
)
