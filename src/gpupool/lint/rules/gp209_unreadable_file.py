"""GP209 unreadable-file: an input that cannot be read (permissions, vanished, a device).

What it checks
  Every input path must be readable. Paths that do not exist at all are refused before linting starts;
  a file that cannot be read while linting is reported here and the run exits with status 2 (unusable
  input), after linting everything else.

Fix
  Check the path and its permissions.
"""

from gpupool.findings import Severity

ID = "GP209"
NAME = "unreadable-file"
SEVERITY = Severity.ERROR
SUMMARY = "An input file could not be read (the run exits 2)."
