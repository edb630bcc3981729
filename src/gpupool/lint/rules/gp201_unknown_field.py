"""GP201 unknown-field: a field that the Kubernetes schema of this kind does not have.

What it checks
  Strict schema validation (the default; `--no-strict` turns it off): every field must exist in the
  Kubernetes OpenAPI schema of the object's kind and API version, for the Kubernetes version selected with
  `-k` (default: the newest bundled). The message names the field and the closest known one, e.g.
  `spec.containers[0]: unknown field "resource" (did you mean "resources"?)`.

Why
  The API server drops unknown fields (or, with server-side field validation, rejects the object). A misspelt
  `resources:` means the GPU request silently disappears and the pod lands on a CPU node.

Fix
  Rename the field as suggested, or move it to the level where it belongs.

Source
  Schemas: the kubernetes-validate bundle (`v1.NN.0-local-strict`), generated from the Kubernetes OpenAPI
  specification of each release.

Failing example:

    apiVersion: v1
    kind: Pod
    metadata: {name: gpu-test-bad}
    spec:
      containers:
      - name: gpu-test
        image: mcr.microsoft.com/azuredocs/samples-tf-mnist-demo:gpu
        resource:
          limits: {nvidia.com/gpu: 1}

Passing example:

    apiVersion: v1
    kind: Pod
    metadata: {name: gpu-test}
    spec:
      containers:
      - name: gpu-test
        image: mcr.microsoft.com/azuredocs/samples-tf-mnist-demo:gpu
        resources:
          limits: {nvidia.com/gpu: 1}
"""

from gpupool.findings import Severity

ID = "GP201"
NAME = "unknown-field"
SEVERITY = Severity.ERROR
SUMMARY = "A field that the kind's Kubernetes schema does not define (strict validation)."
