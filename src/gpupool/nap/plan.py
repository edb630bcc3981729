"""What each NodePool can create: the sizes its requirements admit under its AKSNodeClass, and what each size
advertises (``gpupool plan``'s NodePool section, text and JSON)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpupool.nap.model import NapInputs, NodeClass, NodePool
from gpupool.nap.sizes import Admitted, NapSize, admitted

SHOWN = 12  # sizes listed per NodePool in text (JSON has all)


@dataclass(frozen=True)
class NodePoolPlan:
    pool: NodePool
    node_class: NodeClass | None
    admitted: Admitted

    def to_dict(self) -> dict[str, Any]:
        nc = self.node_class
        return {
            "kind": "NodePool",
            "name": self.pool.name,
            "path": self.pool.where.path,
            "nodeClass": nc.name if nc else None,
            "nodeClassAssumed": nc is None,
            "imageFamily": (nc.effective_image_family if nc else "Ubuntu"),
            "gpuMode": (nc.effective_gpu_mode if nc else "Driver"),
            "weight": self.pool.weight or 0,
            "taints": [str(t) for t in self.pool.taints],
            "limits": {k: str(v) for k, v in self.pool.limits.items()},
            "consolidationPolicy": self.pool.consolidation_policy,
            "expireAfter": self.pool.expire_after,
            "sizes": [size_dict(s) for s in self.admitted.sure],
            "unsure": [s.name for s in self.admitted.maybe],
            "ruledOut": [{"name": s.name, "why": why} for s, why in self.admitted.filtered],
        }


def size_dict(s: NapSize) -> dict[str, Any]:
    size = s.size
    return {
        "name": s.name,
        "vcpu": s.vcpu,
        "memoryGiB": s.memory_gib,
        "gpus": s.gpu_count,
        "gpuModel": size.gpu.model if size is not None and size.gpu is not None and s.manufacturer else None,
        "advertised": s.advertised(),
    }


def plan_node_pools(inputs: NapInputs) -> list[NodePoolPlan]:
    out = []
    for p in inputs.node_pools:
        nc = inputs.node_class_of(p)
        out.append(NodePoolPlan(p, nc, admitted(p, nc)))
    return out
