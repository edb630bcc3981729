"""GP222 invalid-selector: a selector that is empty, malformed, or does not select the template's labels.

What it checks
  Deployments, ReplicaSets, StatefulSets and DaemonSets need a non-empty `spec.selector` that selects their
  own `spec.template.metadata.labels`. A Job's selector is generated: setting one without
  `manualSelector: true` is refused. Every label selector (PDB, pod affinity, topology spreading,
  NetworkPolicy) has valid keys, operators (In, NotIn, Exists, DoesNotExist) and values (In/NotIn need at
  least one, Exists/DoesNotExist none).

Why
  Schemas cannot express these rules, so kubeconform and the schema check pass the object, but `kubectl
  apply` fails with `is invalid: <field>: ...`; for a workload nothing runs. The finding names the field
  as the API server does (`spec.template.metadata.labels`).

Source
  kubernetes/kubernetes `pkg/apis/apps/validation/validation.go` (ValidateDeploymentSpec, "`selector`
  does not match
  template `labels`"), `pkg/apis/batch/validation/validation.go` ("`selector` will be auto-generated"),
  apimachinery `pkg/apis/meta/v1/validation` (ValidateLabelSelector); checked against a kube-apiserver v1.36
  under server-side dry run, 2026-12-03.

Fix
  Make spec.selector.matchLabels a subset of spec.template.metadata.labels.

Failing example:

    spec:
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: api}}

Passing example:

    spec:
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
"""

from gpupool.findings import Severity

ID = "GP222"
NAME = "invalid-selector"
SEVERITY = Severity.ERROR
SUMMARY = (
    "A selector the API server refuses: empty, malformed, not matching the template's labels, "
    "or set on a Job."
)
AREA = "selector"  # gpupool.k8s.validation's area this rule reports
FIX = "make spec.selector.matchLabels a subset of spec.template.metadata.labels"
