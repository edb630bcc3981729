"""Which kind of Azure JSON a file holds, when it is not what ``az ... -o json`` prints.

gpupool reads what the Azure CLI prints. The ARM REST API (``az rest``, ``az resource show``, a portal's
JSON view, an SDK's ``as_dict()``) returns the same resources in another shape: a node pool's or a
cluster's settings sit under ``properties``, some keys are spelt otherwise (REST ``osSKU``,
``enableFIPS``, ``podSubnetID``, ``properties.type``; az ``osSku``, ``enableFips``, ``podSubnetId``,
``typePropertiesType``), and a list comes one page at a time (``{"value": [...], "nextLink": ...}``).

Decision: a REST body of a node pool or a cluster is refused with one line that says so (its settings
are not read half-right), for ``gpupool import``/``diff`` and ``preflight --cluster`` alike. Where the
two shapes carry the same fields under the same names (list-skus, list-usage, get-versions: az only
takes the list out of ``value``), the REST body is read too, unless it is one page of several
(``nextLink`` set): a partial list would read as "not offered" or "no quota".

Source: azure-cli 2.91.0 ``azure.cli.core.util.todict`` (az flattens ``properties`` and prints SDK
attribute names), ``vm list-skus``/``list-usage`` (AAZ: the ``value`` list, every page); ARM paged
lists (``nextLink``).
"""

from __future__ import annotations

from typing import Any

_POOL_KEYS = ("vmSize", "count", "orchestratorVersion", "osType", "mode", "enableAutoScaling")
_CLUSTER_KEYS = ("agentPoolProfiles", "networkProfile", "kubernetesVersion", "dnsPrefix", "fqdn")
ORCHESTRATORS_TYPE = "microsoft.containerservice/locations/orchestrators"


def _resource_kind(data: dict) -> str | None:
    """'node pool', 'cluster' or another resource for a REST resource body (``properties`` holding what
    az would print at the top level); None when ``data`` is not one."""
    props = data.get("properties")
    if not isinstance(props, dict):
        return None
    if any(k in data for k in _POOL_KEYS) or "agentPoolProfiles" in data:
        return None  # az output (az keeps some objects named properties, but never these beside them)
    rtype = str(data.get("type") or "").lower()
    if rtype.endswith("/agentpools") or "vmSize" in props:
        return "node pool"
    if rtype.endswith("/managedclusters") or any(k in props for k in _CLUSTER_KEYS):
        return "cluster"
    if rtype == ORCHESTRATORS_TYPE:
        return "orchestrators"
    if "id" in data and ("type" in data or "name" in data):
        return "resource"
    return None


def rest_problem(
    data: Any, az_command: str, cluster_command: str | None = None, rest_lists: bool = False
) -> tuple[tuple, str, str] | None:
    """``(where, message, hint)`` when ``data`` is a REST body (or a REST page) that gpupool does not read
    in place of ``az_command``'s output (``cluster_command``'s for a cluster's body, where it differs);
    ``where`` is the key path whose line the error names. ``rest_lists``: a whole REST list
    (``{"value": [...]}`` without ``nextLink``) is read (list-skus, list-usage)."""
    if isinstance(data, dict):
        kind = _resource_kind(data)
        if kind == "cluster" and cluster_command:
            az_command = cluster_command
        if kind == "orchestrators":
            return (
                ("type",),
                "this is the retired orchestrators API's answer (locations/orchestrators), not "
                "`az aks get-versions -o json` output",
                f"save what `{az_command}` prints with a current Azure CLI",
            )
        if kind is not None:
            return (
                ("properties",),
                f'this is an Azure REST body of a {kind} (settings under "properties"), not `az` output',
                f"save what `{az_command}` prints",
            )
        value = data.get("value")
        if isinstance(value, list):
            if any(isinstance(x, dict) and _resource_kind(x) in ("node pool", "cluster") for x in value):
                return (
                    ("value",),
                    'this is an Azure REST list (items with "properties"), not `az` output',
                    f"save what `{az_command}` prints",
                )
            if data.get("nextLink"):
                return (
                    ("nextLink",),
                    "this is one page of an Azure REST list (nextLink is set): the list is incomplete",
                    f"save what `{az_command}` prints (az reads every page)",
                )
            if not rest_lists and set(data) <= {"value", "nextLink"}:
                return (
                    ("value",),
                    'this is an Azure REST list ({"value": [...]}), not `az` output',
                    f"save what `{az_command}` prints",
                )
    if isinstance(data, list):
        for i, item in enumerate(data):
            if isinstance(item, dict) and _resource_kind(item) in ("node pool", "cluster"):
                return (
                    (i, "properties"),
                    f'item {i} is an Azure REST body (settings under "properties"), not `az` output',
                    f"save what `{az_command}` prints",
                )
    return None
