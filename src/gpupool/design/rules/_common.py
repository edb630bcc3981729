"""Small helpers shared by the design rules (not a rule: the registry skips ``_`` modules)."""

from __future__ import annotations

from gpupool import catalog
from gpupool.spec.model import PoolSpec

DOCS_TAINT = "sku=gpu:NoSchedule"
"""The taint the AKS GPU docs use (MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md)."""


def did_you_mean(candidates: list[str]) -> str:
    if not candidates:
        return ""
    if len(candidates) == 1:
        return f"did you mean {candidates[0]}?"
    return f"did you mean {', '.join(candidates[:-1])} or {candidates[-1]}?"


def recommended_size() -> str:
    return catalog.recommended_minimum()[0]


def size_text(size: catalog.VmSize) -> str:
    """``Standard_NC6s_v3 (NCv3, 1 x NVIDIA Tesla V100 16GB)``."""
    if size.gpu is None or not size.is_gpu:
        return f"{size.name} ({size.family}, no GPU)"
    count = size.gpus_text() if size.is_fractional else str(size.gpu_devices)
    return f"{size.name} ({size.family}, {count} x {size.gpu.model})"


def ubuntu(pool: PoolSpec) -> bool:
    return pool.os_sku.lower().startswith("ubuntu")


def k8s_minor(version: str | None) -> tuple[int, int] | None:
    if not version:
        return None
    parts = catalog.version_tuple(version)
    return (parts[0], parts[1] if len(parts) > 1 else 0)


def offered_on(os_: catalog.OsSku, have: tuple[int, int]) -> bool:
    """The OS SKU is offered on Kubernetes minor ``have`` (its catalog range; no range known: it is)."""
    if os_.kubernetes is None:
        return True
    lo, hi = (k8s_minor(x) for x in os_.kubernetes)
    return (lo is None or have >= lo) and (hi is None or have <= hi)


def operator_pool(pool: PoolSpec, size: catalog.VmSize | None) -> bool:
    """A Linux NVIDIA GPU pool whose GPU stack is the NVIDIA GPU Operator (gpu.driver None, not managed)."""
    g = pool.gpu_settings
    return (
        pool.is_gpu_pool
        and size is not None
        and size.is_gpu
        and size.path == "nvidia"
        and not pool.is_windows
        and g.driver == "None"
        and not g.managed
    )


def other_os_skus(pool: PoolSpec, instead_of: str, limit: int = 2) -> list[str]:
    """OS SKUs to suggest instead of ``instead_of``: the same OS type (Windows stays Windows), not retired
    today, with GPU support on a GPU pool, allowing the spec's Kubernetes version; catalog order."""
    import datetime as dt

    from gpupool.catalog.aks import today

    this = catalog.os_skus().get(instead_of)
    os_type = this.os_type if this else pool.os_type
    have = k8s_minor(pool.kubernetes_version)
    out = []
    for o in catalog.os_skus().values():
        if o.name == instead_of or o.os_type != os_type:
            continue
        if o.retired and dt.date.fromisoformat(o.retired) <= today():
            continue
        if pool.is_gpu_pool and o.gpu == "unsupported":
            continue
        if have and not offered_on(o, have):
            continue
        out.append(o.name)
    return out[:limit]
