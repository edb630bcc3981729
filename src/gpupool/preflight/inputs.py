"""Read what the Azure CLI prints into :mod:`gpupool.preflight.model`.

The files are made by the user (``gpupool preflight --print-commands`` prints the commands):
``az vm list-skus -l REGION --resource-type virtualMachines --all -o json``, ``az vm list-usage -l REGION
-o json``, ``az aks get-versions -l REGION -o json``, ``az aks show -g RG -n CLUSTER -o json`` and
``az version -o json``. Shapes follow the azure-cli 2.91.0 code (see data/preflight.yaml); numbers that az
prints as strings (list-usage ``currentValue``/``limit``) are read either way, so the SDK's own
serialisation (live mode) reads the same. Bad input is one :class:`~gpupool.errors.InputError` with
``file:line``, never a traceback: every field preflight reads is type-checked (a zone list given as a
string, a text vCPU count, a version as a number, a null networkProfile are errors naming the field, not
"absent"); an empty list (``[]`` from a mistyped region) is unusable, not "nothing offered"; a REST body
of a cluster, a REST page with ``nextLink`` and the retired orchestrators API are refused with one line
that says so (:mod:`gpupool.spec.azshape`; a REST ``{"value": [...]}`` of SKUs or usages is read).
JSON is read with the standard library (a region's list-skus output is megabytes; the line-aware YAML
reader would be slow on it).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from gpupool.errors import InputError, safe_text
from gpupool.preflight.model import (
    AzVersion,
    Cluster,
    Inputs,
    Restriction,
    Sku,
    Skus,
    Usage,
    UsageRow,
    VersionRow,
    Versions,
    norm,
)

MAX_BYTES = 256 * 1024 * 1024


@cache
def facts() -> dict[str, Any]:
    text = resources.files("gpupool.preflight").joinpath("data", "preflight.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def read_json_text(path: str | Path, what: str) -> tuple[str, Any]:
    """The text and parsed JSON of ``path`` (``-`` is stdin), or InputError with the line of a syntax error
    (the text: for the line of an element that turns out to be wrong)."""
    name = str(path)
    try:
        if name == "-":
            import sys

            text = sys.stdin.read()
        else:
            p = Path(path)
            if not p.exists() or p.is_dir():
                problem = "a directory, not a file" if p.is_dir() else "no such file"
                raise InputError(name, None, problem, f"make it with: {what}")
            too_big = InputError(name, None, f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB")
            if p.is_file() and p.stat().st_size > MAX_BYTES:
                raise too_big
            with p.open("rb") as fh:  # a pipe too: --skus <(az vm list-skus ...)
                data = fh.read(MAX_BYTES + 1)
            if len(data) > MAX_BYTES:
                raise too_big
            text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(name, None, "not UTF-8 text", f"expected the JSON that `{what}` prints") from None
    except OSError as e:
        raise InputError(name, None, f"cannot read: {safe_text(e.strerror or e)}") from None
    if not text.strip():
        raise InputError(name, None, "empty file", f"expected the JSON that `{what}` prints")
    try:
        return text, json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(
            name, e.lineno, f"not JSON: {safe_text(e.msg)}", f"expected `{what}` output"
        ) from None
    except RecursionError:
        raise InputError(name, None, "JSON nested too deeply") from None


class _ElementError(InputError):
    """Something wrong with one element of a JSON input: ``at`` is its path in the data; the file's line is
    found only then (:func:`_load`), the data having been parsed without positions."""

    def __init__(self, path: str, at: tuple, message: str, hint: str) -> None:
        super().__init__(path, None, message, hint)
        self.at = at


def _err(path: str, message: str, what: str, at: tuple = ()) -> InputError:
    return _ElementError(path, at, message, f"expected the JSON that `{what}` prints")


def _json_line(text: str, at: tuple) -> int | None:
    """The line of element ``at`` in JSON text (JSON is YAML: yamlio's positions); None where yamlio cannot
    read it (tab indentation, a text beyond its limits)."""
    from gpupool import yamlio

    try:
        docs = yamlio.load_documents(text, "<json>")
    except InputError:
        return None
    if not docs:
        return None
    loc = yamlio.locate(docs[0].data, at)
    return loc[0] if loc else docs[0].line


def _load(path: str | Path, what: str, from_data: Any) -> Any:
    """``from_data`` on the file's JSON; an error about one element gets that element's line."""
    text, data = read_json_text(path, what)
    try:
        return from_data(data, str(path))
    except _ElementError as e:
        raise InputError(e.path, _json_line(text, e.at), e.message, e.hint) from None


_KIND_NAMES = {str: "a string", int: "an integer", float: "a number", bool: "a boolean", list: "a list",
               dict: "an object"}


def _is(value: Any, kinds: tuple[type, ...]) -> bool:
    if isinstance(value, bool):
        return bool in kinds
    return isinstance(value, kinds)


class _Fields:
    """Type checks of one input file's fields, as ``gpupool import`` does for node pools: a field of the
    wrong type is one error naming the field and its line (never read as absent: a zone list given as a
    string would read as "no zones", a text vCPU count as "no quota needed")."""

    def __init__(self, path: str, what: str) -> None:
        self.path = path
        self.what = what

    def fail(self, at: tuple, message: str) -> _ElementError:
        return _err(self.path, message, self.what, at)

    def get(
        self, obj: dict, at: tuple, label: str, key: str, kinds: tuple[type, ...], required: bool = False
    ) -> Any:
        value = obj.get(key)
        want = " or ".join(_KIND_NAMES[k] for k in kinds)
        if value is None:
            if required and key not in obj:
                raise self.fail(at, f"{label}{key}: missing (expected {want})")
            if required:
                raise self.fail((*at, key), f"{label}{key}: expected {want}, got null")
            return None
        if not _is(value, kinds):
            raise self.fail((*at, key), f"{label}{key}: expected {want}, got {type_name(value)}")
        return value

    def strs(self, obj: dict, at: tuple, label: str, key: str) -> tuple[str, ...]:
        """A list of strings (zones, locations: integers are taken as their text) or null."""
        items = self.get(obj, at, label, key, (list,)) or []
        for i, x in enumerate(items):
            if not _is(x, (str, int)):
                raise self.fail(
                    (*at, key, i), f"{label}{key}[{i}]: expected a string, got {type_name(x)}"
                )
        return tuple(str(x) for x in items)

    def objects(self, obj: dict, at: tuple, label: str, key: str) -> list[dict]:
        """A list of objects, or null (an empty list)."""
        items = self.get(obj, at, label, key, (list,)) or []
        for i, x in enumerate(items):
            if not isinstance(x, dict):
                raise self.fail(
                    (*at, key, i), f"{label}{key}[{i}]: expected an object, got {type_name(x)}"
                )
        return items


def type_name(value: Any) -> str:
    from gpupool.yamlio import type_name as name

    named = {"mapping": "an object", "integer": "an integer", "null": "null"}
    return named.get(name(value), f"a {name(value)}")


def _not_rest(data: Any, path: str, what: str, rest_lists: bool = False) -> None:
    """A REST body (or one page of a REST list) where az output is expected: one line that says so."""
    from gpupool.spec.azshape import rest_problem

    problem = rest_problem(data, what, rest_lists=rest_lists)
    if problem is not None:
        where, message, hint = problem
        raise _ElementError(path, where, message, hint)


def _empty(path: str, message: str, at: tuple = ()) -> _ElementError:
    """An input that parses but says nothing (``[]``): unusable, never read as "none offered"."""
    return _ElementError(path, at, message, "check the region name: az account list-locations -o table")


def _unwrap(data: Any, path: str, what: str) -> tuple[Any, tuple]:
    """A REST list body ``{"value": [...]}`` (the SDK's or ``az rest``'s; one page only) -> its list."""
    _not_rest(data, path, what, rest_lists=True)
    if isinstance(data, dict) and isinstance(data.get("value"), list):
        return data["value"], ("value",)
    return data, ()


# ---- az vm list-skus -------------------------------------------------------------------------------

SKUS_CMD = "az vm list-skus -l REGION --resource-type virtualMachines --all -o json"
_NUMERIC_CAPS = ("vCPUs", "MemoryGB", "GPUs", "vCPUsAvailable")


def skus_from_data(data: Any, path: str) -> Skus:
    """Index the rows by name (virtualMachines only), every field preflight reads type-checked; a row
    becomes a :class:`Sku` when it is asked for (a region lists about 1,500 sizes; a run needs a few)."""
    data, top = _unwrap(data, path, SKUS_CMD)
    if not isinstance(data, list):
        raise _err(path, "expected a JSON list of resource SKUs", SKUS_CMD)
    if not data:
        raise _empty(
            path,
            "an empty list: no resource SKUs (az vm list-skus prints [] for a region name it does not know)",
        )
    f = _Fields(path, SKUS_CMD)
    rows: dict[str, list[dict]] = {}
    regions: set[str] = set()
    for i, row in enumerate(data):
        at = (*top, i)
        if not isinstance(row, dict) or not isinstance(row.get("name"), str):
            raise _err(path, f"item {i}: expected a resource SKU object with a name", SKUS_CMD, at)
        rtype = row.get("resourceType")
        if isinstance(rtype, str) and rtype.lower() != "virtualmachines":
            continue
        if (rtype is not None and not isinstance(rtype, str)) or not _sku_row_ok(row):
            # the slow path: find the wrong field and say which (a region lists ~1,500 rows: the checks
            # above cost a few ms, the labels of every field would cost more than the parse)
            label = f"item {i} ({safe_text(row['name'], 60)}): "
            f.get(row, at, label, "resourceType", (str,))
            _check_sku_row(f, row, at, label)
            f.strs(row, at, label, "locations")
        regions.update(norm(x) for x in row.get("locations") or ())
        for info in row.get("locationInfo") or ():
            regions.add(norm(info["location"]))
        rows.setdefault(row["name"].lower(), []).append(row)
    if not rows:
        raise _err(path, f"no virtualMachines rows among its {len(data)} resource SKUs", SKUS_CMD)
    return Skus(path=path, rows=rows, regions=frozenset(regions), build=sku_from_rows)


def _strs_ok(value: Any) -> bool:
    return value is None or (type(value) is list and all(type(x) in (str, int) for x in value))


def _sku_row_ok(row: dict) -> bool:
    """What :func:`_check_sku_row` checks, without a message: True when every field has its type."""
    if not isinstance(row.get("family"), (str, type(None))) or not _strs_ok(row.get("locations")):
        return False
    infos = row.get("locationInfo")
    if infos is not None:
        if type(infos) is not list:
            return False
        for info in infos:
            if type(info) is not dict or type(info.get("location")) is not str:
                return False
            if not _strs_ok(info.get("zones")):
                return False
    restrictions = row.get("restrictions")
    if restrictions is not None:
        if type(restrictions) is not list:
            return False
        for r in restrictions:
            if type(r) is not dict or type(r.get("type")) is not str:
                return False
            if not isinstance(r.get("reasonCode"), (str, type(None))) or not _strs_ok(r.get("values")):
                return False
            ri = r.get("restrictionInfo")
            if ri is not None and (
                type(ri) is not dict or not _strs_ok(ri.get("locations")) or not _strs_ok(ri.get("zones"))
            ):
                return False
    caps = row.get("capabilities")
    if caps is not None:
        if type(caps) is not list:
            return False
        for c in caps:
            if type(c) is not dict:
                return False
            name, value = c.get("name"), c.get("value")
            if type(name) is not str or type(value) not in (str, int, float, type(None)):
                return False
            if name in _NUMERIC_CAPS and value is not None:
                try:
                    float(value)
                except ValueError:
                    return False
    return True


def _check_sku_row(f: _Fields, row: dict, at: tuple, label: str) -> None:
    """The types of every field :func:`sku_from_rows` reads (so that building a Sku cannot fail)."""
    f.get(row, at, label, "family", (str,))
    for j, info in enumerate(f.objects(row, at, label, "locationInfo")):
        here = (*at, "locationInfo", j)
        f.get(info, here, f"{label}locationInfo[{j}].", "location", (str,), required=True)
        f.strs(info, here, f"{label}locationInfo[{j}].", "zones")
    for j, r in enumerate(f.objects(row, at, label, "restrictions")):
        here, lab = (*at, "restrictions", j), f"{label}restrictions[{j}]."
        f.get(r, here, lab, "type", (str,), required=True)
        f.get(r, here, lab, "reasonCode", (str,))
        f.strs(r, here, lab, "values")
        ri = f.get(r, here, lab, "restrictionInfo", (dict,))
        if ri is not None:
            f.strs(ri, (*here, "restrictionInfo"), f"{lab}restrictionInfo.", "locations")
            f.strs(ri, (*here, "restrictionInfo"), f"{lab}restrictionInfo.", "zones")
    for j, c in enumerate(f.objects(row, at, label, "capabilities")):
        here, lab = (*at, "capabilities", j), f"{label}capabilities[{j}]."
        name = f.get(c, here, lab, "name", (str,), required=True)
        value = f.get(c, here, lab, "value", (str, int, float))
        if name in _NUMERIC_CAPS and value is not None:
            try:
                float(value)
            except ValueError:
                raise f.fail(
                    (*here, "value"), f"{label}capability {name}: {safe_text(value, 40)!r} is not a number"
                ) from None


def sku_from_rows(rows: list[dict]) -> Sku:
    """One :class:`Sku` from its list-skus rows (one per region when the file covers several), checked by
    :func:`_check_sku_row`."""
    out: Sku | None = None
    for row in rows:
        zones: dict[str, tuple[str, ...]] = {}
        for info in row.get("locationInfo") or ():
            zones[norm(info["location"])] = _strs(info.get("zones"))
        restrictions = []
        for r in row.get("restrictions") or ():
            info = r.get("restrictionInfo") or {}
            restrictions.append(
                Restriction(
                    type=r["type"],
                    reason=r.get("reasonCode") or "",
                    locations=_strs(info.get("locations")) or _strs(r.get("values")),
                    zones=_strs(info.get("zones")),
                )
            )
        caps = {str(c["name"]): str(c.get("value")) for c in row.get("capabilities") or ()}
        sku = Sku(
            name=row["name"],
            family=row.get("family"),
            locations=_strs(row.get("locations")) or tuple(zones),
            zones=zones,
            restrictions=tuple(restrictions),
            capabilities=caps,
        )
        if out is not None:
            sku = Sku(
                sku.name,
                sku.family or out.family,
                out.locations + sku.locations,
                {**out.zones, **sku.zones},
                out.restrictions + sku.restrictions,
                {**out.capabilities, **sku.capabilities},
            )
        out = sku
    assert out is not None
    return out


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(str(x) for x in value) if value else ()


def load_skus(path: str | Path) -> Skus:
    return _load(path, SKUS_CMD, skus_from_data)


# ---- az vm list-usage ------------------------------------------------------------------------------

USAGE_CMD = "az vm list-usage -l REGION -o json"


def _count(value: Any, path: str, at: tuple, key: str) -> int:
    i = at[-1]
    if isinstance(value, bool) or value is None:
        raise _err(path, f"item {i}: {key} is not a number ({type_name(value)})", USAGE_CMD, (*at, key))
    try:
        return int(str(value).strip())
    except ValueError:
        raise _err(
            path, f"item {i}: {key} {safe_text(value)!r} is not a number", USAGE_CMD, (*at, key)
        ) from None


def usage_from_data(data: Any, path: str) -> Usage:
    data, top = _unwrap(data, path, USAGE_CMD)
    if not isinstance(data, list):
        raise _err(path, "expected a JSON list of usages", USAGE_CMD)
    if not data:
        raise _empty(
            path,
            "an empty list: no usage rows (az vm list-usage prints [] for a region name it does not know)",
        )
    f = _Fields(path, USAGE_CMD)
    rows: dict[str, UsageRow] = {}
    for i, row in enumerate(data):
        name = row.get("name") if isinstance(row, dict) else None
        if not isinstance(name, dict) or not isinstance(name.get("value"), str):
            raise _err(path, f"item {i}: expected a usage with name.value", USAGE_CMD, (*top, i))
        at, label = (*top, i), f"item {i} ({safe_text(name['value'], 60)}): "
        local = f.get(name, (*at, "name"), f"{label}name.", "localizedValue", (str,))
        local = local or f.get(row, at, label, "localName", (str,))
        rows[norm(name["value"])] = UsageRow(
            name=name["value"],
            local_name=local or name["value"],
            current=_count(row.get("currentValue"), path, at, "currentValue"),
            limit=_count(row.get("limit"), path, at, "limit"),
        )
    return Usage(path=path, rows=rows)


def load_usage(path: str | Path) -> Usage:
    return _load(path, USAGE_CMD, usage_from_data)


# ---- az aks get-versions ---------------------------------------------------------------------------

VERSIONS_CMD = "az aks get-versions -l REGION -o json"


def versions_from_data(data: Any, path: str) -> Versions:
    _not_rest(data, path, VERSIONS_CMD)
    if not isinstance(data, dict) or not isinstance(data.get("values"), list):
        raise _err(path, 'expected an object with "values" (a list of Kubernetes versions)', VERSIONS_CMD)
    if not data["values"]:
        raise _empty(
            path,
            "values is an empty list: no Kubernetes versions (is the region name right?)", ("values",)
        )
    f = _Fields(path, VERSIONS_CMD)
    minors: dict[str, VersionRow] = {}
    for i, row in enumerate(data["values"]):
        at, label = ("values", i), f"values[{i}]."
        if not isinstance(row, dict) or not isinstance(row.get("version"), str):
            raise _err(path, f"values[{i}]: expected an object with a version", VERSIONS_CMD, at)
        preview = f.get(row, at, label, "isPreview", (bool,))
        default = f.get(row, at, label, "isDefault", (bool,))
        caps = f.get(row, at, label, "capabilities", (dict,)) or {}
        plans = f.strs(caps, (*at, "capabilities"), f"{label}capabilities.", "supportPlan") if caps else ()
        patches = f.get(row, at, label, "patchVersions", (dict,)) or {}
        for k, v in patches.items():
            if v is not None and not isinstance(v, dict):
                raise f.fail(
                    (*at, "patchVersions", k),
                    f"{label}patchVersions.{safe_text(k, 40)}: expected an object, got {type_name(v)}",
                )
        minors[row["version"]] = VersionRow(
            minor=row["version"],
            patches=tuple(str(k) for k in patches),
            preview=preview is True,
            default=default is True,
            support_plans=plans,
        )
    return Versions(path=path, minors=minors)


def load_versions(path: str | Path) -> Versions:
    return _load(path, VERSIONS_CMD, versions_from_data)


# ---- az aks show -----------------------------------------------------------------------------------

CLUSTER_CMD = "az aks show -g RESOURCE_GROUP -n CLUSTER -o json"


def cluster_from_data(data: Any, path: str) -> Cluster:
    from gpupool.nap.cluster import mode_of as nap_mode_of

    _not_rest(data, path, CLUSTER_CMD)
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise _err(path, "expected a managed cluster object with a name", CLUSTER_CMD)
    f = _Fields(path, CLUSTER_CMD)
    net = f.get(data, (), "", "networkProfile", (dict,), required=True)
    plugin = f.get(net, ("networkProfile",), "networkProfile.", "networkPlugin", (str,), required=True)
    mode = f.get(net, ("networkProfile",), "networkProfile.", "networkPluginMode", (str,))
    if "agentPoolProfiles" not in data:
        raise f.fail((), "agentPoolProfiles: missing (a cluster lists its node pools)")
    pools = f.objects(data, (), "", "agentPoolProfiles")
    for i, p in enumerate(pools):
        at, label = ("agentPoolProfiles", i), f"agentPoolProfiles[{i}]."
        f.get(p, at, label, "name", (str,), required=True)
        f.get(p, at, label, "podSubnetId", (str,))
    version = f.get(data, (), "", "currentKubernetesVersion", (str,))
    version = version or f.get(data, (), "", "kubernetesVersion", (str,))
    sku = f.get(data, (), "", "sku", (dict,)) or {}
    return Cluster(
        path=path,
        name=data["name"],
        resource_group=f.get(data, (), "", "resourceGroup", (str,)),
        location=f.get(data, (), "", "location", (str,)),
        kubernetes_version=version,
        network_plugin=plugin,
        network_plugin_mode=mode,
        pod_subnet=any(p.get("podSubnetId") for p in pools),
        pool_names=tuple(p["name"] for p in pools),
        tier=f.get(sku, ("sku",), "sku.", "tier", (str,)),
        max_agent_pools=f.get(data, (), "", "maxAgentPools", (int,)),
        node_provisioning=nap_mode_of(data, path).mode,
    )


def load_cluster(path: str | Path) -> Cluster:
    return _load(path, CLUSTER_CMD, cluster_from_data)


# ---- az version ------------------------------------------------------------------------------------

VERSION_CMD = "az version -o json"


def az_version_from_data(data: Any, path: str) -> AzVersion:
    if not isinstance(data, dict) or not isinstance(data.get("azure-cli"), str):
        raise _err(path, 'expected an object with "azure-cli"', VERSION_CMD)
    f = _Fields(path, VERSION_CMD)
    ext = f.get(data, (), "", "extensions", (dict,)) or {}
    for k, v in ext.items():
        if not isinstance(v, str):
            raise f.fail(("extensions", k), f"extensions.{safe_text(k, 40)}: expected a string, got "
                         f"{type_name(v)}")
    return AzVersion(path=path, cli=data["azure-cli"], extensions=dict(ext))


def load_az_version(path: str | Path) -> AzVersion:
    return _load(path, VERSION_CMD, az_version_from_data)


# ---- all of them -----------------------------------------------------------------------------------


def load_inputs(
    from_dir: str | None = None,
    skus: str | None = None,
    usage: str | None = None,
    versions: str | None = None,
    clusters: list[str] | None = None,
    az_version: str | None = None,
    location: str | None = None,
) -> Inputs:
    """Inputs from the flags; ``from_dir`` fills the ones not given from its conventional file names
    (``cluster*.json``: every cluster file in it)."""
    names = facts()["files"]
    cluster_files = list(clusters or [])
    if from_dir is not None:
        d = Path(from_dir)
        if not d.is_dir():
            raise InputError(
                from_dir, None, "not a directory", "pass the folder the az outputs were saved in"
            )

        def pick(given: str | None, key: str) -> str | None:
            if given is not None:
                return given
            f = d / names[key]
            return str(f) if f.is_file() else None

        skus, usage = pick(skus, "skus"), pick(usage, "usage")
        versions, az_version = pick(versions, "versions"), pick(az_version, "azVersion")
        if not cluster_files:
            cluster_files = [str(f) for f in sorted(d.glob("cluster*.json")) if f.is_file()]
        if not any((skus, usage, versions, az_version, cluster_files)):
            raise InputError(
                from_dir,
                None,
                "none of the az outputs preflight reads is in this directory",
                "make them with: gpupool preflight --print-commands SPEC",
            )
    found: dict[str, Cluster] = {}
    for f in cluster_files:
        c = load_cluster(f)
        found[c.name.lower()] = c
    return Inputs(
        skus=load_skus(skus) if skus else None,
        usage=load_usage(usage) if usage else None,
        versions=load_versions(versions) if versions else None,
        clusters=found,
        az_version=load_az_version(az_version) if az_version else None,
        location=location,
    )
