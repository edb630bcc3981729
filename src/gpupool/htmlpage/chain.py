"""The AKS GPU chain of one pool or Karpenter NodePool as plain data, and its diagram.

A GPU pool's chain: pool → VM size and GPUs → NVIDIA driver → device plugin → what each node advertises →
the workloads that land there. A plain pool's chain is pool → VM size → workloads. A NodePool's (Node Auto
Provisioning) is the same with the sizes its requirements admit in place of one VM size, the AKSNodeClass's
``gpu.mode`` at the driver, and the pods simulate's NAP model placed on the NodeClaims it created; a NodePool
that can create no GPU node has NodePool → admitted sizes → workloads. Each stage has a title
and a few lines of real values (catalog facts and :mod:`gpupool.design.node`, the same code ``plan`` and
``simulate`` use). Findings are attached to the stage they concern (:data:`STAGE_OF`, by rule); an error
at a stage breaks the link into it, a warning marks it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gpupool.htmlpage import svg
from gpupool.htmlpage.words import plural

STAGES = ("pool", "vm", "driver", "plugin", "resources", "workloads")
PLAIN_STAGES = ("pool", "vm", "workloads")
NAP_STAGES = ("pool", "sizes", "driver", "plugin", "resources", "workloads")
NAP_PLAIN_STAGES = ("pool", "sizes", "workloads")
ORDER = ("pool", "vm", "sizes", "driver", "plugin", "resources", "workloads")
"""Every stage key, in chain order (a pool's chain has ``vm``, a NodePool's ``sizes``)."""
TOOLTIP_LINES = 12
TITLED = ("pool", "vm", "sizes", "workloads")  # stages whose box shows a title line (name, size, pod count)
STAGE_TITLES = {
    "pool": "Node pool",
    "vm": "VM size and GPUs",
    "sizes": "Admitted sizes",
    "driver": "NVIDIA driver",
    "plugin": "Device plugin",
    "resources": "Advertised per node",
    "workloads": "Workloads",
}

_BY_STAGE = {
    "vm": "GP101 GP102 GP103 GP104 GP105 GP106 GP107 GP125",
    "driver": "GP108 GP115 GP117 GP120 GP121 GP122 GP123 GP129 GP130 GP133 GP134",
    "plugin": "GP109 GP110 GP111 GP112 GP113 GP116 GP118 GP119 GP131 GP309",
    "resources": "GP304 GP307 GP310 GP506",
    "workloads": "GP301 GP302 GP303 GP305 GP306 GP308 GP311 GP402 GP501 GP502 GP503 GP504 GP508",
    "pool": "GP114 GP124 GP126 GP127 GP128 GP132 GP401 GP403 GP404 GP405 GP505 GP507 GP802 GP805 GP806",
    "sizes": "GP801 GP803 GP804",
}
STAGE_OF = {rule: stage for stage, rules in _BY_STAGE.items() for rule in rules.split()}
"""Which stage of the chain a rule's finding concerns (presentation only; the rule's docs say why)."""

_FAMILY_STAGE = {"GP1": "pool", "GP2": "workloads", "GP3": "workloads", "GP4": "pool", "GP5": "workloads",
                 "GP8": "pool"}
NAP_STAGE = {"vm": "sizes"}
"""A stage of a pool's chain -> the NodePool chain's stage that stands for it (a finding on a NodePool)."""


DOCTOR_STAGE = {"input": "pool", "nodes": "vm", "driver": "driver", "device-plugin": "plugin",
                "resources": "resources", "pods": "workloads"}
"""doctor's own stages (a finding's ``extra["stage"]``) -> the diagram's."""


def stage_of(rule: str, extra: dict | None = None) -> str:
    own = (extra or {}).get("stage")
    if isinstance(own, str) and own in DOCTOR_STAGE:
        return DOCTOR_STAGE[own]
    return STAGE_OF.get(rule) or _FAMILY_STAGE.get(rule[:3], "pool")


@dataclass
class Stage:
    key: str
    title: str
    lines: list[tuple[str, str]]  # (text, css class)
    state: str = "ok"  # ok | warn | broken
    marks: list[str] = field(default_factory=list)  # rule IDs (or "Pending") drawn on the link into it
    full: list[str] = field(default_factory=list)  # every line in full (the tooltip)
    kicker: str = ""  # the box's heading; "" for STAGE_TITLES[key]

    @property
    def heading(self) -> str:
        return self.kicker or STAGE_TITLES[self.key]


# ---- the stages' values ---------------------------------------------------------------------------


def _gib(x: float) -> str:
    return f"{x:g}"


def stages_of(pool: Any, workloads: list[dict[str, Any]]) -> list[Stage]:
    """The chain of ``pool`` (a PoolSpec) with ``workloads`` [{ref, pods, pending}] that land there."""
    from gpupool import catalog
    from gpupool.design.node import advertised, device_plugin_mode, plugin_mig_strategy

    size = catalog.vm_size(pool.vm_size)
    gpu_chain = pool.is_gpu_pool or (size is not None and size.is_gpu)
    out: list[Stage] = []

    nodes = (
        f"{pool.autoscaler.min_count}..{pool.autoscaler.max_count} nodes (autoscaler)"
        if pool.autoscaler
        else f"{plural(pool.node_count, 'node')}, fixed"
    )
    taints = [str(t) for t in pool.effective_taints]
    lines = [(f"{pool.mode} · {pool.priority} · {pool.os_sku}", ""), (nodes, "")]
    if taints:
        lines.append(("taint " + taints[0], "mono"))
        if len(taints) > 1:
            lines.append((f"+{plural(len(taints) - 1, 'more taint')}", "dim"))
    else:
        lines.append(("no taints", "dim" if not gpu_chain else "warn"))
    out.append(Stage("pool", pool.name, lines, full=[pool.name, *[t for t, _ in lines], *taints[1:]]))

    vm_lines: list[tuple[str, str]] = []
    if size is None:
        vm_lines.append(("not in gpupool's catalog", "warn"))
    else:
        if size.is_gpu and size.gpu is not None:
            vm_lines.append((f"{size.gpus_text()} × {size.gpu.model}", "strong"))
            prof = pool.gpu_settings.instance_profile if pool.is_gpu_pool else None
            if prof and size.mig_capable:
                per = catalog.mig_instances_per_gpu()[prof]
                vm_lines.append((f"MIG {prof}: {per} × {size.gpu.mig[prof]}/GPU", ""))
            elif prof:
                vm_lines.append((f"{prof} asked: no MIG here", "bad"))
            else:
                vm_lines.append(("whole GPUs (no MIG)", "dim"))
        else:
            vm_lines.append(("no GPU", "dim"))
            vm_lines.append(("CPU only", "dim"))
        vm_lines.append((f"{size.vcpu} vCPU · {_gib(size.memory_gib)} GiB", "dim"))
    out.append(Stage("vm", pool.vm_size, vm_lines, full=[pool.vm_size, *[t for t, _ in vm_lines]]))

    if gpu_chain:
        mode = device_plugin_mode(pool) if pool.is_gpu_pool else "none"
        drv = catalog.driver_for(size) if size is not None else None
        d_lines: list[tuple[str, str]] = []
        d_lines.append({
            "managed": ("managed GPU (AKS)", "strong"),
            "gpu-operator": ("GPU Operator mode", "strong"),
            "amd-gpu-operator": ("AMD GPU Operator", "strong"),
            "windows-directx": ("Windows GPU (AKS)", "strong"),
            "self-managed": ("driver-only + plugin", "strong"),
        }.get(mode, ("no GPU stack", "bad")))
        if mode in ("managed", "self-managed") and drv is not None:
            pin = catalog.driver_pinning(pool.os_sku)
            d_lines.append(("installed by AKS", ""))
            if pin == "pinned":
                d_lines.append((drv.version, "mono"))
            else:
                d_lines.append((f"≈{drv.version}, not pinned", "mono warn"))
            d_lines.append((f"{drv.flavour} ({drv.as_of})", "dim"))
        elif mode == "gpu-operator":
            d_lines.append(("AKS installs none", ""))
            d_lines.append(("the Operator installs it", "dim"))
        elif mode in ("managed", "self-managed"):
            d_lines.append(("installed by AKS", ""))
            d_lines.append(("version not in catalog", "warn"))
        out.append(Stage("driver", STAGE_TITLES["driver"], d_lines, full=[t for t, _ in d_lines]))

        p_lines: list[tuple[str, str]] = []
        p_lines += {
            "self-managed": [("you deploy it", "strong"), ("NVIDIA k8s-device-plugin", "dim")],
            "managed": [("deployed by AKS", "strong"), ("managed device plugin", "dim")],
            "gpu-operator": [("from the GPU Operator", "strong")],
            "amd-gpu-operator": [("from the AMD Operator", "strong")],
            "windows-directx": [("DirectX plugin (AKS)", "strong")],
        }.get(mode, [("none", "bad")])
        if pool.is_gpu_pool and pool.gpu_settings.instance_profile:
            p_lines.append((f"MIG strategy {plugin_mig_strategy(pool)}", ""))
        ts = pool.gpu_settings.time_slicing if pool.is_gpu_pool else None
        if ts is not None:
            rename = ts.rename_by_default
            p_lines.append((f"time-slicing ×{ts.replicas}", ""))
            if rename:
                p_lines.append(("renamed to .shared", "dim"))
        out.append(Stage("plugin", STAGE_TITLES["plugin"], p_lines, full=[t for t, _ in p_lines]))

        adv = advertised(pool) if pool.is_gpu_pool else None
        r_lines = [(f"{k}: {v}", "mono strong") for k, v in (adv.resources.items() if adv else [])]
        if not r_lines:
            r_lines = [("no GPU resource", "bad")]
        full = [t for t, _ in r_lines] + (list(adv.notes) if adv else [])
        out.append(Stage("resources", STAGE_TITLES["resources"], r_lines, full=full))

    out.append(workloads_stage(workloads))
    return out


def workloads_stage(workloads: list[dict[str, Any]], extra: list[tuple[str, str]] | None = None) -> Stage:
    """The last box: the workloads that land ({ref, pods, pending}), ``extra`` lines first (a NodePool's
    NodeClaims)."""
    pods = sum(w["pods"] for w in workloads)
    w_lines: list[tuple[str, str]] = []
    for w in workloads:
        short = w["ref"].split(" ", 1)[-1]
        if w["pending"] and not w["pods"]:
            w_lines.append((f"{short} · {w['pending']} pending", "bad"))
        elif w["pending"]:
            w_lines.append((f"{short} ×{w['pods']}, {w['pending']} pending", "bad"))
        else:
            w_lines.append((f"{short} ×{w['pods']}", ""))
    full = [f"{w['ref']}: {plural(w['pods'], 'pod')}" + (f", {w['pending']} pending" if w["pending"] else "")
            for w in workloads[:TOOLTIP_LINES]]
    if len(workloads) > TOOLTIP_LINES:
        full.append(f"... and {len(workloads) - TOOLTIP_LINES} more (listed under the diagram)")
    if len(w_lines) > 4:
        w_lines = [*w_lines[:3], (f"+{len(w_lines) - 3} more workloads", "dim")]
    if not w_lines:
        w_lines = [("none lands here", "dim")]
    title = f"{plural(pods, 'pod')} placed"
    if extra:
        w_lines = [*extra, *w_lines]
        full = [t for t, _ in extra] + full
    return Stage("workloads", title, w_lines, full=full or ["no workload lands here"])


# ---- a Karpenter NodePool's chain ------------------------------------------------------------------

SIZES_SHOWN = 3
"""Admitted size names drawn in the box (the tooltip and the list under the drawing have more)."""
MANAGED_GPU_TAG = "EnableManagedGPUExperience"
"""The AKSNodeClass tag that asks AKS for the managed GPU experience (driver and device plugin by AKS)."""


def _range(values: list[int]) -> str:
    lo, hi = min(values), max(values)
    return str(lo) if lo == hi else f"{lo}..{hi}"


def nodepool_gpu(pool: Any, adm: Any) -> bool:
    """Whether a NodePool gets the GPU chain: it can create GPU nodes, or it is set up for them (GPU
    requirements, a GPU limit or taint) though its requirements or AKSNodeClass leave it none."""
    from gpupool.nap.model import GPU_RESOURCES
    from gpupool.nap.sizes import gpu_scoped

    if adm.any_gpu or any(s.manufacturer for s, _ in adm.filtered) or gpu_scoped(pool):
        return True
    return any(k in GPU_RESOURCES for k in pool.limits) or any(
        t.key in GPU_RESOURCES or t.key == "sku" for t in pool.taints)


def nodepool_stages(pool: Any, node_class: Any, adm: Any, workloads: list[dict[str, Any]],
                    provisioned: list[tuple[str, str]] | None = None) -> list[Stage]:
    """The chain of a Karpenter NodePool (``pool``, with its AKSNodeClass or None and the sizes it admits,
    :class:`gpupool.nap.sizes.Admitted`): requirements → admitted sizes → driver (``gpu.mode``) → device
    plugin → advertised per node → the workloads NAP's NodeClaims took (``provisioned``: lines on them)."""
    gpu_chain = nodepool_gpu(pool, adm)
    out: list[Stage] = []

    nc_name = node_class.name if node_class is not None else None
    reqs = plural(len(pool.requirements), "requirement")
    lines: list[tuple[str, str]] = [(f"weight {pool.weight or 0} · {reqs}", "")]
    full = [f"NodePool {pool.name} (Node Auto Provisioning)", f"weight {pool.weight or 0}"]
    full += [f"requirement {r}" for r in pool.requirements]
    taints = [str(t) for t in pool.taints]
    if taints:
        lines.append(("taint " + taints[0], "mono"))
        if len(taints) > 1:
            lines.append((f"+{plural(len(taints) - 1, 'more taint')}", "dim"))
    else:
        lines.append(("no taints", "warn" if gpu_chain else "dim"))
    full += [f"taint {t}" for t in taints] or ["no taints"]
    if pool.limits:
        limit = ", ".join(f"{k} {v}" for k, v in pool.limits.items())
        lines.append((f"limits {limit}", "dim"))
        full.append(f"limits {limit}")
    full.append(f"consolidation {pool.consolidation_policy}, expireAfter {pool.expire_after}")
    full.append(f"AKSNodeClass {nc_name}" if nc_name else "AKSNodeClass not among the inputs (its defaults)")
    out.append(Stage("pool", pool.name, lines, full=full, kicker="NodePool (NAP)"))

    gpu_sizes = list(adm.gpu)
    plain = [s for s in adm.sure if not s.advertised()]
    shown = gpu_sizes if gpu_chain else list(adm.sure)
    unsure = len(adm.maybe)
    s_lines: list[tuple[str, str]] = [(s.name, "mono") for s in shown[:SIZES_SHOWN]]
    if len(shown) > SIZES_SHOWN:
        s_lines.append((f"+{len(shown) - SIZES_SHOWN} more", "dim"))
    if gpu_chain and plain:
        s_lines.append((f"+{plural(len(plain), 'size')} without GPU", "dim"))
    if unsure:
        s_lines.append((f"cannot tell: {plural(unsure, 'size')}", "dim"))
    if adm.filtered:
        s_lines.append((f"{len(adm.filtered)} ruled out by the AKSNodeClass", "warn"))
    if not shown:
        s_lines.insert(0, ("admits no GPU size" if gpu_chain else "admits no size", "bad"))
    title = plural(len(shown), "GPU size" if gpu_chain else "size") if shown else "none"
    noun = "GPU size" if gpu_chain else "size"
    s_full = [f"{plural(len(shown), noun)} admitted:", *[s.name for s in shown[:24]]]
    if len(shown) > 24:
        s_full.append(f"... and {len(shown) - 24} more (gpupool plan lists them all)")
    if gpu_chain and plain:
        s_full.append(f"and {plural(len(plain), 'size')} without GPU")
    if unsure:
        s_full.append(f"cannot tell for {plural(unsure, 'size')}: a label gpupool does not know per size, "
                      "or a size of NAP's GPU registry the catalog lacks")
    s_full += [f"ruled out: {s.name}: {why}" for s, why in adm.filtered[:4]]
    out.append(Stage("sizes", title, s_lines, full=s_full))

    if gpu_chain:
        mode = node_class.effective_gpu_mode if node_class is not None else "Driver"
        family = node_class.effective_image_family if node_class is not None else "Ubuntu"
        makers = {s.manufacturer for s in [*gpu_sizes, *adm.maybe, *(f for f, _ in adm.filtered)]
                  if s.manufacturer} or {"nvidia"}
        managed = node_class is not None and str(node_class.tags.get(MANAGED_GPU_TAG, "")).lower() == "true"
        if mode == "Driver" and "nvidia" not in makers:
            d_lines = [("NAP installs none", "bad"), ("gpu.mode Driver", "mono"),
                       ("NVIDIA sizes only", "dim")]
            d_full = ["gpu.mode Driver: NAP installs drivers for NVIDIA sizes only", f"image family {family}"]
        elif mode == "Driver":
            d_lines = [("NAP installs it", "strong"), ("gpu.mode Driver", "mono"), (f"{family} image", "dim")]
            d_full = ["gpu.mode Driver (the default): NAP installs the NVIDIA driver on each GPU node",
                      f"image family {family}"]
        else:
            d_lines = [("bring your own", "strong"), ("gpu.mode None", "mono"),
                       ("e.g. the GPU Operator", "dim")]
            d_full = ["gpu.mode None: NAP installs no GPU driver; the GPU Operator (or you) installs it",
                      f"image family {family}"]
        out.append(Stage("driver", STAGE_TITLES["driver"], d_lines, full=d_full))

        if mode != "Driver" or "nvidia" not in makers:
            operator = "from the GPU Operator" if "nvidia" in makers else "from the AMD GPU Operator"
            p_lines = [(operator, "strong"), ("installed with the driver", "dim")]
        elif managed:
            p_lines = [("deployed by AKS", "strong"), (f"{MANAGED_GPU_TAG} tag", "dim")]
        else:
            p_lines = [("you deploy it", "strong"), ("NVIDIA k8s-device-plugin", "dim")]
        out.append(Stage("plugin", STAGE_TITLES["plugin"], p_lines, full=[t for t, _ in p_lines]))

        per: dict[str, list[int]] = {}
        for sz in gpu_sizes:
            for k, v in sz.advertised().items():
                per.setdefault(k, []).append(v)
        r_lines = [(f"{k}: {_range(v)}", "mono strong") for k, v in sorted(per.items())]
        r_full = [t for t, _ in r_lines]
        if r_lines and len(gpu_sizes) > 1:
            r_lines.append(("by the size NAP picks", "dim"))
            r_full.append("per node, by the admitted size NAP launches")
        if not r_lines:
            r_lines = [("no GPU resource", "bad")]
            r_full = ["no admitted size advertises a GPU resource"]
        out.append(Stage("resources", STAGE_TITLES["resources"], r_lines, full=r_full))

    out.append(workloads_stage(workloads, provisioned))
    return out


# ---- the diagram -----------------------------------------------------------------------------------

BOX_W = 196
BOX_GAP = 46
HEAD_H = 24
LINE_H = 17
PAD = 10
MARGIN = 6


# the fonts of page.css's svg.chain classes, for measuring (svg.text_width)
KICKER = svg.Font(11, bold=True, spacing=0.04, upper=True)
TITLE = svg.Font(13.5, bold=True)
MARK = svg.Font(10.5, bold=True)


def line_font(cls: str) -> svg.Font:
    """The font of a box line with CSS class ``cls`` (page.css: ``svg.chain .line.*``)."""
    names = set(cls.split())
    bold = bool(names & {"strong", "warn", "bad"})
    return svg.Font(11.5, bold, mono=True) if "mono" in names else svg.Font(12, bold)


def rows_of(s: Stage, width: float) -> list[tuple[str, str, svg.Font]]:
    """A stage's box lines as drawn: (text, css class, font), each line wrapped to ``width`` (two lines at
    most, then cut); a wrapped line's second part has the class ``cont``."""
    rows: list[tuple[str, str, svg.Font]] = []
    if s.key in TITLED:
        for n, t in enumerate(svg.wrap(s.title, width, TITLE)):
            rows.append((t, "title" + (" cont" if n else ""), TITLE))
    for txt, cls in s.lines:
        font = line_font(cls)
        for n, t in enumerate(svg.wrap(txt, width, font)):
            rows.append((t, f"line {cls}" + (" cont" if n else ""), font))
    return rows


def diagram(pool_name: str, stages: list[Stage], what: str = "pool") -> svg.Canvas:
    """Boxes left to right, one per stage, linked by arrows; a broken link has a gap, a cross and the
    rule IDs (or "Pending") under it. Every text is measured and wrapped to its box (svg.wrap)."""
    inner = BOX_W - 2 * PAD
    drawn = [rows_of(s, inner) for s in stages]
    rows = max(len(r) for r in drawn)
    box_h = HEAD_H + PAD + rows * LINE_H + 3
    label_h = 16
    width = 2 * MARGIN + len(stages) * BOX_W + (len(stages) - 1) * BOX_GAP
    height = 2 * MARGIN + box_h + label_h
    c = svg.Canvas(width, height, f"GPU chain of {what} {pool_name}", "chain")
    y0 = MARGIN
    for i, s in enumerate(stages):
        x = MARGIN + i * (BOX_W + BOX_GAP)
        if i:
            prev_x = x - BOX_GAP
            cls = {"broken": "edge broken", "warn": "edge warn"}.get(s.state, "edge")
            e = c.group(cls, "; ".join(s.marks) or None, edge=f"{stages[i - 1].key}-{s.key}", state=s.state)
            mid_y = y0 + box_h / 2
            if s.state == "broken":
                svg.broken_arrow(e, prev_x + 2, mid_y, x - 2, "link")
            else:
                svg.arrow(e, prev_x + 2, mid_y, x - 2, "link")
            if s.marks:
                label = s.marks[0] + (f" +{len(s.marks) - 1}" if len(s.marks) > 1 else "")
                svg.text(e, prev_x + BOX_GAP / 2, mid_y + 18, svg.cut(label, BOX_GAP + 24, MARK), "mark",
                         "middle")
        g = c.group(f"node {s.state}", "\n".join(s.full) or None, stage=s.key)
        svg.rect(g, x, y0, BOX_W, box_h, "box", 7)
        svg.rect(g, x, y0, BOX_W, HEAD_H, "box-head", 7)
        svg.rect(g, x, y0 + HEAD_H - 7, BOX_W, 7, "box-head", 0)
        svg.text(g, x + PAD, y0 + 16.5, svg.cut(s.heading, inner, KICKER), "kicker")
        ty = y0 + HEAD_H + 17
        for n, (txt, cls, _) in enumerate(drawn[i]):
            svg.text(g, x + PAD, ty, txt, cls)
            last_title = cls.startswith("title") and (n + 1 == len(drawn[i]) or
                                                      not drawn[i][n + 1][1].startswith("title"))
            ty += LINE_H + (1 if last_title else 0)
    return c
