"""GP204 invalid-value: a value the schema does not allow (enum, pattern, range, ...).

What it checks
  Schema constraints other than types and fields: `enum` (`kind: pod` is not `Pod`), `oneOf`,
  minimum/maximum, patterns. The message quotes the value and, for enums, the allowed values and the
  closest one.

Why
  The API server rejects the object.

Fix
  Use one of the values listed.

Failing example:

    apiVersion: v1
    kind: pod
    metadata: {name: p}
    spec: {containers: [{name: c, image: nginx}]}

Passing example: the same with `kind: Pod`.
"""

from gpupool.findings import Severity

ID = "GP204"
NAME = "invalid-value"
SEVERITY = Severity.ERROR
SUMMARY = "A value the kind's Kubernetes schema does not allow (enum, pattern, range)."
