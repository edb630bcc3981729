"""`az aks nodepool show/list -o json` -> PoolSpec (gpupool.spec.azjson), with realistic CLI output."""

from __future__ import annotations

import json
import re

import pytest

from diff.helpers import AZ_A100, AZ_LIST, AZ_T4, az_json
from gpupool.errors import InputError
from gpupool.spec import azjson, load_pools


def one(path, **kw):
    pools = azjson.load_az_pools(path, **kw)
    assert len(pools) == 1
    return pools[0]


def test_show_json_t4_pool():
    az = one(AZ_T4)
    p = az.pool
    assert (p.kind, p.name, p.vm_size) == ("GpuNodePool", "gpunp", "Standard_NC4as_T4_v3")
    assert (az.resource_group, az.cluster_name) == ("myResourceGroup", "myAKSCluster")
    assert (p.resource_group, p.cluster_name) == ("myResourceGroup", "myAKSCluster")
    assert az.subscription == "00000000-0000-0000-0000-000000000000"
    assert p.autoscaler is not None and (p.autoscaler.min_count, p.autoscaler.max_count) == (1, 3)
    assert p.node_count == 2
    assert [str(t) for t in p.node_taints] == ["sku=gpu:NoSchedule"]
    assert (p.kubernetes_version, p.max_pods, p.mode, p.os_sku, p.priority) == (
        "1.34",
        110,
        "User",
        "Ubuntu",
        "Regular",
    )
    assert p.gpu_settings.driver == "Install" and not p.gpu_settings.managed
    assert az.current_version == "1.34.6" and az.power_state == "Running"
    assert az.provisioning_state == "Succeeded" and az.pool_type == "VirtualMachineScaleSets"
    # where each field came from: lines of the JSON keys
    text = AZ_T4.read_text().splitlines()
    assert '"vmSize"' in text[p.where.line_of("vmSize") - 1]
    assert '"nodeTaints"' in text[p.where.line_of("nodeTaints") - 1]


def test_unmodeled_settings_are_kept_not_defaults():
    az = one(AZ_T4)
    assert az.unmodeled == {
        "osDiskSizeGb": 128,
        "osDiskType": "Managed",
        "upgradeSettings.maxSurge": "10%",
        "upgradeSettings.maxUnavailable": "0",
    }
    a100 = one(AZ_A100)
    assert a100.unmodeled["osDiskType"] == "Ephemeral"
    assert a100.unmodeled["tags.team"] == "ml"
    assert a100.unmodeled["vnetSubnetId"].endswith("/subnets/gpu")
    assert not any(
        k.startswith(("nodeLabels", "nodeTaints", "availabilityZones", "powerState", "id"))
        for k in a100.unmodeled
    )


def test_show_json_managed_mig_pool():
    az = one(AZ_A100)
    p = az.pool
    g = p.gpu_settings
    assert (g.managed, g.instance_profile, g.mig_strategy, g.driver) == (True, "MIG1g", "Mixed", "Install")
    assert p.zones == ("1", "2")
    assert p.autoscaler is None and p.node_count == 2
    assert p.node_labels == {"workload": "inference"}
    assert (az.resource_group, az.cluster_name) == ("ml-prod-rg", "ml-prod")


def test_list_json_and_spot_pool():
    pools = {p.pool.name: p for p in azjson.load_az_pools(AZ_LIST)}
    assert list(pools) == ["nodepool1", "gpunp", "spotgpu"]
    sys_pool = pools["nodepool1"].pool
    assert (sys_pool.kind, sys_pool.mode, sys_pool.zones) == ("NodePool", "System", ("1", "2", "3"))
    spot = pools["spotgpu"]
    # AKS adds the Spot taint and label itself: they are implied by priority Spot, not copied
    assert spot.pool.priority == "Spot"
    assert [str(t) for t in spot.pool.node_taints] == ["sku=gpu:NoSchedule"]
    assert spot.pool.node_labels == {}
    assert any("scalesetpriority=spot:NoSchedule" in n for n in spot.notes)
    assert "kubernetes.azure.com/scalesetpriority=spot:NoSchedule" in [
        str(t) for t in spot.pool.effective_taints
    ]
    assert "spotMaxPrice" not in spot.unmodeled and "scaleSetEvictionPolicy" not in spot.unmodeled
    assert azjson.pick(list(pools.values()), "gpunp", "x").pool.name == "gpunp"
    with pytest.raises(InputError, match="pick one with --name"):
        azjson.pick(list(pools.values()), None, "x")
    with pytest.raises(InputError, match='no node pool named "nope"'):
        azjson.pick(list(pools.values()), "nope", "x")


def test_cluster_json_agent_pool_profiles(write):
    t4 = az_json()
    for k in ("id", "resourceGroup", "type"):
        t4.pop(k)
    cluster = {
        "id": "/subscriptions/s/resourcegroups/rg1/providers/Microsoft.ContainerService/managedClusters/c1",
        "name": "c1",
        "location": "westeurope",
        "resourceGroup": "rg1",
        "agentPoolProfiles": [t4],
    }
    p = one(write("cluster.json", cluster)).pool
    assert (p.resource_group, p.cluster_name, p.location, p.name) == ("rg1", "c1", "westeurope", "gpunp")


def test_overrides_and_missing_identity(write):
    az = one(AZ_T4, resource_group="otherRG", cluster_name="otherCluster")
    assert (az.pool.resource_group, az.pool.cluster_name) == ("otherRG", "otherCluster")
    data = az_json()
    data.pop("id")
    path = write("noid.json", data)
    with pytest.raises(InputError, match="no cluster name") as e:
        azjson.load_az_pools(path)
    assert e.value.hint == "pass --cluster-name"
    assert one(path, cluster_name="c").pool.cluster_name == "c"


def test_lowercase_vm_size_and_null_os_sku(write):
    data = az_json(vmSize="standard_nc4as_t4_v3", osSku=None)
    az = one(write("lower.json", data))
    assert az.pool.vm_size == "Standard_NC4as_T4_v3"
    assert az.pool.os_sku == "Ubuntu" and any("osSku is null" in n for n in az.notes)


def _err(path) -> InputError:
    with pytest.raises(InputError) as e:
        azjson.load_az_pools(path)
    return e.value


def _line_of(path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


@pytest.mark.parametrize(
    ("change", "needle", "message"),
    [
        ({"count": "two"}, '"count"', "count: expected integer, got string"),
        ({"nodeTaints": ["sku=gpu:NoSchedule", "bad taint"]}, '"bad taint"', "nodeTaints[1]"),
        ({"nodeTaints": ["sku=gpu:Sometimes"]}, "Sometimes", "effect must be one of"),
        ({"gpuInstanceProfile": "MIG5g"}, '"gpuInstanceProfile"', '"MIG5g" is not one of MIG1g'),
        ({"scaleSetPriority": "Cheap"}, '"scaleSetPriority"', "Regular, Spot"),
        ({"enableAutoScaling": "yes"}, '"enableAutoScaling"', "expected boolean"),
        ({"mode": 7}, '"mode"', "expected string"),
        ({"name": "bad name!"}, '"name"', "not a valid node pool name"),
        ({"nodeLabels": {"team": "a b"}}, '"nodeLabels"', "nodeLabels.team"),
    ],
)
def test_bad_values_point_at_their_line(write, change, needle, message):
    path = write("bad.json", az_json(**change))
    err = _err(path)
    assert message in err.message
    assert err.line == _line_of(path, needle), err.render()
    assert "\n" not in err.render()


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('{\n  "name": "gpunp",\n  "vmSize": \n', 4, "invalid YAML"),
        ('"just a string"\n', 1, "expected a node pool object"),
        ("[]\n", 1, "empty list"),
        ('{"name": "gpunp", "vmSize": "Standard_NC4as_T4_v3"}\n', 1, "not a node pool object"),
        ('[\n  {"name": "a", "count": 1, "vmSize": "Standard_D4s_v5"},\n  42\n]\n', 3, "got integer"),
        (
            '{\n  "name": "a",\n  "count": 1,\n  "count": 2,\n  "vmSize": "Standard_D4s_v5"\n}\n',
            4,
            "duplicate key",
        ),
        (
            '{"name": "a", "count": 1, "vmSize": "Standard_D4s_v5", "enableAutoScaling": true}\n',
            1,
            "minCount/maxCount are null",
        ),
    ],
)
def test_garbage_is_one_line_with_line_number(write, text, line, message):
    err = _err(write("garbage.json", text))
    assert message in err.message
    assert err.line == line
    assert re.match(r"^.*garbage\.json:\d+: ", err.render())


def test_empty_and_binary_files(write, tmp_path):
    assert "empty file" in _err(write("empty.json", "")).message
    b = tmp_path / "bin.json"
    b.write_bytes(b"\x00\x01\x02")
    assert "binary" in _err(b).message


def test_round_trip_through_yaml(tmp_path):
    for src in (AZ_T4, AZ_A100, AZ_LIST):
        for az in azjson.load_az_pools(src):
            out = tmp_path / f"{az.pool.name}.yaml"
            out.write_text(azjson.to_yaml(az))
            back = load_pools(out)[0]
            assert back == az.pool, az.pool.name


def test_yaml_lists_unmodeled_settings_as_comments():
    text = azjson.to_yaml(one(AZ_A100))
    assert text.startswith("# Imported from `az aks nodepool` JSON")
    assert "#   osDiskType: Ephemeral" in text
    assert "#   tags.team: ml" in text
    stream = azjson.to_yaml_stream(azjson.load_az_pools(AZ_LIST))
    assert stream.count("apiVersion: gpupool/v1") == 3 and stream.count("\n---\n") == 2


def test_fixtures_have_the_shape_of_the_sdk_agent_pool():
    """The fixtures' keys are what the Azure CLI prints: AgentPool attributes in camelCase (plus the two keys
    the CLI adds, resourceGroup and typePropertiesType)."""
    models = pytest.importorskip("azure.mgmt.containerservice.models")

    def snake(key: str) -> str:
        return re.sub(r"(?<!^)(?=[A-Z])", "_", key).lower()

    known = {n for n in dir(models.ManagedClusterAgentPoolProfileProperties) if not n.startswith("_")}
    known |= {n for n in dir(models.AgentPool) if not n.startswith("_")}
    known |= {"resource_group", "type_properties_type", "e_tag"}
    for path in (AZ_T4, AZ_A100):
        keys = json.loads(path.read_text())
        missing = sorted(k for k in keys if snake(k) not in known)
        assert not missing, (path.name, missing)
    gp = {n for n in dir(models.GPUProfile) if not n.startswith("_")}
    assert {"driver", "nvidia"} <= gp
    assert "management_mode" in dir(models.NvidiaGPUProfile)
    assert {e.value for e in models.GPUInstanceProfile} == {"MIG1g", "MIG2g", "MIG3g", "MIG4g", "MIG7g"}
    assert {e.value for e in models.ScaleSetPriority} == {"Spot", "Regular"}


def test_resource_id_parsing():
    rid = azjson.parse_resource_id(
        "/subscriptions/s/resourcegroups/RG/providers/Microsoft.ContainerService/"
        "managedClusters/c/agentPools/p"
    )
    assert rid is not None and (rid.subscription, rid.resource_group, rid.cluster, rid.pool) == (
        "s",
        "RG",
        "c",
        "p",
    )
    assert azjson.parse_resource_id("/subscriptions/s/resourceGroups/rg") is None
    assert azjson.parse_resource_id(42) is None
