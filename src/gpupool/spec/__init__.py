"""Pool specs: the user-facing contract (``apiVersion: gpupool/v1``)."""

from gpupool.spec.load import is_pool_document, load_many, load_pools, parse_pool
from gpupool.spec.model import Autoscaler, GpuSettings, PoolSpec, Taint, TimeSlicing, Where

__all__ = [
    "Autoscaler",
    "GpuSettings",
    "PoolSpec",
    "Taint",
    "TimeSlicing",
    "Where",
    "is_pool_document",
    "load_many",
    "load_pools",
    "parse_pool",
]
