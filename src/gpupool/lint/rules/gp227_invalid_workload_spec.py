"""GP227 invalid-workload-spec: a Deployment/StatefulSet/DaemonSet/Job/CronJob/HPA/PDB spec refused.

What it checks
  Replica counts, minReadySeconds and revisionHistoryLimit at least 0; Deployment strategies (Recreate
  without rollingUpdate, maxUnavailable and maxSurge not both 0, percentages at most 100%); Job parallelism,
  completions, backoffLimit at least 0, Indexed Jobs with completions; CronJob `schedule` (five fields or
  a descriptor such as `@hourly`, as the server's cron parser reads it, no TZ= inside) and `timeZone` (an
  IANA zone, not `Local`), concurrencyPolicy Allow/Forbid/Replace; HPA minReplicas at least 1 and
  maxReplicas at least minReplicas; PDB with minAvailable or maxUnavailable, not both.

Why
  Schemas cannot express these rules, so kubeconform and the schema check pass the object, but `kubectl
  apply` fails with `is invalid: <field>: ...`; for a workload nothing runs. The finding names the field
  as the API server does (`spec.schedule`).

Source
  kubernetes/kubernetes `pkg/apis/apps/validation`, `pkg/apis/batch/validation` (validateScheduleFormat,
  ValidateTimeZone), `pkg/apis/autoscaling/validation`, `pkg/apis/policy/validation`; checked against a
  kube-apiserver v1.36 under server-side dry run, 2026-12-03.

Fix
  Fix the field the finding names.

Failing example:

    kind: CronJob
    spec:
      schedule: "*/5 * * *"
      timeZone: UTC+2

Passing example:

    kind: CronJob
    spec:
      schedule: "*/5 * * * *"
      timeZone: Europe/Berlin
"""

from gpupool.findings import Severity

ID = "GP227"
NAME = "invalid-workload-spec"
SEVERITY = Severity.ERROR
SUMMARY = "A Deployment/StatefulSet/DaemonSet/Job/CronJob/HPA/PDB spec the API server refuses."
AREA = "workload"  # gpupool.k8s.validation's area this rule reports
FIX = "fix the field the finding names"
