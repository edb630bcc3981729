"""GP200 invalid-yaml: the file is not valid YAML (or JSON), or is refused as hostile input.

What it checks
  Every input file must parse. The finding names the file, the line where the parser stopped, and what it
  found there (for example `invalid YAML: mapping values are not allowed here`). Documents before the
  broken one are still linted; linting goes on with the other files.

  Also reported here: files over 32 MiB, documents that expand to over a million nodes through YAML
  aliases (a "billion laughs" alias bomb, refused before it is expanded), and nesting deeper than 200 levels.

Why
  `kubectl apply` refuses the whole file; a CI step that skips it silently lets a broken manifest through.

Fix
  Correct the YAML at the line shown (indentation and `key: value` spacing are the usual causes).

Failing example:

    apiVersion: v1
    kind: Pod
    metadata:
      name: broken
     labels: {app: x}        # wrong indentation

Passing example:

    apiVersion: v1
    kind: Pod
    metadata:
      name: fixed
      labels: {app: x}
"""

from gpupool.findings import Severity

ID = "GP200"
NAME = "invalid-yaml"
SEVERITY = Severity.ERROR
SUMMARY = "The file does not parse as YAML/JSON, or is refused as an alias bomb, too large or too deep."
