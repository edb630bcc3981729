"""A pod spec as the API server validates it (ValidatePodSpec and what it calls), one walk.

``check_pod_spec(out, spec, path)``: ``path`` is where the pod spec sits (``("spec",)`` for a Pod,
``("spec", "template", "spec")`` for a Deployment).
"""

from __future__ import annotations

import re
from typing import Any

from gpupool.k8s.quantity import try_quantity
from gpupool.k8s.validation import names
from gpupool.k8s.validation.core import (
    CONTAINER,
    DUPLICATE,
    FORBIDDEN,
    INVALID,
    NO_VALUE,
    NOT_FOUND,
    POD,
    REQUIRED,
    RESOURCES,
    SCHEDULING,
    Key,
    Out,
)
from gpupool.k8s.validation.meta import check_label_selector, check_labels, since

PULL_POLICIES = ("Always", "IfNotPresent", "Never")
PROTOCOLS = ("SCTP", "TCP", "UDP")
RESTART_POLICIES = ("Always", "OnFailure", "Never")
DNS_POLICIES = ("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None")
EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
NODE_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")
WHEN_UNSATISFIABLE = ("DoNotSchedule", "ScheduleAnyway")
PROBE_HANDLERS = ("exec", "httpGet", "tcpSocket", "grpc")
PROBES = ("livenessProbe", "readinessProbe", "startupProbe")
ENV_SOURCES = ("fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef", "fileKeyRef")
VOLUME_SOURCES = frozenset(
    (
        "hostPath",
        "emptyDir",
        "gcePersistentDisk",
        "awsElasticBlockStore",
        "gitRepo",
        "secret",
        "nfs",
        "iscsi",
        "glusterfs",
        "persistentVolumeClaim",
        "rbd",
        "quobyte",
        "flexVolume",
        "cinder",
        "cephfs",
        "flocker",
        "downwardAPI",
        "fc",
        "azureFile",
        "configMap",
        "vsphereVolume",
        "azureDisk",
        "photonPersistentDisk",
        "projected",
        "portworxVolume",
        "scaleIO",
        "storageos",
        "csi",
        "ephemeral",
        "image",
    )
)
MAX_ID = 2147483647
_HUGEPAGES = re.compile(r"hugepages-(.+)")


def _port_ok(v: Any) -> bool:
    return type(v) is int and 1 <= v <= 65535


def _nonneg(out: Out, area: str, obj: dict, key: str, path: tuple) -> None:
    v = obj.get(key)
    if type(v) is int and v < 0:
        out.invalid(area, (*path, key), v, "must be greater than or equal to 0")


def check_pod_spec(
    out: Out, spec: Any, path: tuple, check_restart: bool = True, claims: frozenset[str] = frozenset()
) -> None:
    """``check_restart``: False where the owning kind judges restartPolicy itself (workloads, Jobs);
    ``claims``: volume names the owner adds (a StatefulSet's volumeClaimTemplates)."""
    if type(spec) is not dict:
        return
    volumes = _volumes(out, spec.get("volumes"), (*path, "volumes"))
    if claims:
        volumes |= claims
    host_network = spec.get("hostNetwork") is True
    containers = spec.get("containers")
    seen: set[str] = set()
    if type(containers) is not list or not containers:
        out.required(CONTAINER, (*path, "containers"))
    else:
        for i, c in enumerate(containers):
            if type(c) is dict:
                _container(out, c, (*path, "containers", i), seen, volumes, host_network, False)
    inits = spec.get("initContainers")
    if type(inits) is list:
        for i, c in enumerate(inits):
            if type(c) is dict:
                _container(out, c, (*path, "initContainers", i), seen, volumes, host_network, True)
    rp = spec.get("restartPolicy")
    if check_restart and type(rp) is str and rp not in RESTART_POLICIES:
        out.unsupported(POD, (*path, "restartPolicy"), rp, RESTART_POLICIES)
    dp = spec.get("dnsPolicy")
    if type(dp) is str and dp not in DNS_POLICIES:
        out.unsupported(POD, (*path, "dnsPolicy"), dp, DNS_POLICIES)
    elif dp == "None" and type(spec.get("dnsConfig")) is not dict:
        out.required(POD, (*path, "dnsConfig"), "must provide `dnsConfig` when `dnsPolicy` is None")
    for key in ("hostname", "subdomain"):
        v = spec.get(key)
        if type(v) is str and v:
            bad = names.dns1123_label(v)
            if bad:
                out.invalid(POD, (*path, key), v, bad)
    sa = spec.get("serviceAccountName")
    if type(sa) is str and sa:
        bad = names.dns1123_subdomain(sa)
        if bad:
            out.invalid(POD, (*path, "serviceAccountName"), sa, bad)
    sc = spec.get("securityContext")
    if type(sc) is dict:
        _ids(out, POD, sc, (*path, "securityContext"), ("runAsUser", "runAsGroup", "fsGroup"))
        groups = sc.get("supplementalGroups")
        if type(groups) is list:
            for j, g in enumerate(groups):
                if type(g) is int and not 0 <= g <= MAX_ID:
                    out.invalid(
                        POD,
                        (*path, "securityContext", "supplementalGroups", j),
                        g,
                        f"must be between 0 and {MAX_ID}, inclusive",
                    )
    ns = spec.get("nodeSelector")
    if ns:
        check_labels(out, ns, (*path, "nodeSelector"), SCHEDULING)
    tol = spec.get("tolerations")
    if type(tol) is list:
        _tolerations(out, tol, (*path, "tolerations"))
    aff = spec.get("affinity")
    if type(aff) is dict:
        _affinity(out, aff, (*path, "affinity"))
    tsc = spec.get("topologySpreadConstraints")
    if type(tsc) is list:
        _spread(out, tsc, (*path, "topologySpreadConstraints"))
    _nonneg(out, POD, spec, "activeDeadlineSeconds", path)


def _ids(out: Out, area: str, sc: dict, path: tuple, keys: tuple[str, ...]) -> None:
    for key in keys:
        v = sc.get(key)
        if type(v) is int and not 0 <= v <= MAX_ID:
            out.invalid(area, (*path, key), v, f"must be between 0 and {MAX_ID}, inclusive")


def _volumes(out: Out, vols: Any, path: tuple) -> set[str]:
    good: set[str] = set()
    if type(vols) is not list:
        return good
    for i, v in enumerate(vols):
        if type(v) is not dict:
            continue
        name = v.get("name")
        p = (*path, i)
        if type(name) is str:
            if not name:
                out.required(POD, (*p, "name"))
            else:
                bad = names.dns1123_label(name)
                if bad:
                    out.invalid(POD, (*p, "name"), name, bad)
                elif name in good:
                    out.add(POD, (*p, "name"), DUPLICATE, value=name)
                else:
                    good.add(name)
        sources = [k for k in v if k in VOLUME_SOURCES]
        if not sources:
            out.required(POD, p, "must specify a volume type")
        elif len(sources) > 1:
            out.forbidden(POD, (*p, sources[1]), "may not specify more than 1 volume type")
    return good


def _container(
    out: Out, c: dict, path: tuple, seen: set[str], volumes: set[str], host_network: bool, init: bool
) -> None:
    name = c.get("name")
    if type(name) is str:
        if not name:
            out.required(CONTAINER, (*path, "name"))
        else:
            bad = names.dns1123_label(name)
            if bad:
                out.invalid(CONTAINER, (*path, "name"), name, bad)
            elif name in seen:
                out.add(CONTAINER, (*path, "name"), DUPLICATE, value=name)
            seen.add(name)
    elif name is None:
        out.required(CONTAINER, (*path, "name"))
    image = c.get("image")
    if image is None or image == "":
        out.required(CONTAINER, (*path, "image"))
    pp = c.get("imagePullPolicy")
    if type(pp) is str and pp not in PULL_POLICIES:
        out.unsupported(CONTAINER, (*path, "imagePullPolicy"), pp, PULL_POLICIES)
    ports = c.get("ports")
    if type(ports) is list:
        _ports(out, ports, (*path, "ports"), host_network)
    env = c.get("env")
    if type(env) is list:
        _env(out, env, (*path, "env"))
    mounts = c.get("volumeMounts")
    if type(mounts) is list:
        _mounts(out, mounts, (*path, "volumeMounts"), volumes)
    sidecar = init and c.get("restartPolicy") == "Always"
    if init:
        rp = c.get("restartPolicy")
        if type(rp) is str and rp != "Always":
            out.unsupported(CONTAINER, (*path, "restartPolicy"), rp, ("Always",))
    for probe in PROBES:
        pr = c.get(probe)
        if type(pr) is dict:
            if init and not sidecar:
                out.forbidden(
                    CONTAINER,
                    (*path, probe),
                    "may not be set for init containers without restartPolicy=Always",
                )
                continue
            _probe(out, pr, (*path, probe), probe != "readinessProbe")
    sc = c.get("securityContext")
    if type(sc) is dict:
        _ids(out, CONTAINER, sc, (*path, "securityContext"), ("runAsUser", "runAsGroup"))
    res = c.get("resources")
    if type(res) is dict:
        _resources(out, res, (*path, "resources"))


_PLAIN_PORT = frozenset(("containerPort", "name", "protocol"))


def _ports(out: Out, ports: list, path: tuple, host_network: bool) -> None:
    names_seen: set[str] = set()
    for i, p in enumerate(ports):
        if type(p) is not dict:
            continue
        name = p.get("name")
        cp = p.get("containerPort")
        if (
            p.keys() <= _PLAIN_PORT
            and type(cp) is int
            and 0 < cp <= 65535
            and (name is None or (type(name) is str and name not in names_seen and not names.port_name(name)))
            and p.get("protocol", "TCP") in PROTOCOLS
        ):
            if name is not None:
                names_seen.add(name)
            continue  # the common case: containerPort, maybe a name and a protocol, all good
        pp = (*path, i)
        if type(name) is str and name:
            bad = names.port_name(name)
            if bad:
                out.invalid(CONTAINER, (*pp, "name"), name, bad)
            elif name in names_seen:
                out.add(CONTAINER, (*pp, "name"), DUPLICATE, value=name)
            names_seen.add(name)
        cp = p.get("containerPort")
        if cp is None or cp == 0:
            out.required(CONTAINER, (*pp, "containerPort"))
        elif type(cp) is int and not _port_ok(cp):
            out.invalid(CONTAINER, (*pp, "containerPort"), cp, "must be between 1 and 65535, inclusive")
        hp = p.get("hostPort")
        if type(hp) is int and hp != 0:
            if not _port_ok(hp):
                out.invalid(CONTAINER, (*pp, "hostPort"), hp, "must be between 1 and 65535, inclusive")
            elif host_network and type(cp) is int and hp != cp:
                out.invalid(
                    CONTAINER, (*pp, "hostPort"), hp, "must match `containerPort` when `hostNetwork` is true"
                )
        proto = p.get("protocol")
        if type(proto) is str and proto not in PROTOCOLS:
            out.unsupported(CONTAINER, (*pp, "protocol"), proto, PROTOCOLS)


def _env(out: Out, env: list, path: tuple) -> None:
    check = names.env_name_relaxed if out.version >= since("relaxedEnvNames") else names.env_name_strict
    for i, e in enumerate(env):
        if type(e) is not dict:
            continue
        name = e.get("name")
        if type(name) is str and name and "valueFrom" not in e and check(name) is None:
            continue  # the common case: a good name and a value
        pe = (*path, i)
        if name is None or name == "":
            out.required(CONTAINER, (*pe, "name"))
        elif type(name) is str:
            bad = check(name)
            if bad:
                out.invalid(CONTAINER, (*pe, "name"), name, bad)
        vf = e.get("valueFrom")
        if vf is not None:
            value = e.get("value")
            if type(value) is str and value:
                out.invalid(
                    CONTAINER, (*pe, "valueFrom"), "", "may not be specified when `value` is not empty"
                )
            elif type(vf) is dict:
                n = sum(1 for k in ENV_SOURCES if vf.get(k) is not None)
                if n == 0:
                    out.invalid(
                        CONTAINER,
                        (*pe, "valueFrom"),
                        "",
                        "must specify one of: `fieldRef`, "
                        "`resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
                    )
                elif n > 1:
                    out.invalid(
                        CONTAINER,
                        (*pe, "valueFrom"),
                        "",
                        "may not have more than one field specified at a time",
                    )


def _mounts(out: Out, mounts: list, path: tuple, volumes: set[str]) -> None:
    paths: set[str] = set()
    for i, m in enumerate(mounts):
        if type(m) is not dict:
            continue
        name = m.get("name")
        mp = m.get("mountPath")
        if type(name) is str and name in volumes and type(mp) is str and mp and mp not in paths:
            paths.add(mp)
            continue  # the common case
        pm = (*path, i)
        if name is None or name == "":
            out.required(CONTAINER, (*pm, "name"))
        elif type(name) is str and name not in volumes:
            out.add(CONTAINER, (*pm, "name"), NOT_FOUND, value=name)
        mp = m.get("mountPath")
        if mp is None or mp == "":
            out.required(CONTAINER, (*pm, "mountPath"))
        elif type(mp) is str:
            if mp in paths:
                out.invalid(CONTAINER, (*pm, "mountPath"), mp, "must be unique")
            paths.add(mp)


_PROBE_NUMBERS = frozenset(
    ("initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold")
)


def _probe(out: Out, probe: dict, path: tuple, success_one: bool) -> None:
    handlers = []
    for k, v in probe.items():  # one pass over the few keys a probe has
        if k in PROBE_HANDLERS:
            if v is not None:
                handlers.append(k)
                if (k == "httpGet" or k == "tcpSocket") and type(v) is dict:
                    _probe_port(out, v.get("port"), (*path, k, "port"))
        elif type(v) is int and k in _PROBE_NUMBERS:
            if v < 0:
                out.invalid(CONTAINER, (*path, k), v, "must be greater than or equal to 0")
            elif k == "successThreshold" and success_one and v > 1:
                out.invalid(CONTAINER, (*path, k), v, "must be 1")
    if not handlers:
        out.required(CONTAINER, path, "must specify a handler type")
    elif len(handlers) > 1:
        handlers.sort(key=PROBE_HANDLERS.index)
        out.forbidden(CONTAINER, (*path, handlers[1]), "may not specify more than 1 handler type")


def _probe_port(out: Out, port: Any, path: tuple) -> None:
    if type(port) is int and not _port_ok(port):
        out.invalid(CONTAINER, path, port, "must be between 1 and 65535, inclusive")
    elif type(port) is str:
        bad = names.port_name(port)
        if bad:
            out.invalid(CONTAINER, path, port, bad)


def _hugepage_size(name: str) -> Any:
    m = _HUGEPAGES.fullmatch(name)
    return try_quantity(m.group(1)) if m else None


_RES_MEMO: dict[tuple, tuple] = {}


def _resources(out: Out, res: dict, path: tuple) -> None:
    """Requests and limits of one container; the verdict is memoised per (limits, requests): manifests
    repeat the same few."""
    limits = res.get("limits")
    requests = res.get("requests")
    limits = limits if type(limits) is dict else {}
    requests = requests if type(requests) is dict else {}
    if not limits and not requests:
        return
    try:
        key: tuple | None = (tuple(limits.items()), tuple(requests.items()))
        found = _RES_MEMO.get(key)  # type: ignore[arg-type]
    except TypeError:  # an unhashable value (a mapping where a quantity belongs): the schema reports it
        key, found = None, None
    if found is None:
        found = _resource_problems(limits, requests)
        if key is not None and len(_RES_MEMO) < 4096:
            _RES_MEMO[key] = found
    for rel, reason, detail, value in found:
        out.add(RESOURCES, (*path, *rel), reason, detail, value)


def _resource_problems(limits: dict, requests: dict) -> tuple:
    """(relative path, reason, detail, value) of each problem of a container's resources."""
    found: list[tuple] = []
    lq: dict[str, Any] = {}
    cpu_mem = False
    huge = False
    for section, values, store in (("limits", limits, lq), ("requests", requests, None)):
        for name, raw in values.items():
            if type(name) is not str:
                continue
            q = try_quantity(raw)
            if q is None:
                continue  # not a quantity: the decoder refuses it first (GP212)
            at = (section, Key(name))
            if q < 0:
                found.append((at, INVALID, "must be greater than or equal to 0", raw))
            if name in ("cpu", "memory"):
                cpu_mem = True
            elif name.startswith("hugepages-"):
                huge = True
                size = _hugepage_size(name)
                if size and (q % size != 0 or q <= 0):
                    found.append((at, INVALID, f"{raw} is not positive integer multiple of {name}", raw))
            if store is not None:
                store[name] = (q, raw)
    for name, raw in requests.items():
        if type(name) is not str:
            continue
        q = try_quantity(raw)
        if q is None:
            continue
        lim = lq.get(name)
        hugepage = name.startswith("hugepages-")
        if lim is not None:
            if q > lim[0]:
                found.append(
                    (("requests",), INVALID, f"must be less than or equal to {name} limit of {lim[1]}", raw)
                )
            elif hugepage and q != lim[0]:
                found.append((("requests",), INVALID, f"must be equal to {name} limit of {lim[1]}", raw))
        elif hugepage:
            found.append(
                (("limits",), REQUIRED, "Limit must be set for non overcommitable resources", NO_VALUE)
            )
    if huge and not cpu_mem:
        found.append(((), FORBIDDEN, "HugePages require cpu or memory", NO_VALUE))
    return tuple(found)


def _tolerations(out: Out, tols: list, path: tuple) -> None:
    for i, t in enumerate(tols):
        if type(t) is not dict:
            continue
        key = t.get("key")
        effect = t.get("effect")
        if (
            type(key) is str
            and key
            and "tolerationSeconds" not in t
            and (effect is None or effect == "" or effect in EFFECTS)
            and not names.qualified_name(key)
        ):
            op = t.get("operator")
            value = t.get("value")
            if op == "Exists" and not value:
                continue  # the common cases, all good
            if (op is None or op == "Equal") and (
                value is None or (type(value) is str and not names.label_value(value))
            ):
                continue
        p = (*path, i)
        if type(key) is str and key:
            bad = names.qualified_name(key)
            if bad:
                out.invalid(SCHEDULING, (*p, "key"), key, bad)
        op = t.get("operator")
        value = t.get("value")
        if not key and op != "Exists":
            out.invalid(
                SCHEDULING,
                (*p, "operator"),
                op if op is not None else "",
                'operator must be Exists when `key` is empty, which means "match all values and all keys"',
            )
        if op in (None, "", "Equal"):
            if type(value) is str and value:
                bad = names.label_value(value)
                if bad:
                    out.invalid(SCHEDULING, (*p, "value"), value, bad)
        elif op == "Exists":
            if type(value) is str and value:
                out.invalid(
                    SCHEDULING, (*p, "operator"), value, "value must be empty when `operator` is 'Exists'"
                )
        elif type(op) is str:
            out.unsupported(SCHEDULING, (*p, "operator"), op, ("Equal", "Exists"))
        effect = t.get("effect")
        if t.get("tolerationSeconds") is not None and effect != "NoExecute":
            out.invalid(
                SCHEDULING,
                (*p, "effect"),
                effect if effect is not None else "",
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            )
        elif type(effect) is str and effect and effect not in EFFECTS:
            out.unsupported(SCHEDULING, (*p, "effect"), effect, EFFECTS)


def _node_term(out: Out, term: Any, path: tuple) -> None:
    if type(term) is not dict:
        return
    exprs = term.get("matchExpressions")
    if type(exprs) is list:
        for i, e in enumerate(exprs):
            if type(e) is not dict:
                continue
            p = (*path, "matchExpressions", i)
            op = e.get("operator")
            values = e.get("values")
            n = len(values) if type(values) is list else 0
            if op in ("In", "NotIn"):
                if n == 0:
                    out.required(
                        SCHEDULING, (*p, "values"), "must be specified when `operator` is 'In' or 'NotIn'"
                    )
            elif op in ("Exists", "DoesNotExist"):
                if n:
                    out.forbidden(
                        SCHEDULING,
                        (*p, "values"),
                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                    )
            elif op in ("Gt", "Lt"):
                if n != 1:
                    out.required(
                        SCHEDULING,
                        (*p, "values"),
                        "must be specified single value when `operator` is 'Lt' or 'Gt'",
                    )
            elif type(op) is str:
                out.invalid(SCHEDULING, (*p, "operator"), op, "not a valid selector operator")
            key = e.get("key")
            if type(key) is str:
                bad = names.qualified_name(key)
                if bad:
                    out.invalid(SCHEDULING, (*p, "key"), key, bad)
    fields = term.get("matchFields")
    if type(fields) is list:
        for i, e in enumerate(fields):
            if type(e) is not dict:
                continue
            p = (*path, "matchFields", i)
            if e.get("key") != "metadata.name":
                out.invalid(SCHEDULING, (*p, "key"), e.get("key"), "not a valid field selector key")
            values = e.get("values")
            if e.get("operator") in ("In", "NotIn") and (type(values) is not list or len(values) != 1):
                out.required(
                    SCHEDULING,
                    (*p, "values"),
                    "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
                )


def _weight(out: Out, item: dict, path: tuple) -> None:
    w = item.get("weight")
    if type(w) is int and not 1 <= w <= 100:
        out.invalid(SCHEDULING, (*path, "weight"), w, "must be in the range 1-100")


def _affinity(out: Out, aff: dict, path: tuple) -> None:
    na = aff.get("nodeAffinity")
    if type(na) is dict:
        p = (*path, "nodeAffinity")
        req = na.get("requiredDuringSchedulingIgnoredDuringExecution")
        if type(req) is dict:
            rp = (*p, "requiredDuringSchedulingIgnoredDuringExecution")
            terms = req.get("nodeSelectorTerms")
            if type(terms) is not list or not terms:
                out.required(
                    SCHEDULING, (*rp, "nodeSelectorTerms"), "must have at least one node selector term"
                )
            else:
                for i, t in enumerate(terms):
                    _node_term(out, t, (*rp, "nodeSelectorTerms", i))
        pref = na.get("preferredDuringSchedulingIgnoredDuringExecution")
        if type(pref) is list:
            pp = (*p, "preferredDuringSchedulingIgnoredDuringExecution")
            for i, item in enumerate(pref):
                if type(item) is dict:
                    _weight(out, item, (*pp, i))
                    _node_term(out, item.get("preference"), (*pp, i, "preference"))
    for kind in ("podAffinity", "podAntiAffinity"):
        pa = aff.get(kind)
        if type(pa) is not dict:
            continue
        p = (*path, kind)
        req = pa.get("requiredDuringSchedulingIgnoredDuringExecution")
        if type(req) is list:
            for i, term in enumerate(req):
                _pod_term(out, term, (*p, "requiredDuringSchedulingIgnoredDuringExecution", i))
        pref = pa.get("preferredDuringSchedulingIgnoredDuringExecution")
        if type(pref) is list:
            pp = (*p, "preferredDuringSchedulingIgnoredDuringExecution")
            for i, item in enumerate(pref):
                if type(item) is dict:
                    _weight(out, item, (*pp, i))
                    _pod_term(out, item.get("podAffinityTerm"), (*pp, i, "podAffinityTerm"))


def _pod_term(out: Out, term: Any, path: tuple) -> None:
    if type(term) is not dict:
        return
    tk = term.get("topologyKey")
    if tk is None or tk == "":
        out.required(SCHEDULING, (*path, "topologyKey"), "can not be empty")
    elif type(tk) is str:
        bad = names.qualified_name(tk)
        if bad:
            out.invalid(SCHEDULING, (*path, "topologyKey"), tk, bad)
    for key in ("labelSelector", "namespaceSelector"):
        if term.get(key) is not None:
            check_label_selector(out, term[key], (*path, key))


def _spread(out: Out, tscs: list, path: tuple) -> None:
    seen: set[tuple] = set()
    for i, c in enumerate(tscs):
        if type(c) is not dict:
            continue
        p = (*path, i)
        ms = c.get("maxSkew")
        if type(ms) is int and ms <= 0:
            out.invalid(SCHEDULING, (*p, "maxSkew"), ms, "must be greater than zero")
        tk = c.get("topologyKey")
        if tk is None or tk == "":
            out.required(SCHEDULING, (*p, "topologyKey"), "can not be empty")
        elif type(tk) is str:
            bad = names.qualified_name(tk)
            if bad:
                out.invalid(SCHEDULING, (*p, "topologyKey"), tk, bad)
        wu = c.get("whenUnsatisfiable")
        if type(wu) is str and wu not in WHEN_UNSATISFIABLE:
            out.unsupported(SCHEDULING, (*p, "whenUnsatisfiable"), wu, WHEN_UNSATISFIABLE)
        md = c.get("minDomains")
        if md is not None and type(md) is int:
            if md <= 0:
                out.invalid(SCHEDULING, (*p, "minDomains"), md, "must be greater than 0")
            elif wu != "DoNotSchedule":
                out.invalid(
                    SCHEDULING,
                    (*p, "minDomains"),
                    md,
                    "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway",
                )
        pair = (tk, wu)
        if type(tk) is str and type(wu) is str:
            if pair in seen:
                out.add(
                    SCHEDULING,
                    (*p, "{topologyKey, whenUnsatisfiable}"),
                    DUPLICATE,
                    value=f"{{{tk}, {wu}}}",
                    at=p,
                )
            seen.add(pair)
        if c.get("labelSelector") is not None:
            check_label_selector(out, c["labelSelector"], (*p, "labelSelector"))
