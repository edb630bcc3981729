"""Results → the page's model: plain dicts, lists, strings and numbers (and SVG canvases of plain data).

No markup is made here; the templates escape every string. Numbers are formatted here so that the
template stays simple and the tests can read them back from the HTML.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import UTC, datetime
from typing import Any

from gpupool import docblocks
from gpupool.findings import Finding, Severity, sort_key
from gpupool.htmlpage import chain, facts, nodepools
from gpupool.htmlpage.changes import diff_views
from gpupool.htmlpage.costs import capacity, cost_bars, money
from gpupool.htmlpage.gather import Results
from gpupool.htmlpage.pending import MAX_PENDING, cluster_pending
from gpupool.htmlpage.words import plural, verb

SEVERITIES = ("error", "warning", "info")
MAX_PER_GROUP = 40
"""Findings shown per pool and severity; the rest are counted ("N more"), keeping 50-pool pages small."""
MAX_FINDINGS = 1500
"""Findings shown on the whole page (errors first, pool by pool); the rest are counted. ~0.7 KB each."""
MAX_POOL_NAMES = 6
MAX_EVIDENCE = 8


def _now() -> datetime:
    """Now, or ``SOURCE_DATE_EPOCH`` (reproducible builds' convention) when it is set: the same inputs then
    give the same page, byte for byte."""
    import os

    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return datetime.fromtimestamp(int(epoch), UTC)
    return datetime.now(UTC)


def _pool_of_object(obj: str | None, names: set[str]) -> str | None:
    """``GpuNodePool gpunp`` / ``NodePool system`` / ``pool gpunp`` -> ``gpunp`` when it is one of ours."""
    if not obj:
        return None
    head, _, rest = obj.partition(" ")
    if head in ("GpuNodePool", "NodePool", "pool") and rest in names:
        return rest
    return None


def _ref_keys(ref: str) -> list[str]:
    """A workload ref as simulate writes it (``Kind ns/name``) and as lint writes it (no ``default/``)."""
    kind, _, rest = ref.partition(" ")
    keys = [ref]
    if rest.startswith("default/"):
        keys.append(f"{kind} {rest[len('default/'):]}")
    return keys


class _Builder:
    def __init__(self, res: Results, generated: datetime | None) -> None:
        self.res = res
        self.sim = res.simulation
        self.generated = generated or _now()
        self.names = {p.name for p in res.pools}
        self.nap = res.nap  # NapInputs or None
        self.nap_names = {p.name for p in res.nap.node_pools} if res.nap else set()
        self._nap_index: Any = None
        # where each workload's pods went, and which pools a workload is meant for (offers its GPUs)
        self.landed: dict[str, Counter[str]] = defaultdict(Counter)  # pool -> workload ref -> pods
        self.pools_of_ref: dict[str, list[str]] = defaultdict(list)
        for p in res.placements:
            self.landed[p.pool][p.workload] += 1
            if p.pool not in self.pools_of_ref[p.workload]:
                self.pools_of_ref[p.workload].append(p.pool)
        self.workload_by_ref = {w.workload.ref: w for w in res.workloads}
        self.fits: dict[str, list[Any]] = {}
        self._intended: dict[str, list[str]] = {}
        self._index = None
        self.wants: dict[str, dict] = {}
        self.ref_alias: dict[str, str] = {}
        for ref in self.workload_by_ref:
            for k in _ref_keys(ref):
                self.ref_alias[k] = ref
        self.rules_used: set[str] = set()
        # errors get most of the page's room, then warnings, then info
        self.findings_budget = {"error": MAX_FINDINGS * 3 // 5, "warning": MAX_FINDINGS // 4,
                                "info": MAX_FINDINGS * 3 // 20}

    # ---- helpers --------------------------------------------------------------------------------

    def intended(self, ref: str) -> list[str]:
        """The pools a GPU workload is meant for: those that advertise every GPU resource it requests and
        that its node selection admits (taints aside: not tolerating one is a finding, not a choice)."""
        hit = self._intended.get(ref)
        if hit is None:
            w = self.workload_by_ref.get(ref)
            wanted = self._wants(w) if w is not None else {}
            fits = self._fits(w) if wanted else []
            hit = [f.view.name for f in fits if f.offers_all and f.selector_ok]
            if wanted and self.nap_names:
                hit += self._intended_nodepools(w)
            self._intended[ref] = hit
        return hit

    def _intended_nodepools(self, w: Any) -> list[str]:
        """The NodePools (keys) with an admitted size that advertises every GPU resource the workload's pod
        requests and that its node selection admits (taints aside, as for pools)."""
        from gpupool.lint.gpu import PoolIndex, placement

        if self._nap_index is None:
            self._nap_index = PoolIndex((), nap=self.nap)
        out: list[str] = []
        for f in placement(w.workload, self._nap_index):
            k = nodepools.key(f.view.name)
            if f.offers_all and f.selector_ok and k not in out:
                out.append(k)
        return out

    def _wants(self, w: Any) -> dict:
        from gpupool.lint.gpu import gpu_requests

        ref = w.workload.ref
        hit = self.wants.get(ref)
        if hit is None:
            hit = self.wants[ref] = gpu_requests(w.workload.pod_spec)
        return hit

    def _fits(self, w: Any) -> list[Any]:
        from gpupool.lint.gpu import PoolIndex, placement

        ref = w.workload.ref
        hit = self.fits.get(ref)
        if hit is None:
            if self._index is None:
                self._index = PoolIndex(self.res.pools)
            hit = self.fits[ref] = placement(w.workload, self._index)
        return hit

    def nodepools_of_class(self, name: str) -> list[str]:
        out = []
        for p in self.nap.node_pools if self.nap else ():
            nc = self.nap.node_class_of(p)
            if nc is not None and nc.name == name:
                out.append(nodepools.key(p.name))
        return out

    def pools_for_finding(self, f: Finding) -> list[str]:
        """The pools (by name) and NodePools (by :func:`nodepools.key`) a finding concerns."""
        if f.rule.startswith("GP8"):  # NodePool rules: Karpenter's NodePool NAME, not gpupool's kind NodePool
            head, _, rest = (f.object or "").partition(" ")
            if head == "NodePool" and rest in self.nap_names:
                return [nodepools.key(rest)]
            if head == "AKSNodeClass":
                return self.nodepools_of_class(rest)
        pool = _pool_of_object(f.object, self.names)
        if pool is not None:
            return [pool]
        named = f.extra.get("pool") if f.extra else None
        if isinstance(named, str):  # lint names a pool, or a NodePool (its messages say "NodePool NAME")
            if named in self.nap_names and (named not in self.names or f"NodePool {named}" in f.message):
                return [nodepools.key(named)]
            if named in self.names:
                return [named]
        ref = self.ref_alias.get(f.object or "")
        if ref is not None:
            return self.pools_of_ref.get(ref) or self.intended(ref)
        return []

    # ---- findings -------------------------------------------------------------------------------

    def all_findings(self) -> list[tuple[str, Finding]]:
        res = self.res
        out: list[tuple[str, Finding]] = [("check", f) for f in res.check]
        if res.lint is not None:
            # lint repeats check's GP1xx (GP8xx) errors of the pools (NodePools) it cannot land pods on
            out += [("lint", f) for f in res.lint.findings if not f.rule.startswith(("GP1", "GP8"))]
        out += [("simulate", f) for f in self.sim.findings]
        for d in res.diffs:
            for f in d.findings:
                # a diff finding about the new pool (gpunp2) belongs to the spec's pool (gpunp)
                if f.object and f.object.startswith("pool ") and f.object[5:] not in self.names:
                    f = Finding(f.rule, f.severity, f.message, f.path, f.line, f.column,
                                f"pool {d.desired.name}", f.fix, f.extra)
                out.append(("diff", f))
        if res.doctor is not None:
            out += [("doctor", f) for f in res.doctor.findings]
        return out

    def finding_item(self, family: str, f: Finding) -> dict[str, Any]:
        self.rules_used.add(f.rule)
        from gpupool.rules import lookup

        info = lookup(f.rule)
        return {
            "rule": f.rule,
            "name": info.name if info else "",
            "severity": f.severity.value,
            "family": family,
            "message": f.message,
            "where": f.location(),
            "object": f.object or "",
            "fix": f.fix or "",
            "stage": chain.stage_of(f.rule, f.extra),
            "evidence": [str(e) for e in (f.extra or {}).get("evidence") or []][:MAX_EVIDENCE],
        }

    # ---- pools ----------------------------------------------------------------------------------

    def workloads_on(self, pool: str, pending_by_ref: dict[str, int]) -> list[dict[str, Any]]:
        rows = [{"ref": ref, "pods": n, "pending": 0} for ref, n in self.landed.get(pool, Counter()).items()]
        seen = {r["ref"] for r in rows}
        for r in rows:
            if r["ref"] in pending_by_ref and self.intended(r["ref"]):
                r["pending"] = pending_by_ref[r["ref"]]
        for ref, n in pending_by_ref.items():
            if ref not in seen and pool in self.intended(ref):
                rows.append({"ref": ref, "pods": 0, "pending": n})
        rows.sort(key=lambda r: (-r["pending"], -r["pods"], r["ref"]))
        return rows

    def pool_views(self, by_pool: dict[str, list[tuple[str, Finding]]], pending_by_ref: dict[str, int]):
        sim_pools = {p.name: p for p in self.sim.pools}
        hours = facts.hours_per_month()
        views = []
        for i, pool in enumerate(self.res.pools):
            workloads = self.workloads_on(pool.name, pending_by_ref)
            stages = chain.stages_of(pool, workloads)
            breaks, stuck, worst = self.attach(stages, by_pool.get(pool.name, []), workloads)
            sp = sim_pools.get(pool.name)
            cap = capacity(pool, sp, hours)
            views.append({
                "name": pool.name,
                "key": pool.name,
                "noun": "pool",
                "anchor": f"pool-{i}",
                "kind": pool.kind,
                "cluster": pool.cluster_name,
                "vm_size": pool.vm_size,
                "sub": [pool.kind, pool.vm_size, f"cluster {pool.cluster_name}"],
                "where": f"{pool.where.path}:{pool.where.line}",
                "state": worst,
                "stages": [s.key for s in stages],
                "diagram": chain.diagram(pool.name, stages),
                "breaks": breaks,
                "workloads": workloads,
                "capacity": cap,
                "stuck": stuck,
                "nap": None,
            })
        return views

    def attach(self, stages: list[chain.Stage], found: list[tuple[str, Finding]],
               workloads: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], tuple, str]:
        """Draw ``found`` (a pool's or NodePool's findings) on its chain: an error breaks the link into the
        stage it concerns, a warning marks it; Pending pods break the link into the workloads. Returns (the
        lines beside the drawing, the Pending (workload, pods), the chain's worst state)."""
        present = {s.key for s in stages}
        nap_chain = "sizes" in present
        breaks: list[dict[str, Any]] = []
        seen_breaks: dict[tuple[str, str, str], dict[str, Any]] = {}
        for family, f in found:
            st = chain.stage_of(f.rule, f.extra)
            if nap_chain:
                st = chain.NAP_STAGE.get(st, st)
            if st not in present:
                st = "pool" if st != "workloads" else "workloads"
            if f.severity is Severity.INFO:
                continue
            stage = next(s for s in stages if s.key == st)
            if f.severity is Severity.ERROR:
                stage.state = "broken"
            elif stage.state == "ok":
                stage.state = "warn"
            if f.rule not in stage.marks:
                stage.marks.append(f.rule)
            k = (st, f.rule, f.severity.value)
            if k in seen_breaks:  # beside the drawing: one line per rule and link, the rest counted
                seen_breaks[k]["more"] += 1
                continue
            item = self.finding_item(family, f)
            item["stage_title"] = stage.heading
            item["more"] = 0
            seen_breaks[k] = item
            breaks.append(item)
        stuck = tuple(sorted((w["ref"], w["pending"]) for w in workloads if w["pending"]))
        if stuck:
            wl = stages[-1]
            wl.state = "broken"
            wl.marks.insert(0, "Pending")
        worst = "ok"
        if any(s.state == "broken" for s in stages):
            worst = "broken"
        elif any(s.state == "warn" for s in stages):
            worst = "warn"
        return breaks, stuck, worst

    def nodepool_views(self, by_pool: dict[str, list[tuple[str, Finding]]], pending_by_ref: dict[str, int]):
        """One view per Karpenter NodePool, shaped like a pool's (no capacity row: NAP's NodeClaims are
        under ``nap``)."""
        from gpupool.nap.sizes import admitted

        views: list[dict[str, Any]] = []
        if not self.nap:
            return views
        outcome = getattr(self.sim, "nap", None)
        for i, np in enumerate(self.nap.node_pools):
            k = nodepools.key(np.name)
            nc = self.nap.node_class_of(np)
            adm = admitted(np, nc)
            workloads = self.workloads_on(k, pending_by_ref)
            prov = nodepools.provisioned(outcome, np.name)
            stages = chain.nodepool_stages(np, nc, adm, workloads, nodepools.box_lines(prov))
            breaks, stuck, worst = self.attach(stages, by_pool.get(k, []), workloads)
            gpu = chain.nodepool_gpu(np, adm)
            sizes = stages[1].title
            nc_text = f"AKSNodeClass {nc.name}" if nc is not None else "AKSNodeClass not given (its defaults)"
            views.append({
                "name": np.name,
                "key": k,
                "noun": "NodePool",
                "anchor": f"nodepool-{i}",
                "kind": "Karpenter NodePool",
                "cluster": "",
                "vm_size": sizes,
                "sub": ["Karpenter NodePool (Node Auto Provisioning)", sizes, nc_text],
                "where": f"{np.where.path}:{np.where.line}",
                "state": worst,
                "stages": [s.key for s in stages],
                "diagram": chain.diagram(np.name, stages, "NodePool"),
                "breaks": breaks,
                "workloads": workloads,
                "capacity": None,
                "stuck": stuck,
                "gpu": gpu,
                "nap": prov,
            })
        return views

    @staticmethod
    def pending_lines(views: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Pending pods meant for a pool: one line beside the pool's drawing when the pool is the only one
        they could use; when several pools could each take the same Pending pods, one statement for them
        all (returned, for above the drawings) rather than the same line on every pool."""
        by_stuck: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
        for v in views:
            if v["stuck"]:
                by_stuck[v["stuck"]].append(v)
        grouped = []
        order = {k: n for n, k in enumerate(chain.ORDER)}
        for stuck, pools in by_stuck.items():
            pods = sum(n for _, n in stuck)
            if len(pools) > 1:
                nouns = {v["noun"] for v in pools}
                grouped.append({"pods": plural(pods, "pod"), "verb": verb(pods, "stays"),
                                "noun": "pools and NodePools" if len(nouns) > 1 else f"{pools[0]['noun']}s",
                                "workloads": [ref for ref, _ in stuck],
                                "pools": [{"name": v["name"], "anchor": v["anchor"]} for v in pools]})
                continue
            v = pools[0]
            v["breaks"].append({
                "rule": "", "name": "", "severity": "error", "family": "simulate",
                "message": f"{plural(pods, 'pod')} meant for this {v['noun']} {verb(pods, 'stays')} Pending "
                           "(see Pending pods)",
                "where": "", "object": "", "fix": "", "stage": "workloads", "more": 0,
                "stage_title": chain.STAGE_TITLES["workloads"],
            })
        for v in views:
            v["breaks"].sort(key=lambda b: (order[b["stage"]], SEVERITIES.index(b["severity"]), b["rule"]))
        return grouped

    # ---- pending --------------------------------------------------------------------------------

    def explain_pending(self, ref: str) -> list[str]:
        """Why the workload's pod fits no pool, reason by reason with the pools it applies to (lint's
        placement: node selector and affinity, taints, advertised GPU resources; then capacity)."""
        w = self.workload_by_ref.get(ref)
        if w is None:
            return []
        wanted = self._wants(w)
        sim_pools = {p.name: p for p in self.sim.pools}
        out: list[str] = []
        others: dict[str, list[str]] = {}
        for fit in self._fits(w):
            name = fit.view.name
            if not fit.selector_ok:
                others.setdefault("excluded by the pod's nodeSelector / node affinity", []).append(name)
                continue
            if wanted and not fit.offers_all:
                missing = ", ".join(r for r in wanted if fit.view.resources.get(r, 0) <= 0)
                others.setdefault(f"do not advertise {missing}", []).append(name)
                continue
            # a candidate: the selector takes it and it offers the GPUs; say what stops the pod there
            if fit.untolerated:
                taints = ", ".join(str(t) for t in fit.untolerated)
                out.append(f"{name}: has a taint the pod does not tolerate: {taints}")
                continue
            sp = sim_pools.get(name)
            full = sp is not None and sp.max_nodes is not None and sp.nodes >= sp.max_nodes
            out.append(f"{name}: accepts the pod but has no room left"
                       + (f" (autoscaler at maxCount {sp.max_nodes})" if full else ""))
        for k in self._intended_nodepools(w) if wanted and self.nap_names else []:
            out.append(f"{k}: matches the pod's node selection and can create nodes with its GPUs, but NAP "
                       "launches none for it (Karpenter's words above)")
        if not out and (self.res.pools or not self.nap_names):
            what = ", ".join(wanted) if wanted else "the pod"
            out.append(f"no pool both matches the pod's node selection and offers {what}")
        for reason, names in sorted(others.items(), key=lambda kv: kv[0]):
            shown = ", ".join(names[:MAX_POOL_NAMES])
            more = f" and {len(names) - MAX_POOL_NAMES} more" if len(names) > MAX_POOL_NAMES else ""
            noun = "pool" if len(names) == 1 else "pools"
            out.append(f"{len(names)} other {noun} {reason}: {shown}{more}")
        return out

    def pending(self, related: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
        rows = []
        for e in self.sim.pending[:MAX_PENDING]:
            fixes = [dict(x) for x in e.fixes or []] or related.get(e.workload, [])
            fixes = [{"rule": str(x.get("rule") or ""), "message": str(x.get("message") or ""),
                      "fix": str(x.get("fix") or "")} for x in fixes]
            self.rules_used.update(x["rule"] for x in fixes if x["rule"])
            rows.append({
                "workload": e.workload,
                "pod": e.pod,
                "count": e.count,
                "where": f"{e.path}:{e.line}" if e.path else "",
                "scheduler": e.message,
                "autoscaler": e.autoscaler or "",
                "why": e.why or "",
                "karpenter": getattr(e, "karpenter", None) or "",
                "explanation": self.explain_pending(e.workload),
                "findings": fixes,
                "pools": self.intended(e.workload),
            })
        return rows


def _rule_docs(ids: set[str]) -> list[dict[str, Any]]:
    from gpupool.ruledocs import render_doc
    from gpupool.rules import lookup

    out = []
    for rid in sorted(ids):
        info = lookup(rid)
        if info is None:
            continue
        text = render_doc(info)
        title, _, body = text.partition("\n")
        out.append({"id": info.id, "name": info.name, "severity": info.severity.value, "title": title,
                    "title_parts": docblocks.parts(title),
                    "body": body.strip("\n"), "blocks": docblocks.blocks(body)})
    return out


def build(res: Results, generated: datetime | None = None) -> dict[str, Any]:
    """The page model for ``res``."""
    from gpupool import __version__

    b = _Builder(res, generated)
    sim = b.sim
    found = b.all_findings()
    by_pool: dict[str, list[tuple[str, Finding]]] = defaultdict(list)
    unattached: list[tuple[str, Finding]] = []
    related: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for family, f in sorted(found, key=lambda x: sort_key(x[1])):
        pools = b.pools_for_finding(f)
        for p in pools:
            by_pool[p].append((family, f))
        if not pools:
            unattached.append((family, f))
        ref = b.ref_alias.get(f.object or "")
        if ref is not None and f.severity is not Severity.INFO:
            related[ref].append({"rule": f.rule, "message": f.message})
    pending_by_ref: dict[str, int] = Counter()
    for e in sim.pending:
        pending_by_ref[e.workload] += e.count
    pools = b.pool_views(by_pool, pending_by_ref)
    nap_views = b.nodepool_views(by_pool, pending_by_ref)
    pending_groups = b.pending_lines(pools + nap_views)
    cost_bars([p["capacity"] for p in pools], sim.prices.currency)

    groups = []
    for pv in pools + nap_views:
        if not by_pool.get(pv["key"]):
            continue
        label = f"{pv['noun'].capitalize() if pv['noun'] == 'pool' else pv['noun']} {pv['name']}"
        groups.append(_group(b, pv["key"], "findings-" + pv["anchor"], by_pool[pv["key"]], label))
    if unattached:
        groups.append(_group(b, None, "findings-other", unattached))
    counts = Counter(f.severity.value for _, f in found)

    hours = facts.hours_per_month()
    prices = sim.prices
    total = sim.cost_per_hour
    idle_values = [p["capacity"].get("idle_value") for p in pools]
    idle_total = None if any(v is None for v in idle_values) else sum(idle_values)
    gpu_pools = [p for p in pools if p["capacity"].get("gpu_alloc")]
    clusters = sorted({p.cluster_name for p in res.pools})
    nap_nodes = sum(v["nap"]["nodes"] for v in nap_views)
    by_res: dict[str, list[int]] = {}
    for p in pools:
        for r in p["capacity"].get("resources", []):
            u = by_res.setdefault(r["name"], [0, 0])
            u[0] += r["used"]
            u[1] += r["allocatable"]
    summary = {
        "pools": len(pools),
        "gpu_pools": sum(1 for p in res.pools if p.is_gpu_pool),
        "nodes_before": sum(p["capacity"]["initial"] for p in pools),
        "nodes_after": sum(p["capacity"]["nodes"] for p in pools) + nap_nodes,
        "node_pools": len(nap_views),
        "nap_nodes": nap_nodes,
        "gpu_used": sum(p["capacity"]["gpu_used"] for p in gpu_pools),
        "gpu_alloc": sum(p["capacity"]["gpu_alloc"] for p in gpu_pools),
        "gpu_by_resource": [
            {"name": k, "used": v[0], "allocatable": v[1]} for k, v in sorted(by_res.items())
        ],
        "placed": sim.placed,
        "pending": sim.pending_pods,
        "cost_hour": money(total),
        "cost_month": money(total * hours if total is not None else None, 0),
        "idle_hour": money(idle_total),
        "idle_month": money(idle_total * hours if idle_total is not None else None, 0),
        "errors": counts.get("error", 0),
        "warnings": counts.get("warning", 0),
        "infos": counts.get("info", 0),
    }
    broken = [p for p in pools + nap_views if p["state"] == "broken"]
    pending = b.pending(related)
    rules = _rule_docs(b.rules_used)
    heading = ", ".join(clusters) or "Node Auto Provisioning"
    return {
        "title": "gpupool report: " + heading,
        "heading": heading,
        "clusters": clusters,
        "generated": b.generated.strftime("%Y-%m-%d %H:%M UTC"),
        "version": __version__,
        "kubernetes": sim.kubernetes_version,
        "autoscaler": sim.autoscaler,
        "inputs": res.files,
        "current": res.current,
        "currency": prices.currency,
        "prices": {
            "region": prices.region,
            "as_of": prices.as_of,
            "source": prices.source,
            "origin": prices.origin,
            "estimates": prices.any_estimate,
            "hours_per_month": facts.hours_text(),
        },
        "summary": summary,
        "broken_pools": [{"name": p["name"], "anchor": p["anchor"]} for p in broken],
        "pools": pools,
        "node_pools": nap_views,
        "nap_notes": list(sim.nap.notes) if getattr(sim, "nap", None) is not None else [],
        "finding_groups": groups,
        "families": _families(res),
        "pending": pending,
        "pending_groups": pending_groups,
        "pending_more": max(0, len(sim.pending) - MAX_PENDING),
        "diffs": diff_views(res.diffs),
        "diff_notes": res.diff_notes,
        "rules": rules,
        "notes": list(sim.notes),
        "snapshot": res.snapshot,
        "cluster_pending": cluster_pending(res),
    }


def _families(res: Results) -> list[str]:
    out = ["check (GP1xx, GP8xx)" if res.nap else "check (GP1xx)"]
    if res.lint is not None:
        out.append("lint (GP2xx, GP3xx)")
    out.append("simulate (GP5xx)")
    if res.current is not None:
        out.append("diff (GP4xx)")
    if res.doctor is not None:
        out.append("doctor (GP6xx)")
    return out


def _group(b: _Builder, pool: str | None, anchor: str, items: list[tuple[str, Finding]],
           label: str = "") -> dict[str, Any]:
    """One pool's (NodePool's, ``pool`` its key) or the rest's (``pool`` None) findings by severity."""
    by_sev: dict[str, list[tuple[str, Finding]]] = {s: [] for s in SEVERITIES}
    for family, f in items:
        by_sev[f.severity.value].append((family, f))
    sections = []
    for sev in SEVERITIES:
        lst = by_sev[sev]
        if not lst:
            continue
        room = max(0, min(MAX_PER_GROUP, b.findings_budget[sev]))
        shown = [b.finding_item(fam, f) for fam, f in lst[:room]]
        for item in shown:  # "GpuNodePool gpunp:" under the heading "Pool gpunp" says nothing new
            obj = item["object"]
            if pool is not None and (obj == pool or _pool_of_object(obj, {pool}) == pool):
                item["object"] = ""
        b.findings_budget[sev] -= len(shown)
        for _, f in lst[room:]:
            b.rules_used.add(f.rule)
        sections.append({"severity": sev, "entries": shown, "more": len(lst) - len(shown), "count": len(lst)})
    return {"pool": pool, "label": label or (f"Pool {pool}" if pool else ""), "anchor": anchor,
            "sections": sections, "count": len(items)}
