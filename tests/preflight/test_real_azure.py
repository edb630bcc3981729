"""import and preflight on what Azure really returns.

``../shared/corpus/azure``: ``rest/`` holds REST bodies recorded by the Azure CLI's own tests (2019-2025),
``az/`` what azure-cli 2.91.0 prints for them (its SOURCES.txt and CONVERSIONS.md say how). Every ``az/``
file imports or preflights with the verdict its recorded data supports (the tables below; a test checks
that no file is left out), and every ``rest/`` body is read or refused as :mod:`gpupool.spec.azshape`
decides. The corpus is not part of the repository: these tests skip where it is absent. The hostile
variants of the same shapes (test_hostile_shapes.py) run everywhere.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from support import AZURE, NO_AZURE, run_cli

pytestmark = pytest.mark.skipif(AZURE is None, reason=NO_AZURE)
AZ = AZURE / "az" if AZURE else Path("absent")
REST = AZURE / "rest" if AZURE else Path("absent")

# ---- import: file -> {pool: {field of the imported spec (dotted): value}}, notes on stderr -------------

IMPORTED: dict[str, dict[str, dict[str, Any]]] = {
    "01_pool_show_mig3g_nd96asr.json": {
        "c000004": {
            "kind": "GpuNodePool",
            "vmSize": "Standard_ND96asr_v4",
            "gpu.instanceProfile": "MIG3g",
            "gpu.driver": "Install",
            "kubernetesVersion": "1.22.11",
            "maxPods": 30,
        }
    },
    "02_pool_show_gpu_driver_install.json": {  # Azure answered "standard_nc6s_v3": the catalog's spelling
        "c000003": {
            "kind": "GpuNodePool",
            "vmSize": "Standard_NC6s_v3",
            "gpu.driver": "Install",
            "gpu.managed": False,
        }
    },
    "03_pool_show_mig3g_akspreview2022.json": {
        "c000004": {"kind": "GpuNodePool", "gpu.instanceProfile": "MIG3g", "kubernetesVersion": "1.23.8"}
    },
    "05_pool_show_spot.json": {  # AKS's own Spot taint and label are dropped (AKS adds them again)
        "s000002": {
            "kind": "NodePool",
            "priority": "Spot",
            "spotMaxPrice": 88.88888,
            "nodeTaints": None,
            "nodeLabels": None,
        }
    },
    "06_pool_show_windows2022.json": {"npwin": {"osSku": "Windows2022", "maxPods": 30}},
    "07_pool_list_paged.json": {"nodepool1": {"mode": "System", "nodeCount": 3}},
    "09_pool_show_gpu_driver_none.json": {"c000002": {"kind": "GpuNodePool", "gpu.driver": "None"}},
    "10_pool_list_gpu_none.json": {
        "nodepool1": {"kind": "NodePool", "mode": "System"},
        "c000002": {"kind": "GpuNodePool", "gpu.driver": "None"},
    },
    "11_aks_show_autoscaler.json": {
        "nodepool1": {
            "location": "westus2",
            "autoscaler.minCount": 1,
            "autoscaler.maxCount": 5,
            "nodeCount": 1,
            "clusterName": "cliakstest000002",
        }
    },
    "21_pool_list_2019.json": {"nodepool1": {"mode": "User"}, "nodepool2": {"mode": "User"}},
    "22_pool_show_2019.json": {"nodepool2": {"nodeCount": 3, "kubernetesVersion": "1.13.10"}},
    "23_aks_show_zones_2019.json": {"nodepool1": {"location": "eastus", "zones": ["1", "2", "3"]}},
    "24_pool_show_zones_2019.json": {"nodepool2": {"zones": ["1", "2", "3"]}},
    "26_pool_list_windows_2021.json": {"nodepool1": {"osSku": "Ubuntu"}, "npwin": {"osSku": "Windows2019"}},
    "27_pool_show_windows_2021.json": {"npwin": {"osSku": "Windows2019"}},
    "28_pool_show_nodeconfig_2021.json": {"nodepool2": {"vmSize": "Standard_DS2_v2"}},
    "31_pool_show_spot_2021.json": {"s000002": {"priority": "Spot", "spotMaxPrice": 88.88888}},
    "32_pool_list_3pools_2021.json": {
        "nodepool1": {"mode": "System"},
        "nodepool2": {"mode": "User", "nodeLabels.label1": "value1"},
        "nodepool3": {"mode": "System"},
    },
    "33_aks_show_2021.json": {"nodepool1": {"location": "eastus", "maxPods": 110}},
    "34_pool_show_zones_2021.json": {"nodepool2": {"zones": ["1", "2", "3"], "nodeCount": 3}},
    "35_aks_show_windows_2021.json": {"nodepool1": {"maxPods": 30}, "npwin": {"osSku": "Windows2019"}},
}
IMPORT_NOTES = {
    "05_pool_show_spot.json": "dropped taint kubernetes.azure.com/scalesetpriority=spot:NoSchedule",
    "21_pool_list_2019.json": "mode is null (older API versions print none): written as User",
    "27_pool_show_windows_2021.json": "osSku is null; assumed Windows2019",
    "28_pool_show_nodeconfig_2021.json": "kubeletConfig.cpuManagerPolicy",
}
# Not node pools (or a pool gpupool does not model): exit 2, one line.
NOT_IMPORTED = {
    "04_get_versions_westus2.json": ":1: az JSON: not a node pool object",
    "12_pool_show_gateway_mode.json": ":29: az JSON: pool gwnp is a Gateway pool",
    "20_cli2019_usage_westus_list_usage.json": ":2: az JSON: not a node pool object",
    "30_cli2021_usage_westus_list_usage.json": ":2: az JSON: not a node pool object",
    "41_list_skus_brazilsouth_all.json": ":2: az JSON: not a node pool object",
    "41_list_skus_brazilsouth_noall.json": ":2: az JSON: not a node pool object",
    "41_list_skus_eastus2_all.json": ":2: az JSON: not a node pool object",
    "41_list_skus_eastus2_noall.json": ":2: az JSON: not a node pool object",
    "50_az_version_2.91.0.json": ":1: az JSON: not a node pool object",
}


def _flat(data: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in data.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            out.update(_flat(v, f"{key}."))
        out[key] = v
    return out


def _imported(path: Path, *args: str) -> tuple[dict[str, dict[str, Any]], str]:
    r = run_cli("import", str(path), "-o", "json", *args)
    assert r.exit_code == 0, r.stderr
    pools = {}
    for p in json.loads(r.stdout)["pools"]:
        doc = p["poolSpec"]
        pools[doc["metadata"]["name"]] = {"kind": doc["kind"], **_flat(doc["spec"])}
    return pools, r.stderr


@pytest.mark.parametrize("name", sorted(IMPORTED))
def test_az_pool_files_import_with_their_recorded_settings(name: str) -> None:
    pools, stderr = _imported(AZ / name)
    assert set(pools) == set(IMPORTED[name])
    for pool, want in IMPORTED[name].items():
        got = {k: pools[pool].get(k) for k in want}
        assert got == want, (pool, got)
    if name in IMPORT_NOTES:
        assert IMPORT_NOTES[name] in stderr, stderr
    # and the YAML it writes reads back as pool specs
    r = run_cli("import", str(AZ / name))
    assert r.exit_code == 0 and len(list(yaml.safe_load_all(r.stdout))) == len(IMPORTED[name])


@pytest.mark.parametrize("name", sorted(NOT_IMPORTED))
def test_az_files_that_are_not_node_pools_exit_2_one_line(name: str) -> None:
    r = run_cli("import", str(AZ / name))
    assert r.exit_code == 2, r.stdout
    assert r.stderr.count("\n") == 1 and f"{AZ / name}{NOT_IMPORTED[name]}" in r.stderr, r.stderr


def test_gateway_pool_is_left_out_and_the_others_import(tmp_path: Path) -> None:
    """A Gateway pool (a real recorded one) beside a GPU pool: -n naming the GPU pool imports it; no -n
    imports the GPU pool with a note; -n naming the Gateway pool says why not."""
    gw = json.loads((AZ / "12_pool_show_gateway_mode.json").read_text())
    gpu = json.loads((AZ / "09_pool_show_gpu_driver_none.json").read_text())
    f = tmp_path / "list.json"
    f.write_text(json.dumps([gw, gpu], indent=2))
    pools, stderr = _imported(f, "-n", "c000002")
    assert set(pools) == {"c000002"} and "Gateway" not in stderr
    pools, stderr = _imported(f)
    assert set(pools) == {"c000002"}
    assert f"note: pool gwnp ({f}:30) not imported: a Gateway pool" in stderr
    r = run_cli("import", str(f), "-n", "gwnp")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert f"{f}:30: az JSON: pool gwnp is a Gateway pool" in r.stderr and "other pools: c000002" in r.stderr


# ---- preflight: each az file that is preflight's input, with the verdict its data supports ------------


def _spec(tmp: Path, name: str = "gpunp", **fields: Any) -> Path:
    body = {
        "resourceGroup": "clitest000001",
        "clusterName": "cliakstest000002",
        "nodeCount": 1,
        "vmSize": "Standard_DS2_v2",
        **fields,
    }
    kind = (
        "GpuNodePool" if "gpu" in fields or "NC" in body["vmSize"] or "NV" in body["vmSize"] else "NodePool"
    )
    if kind == "GpuNodePool":
        body.setdefault("nodeTaints", ["sku=gpu:NoSchedule"])
    f = tmp / f"{name}.yaml"
    f.write_text(
        yaml.safe_dump(
            {"apiVersion": "gpupool/v1", "kind": kind, "metadata": {"name": name}, "spec": body},
            sort_keys=False,
        )
    )
    return f


# id -> (spec fields, preflight flags -> az file, {rule: severity} expected, rules that must not fire)
PREFLIGHT: dict[str, tuple[dict[str, Any], dict[str, str], dict[str, str], set[str]]] = {
    # a hyphenated size with a real NotAvailableForSubscription restriction (list-skus --all keeps it)
    "restricted-m8-2ms": (
        {"location": "brazilsouth", "vmSize": "Standard_M8-2ms"},
        {"--skus": "41_list_skus_brazilsouth_all.json"},
        {"GP702": "error"},
        {"GP701"},
    ),
    # without --all az drops the restricted rows: the size is not in the list
    "hidden-without-all": (
        {"location": "brazilsouth", "vmSize": "Standard_M8-4ms"},
        {"--skus": "41_list_skus_brazilsouth_noall.json"},
        {"GP701": "error"},
        {"GP702"},
    ),
    "offered-e4as": (
        {"location": "brazilsouth", "vmSize": "Standard_E4as_v4"},
        {
            "--skus": "41_list_skus_brazilsouth_noall.json",
            "--usage": "30_cli2021_usage_westus_list_usage.json",
        },
        {},
        {"GP701", "GP702", "GP703", "GP704", "GP705"},
    ),
    "m416-zone-2-no-quota": (  # zone 2 offers it; standardMSv2Family is 0 of 0 in the 2021 list
        {"location": "eastus2", "vmSize": "Standard_M416-208s_v2", "zones": ["2"]},
        {"--skus": "41_list_skus_eastus2_all.json", "--usage": "30_cli2021_usage_westus_list_usage.json"},
        {"GP704": "error", "GP705": "error"},
        {"GP701", "GP702", "GP703"},
    ),
    "nv12s-v3-zone-1": (  # the recorded row offers zone 2 only
        {"location": "eastus2", "vmSize": "Standard_NV12s_v3", "zones": ["1", "2"]},
        {"--skus": "41_list_skus_eastus2_noall.json"},
        {"GP703": "error"},
        {"GP701"},
    ),
    "spot-2019-no-low-priority-row": (  # the 2019 usage list has no lowPriorityCores: cannot check
        {"location": "westus", "vmSize": "Standard_DS2_v2", "priority": "Spot", "nodeCount": 2},
        {"--usage": "20_cli2019_usage_westus_list_usage.json"},
        {"GP706": "warning"},
        {"GP704", "GP705"},
    ),
    "spot-2021-fits": (  # lowPriorityCores 0 of 100; (2 + 1) x 2 vCPUs
        {"location": "westus", "vmSize": "Standard_DS2_v2", "priority": "Spot", "nodeCount": 2},
        {"--usage": "30_cli2021_usage_westus_list_usage.json"},
        {},
        {"GP704", "GP705", "GP706"},
    ),
    "versions-cluster-1.23-not-offered": (  # westus2 offered 1.26-1.28 in 2024; the cluster runs 1.23.12
        {},
        {"--versions": "04_get_versions_westus2.json", "--cluster": "11_aks_show_autoscaler.json"},
        {"GP707": "error", "GP709": "info"},
        {"GP712", "GP713"},
    ),
    "kubenet-existing-pool-newer-than-control-plane": (
        {"kubernetesVersion": "1.27"},
        {"--versions": "04_get_versions_westus2.json", "--cluster": "11_aks_show_autoscaler.json"},
        {"GP712": "error", "GP709": "info"},
        {"GP707"},
    ),
    "pool-exists": (
        {"name": "nodepool1"},
        {"--cluster": "11_aks_show_autoscaler.json"},
        {"GP713": "warning"},
        set(),
    ),
    "kubenet-2019": (
        {"clusterName": "cliakstest000001", "kubernetesVersion": "1.13"},
        {"--cluster": "23_aks_show_zones_2019.json"},
        {"GP709": "info"},
        {"GP712", "GP713", "GP714"},
    ),
    "kubenet-2021": (
        {"clusterName": "cliakstest000001", "name": "nodepool1"},
        {"--cluster": "33_aks_show_2021.json"},
        {"GP709": "info", "GP713": "warning"},
        {"GP712"},
    ),
    "azure-cni-node-subnet-30-pods": (
        {"clusterName": "cliakstest000001"},
        {"--cluster": "35_aks_show_windows_2021.json"},
        {"GP709": "warning"},
        set(),
    ),
    "managed-gpu-needs-aks-preview": (
        {
            "location": "eastus",
            "vmSize": "Standard_NC4as_T4_v3",
            "gpu": {"driver": "Install", "managed": True},
        },
        {"--az-version": "50_az_version_2.91.0.json"},
        {"GP711": "error"},
        {"GP710"},
    ),
    "driver-install-cli-new-enough": (
        {"location": "eastus", "vmSize": "Standard_NC4as_T4_v3", "gpu": {"driver": "Install"}},
        {"--az-version": "50_az_version_2.91.0.json"},
        {},
        {"GP710", "GP711"},
    ),
}


def preflight(tmp: Path, fields: dict[str, Any], flags: dict[str, str], base: Path = AZ) -> tuple[int, dict]:
    fields = dict(fields)
    spec = _spec(tmp, fields.pop("name", "gpunp"), **fields)
    args = [x for flag, f in flags.items() for x in (flag, str(base / f))]
    r = run_cli("preflight", str(spec), *args, "-o", "json")
    assert r.exit_code in (0, 1), r.stderr
    found: dict[str, str] = {}
    for f in json.loads(r.stdout)["findings"]:
        found.setdefault(f["rule"], f["severity"])
    return r.exit_code, found


@pytest.mark.parametrize("case", sorted(PREFLIGHT))
def test_preflight_on_recorded_az_output(tmp_path: Path, case: str) -> None:
    fields, flags, want, absent = PREFLIGHT[case]
    code, found = preflight(tmp_path, fields, flags)
    assert {r: found.get(r) for r in want} == want, found
    assert not absent & set(found), found
    assert code == (1 if "error" in found.values() else 0)


def test_every_az_file_has_a_verdict() -> None:
    used = set(IMPORTED) | {f for _, flags, _, _ in PREFLIGHT.values() for f in flags.values()}
    assert {p.name for p in AZ.glob("*.json")} <= used | set(NOT_IMPORTED)
    assert {p.name for p in AZ.glob("*.json")} - set(IMPORTED) <= set(NOT_IMPORTED)


# ---- the REST bodies: refused (node pools, clusters, old APIs), or read like az's output --------------

REST_REFUSED_BY_IMPORT = {
    **{
        n: 'REST body of a node pool (settings under "properties")'
        for n in (
            "01_azcli_gpu_instance_profile_pool_get.json",
            "02_azcli_gpu_driver_install_pool_get.json",
            "03_akspreview_gpu_instance_profile_pool_get.json",
            "05_azcli_spot_pool_get.json",
            "06_azcli_windows2022_pool_get.json",
            "09_azcli_gpu_driver_none_pool_get.json",
            "12_azcli_gateway_mode_pool_get.json",
            "22_cli2019_pool_get_nodepool2.json",
            "24_cli2019_pool_get_zones.json",
            "27_akspreview2021_pool_get_npwin.json",
            "28_akspreview2021_pool_get_nodeconfig.json",
            "31_cli2021_spot_pool_get.json",
            "34_cli2021_pool_get_zones.json",
        )
    },
    **{
        n: 'REST list (items with "properties")'
        for n in (
            "07_azcli_agentpools_list_paged_p1.json",
            "10_azcli_agentpools_list_gpu_none.json",
            "21_cli2019_agentpools_list.json",
            "26_akspreview2021_agentpools_list_windows.json",
            "32_cli2021_agentpools_list_3pools.json",
        )
    },
    "08_azcli_agentpools_list_paged_p2.json": 'REST list ({"value": [...]})',
    **{
        n: "REST body of a cluster"
        for n in (
            "11_azcli_cluster_autoscaler_put201.json",
            "23_cli2019_cluster_zones.json",
            "33_cli2021_cluster_show.json",
            "35_cli2021_cluster_windows.json",
        )
    },
}


@pytest.mark.parametrize("name", sorted(REST_REFUSED_BY_IMPORT))
def test_rest_bodies_given_to_import_say_so(name: str) -> None:
    r = run_cli("import", str(REST / name))
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.stderr
    assert f"this is an Azure {REST_REFUSED_BY_IMPORT[name]}" in r.stderr and "not `az` output" in r.stderr
    assert f"{REST / name}:" in r.stderr


@pytest.mark.parametrize(
    ("flag", "name", "needle"),
    [
        (
            "--cluster",
            "11_azcli_cluster_autoscaler_put201.json",
            ":10: this is an Azure REST body of a cluster",
        ),
        ("--cluster", "23_cli2019_cluster_zones.json", "REST body of a cluster"),
        ("--cluster", "33_cli2021_cluster_show.json", "REST body of a cluster"),
        ("--cluster", "35_cli2021_cluster_windows.json", "REST body of a cluster"),
        ("--versions", "25_cli2019_orchestrators_eastus.json", "retired orchestrators API"),
        ("--versions", "29_akspreview2021_orchestrators_westus2.json", "retired orchestrators API"),
        ("--skus", "07_azcli_agentpools_list_paged_p1.json", 'REST list (items with "properties")'),
    ],
)
def test_rest_bodies_preflight_does_not_read_exit_2(
    tmp_path: Path, flag: str, name: str, needle: str
) -> None:
    """Never "Azure CNI Overlay, 250 pods" for a recorded kubenet cluster read without its properties."""
    r = run_cli("preflight", str(_spec(tmp_path)), flag, str(REST / name))
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.stderr
    assert needle in r.stderr and str(REST / name) in r.stderr


# REST bodies whose fields az prints unchanged (only `value` taken out): the same verdicts as az's output
REST_SAME_AS_AZ = {
    "04_azcli_versions_westus2.json": (
        "--versions",
        "04_get_versions_westus2.json",
        "versions-cluster-1.23-not-offered",
    ),
    "20_cli2019_usage_westus.json": (
        "--usage",
        "20_cli2019_usage_westus_list_usage.json",
        "spot-2019-no-low-priority-row",
    ),
    "30_cli2021_usage_westus.json": (
        "--usage",
        "30_cli2021_usage_westus_list_usage.json",
        "m416-zone-2-no-quota",
    ),
    "40_skus2020_slice_brazilsouth.json": (
        "--skus",
        "41_list_skus_brazilsouth_all.json",
        "restricted-m8-2ms",
    ),
    "40_skus2020_slice_eastus2.json": ("--skus", "41_list_skus_eastus2_all.json", "m416-zone-2-no-quota"),
    "41_skus2020_slice_mixed.json": ("--skus", "41_list_skus_brazilsouth_all.json", "restricted-m8-2ms"),
}


@pytest.mark.parametrize("name", sorted(REST_SAME_AS_AZ))
def test_rest_lists_read_like_az_output(tmp_path: Path, name: str) -> None:
    flag, az_name, case = REST_SAME_AS_AZ[name]
    fields, flags, _, _ = PREFLIGHT[case]
    assert flags[flag] == az_name  # the REST body replaces the az output it was printed from
    flags = {k: str(AZ / v) for k, v in flags.items()}
    with_az = preflight(tmp_path, fields, flags, Path("/"))
    with_rest = preflight(tmp_path, fields, {**flags, flag: str(REST / name)}, Path("/"))
    assert with_rest == with_az and with_az[1]


def test_every_rest_file_has_a_verdict() -> None:
    named = (
        set(REST_REFUSED_BY_IMPORT)
        | set(REST_SAME_AS_AZ)
        | {"25_cli2019_orchestrators_eastus.json", "29_akspreview2021_orchestrators_westus2.json"}
    )
    assert {p.name for p in REST.glob("*.json")} == named
