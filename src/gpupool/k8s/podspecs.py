"""Every pod spec inside any Kubernetes object: built-in workloads, workload custom resources, and any other
object that holds one, each with its path (for ``file:line``) and the number of pods it makes.

``pod_templates(obj)`` -> ``list[Workload]``: one per pod template of the object (a RayCluster gives its head
and each worker group; a PyTorchJob each replica spec). Where the pods are is data
(``k8s/data/pod_templates.yaml``: kind -> paths and replica counts, with the API documentation each shape
comes from); objects of kinds the table does not know are searched by shape: a mapping with a
``containers`` list of objects that have ``name`` or ``image`` is a pod spec. Built-in kinds without a pod
template (Service, ConfigMap, ...) are not searched, so they cost one dictionary lookup.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources as _resources
from typing import Any

from gpupool.k8s.workloads import Workload, get_path, job_pods

_BUILTIN_GROUPS = frozenset({"", "apps", "batch", "extensions", "autoscaling", "policy"})


@dataclass(frozen=True)
class Factor:
    kind: str  # path | const | job | daemon
    path: tuple[str, ...] = ()
    absolute: bool = False
    minus: int = 0
    const: int = 1


@dataclass(frozen=True)
class PodEntry:
    each: tuple[str, ...] | None  # collection path; last step "*" (mapping) or "[]" (list)
    at: tuple[str, ...]
    templates: tuple[tuple[str, ...], ...]  # alternatives (PodTemplateSpec paths)
    pod_spec: tuple[str, ...] | None  # a PodSpec path ("" -> ())
    containers: tuple[str, ...]  # single-container keys of the pod spec
    container: tuple[tuple[str, ...], str] | None  # (path of the fields, resources key)
    inherit_from: tuple[str, ...] | None
    inherit: tuple[str, ...]
    replicas: tuple[Factor, ...]
    role: str  # "" | literal | "@field"
    placement: str


@dataclass(frozen=True)
class KindShape:
    group: str
    kind: str
    entries: tuple[PodEntry, ...]
    source: str
    as_of: str


def _path(text: Any) -> tuple[str, ...]:
    text = str(text or "")
    return tuple(p for p in text.split(".") if p)


def _factor(raw: Any) -> Factor:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return Factor("const", const=raw)
    text = str(raw).strip()
    if text == "daemon":
        return Factor("daemon")
    if text.startswith("job:"):
        body = text[4:]
        return Factor("job", _path(body.lstrip("/")), absolute=body.startswith("/"))
    minus = 0
    if " - " in text:
        text, _, n = text.partition(" - ")
        minus = int(n)
    return Factor("path", _path(text.lstrip("/")), absolute=text.startswith("/"), minus=minus)


def _entry(raw: dict) -> PodEntry:
    each = raw.get("each")
    tmpl = raw.get("template")
    templates = tuple(_path(t) for t in (tmpl if isinstance(tmpl, list) else [tmpl] if tmpl else []))
    cont = raw.get("container")
    inherit = raw.get("inherit") or {}
    return PodEntry(
        each=_path(each) if each else None,
        at=_path(raw.get("at")),
        templates=templates,
        pod_spec=_path(raw["podSpec"]) if "podSpec" in raw else None,
        containers=tuple(raw.get("containers") or ()),
        container=(_path(cont["at"]), str(cont["resources"])) if cont else None,
        inherit_from=_path(str(inherit["from"]).lstrip("/")) if inherit else None,
        inherit=tuple(inherit.get("fields") or ()),
        replicas=tuple(_factor(f) for f in raw.get("replicas") or [1]),
        role=str(raw.get("role") or ""),
        placement=str(raw.get("placement") or ""),
    )


@cache
def table() -> dict[tuple[str, str], KindShape]:
    """(API group, kind) -> where its pod templates are (loaded once from the data file)."""
    import yaml

    text = _resources.files("gpupool.k8s").joinpath("data", "pod_templates.yaml").read_text("utf-8")
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    out: dict[tuple[str, str], KindShape] = {}
    for row in data["kinds"]:
        entries = tuple(_entry(e) for e in row["pods"])
        for group in [row["group"], *row.get("also", [])]:
            for kind in row["kinds"]:
                out[(group, kind)] = KindShape(group, kind, entries, row["source"], str(row["asOf"]))
    return out


def supported_kinds() -> list[KindShape]:
    """The kinds whose pod templates are found by known paths (for documentation), in table order."""
    seen: dict[tuple[str, str], KindShape] = {}
    for key, shape in table().items():
        if key[0] != "extensions":
            seen.setdefault(key, shape)
    return list(seen.values())


# ---- walking ---------------------------------------------------------------------------------------


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _replicas(entry: PodEntry, obj: dict, element: Any) -> int | None:
    total = 1
    for f in entry.replicas:
        if f.kind == "daemon":
            return None
        if f.kind == "const":
            total *= f.const
            continue
        base = obj if f.absolute else element
        value = get_path(base, f.path)
        if f.kind == "job":
            total *= job_pods(value)
            continue
        n = _count(value)
        total *= max(0, (1 if n is None else n) - f.minus)
    return total


def _elements(entry: PodEntry, obj: dict) -> list[tuple[tuple, Any, str]]:
    """(path of the element, element, role) for each element the entry names."""
    if entry.each is None:
        el = get_path(obj, entry.at) if entry.at else obj
        return [(entry.at, el, "")] if isinstance(el, dict) else []
    *coll_path, last = entry.each
    coll = get_path(obj, (*entry.at, *coll_path))
    base = (*entry.at, *coll_path)
    out: list[tuple[tuple, Any, str]] = []
    if last == "*" and isinstance(coll, dict):
        for k, v in coll.items():
            if isinstance(v, dict):
                out.append(((*base, k), v, str(k)))
    elif last.endswith("[]"):
        key = last[:-2]
        items = get_path(obj, (*base, key)) if key else coll
        if isinstance(items, list):
            for i, v in enumerate(items):
                if isinstance(v, dict):
                    out.append(((*base, key, i) if key else (*base, i), v, str(i)))
    return out


def _meta(obj: dict) -> tuple[str, str]:
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    name = meta.get("name") or meta.get("generateName") or "<unnamed>"
    return str(name), str(meta.get("namespace") or "default")


def _slug(role: str) -> str:
    return "".join(c if c.isalnum() or c in "-." else "-" for c in role.lower()).strip("-") or "pod"


def _make(
    obj: dict,
    kind: str,
    role: str,
    template: dict,
    tpath: tuple,
    spec: dict,
    spath: tuple,
    replicas: int | None,
    placement: str = "",
    remap: tuple = (),
) -> Workload:
    name, namespace = _meta(obj)
    return Workload(
        kind=kind,
        name=f"{name}-{_slug(role)}" if role else name,
        namespace=namespace,
        api_version=str(obj.get("apiVersion", "")),
        obj=obj,
        template=template,
        template_path=tpath,
        pod_spec=spec,
        pod_spec_path=spath,
        replicas=replicas,
        role=role,
        placement=placement,
        remap=remap,
    )


def _from_entry(entry: PodEntry, obj: dict, kind: str) -> list[Workload]:
    out: list[Workload] = []
    for epath, el, key_role in _elements(entry, obj):
        role = entry.role
        if role.startswith("@"):
            got = el.get(role[1:])
            role = str(got) if isinstance(got, str | int) and got != "" else key_role
        elif not role:
            role = key_role
        replicas = _replicas(entry, obj, el)
        remap: tuple = ()
        if entry.container is not None:
            cpath, rkey = entry.container
            fields = get_path(el, cpath)
            if not isinstance(fields, dict):
                continue
            c = {"name": role or "main", "image": fields.get("image"), "resources": fields.get(rkey)}
            spec = {"containers": [c]}
            tpl = {"metadata": {}, "spec": spec}
            at = (*epath, *cpath)
            remap = ((("containers", 0, "resources"), (*at, rkey)), (("containers", 0), at), ((), epath))
            out.append(_make(obj, kind, role, tpl, epath, spec, (), replicas, entry.placement, remap))
            continue
        if entry.pod_spec is not None:
            spec = get_path(el, entry.pod_spec) if entry.pod_spec else el
            if not isinstance(spec, dict):
                continue
            spath = (*epath, *entry.pod_spec)
            extra = [k for k in entry.containers if isinstance(spec.get(k), dict)]
            inherited = []
            if entry.inherit_from is not None:
                src = get_path(obj, entry.inherit_from)
                if isinstance(src, dict):
                    inherited = [f for f in entry.inherit if f not in spec and f in src]
            if extra or inherited:
                base_list = spec.get("containers") if isinstance(spec.get("containers"), list) else []
                synth = dict(spec)
                synth["containers"] = [*base_list, *(spec[k] for k in extra)]
                maps = [(("containers", len(base_list) + i), (*spath, k)) for i, k in enumerate(extra)]
                for f in inherited:
                    synth[f] = src[f]
                    maps.append(((f,), (*entry.inherit_from, f)))
                maps.append(((), spath))
                remap = tuple(maps)
                spec = synth
            elif not isinstance(spec.get("containers"), list):
                continue  # a component that is not there (no containers at all)
            meta = spec.get("metadata")
            tpl = {"metadata": meta if isinstance(meta, dict) else {}, "spec": spec}
            out.append(_make(obj, kind, role, tpl, spath, spec, spath, replicas, entry.placement, remap))
            continue
        for t in entry.templates:
            tpl = get_path(el, t)
            if isinstance(tpl, dict) and isinstance(tpl.get("spec"), dict):
                tpath = (*epath, *t)
                spec = tpl["spec"]
                spath = (*tpath, "spec")
                out.append(_make(obj, kind, role, tpl, tpath, spec, spath, replicas, entry.placement))
                break
    return out


def _looks_like_pod_spec(node: dict) -> bool:
    cs = node.get("containers")
    if not isinstance(cs, list) or not cs:
        return False
    return all(isinstance(c, dict) and ("image" in c or "name" in c) for c in cs)


def _by_shape(obj: dict, kind: str) -> list[Workload]:
    """Pod specs found by shape anywhere in ``obj`` (outside metadata and status)."""
    found: list[tuple[tuple, dict, tuple | None, dict | None, int | None]] = []

    def walk(node: Any, path: tuple, parent: Any, grand: Any) -> None:
        if isinstance(node, dict):
            if _looks_like_pod_spec(node):
                tpl = parent if isinstance(parent, dict) and path and path[-1] == "spec" else None
                holder = grand if tpl is not None else parent
                n = _count(holder.get("replicas")) if isinstance(holder, dict) else None
                found.append((path, node, path[:-1] if tpl is not None else None, tpl, n))
                return
            for k, v in node.items():
                if isinstance(v, dict | list) and not (not path and k in ("metadata", "status")):
                    walk(v, (*path, k), node, parent)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                if isinstance(v, dict | list):
                    walk(v, (*path, i), parent, grand)

    walk(obj, (), None, None)
    out = []
    for spath, spec, tpath, tpl, n in found:
        role = ".".join(str(p) for p in spath) if len(found) > 1 else ""
        template = tpl if tpl is not None else {"metadata": {}, "spec": spec}
        out.append(_make(obj, kind, role, template, tpath if tpath is not None else spath, spec, spath,
                         1 if n is None else n))
    return out


def pod_templates(obj: Any) -> list[Workload]:
    """Every pod template of ``obj`` (empty for objects without one)."""
    if not isinstance(obj, dict):
        return []
    kind = obj.get("kind")
    api = obj.get("apiVersion")
    if not isinstance(kind, str):
        return []
    group = api.rpartition("/")[0] if isinstance(api, str) else ""
    shape = table().get((group, kind))
    if shape is not None:
        out: list[Workload] = []
        for entry in shape.entries:
            out.extend(_from_entry(entry, obj, kind))
        return out
    if group in _BUILTIN_GROUPS or (group.endswith("k8s.io") and not group.endswith("x-k8s.io")):
        return []  # built-in kinds without pod templates (Service, ConfigMap, RBAC, ...)
    return _by_shape(obj, kind)
