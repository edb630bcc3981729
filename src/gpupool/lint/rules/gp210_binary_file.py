"""GP210 binary-file: a binary (or non-UTF-8) file among the inputs; skipped with this notice.

What it checks
  Files with NUL bytes or invalid UTF-8 are not manifests. When a directory is linted they are skipped
  (info), so a stray ``chart.tgz`` or image does not fail the run.

Fix
  None needed; move the file out of the manifest directory to silence the notice.
"""

from gpupool.findings import Severity

ID = "GP210"
NAME = "binary-file"
SEVERITY = Severity.INFO
SUMMARY = "A binary or non-UTF-8 file: skipped."
