"""GP203 missing-required-field: a field the schema (or the API server) requires is missing.

What it checks
  Schema `required` fields (a container without `name`, a Deployment without `selector`), and
  `metadata.name` (or `generateName`), which the API server requires of every object
  (`metadata.name: Required value: name or generateName is required`).

Why
  The API server rejects the object.

Fix
  Add the field named in the message.

Failing example:

    apiVersion: v1
    kind: Pod
    metadata: {name: p}
    spec:
      containers:
      - image: nginx

Passing example: the same container with `name: web`.
"""

from gpupool.findings import Severity

ID = "GP203"
NAME = "missing-required-field"
SEVERITY = Severity.ERROR
SUMMARY = "A required field is missing (schema 'required', or metadata.name)."
