"""Karpenter's requirements: a pod's alternatives (nodeSelector and required node affinity terms), a
NodePool's NodeClaimTemplate requirements, and ``Requirements.Compatible`` with Karpenter's error words."""

from __future__ import annotations

from gpupool.nap.model import NodeClass, NodePool, Requirement
from gpupool.nap.sizes import _accepts
from gpupool.simulate.nap.facts import error_words, well_known

_NEGATIVE = ("NotIn", "DoesNotExist")


def pod_requirement_sets(spec: dict) -> list[list[Requirement]]:
    """The pod's requirement alternatives: nodeSelector plus one required node affinity term each (Karpenter
    takes the first term and relaxes to the next when it cannot be met)."""
    base = []
    sel = spec.get("nodeSelector")
    if isinstance(sel, dict):
        base = [Requirement(str(k), "In", (str(v),)) for k, v in sel.items()]
    aff = spec.get("affinity") if isinstance(spec.get("affinity"), dict) else {}
    na = aff.get("nodeAffinity") if isinstance(aff.get("nodeAffinity"), dict) else {}
    req = na.get("requiredDuringSchedulingIgnoredDuringExecution")
    terms = req.get("nodeSelectorTerms") if isinstance(req, dict) else None
    if not isinstance(terms, list) or not terms:
        return [base]
    out = []
    for term in terms:
        exprs = term.get("matchExpressions") if isinstance(term, dict) else None
        reqs = list(base)
        for e in exprs if isinstance(exprs, list) else ():
            if isinstance(e, dict) and isinstance(e.get("key"), str):
                vals = tuple(str(v) for v in e.get("values") or ())
                reqs.append(Requirement(e["key"], str(e.get("operator")), vals))
        out.append(reqs)
    return out


def _by_key(reqs: list[Requirement]) -> dict[str, list[Requirement]]:
    out: dict[str, list[Requirement]] = {}
    for r in reqs:
        out.setdefault(r.key, []).append(r)
    return out


def _satisfiable(reqs: list[Requirement]) -> bool:
    """Whether some value (or the label's absence) satisfies every requirement on one key."""
    cands: set[str | None] = {None, "\x00other"}
    for r in reqs:
        cands.update(r.values)
        if r.operator in ("Gt", "Lt", "Gte", "Lte") and r.values and r.values[0].isdigit():
            n = int(r.values[0])
            cands.update(str(x) for x in (n - 1, n, n + 1) if x >= 0)
    return any(all(_accepts(r, c) for r in reqs) for c in cands)


def _req_text(reqs: list[Requirement]) -> str:
    return " ".join(str(r) for r in reqs)


def incompatible(pool_reqs: list[Requirement], pod_reqs: list[Requirement]) -> str | None:
    """Karpenter's ``Requirements.Compatible`` (undefined well-known labels allowed): None, or its error."""
    mine, theirs = _by_key(pool_reqs), _by_key(pod_reqs)
    known = well_known()
    for key, reqs in theirs.items():
        if key in known or key in mine or all(r.operator in _NEGATIVE for r in reqs):
            continue
        return error_words("undefinedLabel").replace("%q", f'"{key}"')
    for key, reqs in theirs.items():
        if key not in mine:
            continue
        if all(r.operator in _NEGATIVE for r in reqs + mine[key]):
            continue
        if not _satisfiable(mine[key] + reqs):
            return error_words("badKey") % (key, _req_text(reqs), _req_text(mine[key]))
    return None


def pool_requirements(pool: NodePool, nc: NodeClass | None) -> list[Requirement]:
    """A NodePool's requirements as Karpenter's NodeClaimTemplate holds them: spec requirements, template
    labels, the NodePool and node class labels."""
    reqs = list(pool.requirements)
    reqs += [Requirement(k, "In", (v,)) for k, v in pool.labels.items()]
    reqs.append(Requirement("karpenter.sh/nodepool", "In", (pool.name,)))
    reqs.append(Requirement("karpenter.azure.com/aksnodeclass", "In", (pool.node_class[2],)))
    return reqs
