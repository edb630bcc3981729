"""Terraform: the arguments the spec implies, values escaped, and `terraform fmt` accepts the file."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from gpupool.render import terraform
from support import make_pool

TERRAFORM = shutil.which("terraform")


def attrs(pool) -> dict:
    return dict(terraform.node_pool_attrs(pool))


def test_node_pool_arguments(design_notes_pool):
    a = attrs(design_notes_pool)
    assert a["name"] == "gpunp"
    assert a["vm_size"] == "Standard_NC4as_T4_v3"
    assert a["node_count"] == 1
    assert a["auto_scaling_enabled"] is True and a["min_count"] == 1 and a["max_count"] == 3
    assert a["node_taints"] == ["sku=gpu:NoSchedule"]
    assert a["gpu_driver"] == "Install"
    assert a["mode"] == "User" and a["os_sku"] == "Ubuntu"
    cluster_id = "data.azurerm_kubernetes_cluster.myResourceGroup_myAKSCluster.id"
    assert a["kubernetes_cluster_id"].text == cluster_id
    text = terraform.render([design_notes_pool])
    assert 'data "azurerm_kubernetes_cluster" "myResourceGroup_myAKSCluster"' in text
    assert 'resource "azurerm_kubernetes_cluster_node_pool" "gpunp"' in text
    assert 'version = ">= 4.40.0"' in text  # gpu_driver needs azurerm 4.40.0
    assert "ignore_changes = [node_count]" in text
    assert "azapi" not in text


def test_spot_mig_and_more():
    pool = make_pool("Standard_ND96asr_v4", name="spotmig", priority="Spot", zones=[1], maxPods=30,
                     kubernetesVersion="1.34", nodeLabels={"team": "ml"}, gpu={"instanceProfile": "MIG2g"})
    a = attrs(pool)
    assert a["priority"] == "Spot" and a["eviction_policy"] == "Delete" and a["spot_max_price"] == -1
    # azurerm: Spot pools list the label and taint AKS adds, or every plan shows a diff
    assert a["node_taints"] == ["kubernetes.azure.com/scalesetpriority=spot:NoSchedule"]
    assert a["node_labels"] == {"team": "ml", "kubernetes.azure.com/scalesetpriority": "spot"}
    assert a["gpu_instance"] == "MIG2g"
    assert a["zones"] == ["1"] and a["max_pods"] == 30 and a["orchestrator_version"] == "1.34"


def test_managed_pool_uses_azapi_with_the_preview_api():
    pool = make_pool("Standard_NC24ads_A100_v4", name="mgd", gpu={"managed": True, "instanceProfile": "MIG1g",
                                                                  "migStrategy": "Single"})
    text = terraform.render([pool])
    assert 'resource "azapi_resource" "mgd"' in text
    assert 'type      = "Microsoft.ContainerService/managedClusters/agentPools@2026-01-02-preview"' in text
    assert re.search(r'managementMode\s+= "Managed"', text)
    assert re.search(r'migStrategy\s+= "Single"', text)
    assert 'source  = "Azure/azapi"' in text
    assert "azurerm_kubernetes_cluster_node_pool" not in text


@pytest.mark.parametrize(("value", "literal"), [
    ("plain", '"plain"'),
    ('say "hi"', '"say \\"hi\\""'),
    ("back\\slash", '"back\\\\slash"'),
    ("${file(\"/etc/passwd\")}", '"$${file(\\"/etc/passwd\\")}"'),
    ("%{ if true }x%{ endif }", '"%%{ if true }x%%{ endif }"'),
    ("line\nbreak", '"line\\u000abreak"'),
])
def test_strings_are_escaped(value, literal):
    assert terraform.hcl_string(value) == literal


def test_odd_keys_are_quoted():
    assert terraform.hcl_value({"kubernetes.azure.com/x": "y", "plain": 1}) == (
        '{\n  "kubernetes.azure.com/x" = "y"\n  plain                    = 1\n}'
    )


def _fmt_check(tmp_path, text: str) -> None:
    path = tmp_path / "main.tf"
    path.write_text(text)
    r = subprocess.run([TERRAFORM, "fmt", "-check", "-diff", str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.skipif(TERRAFORM is None, reason="terraform not installed")
def test_terraform_fmt_accepts_the_file(tmp_path, all_matrix_pools):
    """`terraform fmt` parses HCL: it fails on syntax errors and shows any formatting difference."""
    pools = [*all_matrix_pools, make_pool(name="win", osSku="Windows2022"),
             make_pool(name="odd", nodeLabels={"example.com/a": "b"}, priority="Spot")]
    _fmt_check(tmp_path, terraform.render(pools))


@pytest.mark.skipif(TERRAFORM is None, reason="terraform not installed")
def test_terraform_fmt_rejects_broken_hcl(tmp_path):
    path = tmp_path / "main.tf"
    path.write_text('resource "x" "y" {\n  a = "unterminated\n}\n')
    r = subprocess.run([TERRAFORM, "fmt", "-check", str(path)], capture_output=True, text=True)
    assert r.returncode != 0
