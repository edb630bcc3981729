"""Advertised resources per node: the oracle is the table in the AKS/NVIDIA docs, written out here
independently of catalog/data (MicrosoftDocs/azure-aks-docs gpu-multi-instance.md; NVIDIA MIG user guide)."""

from __future__ import annotations

import pytest

from gpupool.design.node import advertised, device_plugin_mode, node_labels
from support import make_pool

# size -> (GPUs per VM, {profile: device name})
MIG_TABLE = {
    "Standard_ND96asr_v4": (8, {"MIG1g": "1g.5gb", "MIG2g": "2g.10gb", "MIG3g": "3g.20gb", "MIG4g": "4g.20gb",
                                "MIG7g": "7g.40gb"}),
    "Standard_NC24ads_A100_v4": (1, {"MIG1g": "1g.10gb", "MIG2g": "2g.20gb", "MIG3g": "3g.40gb",
                                     "MIG4g": "4g.40gb", "MIG7g": "7g.80gb"}),
    "Standard_ND96amsr_A100_v4": (8, {"MIG1g": "1g.10gb", "MIG2g": "2g.20gb", "MIG3g": "3g.40gb",
                                      "MIG4g": "4g.40gb", "MIG7g": "7g.80gb"}),
    "Standard_ND96isr_H100_v5": (8, {"MIG1g": "1g.10gb", "MIG2g": "2g.20gb", "MIG3g": "3g.40gb",
                                     "MIG4g": "4g.40gb", "MIG7g": "7g.80gb"}),
    "Standard_NC40ads_H100_v5": (1, {"MIG1g": "1g.12gb", "MIG2g": "2g.24gb", "MIG3g": "3g.47gb",
                                     "MIG4g": "4g.47gb", "MIG7g": "7g.94gb"}),
    "Standard_NC80adis_H100_v5": (2, {"MIG1g": "1g.12gb", "MIG2g": "2g.24gb", "MIG3g": "3g.47gb",
                                      "MIG4g": "4g.47gb", "MIG7g": "7g.94gb"}),
    "Standard_ND96isr_H200_v5": (8, {"MIG1g": "1g.18gb", "MIG2g": "2g.35gb", "MIG3g": "3g.71gb",
                                     "MIG4g": "4g.71gb", "MIG7g": "7g.141gb"}),
}
PER_GPU = {"MIG1g": 7, "MIG2g": 3, "MIG3g": 2, "MIG4g": 1, "MIG7g": 1}
CASES = [(size, prof) for size, (_, table) in MIG_TABLE.items() for prof in table]


@pytest.mark.parametrize(("size", "profile"), CASES)
def test_mig_mixed(size, profile):
    gpus, table = MIG_TABLE[size]
    pool = make_pool(size, gpu={"instanceProfile": profile, "migStrategy": "Mixed"})
    assert advertised(pool).resources == {f"nvidia.com/mig-{table[profile]}": gpus * PER_GPU[profile]}


@pytest.mark.parametrize(("size", "profile"), CASES)
def test_mig_single(size, profile):
    gpus, _ = MIG_TABLE[size]
    pool = make_pool(size, gpu={"instanceProfile": profile, "migStrategy": "Single"})
    assert advertised(pool).resources == {"nvidia.com/gpu": gpus * PER_GPU[profile]}


def test_design_notes_headline_case():
    pool = make_pool("Standard_ND96asr_v4", gpu={"instanceProfile": "MIG1g", "migStrategy": "Mixed"})
    assert advertised(pool).resources == {"nvidia.com/mig-1g.5gb": 56}
    assert advertised(make_pool("Standard_ND96asr_v4", gpu={"instanceProfile": "MIG1g"})).resources == {
        "nvidia.com/gpu": 56}


@pytest.mark.parametrize(
    ("size", "gpu", "expected"),
    [
        ("Standard_NC4as_T4_v3", {}, {"nvidia.com/gpu": 1}),
        ("Standard_NC64as_T4_v3", {}, {"nvidia.com/gpu": 4}),
        ("Standard_NC4as_T4_v3", {"sharing": {"timeSlicing": {"replicas": 4}}}, {"nvidia.com/gpu": 4}),
        ("Standard_NC64as_T4_v3", {"sharing": {"timeSlicing": {"replicas": 10, "renameByDefault": True}}},
         {"nvidia.com/gpu.shared": 40}),
        ("Standard_ND96asr_v4", {"instanceProfile": "MIG1g", "migStrategy": "Mixed",
                                 "sharing": {"timeSlicing": {"replicas": 2}}},
         {"nvidia.com/mig-1g.5gb": 112}),
        ("Standard_ND96asr_v4", {"instanceProfile": "MIG3g", "migStrategy": "Mixed",
                                 "sharing": {"timeSlicing": {"replicas": 3, "renameByDefault": True}}},
         {"nvidia.com/mig-3g.20gb.shared": 48}),
        ("Standard_NV6ads_A10_v5", {}, {"nvidia.com/gpu": 1}),  # 1/6 vGPU shows as one device
        ("Standard_ND96isr_MI300X_v5", {"driver": "None"}, {"amd.com/gpu": 8}),
    ],
)
def test_other_cases(size, gpu, expected):
    assert advertised(make_pool(size, gpu=gpu)).resources == expected


def test_managed_plugin_strategy_and_sharing():
    # Managed plugin: mixed only for Mixed; single otherwise (Azure/AgentBaker startNvidiaManagedExpServices)
    p = make_pool("Standard_NC24ads_A100_v4",
                  gpu={"managed": True, "instanceProfile": "MIG1g", "migStrategy": "None"})
    assert advertised(p).resources == {"nvidia.com/gpu": 7} and advertised(p).plugin == "managed"
    p = make_pool("Standard_NC4as_T4_v3", gpu={"managed": True, "sharing": {"timeSlicing": {"replicas": 4}}})
    assert advertised(p).resources == {"nvidia.com/gpu": 1}


def test_non_gpu_pools_advertise_nothing():
    assert advertised(make_pool("Standard_D4s_v5", kind="NodePool")).resources == {}
    assert advertised(make_pool("Standard_NoSuchSize")).resources == {}


def test_plugin_modes():
    assert device_plugin_mode(make_pool()) == "self-managed"
    assert device_plugin_mode(make_pool(gpu={"driver": "None"})) == "gpu-operator"
    assert device_plugin_mode(make_pool(gpu={"managed": True})) == "managed"
    assert device_plugin_mode(make_pool(osSku="Windows2022")) == "windows-directx"


def test_node_labels():
    labels = node_labels(make_pool(priority="Spot", nodeLabels={"team": "ml"}))
    assert labels["kubernetes.azure.com/agentpool"] == "gpunp" and labels["agentpool"] == "gpunp"
    assert labels["kubernetes.azure.com/accelerator"] == "nvidia"
    assert labels["kubernetes.azure.com/scalesetpriority"] == "spot" and labels["team"] == "ml"
    assert labels["node.kubernetes.io/instance-type"] == "Standard_NC4as_T4_v3"
