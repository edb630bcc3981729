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


def print_text(plans: list[NodePoolPlan], con: Any) -> None:
    """The NodePool section of ``gpupool plan``'s text output."""
    from rich.markup import escape
    from rich.table import Table

    from gpupool.report.text import heading

    for pp in plans:
        d = pp.to_dict()
        heading(con, f"[bold]NodePool {escape(d['name'])}[/]  (Node Auto Provisioning)")
        given = f"AKSNodeClass {d['nodeClass']}"
        nc = "the CRD defaults (not among the inputs)" if d["nodeClassAssumed"] else given
        con.print(escape(f"node class: {nc}; image family {d['imageFamily']}, gpu.mode {d['gpuMode']}; "
                         f"weight {d['weight']}; taints {', '.join(d['taints']) or 'none'}; "
                         f"consolidation {d['consolidationPolicy']}, expireAfter {d['expireAfter']}"),
                  markup=True)
        if d["limits"]:
            con.print(escape("limits: " + ", ".join(f"{k} {v}" for k, v in d["limits"].items())))
        t = Table(box=None, pad_edge=False, show_edge=False)
        for col in ("size", "vCPU", "memory GiB", "GPUs", "GPU model", "advertises"):
            t.add_column(col, no_wrap=True)
        for s in d["sizes"][:SHOWN]:
            adv = ", ".join(f"{k}: {v}" for k, v in s["advertised"].items()) or "-"
            t.add_row(escape(s["name"]), str(s["vcpu"]), f"{s['memoryGiB']:g}", str(s["gpus"]),
                      escape(s["gpuModel"] or "-"), escape(adv))
        if d["sizes"]:
            con.print(f"can create {len(d['sizes'])} size{'s' if len(d['sizes']) != 1 else ''}:")
            con.print(t)
            if len(d["sizes"]) > SHOWN:
                con.print(f"[dim]  ... and {len(d['sizes']) - SHOWN} more (-o json lists all)[/]")
        else:
            con.print("[yellow]can create no size gpupool knows[/]")
        if d["unsure"]:
            con.print(f"[dim]cannot tell for {len(d['unsure'])} more (a label gpupool does not know per "
                      "size, "
                      "or a size of NAP's GPU registry the catalog lacks)[/]")
        for r in d["ruledOut"][:3]:
            con.print(escape(f"ruled out: {r['name']}: {r['why']}"), style="dim")
        con.print()
