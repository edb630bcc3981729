"""ConfigMap, Secret, RBAC, PersistentVolumeClaim, ResourceQuota, Namespace and PriorityClass."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from gpupool.k8s.quantity import try_quantity
from gpupool.k8s.validation import names
from gpupool.k8s.validation.core import CONFIG, INVALID, METADATA, TOO_LONG, Key, Out
from gpupool.k8s.validation.meta import limit

ACCESS_MODES = ("ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod")
RBAC_GROUP = "rbac.authorization.k8s.io"
MAX_DATA = 1024 * 1024  # ConfigMap and Secret: core.MaxSecretSize / the ConfigMap total


def _keys(out: Out, data: Any, field: str, shown: str | None = None) -> int:
    """Keys of a data map; ``shown``: the field the server names (stringData is merged into data first)."""
    size = 0
    if type(data) is not dict:
        return size
    for k, v in data.items():
        if type(k) is not str:
            continue
        bad = names.config_key(k)
        if bad:
            out.invalid(CONFIG, (shown or field, Key(k)), k, bad, at=(field, k))
        if type(v) is str:
            size += len(v)
    return size


def configmap(out: Out, obj: dict) -> None:
    data, binary = obj.get("data"), obj.get("binaryData")
    size = _keys(out, data, "data") + _keys(out, binary, "binaryData")
    if type(data) is dict and type(binary) is dict:
        for k in binary:
            if k in data:
                out.invalid(
                    CONFIG,
                    ("data", Key(str(k))),
                    k,
                    "duplicate of key present in binaryData",
                    at=("binaryData", k),
                )
    if size > MAX_DATA:
        out.add(CONFIG, (), TOO_LONG, f"may not be more than {MAX_DATA} bytes", at=("data",))


def _base64_error(v: str) -> str | None:
    text = v.replace("\r", "").replace("\n", "")
    try:
        base64.b64decode(text, validate=True)
        return None
    except (binascii.Error, ValueError) as e:
        return f"illegal base64 data ({e})"


def secret(out: Out, obj: dict) -> None:
    data = obj.get("data")
    _keys(out, data, "data")
    _keys(out, obj.get("stringData"), "stringData", "data")
    if type(data) is dict:
        for k, v in data.items():
            if type(v) is str:
                bad = _base64_error(v)
                if bad:
                    # the server cannot decode the body (400 BadRequest, before validation)
                    out.add(CONFIG, ("data", Key(str(k))), INVALID, bad, at=("data", k))
    keys: set = set()  # the server merges stringData into data before validating
    for section in (data, obj.get("stringData")):
        if type(section) is dict:
            keys.update(section)
    stype = obj.get("type")
    needed: tuple[str, ...] = ()
    if stype == "kubernetes.io/tls":
        needed = ("tls.crt", "tls.key")
    elif stype == "kubernetes.io/dockerconfigjson":
        needed = (".dockerconfigjson",)
    elif stype == "kubernetes.io/dockercfg":
        needed = (".dockercfg",)
    elif stype == "kubernetes.io/ssh-auth":
        needed = ("ssh-privatekey",)
    for k in needed:
        if k not in keys:
            out.required(CONFIG, ("data", Key(k)), at=("data",) if data is not None else ())
    if stype == "kubernetes.io/service-account-token":
        ann = (obj.get("metadata") or {}).get("annotations") if type(obj.get("metadata")) is dict else None
        if type(ann) is not dict or not ann.get("kubernetes.io/service-account.name"):
            out.required(
                CONFIG,
                ("metadata", "annotations", Key("kubernetes.io/service-account.name")),
                at=("metadata",),
            )
    if stype == "kubernetes.io/basic-auth" and not ({"username", "password"} & keys):
        out.required(CONFIG, ("data", Key("username")), at=("data",) if data is not None else ())


def role(out: Out, obj: dict, namespaced: bool) -> None:
    rules = obj.get("rules")
    if type(rules) is not list:
        return
    for i, r in enumerate(rules):
        if type(r) is not dict:
            continue
        p = ("rules", i)
        verbs = r.get("verbs")
        if type(verbs) is not list or not verbs:
            out.required(CONFIG, (*p, "verbs"), "verbs must contain at least one value")
        urls = r.get("nonResourceURLs")
        if type(urls) is list and urls:
            if namespaced:
                out.invalid(
                    CONFIG,
                    (*p, "nonResourceURLs"),
                    urls,
                    "namespaced rules cannot apply to non-resource URLs",
                )
            if r.get("apiGroups") or r.get("resources"):
                out.invalid(
                    CONFIG,
                    (*p, "nonResourceURLs"),
                    urls,
                    "rules cannot apply to both regular resources and non-resource URLs",
                )
        else:
            if not r.get("apiGroups"):
                out.required(CONFIG, (*p, "apiGroups"), "resource rules must supply at least one api group")
            if not r.get("resources"):
                out.required(CONFIG, (*p, "resources"), "resource rules must supply at least one resource")


def binding(out: Out, obj: dict, cluster: bool) -> None:
    ref = obj.get("roleRef")
    if type(ref) is dict:
        kinds = ("ClusterRole",) if cluster else ("Role", "ClusterRole")
        kind = ref.get("kind")
        if type(kind) is str and kind not in kinds:
            out.unsupported(CONFIG, ("roleRef", "kind"), kind, kinds)
        group = ref.get("apiGroup")
        if type(group) is str and group != RBAC_GROUP:
            out.unsupported(CONFIG, ("roleRef", "apiGroup"), group, (RBAC_GROUP,))
        name = ref.get("name")
        if name is None or name == "":
            out.required(CONFIG, ("roleRef", "name"))
        elif type(name) is str:
            bad = names.path_segment(name)
            if bad:
                out.invalid(CONFIG, ("roleRef", "name"), name, bad)
    subjects = obj.get("subjects")
    if type(subjects) is not list:
        return
    for i, s in enumerate(subjects):
        if type(s) is not dict:
            continue
        p = ("subjects", i)
        name = s.get("name")
        if name is None or name == "":
            out.required(CONFIG, (*p, "name"))
        kind = s.get("kind")
        group = s.get("apiGroup")
        if kind == "ServiceAccount":
            if type(group) is str and group:
                out.unsupported(CONFIG, (*p, "apiGroup"), group, ("",))
            if type(name) is str and name:
                bad = names.dns1123_subdomain(name)
                if bad:
                    out.invalid(CONFIG, (*p, "name"), name, bad)
            if cluster and not s.get("namespace"):
                out.required(CONFIG, (*p, "namespace"))
        elif kind in ("User", "Group"):
            if type(group) is str and group != RBAC_GROUP:
                out.unsupported(CONFIG, (*p, "apiGroup"), group, (RBAC_GROUP,))
        elif type(kind) is str:
            out.unsupported(CONFIG, (*p, "kind"), kind, ("ServiceAccount", "User", "Group"))


def pvc(out: Out, obj: dict) -> None:
    spec = obj.get("spec")
    if type(spec) is not dict:
        return
    p = ("spec",)
    modes = spec.get("accessModes")
    if type(modes) is not list or not modes:
        if spec.get("dataSourceRef") is None:
            out.required(CONFIG, (*p, "accessModes"), "at least 1 access mode is required")
    else:
        for m in modes:
            if type(m) is str and m not in ACCESS_MODES:
                out.unsupported(CONFIG, (*p, "accessModes"), m, ACCESS_MODES)
    res = spec.get("resources")
    req = res.get("requests") if type(res) is dict else None
    storage = req.get("storage") if type(req) is dict else None
    if storage is None:
        out.required(
            CONFIG, (*p, "resources", Key("storage")), at=(*p, "resources") if res is not None else p
        )
    else:
        q = try_quantity(storage)
        if q is not None and q <= 0:
            out.invalid(
                CONFIG,
                (*p, "resources", Key("storage")),
                storage,
                "must be greater than zero",
                at=(*p, "resources", "requests", "storage"),
            )
    vm = spec.get("volumeMode")
    if type(vm) is str and vm not in ("Block", "Filesystem"):
        out.unsupported(CONFIG, (*p, "volumeMode"), vm, ("Block", "Filesystem"))
    sc = spec.get("storageClassName")
    if type(sc) is str and sc:
        bad = names.dns1123_subdomain(sc)
        if bad:
            out.invalid(CONFIG, (*p, "storageClassName"), sc, bad)


def resource_quota(out: Out, obj: dict) -> None:
    spec = obj.get("spec")
    if type(spec) is not dict:
        return
    hard = spec.get("hard")
    if type(hard) is not dict:
        return
    for k, v in hard.items():
        q = try_quantity(v)
        if q is not None and q < 0:
            out.invalid(
                CONFIG,
                ("spec", "hard", Key(str(k))),
                v,
                "must be greater than or equal to 0",
                at=("spec", "hard", k),
            )


def priority_class(out: Out, obj: dict) -> None:
    meta = obj.get("metadata")
    name = meta.get("name") if type(meta) is dict else None
    system = type(name) is str and name.startswith("system-")
    value = obj.get("value")
    cap = limit("priorityClassMax")
    if system and name not in ("system-cluster-critical", "system-node-critical"):
        out.forbidden(
            METADATA, ("metadata", "name"), "priority class names with 'system-' prefix are reserved"
        )
    if type(value) is int and value > cap and not system:
        out.forbidden(CONFIG, ("value",), f"maximum allowed value of a user defined priority is {cap}")
    pol = obj.get("preemptionPolicy")
    if type(pol) is str and pol not in ("PreemptLowerPriority", "Never"):
        out.unsupported(CONFIG, ("preemptionPolicy",), pol, ("PreemptLowerPriority", "Never"))
