"""GP213 helm-chart: a Helm chart or a Go template among the inputs; lint its rendered output instead.

What it checks
  A directory holding `Chart.yaml` is a Helm chart: its `Chart.yaml`, `values*.yaml` and
  `templates/` are not Kubernetes manifests until rendered (templates are not even YAML). The chart is
  reported once, as this info, and none of its files is linted. Outside a chart, a file that does not parse
  as YAML and holds `{{ ... }}` markers is taken for a template and skipped with this info (not a GP200
  parse error). Files of a kustomization are plain manifests and are linted.

Why
  Linting a chart's sources gives only noise (every template is a YAML error, `Chart.yaml` has no
  `kind`). What the cluster receives is `helm template`'s output; gpupool reads it from standard input and
  keeps each finding's template path from the `# Source:` comments Helm writes, so SARIF results land on
  the template files.

Fix
  `helm template CHART | gpupool lint -` (add `-f values.yaml` as you deploy it); or `--exclude` the
  chart directory to silence the info.

Example (`charts/app/Chart.yaml` in a repository):

    gpupool lint .    # info GP213 charts/app/Chart.yaml: Helm chart: lint its output ...
"""

from gpupool.findings import Severity

ID = "GP213"
NAME = "helm-chart"
SEVERITY = Severity.INFO
SUMMARY = "A Helm chart (or Go template) found: not linted as is; lint its `helm template` output."
