"""Hostile variants of the shapes Azure returns, written here (small, derived from the recorded eastus
files of tests/preflight/data and the az fixtures of tests/diff/data): each field preflight reads, of the
wrong type, is exit 2 with one line naming the field and its file:line (it was read as absent and turned
verdicts: zones as a string -> "zone 2 does not offer it", vCPUs as text -> no family-quota error, a
cluster's network null -> "Azure CNI Overlay"); empty lists are unusable inputs; REST bodies say so; and
import takes VirtualMachines pools with ``count: null`` and pools of other modes with a note."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gpupool.preflight.model import Cluster
from support import REPO, run_cli

EASTUS = REPO / "tests" / "preflight" / "data" / "eastus"
AZ_T4 = REPO / "tests" / "diff" / "data" / "az-show-t4.json"
FLAG = {
    "skus": "--skus",
    "usage": "--usage",
    "versions": "--versions",
    "cluster": "--cluster",
    "az-version": "--az-version",
}


def _load(name: str) -> Any:
    return json.loads((EASTUS / f"{name}.json").read_text())


def _row(rows: list[dict], name: str) -> dict:
    return next(r for r in rows if r["name"] == name)


def _cap(row: dict, name: str) -> dict:
    return next(c for c in row["capabilities"] if c["name"] == name)


def _t4(rows: list[dict]) -> dict:
    return _row(rows, "Standard_NC4as_T4_v3")


def _set(fn: Callable[[Any], None]) -> Callable[[Any], Any]:
    def change(data: Any) -> Any:
        fn(data)
        return data

    return change


# name -> (input, change, the text of the line the error must name, needle of the message)
HOSTILE: dict[str, tuple[str, Callable[[Any], Any], str, str]] = {
    "zones-as-a-string": (
        "skus",
        _set(lambda d: _t4(d)["locationInfo"][0].__setitem__("zones", "2")),
        '"zones": "2"',
        "item 2 (Standard_NC4as_T4_v3): locationInfo[0].zones: expected a list, got a string",
    ),
    "vcpus-as-text": (
        "skus",
        _set(lambda d: _cap(_t4(d), "vCPUs").__setitem__("value", "four")),
        '"value": "four"',
        "capability vCPUs: 'four' is not a number",
    ),
    "capabilities-an-object": (
        "skus",
        _set(lambda d: _t4(d).__setitem__("capabilities", {"vCPUs": "4"})),
        '"capabilities": {',
        "capabilities: expected a list, got an object",
    ),
    "restriction-zones-a-number": (
        "skus",
        _set(
            lambda d: _row(d, "Standard_NC8as_T4_v3")["restrictions"][0]["restrictionInfo"].__setitem__(
                "zones", 3
            )
        ),
        '"zones": 3',
        "restrictions[0].restrictionInfo.zones: expected a list, got an integer",
    ),
    "family-a-list": (
        "skus",
        _set(lambda d: _t4(d).__setitem__("family", ["standardNCASv3_T4Family"])),
        '"family": [',
        "family: expected a string, got a list",
    ),
    "pools-as-a-string": (
        "cluster",
        _set(lambda d: d.__setitem__("agentPoolProfiles", "nodepool1")),
        '"agentPoolProfiles": "nodepool1"',
        "agentPoolProfiles: expected a list, got a string",
    ),
    "pool-name-a-number": (
        "cluster",
        _set(lambda d: d["agentPoolProfiles"][0].__setitem__("name", 1)),
        '"name": 1',
        "agentPoolProfiles[0].name: expected a string, got an integer",
    ),
    "version-as-a-number": (
        "cluster",
        _set(lambda d: d.update(currentKubernetesVersion=None, kubernetesVersion=1.35)),
        '"kubernetesVersion": 1.35',
        "kubernetesVersion: expected a string, got a number",
    ),
    "current-version-as-a-number": (
        "cluster",
        _set(lambda d: d.update(currentKubernetesVersion=1.35)),
        '"currentKubernetesVersion": 1.35',
        "currentKubernetesVersion: expected a string, got a number",
    ),
    "network-null": (
        "cluster",
        _set(lambda d: d.__setitem__("networkProfile", None)),
        '"networkProfile": null',
        "networkProfile: expected an object, got null",
    ),
    "network-plugin-null": (
        "cluster",
        _set(lambda d: d["networkProfile"].__setitem__("networkPlugin", None)),
        '"networkPlugin": null',
        "networkProfile.networkPlugin: expected a string, got null",
    ),
    "network-plugin-mode-a-boolean": (
        "cluster",
        _set(lambda d: d["networkProfile"].__setitem__("networkPluginMode", True)),
        '"networkPluginMode": true',
        "networkProfile.networkPluginMode: expected a string, got a boolean",
    ),
    "max-agent-pools-text": (
        "cluster",
        _set(lambda d: d.__setitem__("maxAgentPools", "100")),
        '"maxAgentPools": "100"',
        "maxAgentPools: expected an integer, got a string",
    ),
    "tier-a-number": (
        "cluster",
        _set(lambda d: d["sku"].__setitem__("tier", 1)),
        '"tier": 1',
        "sku.tier: expected a string, got an integer",
    ),
    "usage-limit-null": (
        "usage",
        _set(lambda d: d[1].__setitem__("limit", None)),
        '"limit": null',
        "item 1: limit is not a number (null)",
    ),
    "version-preview-text": (
        "versions",
        _set(lambda d: d["values"][0].__setitem__("isPreview", "yes")),
        '"isPreview": "yes"',
        "values[0].isPreview: expected a boolean, got a string",
    ),
    "support-plan-a-string": (
        "versions",
        _set(lambda d: d["values"][0]["capabilities"].__setitem__("supportPlan", "KubernetesOfficial")),
        '"supportPlan": "KubernetesOfficial"',
        "values[0].capabilities.supportPlan: expected a list, got a string",
    ),
    "extension-version-a-number": (
        "az-version",
        _set(lambda d: d["extensions"].__setitem__("aks-preview", 19)),
        '"aks-preview": 19',
        "extensions.aks-preview: expected a string, got an integer",
    ),
    # empty lists: what az prints for a mistyped region; never "not offered" / "no quota" / "lists none"
    "skus-empty": ("skus", lambda d: [], "[]", "an empty list: no resource SKUs"),
    "usage-empty": ("usage", lambda d: [], "[]", "an empty list: no usage rows"),
    "versions-empty": ("versions", lambda d: {"values": []}, '"values": []', "values is an empty list"),
    "skus-rest-empty": ("skus", lambda d: {"value": []}, "{", "an empty list: no resource SKUs"),
    # REST shapes
    "skus-one-rest-page": (
        "skus",
        lambda d: {"value": d[:2], "nextLink": "https://management.azure.com/x?$skipToken=1"},
        '"nextLink"',
        "one page of an Azure REST list (nextLink is set): the list is incomplete",
    ),
    "usage-one-rest-page": (
        "usage",
        lambda d: {"value": d, "nextLink": "https://management.azure.com/x?$skipToken=1"},
        '"nextLink"',
        "one page of an Azure REST list",
    ),
    "cluster-rest-body": (
        "cluster",
        lambda d: {
            "id": d["id"],
            "name": d["name"],
            "type": "Microsoft.ContainerService/ManagedClusters",
            "location": d["location"],
            "properties": {
                "kubernetesVersion": "1.35",
                "networkProfile": {"networkPlugin": "kubenet"},
                "agentPoolProfiles": [],
            },
        },
        '"properties"',
        'this is an Azure REST body of a cluster (settings under "properties"), not `az` output',
    ),
    "versions-orchestrators": (
        "versions",
        lambda d: {
            "id": "/subscriptions/0/providers/Microsoft.ContainerService/locations/eastus/orchestrators",
            "name": "default",
            "type": "Microsoft.ContainerService/locations/orchestrators",
            "properties": {"orchestrators": []},
        },
        '"type"',
        "retired orchestrators API",
    ),
}


def _spec(tmp: Path) -> Path:
    f = tmp / "pool.yaml"
    f.write_text(
        "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\nspec:\n"
        "  resourceGroup: myResourceGroup\n  clusterName: myAKSCluster\n  location: eastus\n"
        "  vmSize: Standard_NC4as_T4_v3\n  nodeTaints: ['sku=gpu:NoSchedule']\n  nodeCount: 1\n"
        "  zones: ['1', '2']\n"
    )
    return f


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_field_exits_2_one_line_naming_field_and_line(tmp_path: Path, case: str) -> None:
    name, change, line_text, needle = HOSTILE[case]
    data = change(_load(name))
    f = tmp_path / f"{name}.json"
    text = json.dumps(data, indent=2)
    f.write_text(text + "\n")
    line = [n for n, t in enumerate(text.splitlines(), 1) if line_text in t][-1]  # the cluster's own, last
    r = run_cli("preflight", str(_spec(tmp_path)), FLAG[name], str(f))
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert r.stderr.startswith("gpupool: error: ") and r.stderr.count("\n") == 1, r.stderr
    assert f"{f}:{line}: " in r.stderr and needle in r.stderr, r.stderr


def test_the_recorded_inputs_themselves_pass(tmp_path: Path) -> None:
    """The same spec on the unchanged files: a verdict (exit 0 or 1), not an input error."""
    r = run_cli("preflight", str(_spec(tmp_path)), "--from", str(EASTUS))
    assert r.exit_code in (0, 1), r.stderr


@pytest.mark.parametrize(
    ("plugin", "mode", "pod_subnet", "network"),
    [
        ("kubenet", None, False, "kubenet"),
        ("azure", "overlay", False, "overlay"),
        ("azure", None, True, "podSubnet"),
        ("azure", None, False, "nodeSubnet"),
        ("none", None, False, "none"),
        ("calico", None, False, None),
        (None, None, False, None),
    ],
)
def test_an_unknown_network_is_never_taken_for_overlay(plugin, mode, pod_subnet, network) -> None:
    c = Cluster("c.json", "c", "rg", "eastus", "1.35", plugin, mode, pod_subnet)
    assert c.network == network


def test_unknown_network_plugin_skips_the_pods_per_node_check_and_says_so(tmp_path: Path) -> None:
    cluster = _load("cluster")
    cluster["networkProfile"].update(networkPlugin="futurenet", networkPluginMode=None)
    f = tmp_path / "cluster.json"
    f.write_text(json.dumps(cluster, indent=2))
    r = run_cli("preflight", str(_spec(tmp_path)), "--cluster", str(f), "-o", "json")
    out = json.loads(r.stdout)
    assert not [x for x in out["findings"] if x["rule"] == "GP709"]
    assert any("network plugin 'futurenet' is not one gpupool knows" in s for s in out["skipped"])


def test_spot_pool_without_a_low_priority_row_cannot_be_checked(tmp_path: Path) -> None:
    usage = [u for u in _load("usage") if u["name"]["value"] != "lowPriorityCores"]
    f = tmp_path / "usage.json"
    f.write_text(json.dumps(usage, indent=2))
    spec = _spec(tmp_path)
    spec.write_text(spec.read_text() + "  priority: Spot\n")
    r = run_cli("preflight", str(spec), "--usage", str(f), "-o", "json")
    gp706 = [x for x in json.loads(r.stdout)["findings"] if x["rule"] == "GP706"]
    assert [x["severity"] for x in gp706] == ["warning"] and "cannot check" in gp706[0]["message"]
    assert r.exit_code == 0


# ---- import ----------------------------------------------------------------------------------------


def _az_pool(**change: Any) -> dict:
    data = json.loads(AZ_T4.read_text())
    data.update(change)
    return data


def _import(tmp: Path, data: Any, *args: str):  # type: ignore[no-untyped-def]
    f = tmp / "az.json"
    f.write_text(json.dumps(data, indent=2))
    return f, run_cli("import", str(f), "-o", "json", *args)


def test_virtual_machines_pool_with_null_count_imports_with_a_note(tmp_path: Path) -> None:
    vm = _az_pool(
        count=None,
        typePropertiesType="VirtualMachines",
        enableAutoScaling=False,
        minCount=None,
        maxCount=None,
        virtualMachinesProfile={"scale": {"manual": [{"size": "Standard_NC4as_T4_v3", "count": 3}]}},
    )
    _, r = _import(tmp_path, vm)
    assert r.exit_code == 0, r.stderr
    pool = json.loads(r.stdout)["pools"][0]
    assert pool["poolSpec"]["spec"]["nodeCount"] == 3
    assert "count is null: nodeCount 3 from virtualMachinesProfile.scale.manual" in pool["notes"]
    assert "count is null" in r.stderr


def test_null_count_without_a_scale_profile_is_never_a_silent_1(tmp_path: Path) -> None:
    _, r = _import(tmp_path, _az_pool(count=None, enableAutoScaling=False, minCount=None, maxCount=None))
    assert r.exit_code == 0
    pool = json.loads(r.stdout)["pools"][0]
    assert pool["poolSpec"]["spec"]["nodeCount"] == 1
    assert any("nodeCount 1 written; set the pool's real count" in n for n in pool["notes"])


def test_virtual_machines_pool_vm_size_from_its_one_size_or_exit_2(tmp_path: Path) -> None:
    one = {"scale": {"manual": [{"size": "Standard_NC4as_T4_v3", "count": 2}]}}
    _, r = _import(tmp_path, _az_pool(vmSize=None, count=None, virtualMachinesProfile=one))
    assert r.exit_code == 0 and json.loads(r.stdout)["pools"][0]["poolSpec"]["spec"]["vmSize"] == (
        "Standard_NC4as_T4_v3"
    )
    two = {
        "scale": {
            "manual": [
                {"size": "Standard_NC4as_T4_v3", "count": 2},
                {"size": "Standard_NC8as_T4_v3", "count": 1},
            ]
        }
    }
    f, r = _import(tmp_path, _az_pool(vmSize=None, count=None, virtualMachinesProfile=two))
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert "several sizes in virtualMachinesProfile (Standard_NC4as_T4_v3, Standard_NC8as_T4_v3)" in r.stderr
    assert f"{f}:" in r.stderr


@pytest.mark.parametrize("mode", ["Gateway", "ManagedSystem", "Machines", "SomethingNew"])
def test_pools_of_other_modes_are_left_out_with_a_note(tmp_path: Path, mode: str) -> None:
    other = _az_pool(mode=mode, name="other")
    _, r = _import(tmp_path, [other, _az_pool()])
    assert r.exit_code == 0, r.stderr
    assert [p["poolSpec"]["metadata"]["name"] for p in json.loads(r.stdout)["pools"]] == ["gpunp"]
    assert "note: pool other (" in r.stderr and "not imported" in r.stderr
    _, r = _import(tmp_path, [other, _az_pool()], "-n", "other")
    assert (
        r.exit_code == 2 and r.stderr.count("\n") == 1 and "gpupool imports User and System pools" in r.stderr
    )


def test_rest_pool_body_given_to_import_and_diff_says_so(tmp_path: Path) -> None:
    az = _az_pool()
    rest = {
        "id": az["id"],
        "name": az["name"],
        "type": az["type"],
        "properties": {k: v for k, v in az.items() if k not in ("id", "name", "type", "resourceGroup")},
    }
    f, r = _import(tmp_path, rest)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert (
        'this is an Azure REST body of a node pool (settings under "properties"), not `az` output' in r.stderr
    )
    line = next(n for n, t in enumerate(f.read_text().splitlines(), 1) if '"properties"' in t)
    assert f"{f}:{line}: " in r.stderr
    r = run_cli("diff", str(f), str(REPO / "examples" / "t4-driver-only.yaml"))
    assert r.exit_code == 2 and "REST body of a node pool" in r.stderr


@pytest.mark.parametrize("size", ["Standard_M8-2ms", "Standard_M416-208s_v2"])
def test_hyphenated_vm_sizes_import(tmp_path: Path, size: str) -> None:
    """Real size names (both in a recorded list-skus answer) import; the preflight side is in
    test_real_azure.py (restricted-m8-2ms, m416-zone-2-no-quota)."""
    _, r = _import(tmp_path, _az_pool(vmSize=size, gpuProfile=None, nodeTaints=None))
    assert r.exit_code == 0, r.stderr
    pool = json.loads(r.stdout)["pools"][0]["poolSpec"]
    assert pool["spec"]["vmSize"] == size and pool["kind"] == "NodePool"
