"""GP208 unknown-kind: no schema for this kind (a custom resource without its CRD); the object is skipped.

What it checks
  Objects outside Kubernetes' own API groups (`kaito.sh/v1beta1 Workspace`, `karpenter.sh/v1 NodePool`)
  are validated only when their CustomResourceDefinition is loaded with `--crd FILE|DIR`. Without it they
  are skipped with this notice (info): one per kind (apiVersion and kind), at the first such object, with
  the number of objects skipped, as kubeconform counts skipped resources. `-o json` still lists each
  object with `status: skipped` and its own notice, `-o junit` skips each test case with it, and the
  summary counts every skipped object. A kustomize build file (`Kustomization`) gets its own notice
  each. `--reject-unknown` makes it an error on every object, for pipelines that must not let anything
  through unchecked.

Fix
  Pass the CRDs: `gpupool lint --crd crds/ manifests/`; or accept the notice.

Example (a notice without `--crd`):

    apiVersion: kaito.sh/v1beta1
    kind: Workspace
    metadata: {name: workspace-phi-4}

Two more Workspaces in the inputs make it one notice: `no schema for Workspace kaito.sh/v1beta1 (a custom
resource): 3 objects skipped, this is the first (pass its CRD with --crd)`.

Passing example (validated, no notice): the same object with `--crd` naming KAITO's
CustomResourceDefinition file or directory.
"""

from gpupool.findings import Severity

ID = "GP208"
NAME = "unknown-kind"
SEVERITY = Severity.INFO
SUMMARY = "No schema for this kind (custom resource without --crd): skipped; an error with --reject-unknown."
