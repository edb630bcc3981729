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

import dataclasses
from dataclasses import dataclass
from functools import cache
from importlib import resources as _resources
from typing import TYPE_CHECKING, Any

from gpupool.k8s.workloads import Workload, get_path, job_pods

if TYPE_CHECKING:
    from gpupool.k8s.runtimes import Runtimes

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
    image: tuple[str, ...] | None  # where the container's image is, when not next to its resources
    rename: tuple[tuple[str, str], ...]  # resource names the operator rewrites (Dynamo's gpu)
    pod_fields: tuple[str, ...] | None  # where the pod-level fields (tolerations...) of a container are
    inherit_from: tuple[str, ...] | None
    inherit: tuple[str, ...]
    replicas: tuple[Factor, ...]
    role: str  # "" | literal | "@field"
    placement: str
    runtime: str  # "" | trainer | llmisvc: the pods are merged with a referenced object (k8s/runtimes.py)


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
        image=_path(cont["image"]) if cont and "image" in cont else None,
        rename=tuple((str(k), str(v)) for k, v in ((cont or {}).get("rename") or {}).items()),
        pod_fields=_path(raw["podFields"]) if "podFields" in raw else None,
        inherit_from=_path(str(inherit["from"]).lstrip("/")) if inherit else None,
        inherit=tuple(inherit.get("fields") or ()),
        replicas=tuple(_factor(f) for f in raw.get("replicas") or [1]),
        role=str(raw.get("role") or ""),
        placement=str(raw.get("placement") or ""),
        runtime=str(raw.get("runtime") or ""),
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


# Pod-level fields an operator copies from a container-like object (or its holder) onto the pod it makes.
POD_FIELDS = (
    "nodeSelector", "affinity", "tolerations", "runtimeClassName", "priorityClassName", "schedulerName"
)


def image_text(image: Any) -> Any:
    """An image as a container names it: operators that split it (NIM's ``{repository, tag}``) joined."""
    if isinstance(image, dict):
        repo, tag = image.get("repository"), image.get("tag")
        if isinstance(repo, str):
            return f"{repo}:{tag}" if isinstance(tag, str | int | float) and str(tag) else repo
        return None
    return image


def _renamed(res: Any, rename: tuple[tuple[str, str], ...], at: tuple) -> tuple[Any, list]:
    """``resources`` with the names an operator rewrites (Dynamo's ``gpu`` -> ``nvidia.com/gpu``) rewritten,
    and the remap entries that point the new names back at the old keys."""
    if not rename or not isinstance(res, dict):
        return res, []
    table = dict(rename)
    out: dict = {}
    maps: list = []
    for section, values in res.items():
        if isinstance(values, dict) and any(k in table for k in values):
            new = {}
            for k, v in values.items():
                name = table.get(k, k) if isinstance(k, str) else k
                new[name] = v
                if name != k:
                    maps.append((("containers", 0, "resources", section, name), (*at, section, k)))
            out[section] = new
        else:
            out[section] = values
    return out, maps


def _pod_fields(spec: dict, pod: Any, at: tuple) -> list:
    """Copy the pod-level fields of ``pod`` (found at ``at``) into ``spec``; the remap entries for them."""
    maps: list = []
    if isinstance(pod, dict):
        for f in POD_FIELDS:
            if f in pod:
                spec[f] = pod[f]
                maps.append(((f,), (*at, f)))
    return maps


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
            image = get_path(el, entry.image) if entry.image is not None else fields.get("image")
            at = (*epath, *cpath)
            res, maps = _renamed(fields.get(rkey), entry.rename, (*at, rkey))
            c = {"name": role or "main", "image": image_text(image), "resources": res}
            spec: dict = {"containers": [c]}
            if entry.pod_fields is not None:
                pod = get_path(el, entry.pod_fields)
                maps += _pod_fields(spec, pod, (*epath, *entry.pod_fields))
            tpl = {"metadata": {}, "spec": spec}
            # Pod-level findings (a missing toleration) point where the pod's fields go.
            pod_at = (*epath, *entry.pod_fields) if entry.pod_fields is not None else epath
            maps += [(("containers", 0, "resources"), (*at, rkey)), (("containers", 0), at), ((), pod_at)]
            remap = tuple(maps)
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


def _looks_like_container(node: dict) -> bool:
    """An object an operator turns into a container: an ``image`` and ``resources`` with requests or limits
    (NIM's ``spec``, OME's ``runner``, a chart-like ``modelSpec`` entry)."""
    res = node.get("resources")
    return (
        "image" in node
        and isinstance(res, dict)
        and (isinstance(res.get("limits"), dict) or isinstance(res.get("requests"), dict))
    )


def _by_shape(obj: dict, kind: str) -> list[Workload]:
    """Pod specs found by shape anywhere in ``obj`` (outside metadata and status); where there is none,
    container-like objects (image + resources), with the pod-level fields (tolerations, nodeSelector,
    affinity...) of the nearest object around them that has any."""
    found: list[tuple[tuple, dict, tuple | None, dict | None, int | None]] = []
    loose: list[tuple[tuple, dict, tuple, dict | None, int | None]] = []

    def walk(node: Any, path: tuple, parent: Any, grand: Any, up: tuple) -> None:
        if isinstance(node, dict):
            if _looks_like_pod_spec(node):
                tpl = parent if isinstance(parent, dict) and path and path[-1] == "spec" else None
                holder = grand if tpl is not None else parent
                n = _count(holder.get("replicas")) if isinstance(holder, dict) else None
                found.append((path, node, path[:-1] if tpl is not None else None, tpl, n))
                return
            chain = (*up, (path, node))
            if _looks_like_container(node):
                pod_at, pod = next(((p, d) for p, d in reversed(chain) if any(f in d for f in POD_FIELDS)),
                                   ((), None))
                n = next((_count(d.get("replicas")) for _, d in reversed(chain) if "replicas" in d), None)
                loose.append((path, node, pod_at, pod, n))
            for k, v in node.items():
                if isinstance(v, dict | list) and not (not path and k in ("metadata", "status")):
                    walk(v, (*path, k), node, parent, chain)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                if isinstance(v, dict | list):
                    walk(v, (*path, i), parent, grand, up)

    walk(obj, (), None, None, ())
    out = []
    for spath, spec, tpath, tpl, n in found:
        role = ".".join(str(p) for p in spath) if len(found) > 1 else ""
        template = tpl if tpl is not None else {"metadata": {}, "spec": spec}
        out.append(_make(obj, kind, role, template, tpath if tpath is not None else spath, spec, spath,
                         1 if n is None else n))
    if found:
        return out
    for cpath, fields, pod_at, pod, n in loose:
        role = ".".join(str(p) for p in cpath) if len(loose) > 1 else ""
        c = {"name": _slug(role or "main"), "image": image_text(fields.get("image")),
             "resources": fields.get("resources")}
        spec: dict = {"containers": [c]}
        maps = _pod_fields(spec, pod, pod_at)
        maps += [(("containers", 0), cpath), ((), cpath)]
        out.append(_make(obj, kind, role, {"metadata": {}, "spec": spec}, cpath, spec, (),
                         1 if n is None else n, "", tuple(maps)))
    return out


def pod_templates(obj: Any, runtimes: Runtimes | None = None) -> list[Workload]:
    """Every pod template of ``obj`` (empty for objects without one). ``runtimes``: the objects among the
    inputs that other objects take their pods from (:class:`gpupool.k8s.runtimes.Runtimes`)."""
    if not isinstance(obj, dict):
        return []
    kind = obj.get("kind")
    api = obj.get("apiVersion")
    if not isinstance(kind, str):
        return []
    group = api.rpartition("/")[0] if isinstance(api, str) else ""
    shape = table().get((group, kind))
    if shape is not None:
        if shape.entries and shape.entries[0].runtime:
            return _with_runtime(shape, obj, kind, runtimes)
        out: list[Workload] = []
        for entry in shape.entries:
            out.extend(_from_entry(entry, obj, kind))
        return out
    if group in _BUILTIN_GROUPS or (group.endswith("k8s.io") and not group.endswith("x-k8s.io")):
        return []  # built-in kinds without pod templates (Service, ConfigMap, RBAC, ...)
    return _by_shape(obj, kind)


def _with_runtime(shape: KindShape, obj: dict, kind: str, runtimes: Runtimes | None) -> list[Workload]:
    """Pods of a kind that takes its pod template from another object (k8s/runtimes.py): assembled with it
    when it is among the inputs, else the object's own part, not judged for placement (``unresolved``)."""
    from gpupool.k8s import runtimes as rt

    how = shape.entries[0].runtime
    if how == "trainer":
        got = rt.trainjob_pods(obj, runtimes, _make)
        if got is not None:
            return got
        rkind, rname = rt._runtime_ref(obj)
        missing = f"{rkind} {rname or '<no runtimeRef.name>'}"
        src = obj
    else:
        spec, absent = rt.llmisvc_spec(obj, runtimes)
        if spec is not None:
            merged = {**obj, "spec": spec}
            out = []
            for entry in shape.entries:
                out.extend(_from_entry(entry, merged, kind))
            return out
        missing = "LLMInferenceServiceConfig " + ", ".join(absent)
        src = obj
    out = []
    for entry in shape.entries:
        for w in _from_entry(entry, src, kind):
            out.append(dataclasses.replace(w, placement="runtime", unresolved=missing))
    return out
