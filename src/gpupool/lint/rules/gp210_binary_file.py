"""GP210 binary-file: a binary (or non-UTF-8) file among the inputs.

What it checks
  Files with NUL bytes or invalid UTF-8 are not manifests. When a directory is linted they are skipped
  (info), so a stray `chart.tgz` or image does not fail the run. A binary file named explicitly on the
  command line is bad input: an error, and the run exits 2 (as for a path that does not exist).

Fix
  None needed for files met in a directory (move the file out, or `--exclude` it, to silence the note);
  name only YAML or JSON files on the command line.
"""

from gpupool.findings import Severity

ID = "GP210"
NAME = "binary-file"
SEVERITY = Severity.INFO
SUMMARY = "A binary or non-UTF-8 file: skipped in a directory; exit 2 when named explicitly."
