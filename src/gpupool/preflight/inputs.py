"""Read what the Azure CLI prints into :mod:`gpupool.preflight.model`.

The files are made by the user (``gpupool preflight --print-commands`` prints the commands):
``az vm list-skus -l REGION --resource-type virtualMachines --all -o json``, ``az vm list-usage -l REGION
-o json``, ``az aks get-versions -l REGION -o json``, ``az aks show -g RG -n CLUSTER -o json`` and
``az version -o json``. Shapes follow the azure-cli 2.91.0 code (see data/preflight.yaml); numbers that az
prints as strings (list-usage ``currentValue``/``limit``) are read either way, so the SDK's own
serialisation (live mode) reads the same. Bad input is one :class:`~gpupool.errors.InputError` with
``file:line``, never a traceback. JSON is read with the standard library (a region's list-skus output is
megabytes; the line-aware YAML reader would be slow on it).
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


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(str(x) for x in _list(value) if isinstance(x, (str, int)) and not isinstance(x, bool))


# ---- az vm list-skus -------------------------------------------------------------------------------

SKUS_CMD = "az vm list-skus -l REGION --resource-type virtualMachines --all -o json"


def skus_from_data(data: Any, path: str) -> Skus:
    """Index the rows by name (virtualMachines only); a row becomes a :class:`Sku` when it is asked for
    (a region lists about 1,500 sizes; a run needs a few)."""
    top: tuple = ()
    if isinstance(data, dict) and isinstance(data.get("value"), list):
        data, top = data["value"], ("value",)  # the REST body, as the SDK or `az rest` returns it
    if not isinstance(data, list):
        raise _err(path, "expected a JSON list of resource SKUs", SKUS_CMD)
    rows: dict[str, list[dict]] = {}
    regions: set[str] = set()
    for i, row in enumerate(data):
        if not isinstance(row, dict) or not isinstance(row.get("name"), str):
            raise _err(path, f"item {i}: expected a resource SKU object with a name", SKUS_CMD, (*top, i))
        if str(row.get("resourceType", "virtualMachines")).lower() != "virtualmachines":
            continue
        locations = row.get("locations")
        if isinstance(locations, list):
            regions.update(norm(x) for x in locations if isinstance(x, str))
        for info in _list(row.get("locationInfo")):
            if isinstance(info, dict) and isinstance(info.get("location"), str):
                regions.add(norm(info["location"]))
        rows.setdefault(row["name"].lower(), []).append(row)
    return Skus(path=path, rows=rows, regions=frozenset(regions), build=sku_from_rows)


def sku_from_rows(rows: list[dict]) -> Sku:
    """One :class:`Sku` from its list-skus rows (one per region when the file covers several)."""
    out: Sku | None = None
    for row in rows:
        zones: dict[str, tuple[str, ...]] = {}
        for info in _list(row.get("locationInfo")):
            if isinstance(info, dict) and isinstance(info.get("location"), str):
                zones[norm(info["location"])] = _strs(info.get("zones"))
        restrictions = []
        for r in _list(row.get("restrictions")):
            if not isinstance(r, dict):
                continue
            info = r.get("restrictionInfo") if isinstance(r.get("restrictionInfo"), dict) else {}
            restrictions.append(
                Restriction(
                    type=str(r.get("type") or ""),
                    reason=str(r.get("reasonCode") or ""),
                    locations=_strs(info.get("locations")) or _strs(r.get("values")),
                    zones=_strs(info.get("zones")),
                )
            )
        caps = {
            str(c["name"]): str(c.get("value"))
            for c in _list(row.get("capabilities"))
            if isinstance(c, dict) and isinstance(c.get("name"), str)
        }
        sku = Sku(
            name=row["name"],
            family=row.get("family") if isinstance(row.get("family"), str) else None,
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


def load_skus(path: str | Path) -> Skus:
    return _load(path, SKUS_CMD, skus_from_data)


# ---- az vm list-usage ------------------------------------------------------------------------------

USAGE_CMD = "az vm list-usage -l REGION -o json"


def _count(value: Any, path: str, at: tuple, key: str) -> int:
    i = at[-1]
    if isinstance(value, bool):
        raise _err(path, f"item {i}: {key} is not a number", USAGE_CMD, (*at, key))
    try:
        return int(str(value).strip())
    except ValueError:
        raise _err(
            path, f"item {i}: {key} {safe_text(value)!r} is not a number", USAGE_CMD, (*at, key)
        ) from None


def usage_from_data(data: Any, path: str) -> Usage:
    top: tuple = ()
    if isinstance(data, dict) and isinstance(data.get("value"), list):
        data, top = data["value"], ("value",)
    if not isinstance(data, list):
        raise _err(path, "expected a JSON list of usages", USAGE_CMD)
    rows: dict[str, UsageRow] = {}
    for i, row in enumerate(data):
        name = row.get("name") if isinstance(row, dict) else None
        if not isinstance(name, dict) or not isinstance(name.get("value"), str):
            raise _err(path, f"item {i}: expected a usage with name.value", USAGE_CMD, (*top, i))
        rows[norm(name["value"])] = UsageRow(
            name=name["value"],
            local_name=str(name.get("localizedValue") or row.get("localName") or name["value"]),
            current=_count(row.get("currentValue"), path, (*top, i), "currentValue"),
            limit=_count(row.get("limit"), path, (*top, i), "limit"),
        )
    return Usage(path=path, rows=rows)


def load_usage(path: str | Path) -> Usage:
    return _load(path, USAGE_CMD, usage_from_data)


# ---- az aks get-versions ---------------------------------------------------------------------------

VERSIONS_CMD = "az aks get-versions -l REGION -o json"


def versions_from_data(data: Any, path: str) -> Versions:
    if not isinstance(data, dict) or not isinstance(data.get("values"), list):
        raise _err(path, 'expected an object with "values" (a list of Kubernetes versions)', VERSIONS_CMD)
    minors: dict[str, VersionRow] = {}
    for i, row in enumerate(data["values"]):
        if not isinstance(row, dict) or not isinstance(row.get("version"), str):
            raise _err(path, f"values[{i}]: expected an object with a version", VERSIONS_CMD, ("values", i))
        caps = row.get("capabilities") if isinstance(row.get("capabilities"), dict) else {}
        patches = row.get("patchVersions") if isinstance(row.get("patchVersions"), dict) else {}
        minors[row["version"]] = VersionRow(
            minor=row["version"],
            patches=tuple(str(k) for k in patches),
            preview=row.get("isPreview") is True,
            default=row.get("isDefault") is True,
            support_plans=_strs(caps.get("supportPlan")),
        )
    return Versions(path=path, minors=minors)


def load_versions(path: str | Path) -> Versions:
    return _load(path, VERSIONS_CMD, versions_from_data)


# ---- az aks show -----------------------------------------------------------------------------------

CLUSTER_CMD = "az aks show -g RESOURCE_GROUP -n CLUSTER -o json"


def cluster_from_data(data: Any, path: str) -> Cluster:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise _err(path, "expected a managed cluster object with a name", CLUSTER_CMD)
    net = data.get("networkProfile") if isinstance(data.get("networkProfile"), dict) else {}
    pools = [p for p in _list(data.get("agentPoolProfiles")) if isinstance(p, dict)]
    version = data.get("currentKubernetesVersion") or data.get("kubernetesVersion")
    sku = data.get("sku") if isinstance(data.get("sku"), dict) else {}
    return Cluster(
        path=path,
        name=data["name"],
        resource_group=data.get("resourceGroup") if isinstance(data.get("resourceGroup"), str) else None,
        location=data.get("location") if isinstance(data.get("location"), str) else None,
        kubernetes_version=version if isinstance(version, str) else None,
        network_plugin=net.get("networkPlugin") if isinstance(net.get("networkPlugin"), str) else None,
        network_plugin_mode=net.get("networkPluginMode")
        if isinstance(net.get("networkPluginMode"), str)
        else None,
        pod_subnet=any(isinstance(p.get("podSubnetId"), str) and p.get("podSubnetId") for p in pools),
        pool_names=tuple(str(p.get("name")) for p in pools),
        tier=sku.get("tier") if isinstance(sku.get("tier"), str) else None,
        max_agent_pools=_int_or_none(data.get("maxAgentPools")),
    )


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def load_cluster(path: str | Path) -> Cluster:
    return _load(path, CLUSTER_CMD, cluster_from_data)


# ---- az version ------------------------------------------------------------------------------------

VERSION_CMD = "az version -o json"


def az_version_from_data(data: Any, path: str) -> AzVersion:
    if not isinstance(data, dict) or not isinstance(data.get("azure-cli"), str):
        raise _err(path, 'expected an object with "azure-cli"', VERSION_CMD)
    ext = data.get("extensions") if isinstance(data.get("extensions"), dict) else {}
    return AzVersion(path=path, cli=data["azure-cli"], extensions={str(k): str(v) for k, v in ext.items()})


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
