"""GP208 unknown-kind: no schema for this kind (a custom resource without its CRD); the object is skipped.

What it checks
  Objects outside Kubernetes' own API groups (``kaito.sh/v1beta1 Workspace``, ``karpenter.sh/v1 NodePool``)
  are validated only when their CustomResourceDefinition is loaded with ``--crd FILE|DIR``. Without it they
  are skipped with this notice (info). ``--reject-unknown`` makes it an error, for pipelines that must not
  let anything through unchecked.

Fix
  Pass the CRDs: ``gpupool lint --crd crds/ manifests/``; or accept the notice.

Example (a notice without ``--crd``)::

    apiVersion: kaito.sh/v1beta1
    kind: Workspace
    metadata: {name: workspace-phi-4}
"""

from gpupool.findings import Severity

ID = "GP208"
NAME = "unknown-kind"
SEVERITY = Severity.INFO
SUMMARY = "No schema for this kind (custom resource without --crd): skipped; an error with --reject-unknown."
