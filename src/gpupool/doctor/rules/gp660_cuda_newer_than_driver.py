"""GP660 cuda-newer-than-driver: a GPU container's CUDA needs a newer driver than its node has.

What it checks: containers of pods on GPU nodes (or requesting a GPU) whose CUDA version (the image's
`NVIDIA_REQUIRE_CUDA` env, a `cuda:X.Y` tag or a `-cudaX.Y` tag part) is not supported by the node's
driver (GFD label `nvidia.com/cuda.driver-version.full` or the older `nvidia.com/cuda.driver.*`; without
GFD, the driver AKS installs for the VM size per the catalog, reported as a warning), per
NVIDIA's compatibility table in the catalog; and the container toolkit's own refusal, `unsatisfied
condition: cuda>=X.Y`, in a container's state or the pod's events.

Why: the CUDA runtime fails with `CUDA driver version is insufficient for CUDA runtime version` or the
container never starts (`nvidia-container-cli: requirement error`).

Fix: use an image built for an older CUDA, or move to nodes with a newer driver (a newer AKS node image,
or the GPU Operator's driver on a `--gpu-driver None` pool).

Source: NVIDIA CUDA compatibility (minor version compatibility; toolkit release notes table 3) in
catalog/data/cuda.yaml; Azure/AKS#3994, #3454; checked 2026-12-02.

Failing example:

    image: nvcr.io/nvidia/cuda:13.1.0-runtime-ubuntu24.04
    # node label nvidia.com/cuda.driver-version.full=570.211.01

Passing example:

    image: nvcr.io/nvidia/cuda:12.8.0-runtime-ubuntu24.04
"""

from __future__ import annotations

from collections.abc import Iterator

from gpupool import catalog
from gpupool.doctor import facts, parse
from gpupool.doctor.context import Context, finding, pod_ref
from gpupool.doctor.view import NodeView, event_message, gpu_requests
from gpupool.findings import Finding, Severity

ID = "GP660"
NAME = "cuda-newer-than-driver"
SEVERITY = Severity.ERROR
READS = ("nodes", "pods")  # kinds it must read to conclude (doctor.engine)
SUMMARY = "A GPU container's CUDA version needs a newer driver than its node has"


def node_driver(n: NodeView) -> str | None:
    for key in facts.label("gfdDriverFull"):
        if n.labels.get(key):
            return n.labels[key]
    for parts in facts.label("gfdDriverParts"):
        vals = [n.labels.get(k) for k in parts]
        if vals[0]:
            return ".".join(v for v in vals if v)
    return None


def _toolkit_refusal(ctx: Context, pod: dict) -> str | None:
    st = pod.get("status") or {}
    texts = []
    for s in st.get("containerStatuses") or []:
        for part in ("state", "lastState"):
            for v in ((s or {}).get(part) or {}).values():
                if isinstance(v, dict) and v.get("message"):
                    texts.append(str(v["message"]))
    m = pod.get("metadata") or {}
    texts += [event_message(e) for e in ctx.view.events_for("Pod", m.get("namespace", ""), m.get("name", ""))]
    for t in texts:
        if parse.cuda_requirement(t):
            return t.strip()[:300]
    return None


def check(ctx: Context) -> Iterator[Finding]:
    for n in ctx.view.gpu_nodes:
        driver, inferred = node_driver(n), False
        if driver is None and n.size is not None and ctx.view.pool_driver(n.pool) != "None":
            known = catalog.driver_for(n.size)  # the driver AKS installs for this size (no GFD labels)
            if known is not None:
                driver, inferred = known.version, True
        for pod in n.pods:
            m = pod.get("metadata") or {}
            if not ctx.view.in_scope(str(m.get("namespace") or "")) or not gpu_requests(
                pod.get("spec") or {}
            ):
                continue
            refusal = _toolkit_refusal(ctx, pod)
            bad = []
            if driver:
                for c in (pod.get("spec") or {}).get("containers") or []:
                    cuda = parse.image_cuda(str(c.get("image") or ""), c.get("env"))
                    if cuda and catalog.cuda_support(cuda, driver).level == "unsupported":
                        bad.append((c.get("name"), c.get("image"), cuda))
            if not bad and not refusal:
                continue
            ev = [f"container {name}: image {image} (CUDA {cuda})" for name, image, cuda in bad]
            if driver:
                newest = catalog.newest_native_cuda(driver)
                origin = (
                    f"the driver AKS installs for {n.vm_size} per gpupool's catalog, not read from the node"
                    if inferred
                    else "GFD label"
                )
                ev.append(
                    f"Node {n.name}: driver {driver} ({origin}; "
                    f"newest CUDA it runs natively: {newest or '?'})"
                )
            if refusal:
                ev.append(f"container toolkit: {refusal}")
            cuda_txt = bad[0][2] if bad else parse.cuda_requirement(refusal or "")
            yield finding(
                ID,
                Severity.WARNING if inferred and not refusal else SEVERITY,
                f"runs on node {n.name} and needs CUDA {cuda_txt}, newer than the node's driver"
                + (f" {driver}" if driver else ""),
                f"Pod {pod_ref(pod)}",
                "driver",
                ev,
                "use an image built for an older CUDA, or nodes with a newer driver (newer AKS node "
                "image, or the "
                "GPU Operator's driver on a --gpu-driver None pool)",
            )
