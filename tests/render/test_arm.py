"""ARM templates: property names are Azure's own (checked against azure-mgmt-containerservice models)."""

from __future__ import annotations

import json

import pytest

from gpupool import catalog
from gpupool.render import arm
from support import make_pool

models = pytest.importorskip("azure.mgmt.containerservice.models")

# migStrategy is in the preview API only (2026-01-02-preview+, Azure/azure-rest-api-specs aks preview
# NvidiaGPUProfile); the stable SDK models know managementMode but not migStrategy.
PREVIEW_ONLY = {("gpuProfile", "nvidia", "migStrategy")}


def rest_names(model_cls) -> set[str]:
    """REST (JSON) names of a model's properties, for old (msrest) and new (typespec) SDK generations."""
    attribute_map = getattr(model_cls, "_attribute_map", None)
    if attribute_map:
        return {v["key"].split(".")[-1].replace("\\", "") for v in attribute_map.values()}
    model_cls()  # the typespec models build their field table on first instantiation
    return {f._rest_name for f in model_cls._attr_to_rest_field.values()}


def properties_model():
    names = ("AgentPoolManagedClusterAgentPoolProfileProperties", "ManagedClusterAgentPoolProfileProperties")
    for name in names:
        if hasattr(models, name):
            return getattr(models, name)
    raise AssertionError("no agent pool properties model in the SDK")


POOLS = {
    "full": make_pool(
        "Standard_ND96asr_v4", name="full", mode="System", osSku="AzureLinux", priority="Spot", maxPods=40,
        zones=[1, 3], kubernetesVersion="1.34", nodeLabels={"team": "ml"}, nodeTaints=["sku=gpu:NoSchedule"],
        autoscaler={"minCount": 0, "maxCount": 2}, nodeCount=0, gpu={"instanceProfile": "MIG1g"},
    ),
    "managed": make_pool("Standard_NC24ads_A100_v4", name="managed",
                         gpu={"managed": True, "instanceProfile": "MIG1g", "migStrategy": "Mixed"}),
    "none": make_pool(name="drvnone", gpu={"driver": "None"}),
    "cpu": make_pool("Standard_D4s_v5", kind="NodePool", name="cpu"),
}


def walk(props: dict, model_cls, path=()):
    names = rest_names(model_cls)
    for key, value in props.items():
        here = (*path, key)
        if here in PREVIEW_ONLY:
            continue
        assert key in names, f"{'.'.join(here)} is not a property of {model_cls.__name__}"
        if isinstance(value, dict) and key == "gpuProfile":
            walk(value, models.GPUProfile, here)
        elif isinstance(value, dict) and key == "nvidia":
            walk(value, models.NvidiaGPUProfile, here)


@pytest.mark.parametrize("name", sorted(POOLS))
def test_property_names_exist_in_the_sdk_model(name):
    props = arm.agent_pool_properties(POOLS[name])
    walk(props, properties_model())


def test_full_pool_properties():
    props = arm.agent_pool_properties(POOLS["full"])
    assert props == {
        "count": 0,
        "vmSize": "Standard_ND96asr_v4",
        "type": "VirtualMachineScaleSets",
        "mode": "System",
        "osType": "Linux",
        "osSKU": "AzureLinux",
        "orchestratorVersion": "1.34",
        "enableAutoScaling": True,
        "minCount": 0,
        "maxCount": 2,
        "nodeTaints": ["sku=gpu:NoSchedule"],
        "nodeLabels": {"team": "ml"},
        "scaleSetPriority": "Spot",
        "scaleSetEvictionPolicy": "Delete",
        "spotMaxPrice": -1,
        "maxPods": 40,
        "availabilityZones": ["1", "3"],
        "gpuInstanceProfile": "MIG1g",
        "gpuProfile": {"driver": "Install"},
    }


def test_enum_values_are_the_sdks():
    props = arm.agent_pool_properties(POOLS["full"])
    assert props["gpuInstanceProfile"] in {e.value for e in models.GPUInstanceProfile}
    assert props["scaleSetPriority"] in {e.value for e in models.ScaleSetPriority}
    assert props["scaleSetEvictionPolicy"] in {e.value for e in models.ScaleSetEvictionPolicy}
    assert props["osSKU"] in {e.value for e in models.OSSKU}
    assert props["mode"] in {e.value for e in models.AgentPoolMode}
    driver = arm.agent_pool_properties(POOLS["none"])["gpuProfile"]["driver"]
    assert driver in {e.value for e in models.GPUDriver}
    nvidia = arm.agent_pool_properties(POOLS["managed"])["gpuProfile"]["nvidia"]
    assert nvidia["managementMode"] in {e.value for e in models.ManagementMode}


def test_api_versions():
    assert arm.api_version(POOLS["full"]) == arm.STABLE_API_VERSION
    assert arm.api_version(POOLS["managed"]) == catalog.images()["managedGpu"]["apiVersion"]
    assert arm.api_version(POOLS["managed"]) >= "2026-01-02-preview"
    nvidia = arm.agent_pool_properties(POOLS["managed"])["gpuProfile"]["nvidia"]
    assert nvidia == {"managementMode": "Managed", "migStrategy": "Mixed"}
    # managed settings never go out with the stable API
    for name in ("full", "none", "cpu"):
        assert "nvidia" not in arm.agent_pool_properties(POOLS[name]).get("gpuProfile", {})


def test_managed_without_mig_strategy_uses_the_stable_api():
    """managementMode is in the stable API 2026-08-01 (azure-mgmt-containerservice 41.8.0); only migStrategy
    still needs a preview API."""
    pool = make_pool("Standard_NC4as_T4_v3", name="mt4", gpu={"managed": True})
    assert arm.api_version(pool) == "2026-08-01" == catalog.images()["managedGpu"]["stableApiVersion"]
    assert not arm.needs_preview(pool) and arm.needs_preview(POOLS["managed"])
    props = arm.agent_pool_properties(pool)
    assert props["gpuProfile"]["nvidia"] == {"managementMode": "Managed"}
    doc = json.loads(arm.render(pool))
    assert doc["resources"][0]["apiVersion"] == "2026-08-01"
    assert "stable API 2026-08-01" in doc["metadata"]["description"]
    from gpupool.render import terraform

    tf = terraform.render([pool])
    assert '@2026-08-01"' in tf and "the stable API 2026-08-01" in tf


def test_plain_node_pool_has_no_gpu_profile():
    assert "gpuProfile" not in arm.agent_pool_properties(POOLS["cpu"])


def test_template_is_valid_json_with_one_agent_pool():
    doc = json.loads(arm.render(POOLS["full"]))
    assert doc["$schema"].endswith("deploymentTemplate.json#")
    (res,) = doc["resources"]
    assert res["type"] == "Microsoft.ContainerService/managedClusters/agentPools"
    assert res["name"] == "myAKSCluster/full"


def test_strings_starting_with_a_bracket_stay_literal():
    assert arm.literal("[concat('a')]") == "[[concat('a')]"
    assert arm.literal({"k": ["[x", "y"]}) == {"k": ["[[x", "y"]}


def test_the_sdk_check_catches_a_wrong_name():
    with pytest.raises(AssertionError, match="osSku"):
        walk({"osSku": "Ubuntu"}, properties_model())
    with pytest.raises(AssertionError, match=r"gpuProfile\.drivers"):
        walk({"gpuProfile": {"drivers": "Install"}}, properties_model())
