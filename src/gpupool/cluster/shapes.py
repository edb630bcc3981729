"""The types of the fields gpupool reads from API objects, checked once when a snapshot is read.

A real API server (and kubectl) always writes these types; a file that breaks them was edited or is not
what it claims. Checking them at the edge keeps every reader after it free of type guards, and turns a
malformed object into an InputError naming the file, the item and the field (exit 2), not a crash.
Only fields gpupool reads are checked; everything else passes through untouched.
"""

from __future__ import annotations

from functools import cache
from typing import Any

STR = (str,)
NUM = (str, int, float)  # quantities: "1", 1, "500m"
INT = (int,)
BOOL = (bool,)
DICT = (dict,)
LIST = (list,)

# path (dot-separated, "*" = every list item or map value) -> allowed types; None is always allowed
# What makes an item of a list unlike any API object: the fields every reader relies on.
_OBJECT = {
    "metadata": DICT,
    "spec": DICT,
    "status": DICT,
    "metadata.name": STR,
    "metadata.namespace": STR,
    "metadata.labels": DICT,
    "metadata.labels.*": STR,
    "metadata.annotations": DICT,
    "metadata.annotations.*": STR,
}
_COMMON = {
    **_OBJECT,
    "metadata.ownerReferences": LIST,
    "metadata.ownerReferences.*": DICT,
    "metadata.ownerReferences.*.kind": STR,
    "metadata.ownerReferences.*.name": STR,
}
_CONTAINER = {
    "": DICT,
    "name": STR,
    "image": STR,
    "restartPolicy": STR,
    "resources": DICT,
    "resources.requests": DICT,
    "resources.requests.*": NUM,
    "resources.limits": DICT,
    "resources.limits.*": NUM,
    "env": LIST,
    "env.*": DICT,
    "env.*.name": STR,
    "env.*.value": STR,
}
_POD_SPEC = {
    "nodeName": STR,
    "priority": INT,
    "priorityClassName": STR,
    "preemptionPolicy": STR,
    "hostNetwork": BOOL,
    "tolerations": LIST,
    "tolerations.*": DICT,
    "tolerations.*.key": STR,
    "tolerations.*.operator": STR,
    "tolerations.*.value": STR,
    "tolerations.*.effect": STR,
    "nodeSelector": DICT,
    "nodeSelector.*": STR,
    "affinity": DICT,
    "affinity.nodeAffinity": DICT,
    "overhead": DICT,
    "overhead.*": NUM,
    "containers": LIST,
    "initContainers": LIST,
    **{f"containers.*{('.' + k) if k else ''}": v for k, v in _CONTAINER.items()},
    **{f"initContainers.*{('.' + k) if k else ''}": v for k, v in _CONTAINER.items()},
}
_STATE = {"": DICT, "*": DICT, "*.message": STR, "*.reason": STR, "*.exitCode": INT}


def _prefixed(prefix: str, table: dict[str, tuple]) -> dict[str, tuple]:
    return {(f"{prefix}.{k}" if k else prefix): v for k, v in table.items()}


SHAPES: dict[str, dict[str, tuple]] = {
    "Node": {
        **_COMMON,
        "metadata.creationTimestamp": STR,
        "spec.unschedulable": BOOL,
        "spec.taints": LIST,
        "spec.taints.*": DICT,
        "spec.taints.*.key": STR,
        "spec.taints.*.value": STR,
        "spec.taints.*.effect": STR,
        "status.capacity": DICT,
        "status.capacity.*": NUM,
        "status.allocatable": DICT,
        "status.allocatable.*": NUM,
        "status.conditions": LIST,
        "status.conditions.*": DICT,
        "status.conditions.*.type": STR,
        "status.conditions.*.status": STR,
        "status.conditions.*.reason": STR,
        "status.conditions.*.message": STR,
        "status.nodeInfo": DICT,
        "status.nodeInfo.kubeletVersion": STR,
    },
    "Pod": {
        **_COMMON,
        **_prefixed("spec", _POD_SPEC),
        "status.phase": STR,
        "status.conditions": LIST,
        "status.conditions.*": DICT,
        "status.conditions.*.type": STR,
        "status.conditions.*.status": STR,
        "status.conditions.*.message": STR,
        "status.containerStatuses": LIST,
        "status.containerStatuses.*": DICT,
        "status.containerStatuses.*.name": STR,
        "status.containerStatuses.*.restartCount": INT,
        **_prefixed("status.containerStatuses.*.state", _STATE),
        **_prefixed("status.containerStatuses.*.lastState", _STATE),
    },
    "DaemonSet": {
        **_COMMON,
        "spec.template": DICT,
        "spec.template.metadata": DICT,
        "spec.template.spec": DICT,
        **_prefixed("spec.template.spec", _POD_SPEC),
        "status.desiredNumberScheduled": INT,
    },
    "Event": {
        **_OBJECT,
        "involvedObject": DICT,
        "involvedObject.kind": STR,
        "involvedObject.name": STR,
        "involvedObject.namespace": STR,
        "regarding": DICT,
        "regarding.kind": STR,
        "regarding.name": STR,
        "regarding.namespace": STR,
        "message": STR,
        "note": STR,
        "reason": STR,
    },
    "ConfigMap": {**_OBJECT, "data": DICT, "data.*": STR},
    "ClusterPolicy": dict(_OBJECT),
    "NodePool": {
        "name": STR,
        "count": INT,
        "minCount": INT,
        "maxCount": INT,
        "enableAutoScaling": BOOL,
        "gpuProfile": DICT,
        "gpuProfile.driver": STR,
        "gpuProfile.nvidia": DICT,
        "gpuProfile.nvidia.managementMode": STR,
        "vmSize": STR,
    },
}


def _compile(table: dict[str, tuple]) -> dict:
    """A tree: segment -> (types or None, subtree)."""
    root: dict = {}
    for path, types in table.items():
        node = root
        parts = path.split(".")
        for i, seg in enumerate(parts):
            entry = node.setdefault(seg, [None, {}])
            if i == len(parts) - 1:
                entry[0] = types
            node = entry[1]
    return root


_COMPILED = {kind: _compile(t) for kind, t in SHAPES.items()}
_NAMES = {
    tuple: "",
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "true/false",
    dict: "an object",
    list: "a list",
}


def _check(v: Any, entry: list, here: str) -> str | None:
    types, sub = entry
    if types is not None and (not isinstance(v, types) or (types is INT and isinstance(v, bool))):
        want = " or ".join(_NAMES.get(t, t.__name__) for t in types)
        return f"{here} is {type(v).__name__}, expected {want}"
    if sub and isinstance(v, (dict, list)):
        return _walk(v, sub, here)
    return None


def _walk(value: Any, tree: dict, path: str) -> str | None:
    """Only the paths in ``tree`` are visited (named keys looked up; ``*`` over every item)."""
    star = tree.get("*")
    if isinstance(value, dict):
        for key, entry in tree.items():
            if key == "*":
                continue
            v = value.get(key)
            if v is not None:
                bad = _check(v, entry, f"{path}.{key}" if path else key)
                if bad:
                    return bad
        if star is not None:
            for key, v in value.items():
                if v is not None:
                    bad = _check(v, star, f"{path}.{key}" if path else str(key))
                    if bad:
                        return bad
    elif isinstance(value, list) and star is not None:
        for i, v in enumerate(value):
            if v is not None:
                bad = _check(v, star, f"{path}.{i}")
                if bad:
                    return bad
    return None


def _generate(tree: dict) -> Any:
    """The fast pass for one tree: True when every checked field has its type (no paths built; a wrong one
    is then named by :func:`_walk`). Python code, one function per tree node with the keys and types
    inlined: a snapshot has 150,000 objects, and a generic walk was a sixth of ``doctor``'s time at that
    size, this about a third of it. The code is made from this module's own table, never from input; tests
    check that it answers as :func:`_walk` does."""
    env: dict[str, Any] = {"_INT": INT}
    out: list[str] = []

    def value_checks(entry: tuple, var: str, ind: str) -> list[str]:
        types, sub = entry
        lines = []
        if types is not None:
            name = f"_T{len(env)}"
            env[name] = types
            cond = f"not isinstance({var}, {name})"
            if types is INT:
                cond += f" or {var}.__class__ is bool"
            lines += [f"{ind}if {cond}:", f"{ind}    return False"]
        if sub:
            lines += [f"{ind}if not {node(sub)}({var}):", f"{ind}    return False"]
        return lines

    def node(sub: dict) -> str:
        name = f"_n{len(out)}"
        out.append("")  # reserve the slot: children are written first
        slot = len(out) - 1
        body = [f"def {name}(v):", "    if isinstance(v, dict):", "        pass"]
        for key, entry in sub.items():
            if key == "*":
                continue
            body += [f"        x = v.get({key!r})", "        if x is not None:"]
            body += value_checks(tuple(entry), "x", "            ")
        star = sub.get("*")
        if star is not None:
            body += ["        for x in v.values():", "            if x is not None:"]
            body += value_checks(tuple(star), "x", "                ")
            body += ["    elif isinstance(v, list):", "        for x in v:", "            if x is not None:"]
            body += value_checks(tuple(star), "x", "                ")
        body.append("    return True")
        out[slot] = "\n".join(body)
        return name

    root = node(tree)
    exec(compile("\n\n".join(out), f"<gpupool.cluster.shapes {root}>", "exec"), env)
    return env[root]


@cache
def fast_pass(kind: str) -> Any:
    """The generated pass of one kind (built on first use: importing the module stays cheap)."""
    return _generate(_COMPILED[kind])


def problem(kind: str, obj: dict) -> str | None:
    """The first field of ``obj`` with a type no API server writes, as ``path is X, expected Y``."""
    if kind not in _COMPILED or fast_pass(kind)(obj):
        return None
    return _walk(obj, _COMPILED[kind], "")
