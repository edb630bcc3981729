"""GP205 duplicate-key: the same key twice in one YAML mapping.

What it checks
  Every mapping key must be unique. YAML loaders disagree about duplicates: PyYAML (and so
  kubernetes-validate) silently keeps the last value, kubectl (sigs.k8s.io/yaml, strict) refuses the file.
  The finding points at the second occurrence and names the line of the first.

Why
  What you reviewed is not what gets applied: the first `resources:` block of a container disappears
  without a word in one tool and fails in another.

Fix
  Merge the two entries into one.

Failing example:

    apiVersion: v1
    kind: Pod
    metadata: {name: p}
    spec:
      containers:
      - name: c
        image: nginx
        image: nginx:1.27

Passing example: keep one `image:`.
"""

from gpupool.findings import Severity

ID = "GP205"
NAME = "duplicate-key"
SEVERITY = Severity.ERROR
SUMMARY = "A mapping has the same key twice (kubectl refuses it; other tools keep the last value)."
