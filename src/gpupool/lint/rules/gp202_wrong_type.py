"""GP202 wrong-type: a value of the wrong type for its field.

What it checks
  Schema validation: a string where an integer is expected (`replicas: "2"`), a mapping where a list is
  expected, a boolean quantity, and so on. The message gives the field, the expected and the actual type.

Why
  The API server rejects the object (`cannot unmarshal string into Go struct field`).

Fix
  Write the value with the type shown; quote strings that YAML would read as numbers or booleans, and
  unquote numbers in integer fields.

Failing example:

    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: "2"
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: web, image: nginx}]}

Passing example: the same with `replicas: 2`.
"""

from gpupool.findings import Severity

ID = "GP202"
NAME = "wrong-type"
SEVERITY = Severity.ERROR
SUMMARY = "A value whose type does not match the kind's Kubernetes schema."
