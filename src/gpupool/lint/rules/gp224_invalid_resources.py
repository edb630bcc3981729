"""GP224 invalid-resources: container requests above limits, negative quantities, malformed hugepages.

What it checks
  For each container: every quantity is at least 0; a request is at most the limit of the same resource;
  hugepages (`hugepages-2Mi`...) are a whole multiple of the page size, their request equals their limit,
  and they need a cpu or memory request or limit. GPUs and other extended resources are judged by GP301-GP303,
  quantities that do not parse by GP212. A limit without a request is accepted (the request is set to
  the limit).

Why
  Schemas cannot express these rules, so kubeconform and the schema check pass the object, but `kubectl
  apply` fails with `is invalid: <field>: ...`; for a workload nothing runs. The finding names the field
  as the API server does (`spec.template.spec.containers[0].resources.requests`).

Source
  kubernetes/kubernetes `pkg/apis/core/validation/validation.go` ValidateResourceRequirements; checked
  against a
  kube-apiserver v1.36 under server-side dry run, 2026-12-03.

Fix
  Lower the request to the limit (or raise the limit).

Failing example:

    resources:
      requests: {cpu: "4"}
      limits: {cpu: "2"}

Passing example:

    resources:
      requests: {cpu: "2"}
      limits: {cpu: "4"}
"""

from gpupool.findings import Severity

ID = "GP224"
NAME = "invalid-resources"
SEVERITY = Severity.ERROR
SUMMARY = (
    "Container resources the API server refuses: a request above its limit, a negative "
    "quantity, hugepages."
)
AREA = "resources"  # gpupool.k8s.validation's area this rule reports
FIX = "lower the request to the limit (or raise the limit)"
