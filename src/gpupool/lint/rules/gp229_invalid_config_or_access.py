"""GP229 invalid-config-or-access: a ConfigMap, Secret, RBAC object, PVC, quota or PriorityClass refused.

What it checks
  ConfigMap and Secret keys are file names ([-._a-zA-Z0-9], not '.' or '..'); Secret `data` values are
  base64 (the server cannot even decode the body otherwise), typed Secrets hold their keys (tls.crt and
  tls.key...). Role rules have verbs, and api groups and resources (or nonResourceURLs on a ClusterRole);
  bindings refer to a Role or ClusterRole of rbac.authorization.k8s.io, subjects are ServiceAccount, User
  or Group. PVCs have access modes (ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod) and a
  storage request above 0. ResourceQuota limits are at least 0 (an extended resource without the
  `requests.` prefix is accepted). A PriorityClass's value is at most 1,000,000,000.

Why
  Schemas cannot express these rules, so kubeconform and the schema check pass the object, but `kubectl
  apply` fails with `is invalid: <field>: ...`; for a workload nothing runs. The finding names the field
  as the API server does (`data[config file]`).

Source
  kubernetes/kubernetes `pkg/apis/core/validation/validation.go` (ValidateConfigMap, ValidateSecret,
  ValidatePersistentVolumeClaim, ValidateResourceQuota), `pkg/apis/rbac/validation`,
  `pkg/apis/scheduling/validation`; checked against a kube-apiserver v1.36 under server-side dry run,
  2026-12-03.

Fix
  Fix the field the finding names.

Failing example:

    kind: ConfigMap
    data:
      config file: "x=1"

Passing example:

    kind: ConfigMap
    data:
      config.ini: "x=1"
"""

from gpupool.findings import Severity

ID = "GP229"
NAME = "invalid-config-or-access"
SEVERITY = Severity.ERROR
SUMMARY = "A ConfigMap, Secret, RBAC object, PVC, ResourceQuota or PriorityClass the API server refuses."
AREA = "config"  # gpupool.k8s.validation's area this rule reports
FIX = "fix the field the finding names"
