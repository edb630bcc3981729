"""GP211 invalid-suppression: a `gpupool.io/ignore` annotation that is malformed or not allowed.

What it checks
  Suppressions are written on the object (or its pod template) as:

      metadata:
        annotations:
          gpupool.io/ignore: "GP308 this job warms the GPU node pool on purpose"

  Several entries are separated by `;` or new lines, and one entry may name several rules
  (`GP305,GP308 reason`). Each entry needs known rule IDs (or names) *and* a reason. An entry without a
  reason or with an unknown rule is not honoured and reported here. With `--disallow-ignores` no
  annotation is honoured and each one is reported (info), so CI shows what was waived locally.

Fix
  Write `<RULE>[,<RULE>...] <why this is acceptable>`.
"""

from gpupool.findings import Severity

ID = "GP211"
NAME = "invalid-suppression"
SEVERITY = Severity.WARNING
SUMMARY = "A gpupool.io/ignore annotation without a reason or with an unknown rule (not honoured)."
