"""GP221 invalid-label-or-annotation: a label or annotation key or value the API server refuses.

What it checks
  Label keys and annotation keys are qualified names: an optional DNS-subdomain prefix and '/', then 1-63
  alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric. Label values are empty or up to
  63 such characters. All annotations of an object together may hold at most 262,144 bytes. Checked on the
  object's metadata and on pod templates (reported at `spec.template.labels` as the server does); a Job's
  name longer than 63 characters fails here too, because the server copies it into its pods' `job-name`
  label.

Why
  Schemas cannot express these rules, so kubeconform and the schema check pass the object, but `kubectl
  apply` fails with `is invalid: <field>: ...`; for a workload nothing runs. The finding names the field
  as the API server does (`metadata.labels`).

Source
  kubernetes/apimachinery `pkg/api/validation/objectmeta.go` (ValidateAnnotations,
  TotalAnnotationSizeLimitB),
  `pkg/apis/meta/v1/validation` (ValidateLabels), `pkg/util/validation` (IsQualifiedName,
  IsValidLabelValue);
  checked against a kube-apiserver v1.36 under server-side dry run, 2026-12-03.

Fix
  Keep label values to 63 characters of [A-Za-z0-9-_.], starting and ending with an alphanumeric.

Failing example:

    metadata:
      name: train
      labels:
        gpu: h100!

Passing example:

    metadata:
      name: train
      labels:
        gpu: h100
"""

from gpupool.findings import Severity

ID = "GP221"
NAME = "invalid-label-or-annotation"
SEVERITY = Severity.ERROR
SUMMARY = "A label or annotation key or value the API server refuses (or annotations over 256 KiB)."
AREA = "labels"  # gpupool.k8s.validation's area this rule reports
FIX = "keep label values to 63 characters of [A-Za-z0-9-_.], starting and ending with an alphanumeric"
