"""GP226 invalid-scheduling: tolerations, affinity, nodeSelector or topologySpreadConstraints refused.

What it checks
  Tolerations: a key is a qualified name; an empty key needs `operator: Exists`; `Exists` takes no value;
  `Equal` values are label values; effect NoSchedule, PreferNoSchedule or NoExecute, and NoExecute when
  `tolerationSeconds` is set. Node affinity: In/NotIn need values, Exists/DoesNotExist none, Gt/Lt exactly
  one; weights 1-100; pod affinity terms need a topologyKey. nodeSelector keys and values are label keys
  and values. Topology spreading: maxSkew above 0, a topologyKey, whenUnsatisfiable DoNotSchedule or
  ScheduleAnyway, minDomains only with DoNotSchedule, no two constraints with the same key and
  whenUnsatisfiable. A GPU workload with a refused toleration never reaches the scheduler.

Why
  Schemas cannot express these rules, so kubeconform and the schema check pass the object, but `kubectl
  apply` fails with `is invalid: <field>: ...`; for a workload nothing runs. The finding names the field
  as the API server does (`spec.template.spec.tolerations[1].operator`).

Source
  kubernetes/kubernetes `pkg/apis/core/validation/validation.go` (ValidateTolerations, ValidateAffinity,
  validateNodeSelectorRequirement, validateTopologySpreadConstraints); checked against a kube-apiserver v1.36
  under server-side dry run, 2026-12-03.

Fix
  Fix the field the finding names (tolerationSeconds needs effect NoExecute).

Failing example:

    tolerations:
    - key: sku
      operator: Exists
      value: gpu
      effect: NoSchedule

Passing example:

    tolerations:
    - key: sku
      operator: Equal
      value: gpu
      effect: NoSchedule
"""

from gpupool.findings import Severity

ID = "GP226"
NAME = "invalid-scheduling"
SEVERITY = Severity.ERROR
SUMMARY = "Tolerations, affinity, nodeSelector or topologySpreadConstraints the API server refuses."
AREA = "scheduling"  # gpupool.k8s.validation's area this rule reports
FIX = "fix the field the finding names (tolerationSeconds needs effect NoExecute)"
