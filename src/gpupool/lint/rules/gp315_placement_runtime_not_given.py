"""GP315 placement-runtime-not-given: the pod's template comes from an object that is not among the inputs.

What it checks
  A Kubeflow Trainer `TrainJob` takes its pods from the `ClusterTrainingRuntime` / `TrainingRuntime`
  its `spec.runtimeRef` names; a KServe `LLMInferenceService` merges the `LLMInferenceServiceConfig`
  objects its `spec.baseRefs` name into its own spec. When the referenced object is among the inputs
  (the same files, or another file of the same run) gpupool assembles the pods as the operator does and
  judges them like any other (GP305, GP306, GP307...). When it is not, the tolerations, nodeSelector and
  affinity of the pods cannot be known: this rule says so, once per object, and the placement rules are not
  applied (resource names and counts still are).

Why
  A green lint must not mean "will land" when the placement was never judged. The runtime decides the
  tolerations (a TrainJob's `podTemplateOverrides` may replace them), so lint cannot tell a TrainJob that
  lands from one that stays Pending without it.

Source
  Kubeflow Trainer: kubeflow/trainer `docs/operator-guides/podtemplate-overrides.md` (commit 725b9f7,
  read 2026-12-03: overrides replace nodeSelector, affinity and tolerations; later entries win). KServe:
  kserve/kserve `pkg/controller/v1alpha1/llmisvc/config_merge.go` (`MergeSpecs`: baseRefs merged in
  order by strategic merge patch, the service's own spec last; read 2026-12-03).

Fix
  Lint the runtime with the object (`gpupool lint trainjob.yaml runtimes/`), e.g. the output of
  `kubectl get clustertrainingruntime NAME -o yaml`; or add the tolerations through the object itself.

Failing example (no ClusterTrainingRuntime `torch-distributed` among the inputs):

    apiVersion: trainer.kubeflow.org/v1alpha1
    kind: TrainJob
    metadata: {name: train}
    spec:
      runtimeRef: {name: torch-distributed}
      trainer:
        numNodes: 2
        resourcesPerNode: {limits: {nvidia.com/gpu: 1}}

Passing example: the same TrainJob linted together with its runtime:

    apiVersion: trainer.kubeflow.org/v1alpha1
    kind: ClusterTrainingRuntime
    metadata: {name: torch-distributed}
    spec:
      mlPolicy: {numNodes: 1}
      template:
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                template:
                  spec:
                    tolerations: [{key: sku, operator: Equal, value: gpu, effect: NoSchedule}]
                    containers: [{name: node, image: pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime}]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.lint.schema import safe

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext

ID = "GP315"
NAME = "placement-runtime-not-given"
SEVERITY = Severity.INFO
SUMMARY = "The pod's template comes from a runtime/config object not among the inputs: placement not judged."


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    missing = ctx.workload.unresolved
    if not missing:
        return
    kind = ctx.workload.kind
    # A TrainJob without its runtime is its trainer container assembled from spec (the pod spec's paths
    # map onto spec.*: k8s/data/pod_templates.yaml), an LLMInferenceService keeps its own paths.
    at = ("runtimeRef",) if kind == "TrainJob" else ("spec", "baseRefs")
    msg = (
        f"takes its pods' tolerations, nodeSelector and affinity from {safe(missing, 160)}, which is not "
        "among the inputs: whether the pods land on the pools cannot be judged without it"
    )
    yield ctx.finding(ID, SEVERITY, msg, at, fix="lint the referenced object together with this one",
                      reference=missing)
