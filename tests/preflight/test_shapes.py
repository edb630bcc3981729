"""The recorded az JSON has the shapes the real tools print: every key is an attribute of the Azure SDK
model az serialises (azure-mgmt-compute ``ResourceSku`` / ``Usage``, azure-mgmt-containerservice
``KubernetesVersionListResult`` / ``ManagedCluster``), with az's own additions only where its code adds
them (list-usage: ``localName``, numbers as strings; any resource: ``resourceGroup``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preflight.azshape import todict

compute = pytest.importorskip("azure.mgmt.compute.models")
aks = pytest.importorskip("azure.mgmt.containerservice.models")

EASTUS = Path(__file__).parent / "data" / "eastus"


def _keys_within(data, model_dict, where="") -> None:
    """Every key of ``data`` is a key of the SDK model's az form (recursively)."""
    if isinstance(data, dict) and isinstance(model_dict, dict):
        extra = set(data) - set(model_dict)
        assert not extra, f"{where}: keys the SDK model does not have: {sorted(extra)}"
        for k, v in data.items():
            _keys_within(v, model_dict[k], f"{where}.{k}")
    elif isinstance(data, list) and isinstance(model_dict, list):
        for i, (a, b) in enumerate(zip(data, model_dict, strict=True)):
            _keys_within(a, b, f"{where}[{i}]")


def test_list_skus_items_are_resource_skus() -> None:
    for item in json.loads((EASTUS / "skus.json").read_text()):
        model = compute.ResourceSku(item)
        _keys_within(item, todict(model), item["name"])
        assert todict(model)["restrictions"] == item["restrictions"]
        assert all(isinstance(c["value"], str) for c in item["capabilities"])  # az prints strings


def test_list_usage_items_are_usages_as_az_prints_them() -> None:
    for item in json.loads((EASTUS / "usage.json").read_text()):
        assert isinstance(item["currentValue"], str) and isinstance(item["limit"], str)  # VMListUsage._output
        assert item["localName"] == item["name"]["localizedValue"]
        rest = {k: v for k, v in item.items() if k != "localName"}
        rest["currentValue"], rest["limit"] = int(rest["currentValue"]), int(rest["limit"])
        assert todict(compute.Usage(rest)) == rest


def test_get_versions_is_a_kubernetes_version_list_result() -> None:
    data = json.loads((EASTUS / "versions.json").read_text())
    assert todict(aks.KubernetesVersionListResult(data)) == data


def test_aks_show_is_a_managed_cluster() -> None:
    data = json.loads((EASTUS / "cluster.json").read_text())
    rest = {k: v for k, v in data.items() if k != "resourceGroup"}
    flat = todict(
        aks.ManagedCluster({"properties": rest, **{k: rest[k] for k in ("location", "name", "sku")}})
    )
    _keys_within(rest, flat | {k: rest[k] for k in rest if k not in flat and rest[k] is None}, "cluster")
    assert set(rest) <= set(flat) | {k for k, v in rest.items() if v is None}
