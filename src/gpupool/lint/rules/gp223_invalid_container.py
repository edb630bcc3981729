"""GP223 invalid-container: a container's name, image, ports, env, mounts or probes the API server refuses.

What it checks
  Container names are RFC 1123 labels, unique in the pod (init containers included); `image` is required;
  `imagePullPolicy` is Always, IfNotPresent or Never. Ports: `containerPort` 1-65535, names IANA service
  names (at most 15 characters, a letter, no '--') unique per container, protocol TCP/UDP/SCTP, a
  `hostPort` equal to `containerPort` under `hostNetwork`. Env: a name is required, without '=' (from
  Kubernetes 1.32 any other printable ASCII is accepted: names starting with a digit or holding dots pass;
  before, a C identifier with '-' and '.'), `value` and `valueFrom` not both, `valueFrom` with exactly
  one source. `volumeMounts` name a volume of the pod (a StatefulSet's volumeClaimTemplates count) with
  a unique `mountPath`. Probes have exactly one handler (exec, httpGet, tcpSocket, grpc); liveness and
  startup probes a successThreshold of 1. runAsUser/runAsGroup 0-2147483647. Duplicate env names are
  accepted (the last wins).

Why
  Schemas cannot express these rules, so kubeconform and the schema check pass the object, but `kubectl
  apply` fails with `is invalid: <field>: ...`; for a workload nothing runs. The finding names the field
  as the API server does (`spec.template.spec.containers[0].name`).

Source
  kubernetes/kubernetes `pkg/apis/core/validation/validation.go` (validateContainers,
  validateContainerPorts,
  ValidateEnv, ValidateVolumeMounts, validateProbe, handlers); KEP-4369 (relaxed env var names: beta and on by
  default in 1.32, GA 1.34); checked against a kube-apiserver v1.36 under server-side dry run, 2026-12-03.

Fix
  Fix the field the finding names (container names: lower-case letters, digits and '-').

Failing example:

    containers:
    - name: c<b>x</b>
      image: nginx

Passing example:

    containers:
    - name: cx
      image: nginx
"""

from gpupool.findings import Severity

ID = "GP223"
NAME = "invalid-container"
SEVERITY = Severity.ERROR
SUMMARY = (
    "A container the API server refuses: name, image, ports, env, volumeMounts, probes or "
    "securityContext."
)
AREA = "container"  # gpupool.k8s.validation's area this rule reports
FIX = "fix the field the finding names (container names: lower-case letters, digits and '-')"
