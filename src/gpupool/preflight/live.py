"""``gpupool preflight --live``: read the same facts from Azure itself, read-only, with the Azure SDK.

Opt-in (the only network use of preflight). Needs the optional extra: ``pip install '.[azure]'`` in the
gpupool checkout.
(azure-identity, azure-mgmt-compute, azure-mgmt-containerservice), imported here only. Credentials:
azure-identity's ``DefaultAzureCredential`` (environment, workload identity, managed identity, ``az
login``...). Calls, all GETs: Resource SKUs (``$filter=location eq 'REGION'``), compute usages, AKS
Kubernetes versions, and each cluster of the specs. The SDK's models are turned into the REST shape
(``as_dict()``) and read by the same code as the az files, so both paths give the same findings.

Every failure is one line (InputError): missing extra, no subscription, authentication, permission
(403: the identity needs Reader), not found, timeout, unreachable endpoint.
"""

from __future__ import annotations

import logging
import os
import re
from typing import Any

from gpupool.errors import InputError, safe_text
from gpupool.preflight import inputs as pin
from gpupool.preflight.model import Cluster, Inputs
from gpupool.spec.model import PoolSpec

PIP = "pip install '.[azure]' in the gpupool checkout (the azure extra)"
_GUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_REGION = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ]{0,39}")  # goes into an OData $filter: no quotes
ENDPOINT_ENV = "GPUPOOL_ARM_ENDPOINT"  # another ARM endpoint (sovereign clouds, tests' loopback stub)


def _sdk() -> tuple[Any, Any, Any]:
    try:
        from azure.mgmt.compute import ComputeManagementClient
        from azure.mgmt.containerservice import ContainerServiceClient
    except ImportError:
        raise InputError(None, None, "--live needs the Azure SDK for Python", f"install it: {PIP}") from None
    try:
        from azure.identity import DefaultAzureCredential
    except ImportError:
        raise InputError(None, None, "--live needs azure-identity", f"install it: {PIP}") from None
    return ComputeManagementClient, ContainerServiceClient, DefaultAzureCredential


def _plain(obj: Any) -> Any:
    """An SDK model in its REST shape (typespec models: ``as_dict()``; older msrest models: ``serialize``)."""
    if hasattr(obj, "as_dict") and getattr(obj, "_is_model", False):
        return obj.as_dict()
    if hasattr(obj, "serialize"):
        return obj.serialize(keep_readonly=True)
    return obj


def _flatten_cluster(data: dict[str, Any], rg: str) -> dict[str, Any]:
    """REST ``{..., "properties": {...}}`` -> the flat shape ``az aks show`` prints (the keys preflight
    reads: REST spells a pool's pod subnet ``podSubnetID``, az ``podSubnetId``)."""
    props = data.get("properties") if isinstance(data.get("properties"), dict) else {}
    out = {**{k: v for k, v in data.items() if k != "properties"}, **props, "resourceGroup": rg}
    pools = out.get("agentPoolProfiles")
    if isinstance(pools, list):
        rename = {"podSubnetID": "podSubnetId"}
        out["agentPoolProfiles"] = [
            {rename.get(k, k): v for k, v in p.items()} if isinstance(p, dict) else p for p in pools
        ]
    return out


class _Call:
    """Runs one SDK call and turns its exceptions into one-line InputErrors."""

    def __init__(self, endpoint: str, timeout: float) -> None:
        self.endpoint = endpoint
        self.timeout = timeout

    def __call__(self, what: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        from azure.core.exceptions import (
            ClientAuthenticationError,
            HttpResponseError,
            ResourceNotFoundError,
            ServiceRequestError,
            ServiceResponseError,
        )

        try:
            result = fn(*args, **kwargs)
            return [_plain(x) for x in result] if not hasattr(result, "as_dict") else _plain(result)
        except ClientAuthenticationError as e:
            raise InputError(
                None,
                None,
                f"Azure authentication failed while reading {what}: {_reason(e)}",
                "sign in (az login) or set AZURE_CLIENT_ID/AZURE_TENANT_ID/AZURE_CLIENT_SECRET",
            ) from None
        except ResourceNotFoundError as e:
            raise InputError(None, None, f"not found: {what} ({_reason(e)})") from None
        except HttpResponseError as e:
            if e.status_code in (401, 403):
                raise InputError(
                    None,
                    None,
                    f"permission denied reading {what} (HTTP {e.status_code}): {_reason(e)}",
                    "the identity needs read access (Reader) on the subscription and the cluster",
                ) from None
            raise InputError(
                None, None, f"Azure returned HTTP {e.status_code} for {what}: {_reason(e)}"
            ) from None
        except (ServiceRequestError, ServiceResponseError) as e:
            text = _reason(e)
            if "timed out" in text.lower() or "timeout" in text.lower():
                raise InputError(
                    None,
                    None,
                    f"Azure did not answer within {self.timeout:g} s ({what})",
                    "raise --timeout, or check the network",
                ) from None
            raise InputError(None, None, f"cannot reach Azure at {self.endpoint} ({what}): {text}") from None


def _reason(e: Exception) -> str:
    msg = getattr(e, "message", None) or str(e)
    return safe_text(" ".join(str(msg).split()), 200)


def load_live(
    pools: list[PoolSpec],
    subscription: str | None = None,
    location: str | None = None,
    timeout: float = 30.0,
    credential: Any = None,
    base_url: str | None = None,
) -> Inputs:
    """Inputs for the pools read from Azure (read-only). ``credential``/``base_url`` default to
    DefaultAzureCredential and the public ARM endpoint (or ``GPUPOOL_ARM_ENDPOINT``)."""
    compute_cls, aks_cls, default_cred = _sdk()
    sub = subscription or os.environ.get("AZURE_SUBSCRIPTION_ID")
    if not sub:
        raise InputError(
            None,
            None,
            "--live needs a subscription ID",
            "pass --subscription ID or set AZURE_SUBSCRIPTION_ID (az account show --query id -o tsv)",
        )
    if not _GUID.fullmatch(sub.strip()):
        raise InputError(
            None,
            None,
            f"--live: subscription {safe_text(sub, 60)!r} is not a subscription ID (a GUID)",
            "az account show --query id -o tsv",
        )
    sub = sub.strip()
    _quiet_sdk_logs()
    endpoint = (base_url or os.environ.get(ENDPOINT_ENV) or "https://management.azure.com").rstrip("/")
    loopback = endpoint.startswith(("http://127.0.0.1", "http://localhost", "http://[::1]"))
    if endpoint.startswith("http://") and not loopback:
        raise InputError(None, None, f"refusing to send Azure credentials over plain HTTP to {endpoint}")
    cred = credential if credential is not None else default_cred()
    opts: dict[str, Any] = {"connection_timeout": timeout, "read_timeout": timeout, "retry_total": 1}
    per_call = {"enforce_https": False} if loopback else {}
    compute = compute_cls(
        cred, sub, base_url=endpoint, credential_scopes=[f"{_scope(endpoint)}/.default"], **opts
    )
    aks = aks_cls(cred, sub, base_url=endpoint, credential_scopes=[f"{_scope(endpoint)}/.default"], **opts)
    call = _Call(endpoint, timeout)

    clusters: dict[str, Cluster] = {}
    for rg, name in dict.fromkeys((p.resource_group, p.cluster_name) for p in pools):
        data = call(f"cluster {rg}/{name}", aks.managed_clusters.get, rg, name, **per_call)
        clusters[name.lower()] = pin.cluster_from_data(
            _flatten_cluster(data, rg), f"{endpoint} cluster {name}"
        )
    regions = {p.location for p in pools if p.location} | {
        c.location for c in clusters.values() if c.location
    }
    region = location or (next(iter(regions)) if len(regions) == 1 else None)
    if region is None:
        raise InputError(
            None,
            None,
            "--live: the specs and clusters name several regions or none",
            "pass --location REGION (one region per run)",
        )
    if not _REGION.fullmatch(region):
        raise InputError(
            None, None, f"--live: {safe_text(region, 60)!r} is not an Azure region name", "e.g. eastus"
        )
    where = f"{endpoint} ({region})"
    skus = call("resource SKUs", compute.resource_skus.list, filter=f"location eq '{region}'", **per_call)
    usage = call("compute usage", compute.usage.list, region, **per_call)
    versions = call("Kubernetes versions", aks.managed_clusters.list_kubernetes_versions, region, **per_call)
    return Inputs(
        skus=pin.skus_from_data(skus, f"resource SKUs {where}"),
        usage=pin.usage_from_data(usage, f"compute usage {where}"),
        versions=pin.versions_from_data(versions, f"Kubernetes versions {where}"),
        clusters=clusters,
        az_version=None,
        location=region,
        source="live",
    )


def _scope(endpoint: str) -> str:
    """The token audience: the public ARM endpoint for loopback test stubs, else the endpoint itself."""
    return "https://management.azure.com" if endpoint.startswith("http://") else endpoint


def _quiet_sdk_logs() -> None:
    """The Azure SDK logs each failed credential as multi-line warnings on stderr; gpupool reports one line
    (the InputError). GPUPOOL_DEBUG=1 keeps the SDK's logs."""
    if os.environ.get("GPUPOOL_DEBUG"):
        return
    log = logging.getLogger("azure")
    if not any(isinstance(h, logging.NullHandler) for h in log.handlers):
        log.addHandler(logging.NullHandler())
    log.propagate = False
