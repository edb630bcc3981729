"""GP225 invalid-pod-spec: volumes, restartPolicy for the kind, dnsPolicy or pod securityContext refused.

What it checks
  Volumes: RFC 1123 label names, unique, exactly one volume source. `restartPolicy`: Always, OnFailure or
  Never for a Pod; only Always in a Deployment, ReplicaSet, StatefulSet or DaemonSet template; OnFailure
  or Never in a Job's (the default Always is refused, so a Job template must set it). `dnsPolicy`:
  ClusterFirstWithHostNet, ClusterFirst, Default or None (None needs `dnsConfig`). `hostname` and
  `subdomain` are RFC 1123 labels, `serviceAccountName` a subdomain, pod securityContext IDs
  0-2147483647. A negative terminationGracePeriodSeconds is accepted (the server sets it to 1).

Why
  Schemas cannot express these rules, so kubeconform and the schema check pass the object, but `kubectl
  apply` fails with `is invalid: <field>: ...`; for a workload nothing runs. The finding names the field
  as the API server does (`spec.template.spec.restartPolicy`).

Source
  kubernetes/kubernetes `pkg/apis/core/validation/validation.go` (ValidatePodSpec, validateRestartPolicy,
  validateDNSPolicy, ValidateVolumes), `pkg/apis/apps/validation`, `pkg/apis/batch/validation`;
  checked against a
  kube-apiserver v1.36 under server-side dry run, 2026-12-03.

Fix
  Use a value the finding lists as supported.

Failing example:

    kind: Job
    spec:
      template:
        spec:
          containers: [{name: c, image: busybox}]

Passing example:

    kind: Job
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: c, image: busybox}]
"""

from gpupool.findings import Severity

ID = "GP225"
NAME = "invalid-pod-spec"
SEVERITY = Severity.ERROR
SUMMARY = (
    "A pod spec field the API server refuses: volumes, restartPolicy for the kind, dnsPolicy, "
    "hostname, securityContext."
)
AREA = "pod"  # gpupool.k8s.validation's area this rule reports
FIX = "use a value the finding lists as supported"
