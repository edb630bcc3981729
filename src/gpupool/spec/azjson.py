"""Files of ``az aks nodepool show/list -o json`` (or ``az aks show -o json``) -> :class:`AzPool` per pool.

One pool is read by :mod:`gpupool.spec.azpool`; this module reads the file (one JSON document: an object,
a list, or a cluster with ``agentPoolProfiles``), refuses an ARM REST body with one line that says so
(:mod:`gpupool.spec.azshape`), and leaves out pools of a mode gpupool does not model (Gateway,
ManagedSystem, Machines: :class:`NotImported`, a note each) without failing the others. Specs are written
by :mod:`gpupool.spec.azout`. The names of all three stay importable from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.spec.azout import pool_document, to_json_dict, to_yaml, to_yaml_stream  # noqa: F401 (API)
from gpupool.spec.azpool import (  # noqa: F401 (API)
    AGENT_POOL_TYPE,
    VMSS,
    AzPool,
    NotImported,
    ResourceId,
    _line,
    _safe,
    is_az_cluster,
    is_az_json,
    is_az_nodepool,
    parse_az_pool,
    parse_resource_id,
)
from gpupool.spec.azshape import rest_problem

# ---- files ---------------------------------------------------------------------------------------

AZ_POOLS_CMD = "az aks nodepool list -g RESOURCE_GROUP --cluster-name CLUSTER -o json"
AZ_CLUSTER_CMD = "az aks show -g RESOURCE_GROUP -n CLUSTER -o json"


@dataclass(frozen=True)
class AzRead:
    """The pools of one az JSON file, and those read but not imported (a mode gpupool does not model)."""

    pools: list[AzPool]
    skipped: tuple[NotImported, ...] = ()

    def notes(self) -> list[str]:
        return [s.note for s in self.skipped]

    def require_pools(self) -> list[AzPool]:
        """The pools; InputError when every pool of the file was skipped."""
        if not self.pools and self.skipped:
            raise self.skipped[0].error()
        return self.pools


def _item_line(data: Any, i: int, default: int) -> int:
    if isinstance(data, yamlio.LineList) and i < len(data.item_pos):
        return data.item_pos[i][0]
    return default


def _parse_items(items: list, path: str, line: int, **kw: Any) -> AzRead:
    pools: list[AzPool] = []
    skipped: list[NotImported] = []
    for i, item in enumerate(items):
        try:
            pools.append(parse_az_pool(item, path, _item_line(items, i, line), **kw))
        except NotImported as e:
            skipped.append(e)
    return AzRead(pools, tuple(skipped))


def read_az(
    data: Any,
    path: str,
    line: int = 1,
    *,
    resource_group: str | None = None,
    cluster_name: str | None = None,
) -> AzRead:
    """Every pool in one loaded JSON document (show: one, list: each item, ``az aks show``: its profiles);
    a REST body (``properties``) is refused with one line that says so (see :mod:`gpupool.spec.azshape`)."""
    problem = rest_problem(data, AZ_POOLS_CMD, AZ_CLUSTER_CMD)
    if problem is not None:
        where, message, hint = problem
        raise InputError(path, _line(data, *where, default=line), f"az JSON: {message}", hint)
    if isinstance(data, list):
        if not data:
            raise InputError(
                path,
                line,
                "az JSON: an empty list: no node pools",
                "check the cluster and resource group given to `az aks nodepool list`",
            )
        for i, item in enumerate(data):
            if not isinstance(item, dict):
                raise InputError(
                    path,
                    _item_line(data, i, line),
                    f"az JSON: item {i}: expected a node pool object, got {yamlio.type_name(item)}",
                )
        return _parse_items(data, path, line, resource_group=resource_group, cluster_name=cluster_name)
    if is_az_cluster(data):
        rid = parse_resource_id(data.get("id"))
        rg = (
            resource_group
            or (data.get("resourceGroup") if isinstance(data.get("resourceGroup"), str) else None)
            or (rid.resource_group if rid else None)
        )
        cluster = cluster_name or (data.get("name") if isinstance(data.get("name"), str) else None)
        location = data.get("location") if isinstance(data.get("location"), str) else None
        profiles = data["agentPoolProfiles"]
        if not profiles:
            raise InputError(
                path,
                _line(data, "agentPoolProfiles", default=line),
                "az JSON: agentPoolProfiles is empty: no node pools",
            )
        return _parse_items(
            profiles, path, line, resource_group=rg, cluster_name=cluster, location=location
        )
    return _parse_items([data], path, line, resource_group=resource_group, cluster_name=cluster_name)


def pools_from_data(
    data: Any,
    path: str,
    line: int = 1,
    *,
    resource_group: str | None = None,
    cluster_name: str | None = None,
) -> list[AzPool]:
    """The pools :func:`read_az` imports (pools of other modes left out; none is no error here)."""
    return read_az(data, path, line, resource_group=resource_group, cluster_name=cluster_name).pools


def read_documents(
    docs: list[yamlio.Document],
    path: str,
    *,
    resource_group: str | None = None,
    cluster_name: str | None = None,
) -> AzRead:
    """Every pool in an already loaded JSON file (one document: show, list or ``az aks show``)."""
    docs = [d for d in docs if d.data is not None]
    if not docs:
        raise InputError(path, None, "empty file: expected `az aks nodepool show -o json` output")
    if len(docs) > 1:
        raise InputError(
            path,
            docs[1].line,
            "az JSON: more than one document",
            "pass one `az aks nodepool show` object or one `list` array",
        )
    doc = docs[0]
    if doc.duplicates:
        d = doc.duplicates[0]
        raise InputError(
            doc.path, d.line, f'az JSON: duplicate key "{_safe(d.key)}" (first at line {d.first_line})'
        )
    return read_az(doc.data, doc.path, doc.line, resource_group=resource_group, cluster_name=cluster_name)


def pools_from_documents(
    docs: list[yamlio.Document],
    path: str,
    *,
    resource_group: str | None = None,
    cluster_name: str | None = None,
) -> list[AzPool]:
    """The pools of a loaded file; InputError when it holds none gpupool imports."""
    read = read_documents(docs, path, resource_group=resource_group, cluster_name=cluster_name)
    return read.require_pools()


def load_az(
    path: str | Path,
    *,
    resource_group: str | None = None,
    cluster_name: str | None = None,
) -> AzRead:
    """All pools in an ``az aks nodepool show/list -o json`` file (``-`` is stdin), and those skipped."""
    name = "<stdin>" if str(path) == "-" else str(path)
    return read_documents(
        yamlio.load_file(path), name, resource_group=resource_group, cluster_name=cluster_name
    )


def load_az_pools(
    path: str | Path,
    *,
    resource_group: str | None = None,
    cluster_name: str | None = None,
) -> list[AzPool]:
    """The pools gpupool imports from a file; InputError when it holds none."""
    return load_az(path, resource_group=resource_group, cluster_name=cluster_name).require_pools()


def pick(pools: list[AzPool], name: str | None, path: str, skipped: tuple[NotImported, ...] = ()) -> AzPool:
    """The pool called ``name`` (or the only one). InputError listing the names otherwise (a skipped pool
    of that name: why it is not imported)."""
    if name is None:
        if len(pools) == 1:
            return pools[0]
        if not pools and skipped:
            raise skipped[0].error()
        names = ", ".join(p.pool.name for p in pools)
        raise InputError(
            path, None, f"the JSON holds {len(pools)} node pools ({names})", "pick one with --name"
        )
    for p in pools:
        if p.pool.name == name:
            return p
    for s in skipped:
        if s.name == name:
            raise s.error([p.pool.name for p in pools])
    names = ", ".join(p.pool.name for p in pools)
    raise InputError(path, None, f'no node pool named "{_safe(name)}" (found: {names})')
