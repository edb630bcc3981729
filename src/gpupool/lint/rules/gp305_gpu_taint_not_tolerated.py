"""GP305 gpu-taint-not-tolerated: the pod does not tolerate the taints of the GPU pool it needs.

What it checks
  With pools given: a pod that requests GPU resources must tolerate every `NoSchedule` / `NoExecute`
  taint of at least one pool that advertises them and that its nodeSelector/affinity allows (when the
  selectors allow none, of any pool that advertises them: GP306 reports the selector beside this finding;
  when no pool advertises the resource name, of any GPU pool: GP304 beside it). Tolerations are
  matched as kube-scheduler does (operator `Equal` compares key and value, `Exists` only the key, an
  empty key with `Exists` tolerates everything, an empty effect matches every effect). The taint AKS adds
  to Spot pools (`kubernetes.azure.com/scalesetpriority=spot:NoSchedule`) counts too.

  Karpenter NodePools (Node Auto Provisioning) given with `--pool` or among the inputs are landing places
  too: a GPU pod must tolerate every `NoSchedule` / `NoExecute` taint of the NodePool
  (`spec.template.spec.taints`; `startupTaints` are removed after start and not asked for), or NAP never
  creates a node for it there. The message names the NodePool.

  Like every GPU rule it looks at every pod template of an object: built-in workloads, and the workload
  custom resources of Kubeflow (PyTorchJob, TFJob, MPIJob, XGBoostJob, PaddleJob, JAXJob, Notebook,
  TrainJob), KubeRay (RayCluster, RayJob, RayService), KServe (InferenceService, LLMInferenceService),
  LeaderWorkerSet, JobSet, Volcano Job, KAITO Workspace, Argo Workflows, Kueue Workload, NVIDIA NIM
  (NIMService, NIMPipeline), OME (ClusterServingRuntime, ServingRuntime, InferenceService) and NVIDIA Dynamo
  (DynamoGraphDeployment) by their documented paths (`k8s/data/pod_templates.yaml`), any other object by
  the shape of a pod spec or of a container (`image` + `resources`). TrainJob and LLMInferenceService
  are judged merged with their runtime / `baseRefs` configs when those are among the inputs (GP315 when
  not); KAITO provisions its own nodes: not judged here.

Why
  The pod stays Pending: `0/3 nodes are available: 1 node(s) had untolerated taint {sku: gpu}, ...`
  (`... 1 node(s) had untolerated taint(s), ...` from 1.34.2); the autoscaler will not add a node it could
  not use either. The message quotes the scheduler in the words of the run's Kubernetes version (`-k`,
  else the newest a pool states, else the newest AKS supports; simulate's message facts).

Source
  k8s.io/api core/v1 `Toleration.ToleratesTaint`; scheduler wording by version:
  `k8s/data/scheduler.yaml` (kubernetes/kubernetes#109119, #134740, checked 2026-08-21); AKS Spot
  taint: MicrosoftDocs/azure-aks-docs `spot-node-pool.md`; the AKS GPU docs' example
  uses `sku=gpu:NoSchedule` (MicrosoftDocs/azure-aks-docs `use-nvidia-gpu.md`). NodePools:
  kubernetes-sigs/karpenter `pkg/controllers/provisioning/scheduling/nodeclaim.go` (`CanAdd`: every taint
  tolerated) and `pkg/scheduling/taints.go` @226646810437 (2026-08-20).

Fix
  Add the toleration printed in the fix line.

Failing example (pool taint `sku=gpu:NoSchedule`):

    spec:
      containers:
      - name: c
        image: nvidia/cuda:12.4.1-base-ubuntu22.04
        resources: {limits: {nvidia.com/gpu: 1}}

Passing example:

    spec:
      tolerations:
      - {key: sku, operator: Equal, value: gpu, effect: NoSchedule}
      containers:
      - name: c
        image: nvidia/cuda:12.4.1-base-ubuntu22.04
        resources: {limits: {nvidia.com/gpu: 1}}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpupool.findings import Finding, Severity
from gpupool.k8s.taints import format_toleration

if TYPE_CHECKING:
    from gpupool.lint.gpu import WorkloadContext

ID = "GP305"
NAME = "gpu-taint-not-tolerated"
SEVERITY = Severity.ERROR
SUMMARY = "The GPU pod does not tolerate a NoSchedule/NoExecute taint of any pool that offers its GPUs."


def check(ctx: WorkloadContext) -> Iterator[Finding]:
    if not ctx.requests or not ctx.views:
        return
    # The pools the pod is meant for: those offering its GPUs (that its selectors accept, else all of
    # them: GP306 reports the selector, this rule the taint, neither hides the other), else the GPU pools
    # (a resource name no pool advertises is GP304's finding; the taint is still missing).
    offering = [f for f in ctx.fits if f.offers_all] or [f for f in ctx.fits if f.view.is_gpu]
    candidates = [f for f in offering if f.selector_ok] or offering
    if not candidates or any(not f.untolerated for f in candidates):
        return
    wanted = ", ".join(sorted(ctx.requests))
    parts: list[str] = []
    for f in candidates:  # a NodePool is one landing place whatever size it would create
        taints = ", ".join(str(t) for t in f.untolerated)
        part = f"{taints} of {f.view.place}"
        if part not in parts:
            parts.append(part)
    best = min(candidates, key=lambda f: len(f.untolerated))
    first = best.untolerated[0]  # the scheduler names a node's first untolerated taint (before 1.34.2)
    said = ctx.index.scheduler.taint(first.key, first.value)
    msg = f"requests {wanted} but does not tolerate taint {'; '.join(parts[:3])}: the pod stays Pending "
    if hasattr(best.view, "nodepool"):  # Karpenter skips a NodePool whose taints the pod does not tolerate
        msg += "(NAP creates no node for it there: Karpenter wants every taint of a NodePool tolerated)"
    else:
        msg += f'("{said}")'
    fix = "add to the pod's tolerations: " + "; ".join(format_toleration(t) for t in best.untolerated)
    yield ctx.finding(ID, SEVERITY, msg, ctx.spec_key("tolerations"), fix=fix, pool=best.view.name)
