"""GP206 not-a-kubernetes-object: a document that is not a Kubernetes object.

What it checks
  Every non-empty document must be a mapping with string `apiVersion` and `kind`. A list, a bare string
  or a mapping without `kind` cannot be applied. (Empty documents, e.g. between two `---`, are fine.)

Why
  `kubectl apply` fails with `Object 'Kind' is missing`.

Fix
  Add `apiVersion` and `kind`, or remove the stray document.

Failing example:

    metadata: {name: p}
    spec: {containers: [{name: c, image: nginx}]}

Passing example:

    apiVersion: v1
    kind: Pod
    metadata: {name: p}
    spec: {containers: [{name: c, image: nginx}]}
"""

from gpupool.findings import Severity

ID = "GP206"
NAME = "not-a-kubernetes-object"
SEVERITY = Severity.ERROR
SUMMARY = "A document that is not a mapping with apiVersion and kind."
