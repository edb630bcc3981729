from __future__ import annotations

import pytest

from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.spec import load_pools, parse_pool
from gpupool.spec.model import Taint
from support import EXAMPLES, pool_doc


def load_text(tmp_path, text: str):
    p = tmp_path / "pool.yaml"
    p.write_text(text)
    return load_pools(p)


def test_design_notes_example_loads():
    (pool,) = load_pools(EXAMPLES / "t4-driver-only.yaml")
    assert pool.name == "gpunp" and pool.vm_size == "Standard_NC4as_T4_v3"
    assert pool.node_taints == (Taint("sku", "gpu", "NoSchedule"),)
    assert pool.autoscaler is not None and (pool.autoscaler.min_count, pool.autoscaler.max_count) == (1, 3)
    assert pool.gpu_settings.driver == "Install" and pool.gpu_settings.effective_mig_strategy == "None"
    assert pool.where.line_of("vmSize") == 13


def test_defaults():
    p = parse_pool(pool_doc(), "x.yaml")
    assert (p.mode, p.os_sku, p.priority, p.node_count) == ("User", "Ubuntu", "Regular", 1)
    assert p.gpu is None and p.gpu_settings.driver == "Install" and not p.gpu_settings.managed


def test_mig_strategy_defaults_to_single_with_profile():
    p = parse_pool(pool_doc("Standard_ND96asr_v4", gpu={"instanceProfile": "MIG1g"}), "x.yaml")
    assert p.gpu_settings.effective_mig_strategy == "Single"


def test_enum_values_are_case_insensitive_and_normalised():
    p = parse_pool(pool_doc(gpu={"driver": "none", "migStrategy": "mixed"}, mode="system"), "x.yaml")
    assert p.gpu_settings.driver == "None" and p.gpu_settings.mig_strategy == "Mixed" and p.mode == "System"


def test_spot_pool_gets_spot_taint():
    p = parse_pool(pool_doc(priority="Spot", nodeTaints=["sku=gpu:NoSchedule"]), "x.yaml")
    assert Taint("kubernetes.azure.com/scalesetpriority", "spot", "NoSchedule") in p.effective_taints


@pytest.mark.parametrize(
    ("text", "needle", "line"),
    [
        (
            "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\nspec:\n  resourceGroup: rg\n"
            "  clusterName: c\n  vmSize: Standard_NC4as_T4_v3\n  nodeTaint: [a=b:NoSchedule]\n",
            'unknown field "spec.nodeTaint" (did you mean "nodeTaints"?)',
            8,
        ),
        (
            "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\nspec:\n  resourceGroup: rg\n"
            "  clusterName: c\n  vmSize: Standard_NC4as_T4_v3\n  nodeCount: three\n",
            "spec.nodeCount: expected an integer, got string",
            8,
        ),
        (
            "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\nspec:\n  resourceGroup: rg\n"
            "  clusterName: c\n  vmSize: Standard_NC4as_T4_v3\n  gpu:\n    instanceProfile: MIG5g\n",
            'spec.gpu.instanceProfile: "MIG5g" is not one of MIG1g, MIG2g, MIG3g, MIG4g, MIG7g',
            9,
        ),
        (
            "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\nspec:\n  resourceGroup: rg\n"
            "  clusterName: c\n  vmSize: Standard_NC4as_T4_v3\n  nodeTaints: [sku=gpu]\n",
            "has no effect",
            8,
        ),
        (
            "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\nspec:\n  resourceGroup: rg\n"
            "  clusterName: c\n  vmSize: Standard_NC4as_T4_v3\n  kubernetesVersion: 1.30\n",
            "quoted string",
            8,
        ),
        (
            "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\nspec:\n  resourceGroup: rg\n"
            "  clusterName: c\n",
            "spec.vmSize is required",
            4,
        ),
        (
            "apiVersion: gpupool/v1\nkind: NodePool\nmetadata: {name: sys}\nspec:\n  resourceGroup: rg\n"
            "  clusterName: c\n  vmSize: Standard_D4s_v5\n  gpu: {driver: Install}\n",
            "only allowed in kind GpuNodePool",
            8,
        ),
        ("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n", "not a pool spec", 1),
        (
            "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: 'gpu; rm -rf /'}\nspec: {}\n",
            "not a valid node pool name",
            3,
        ),
        (
            "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\nspec:\n"
            "  resourceGroup: 'rg$(touch x)'\n"
            "  clusterName: c\n  vmSize: Standard_NC4as_T4_v3\n",
            "not a valid resource group name",
            5,
        ),
        (
            "apiVersion: gpupool/v1\nkind: GpuNodePool\n"
            "metadata: {name: gpunp}\nmetadata: {name: other}\nspec: {}\n",
            'duplicate key "metadata"',
            4,
        ),
        ("- just\n- a list\n", "not a pool spec", 1),
    ],
)
def test_bad_input_is_one_line_with_location(tmp_path, text, needle, line):
    with pytest.raises(InputError) as e:
        load_text(tmp_path, text)
    msg = str(e.value)
    assert needle in msg
    assert e.value.line == line
    assert "\n" not in msg and msg.startswith(str(tmp_path / "pool.yaml"))


def test_empty_file_has_no_pool(tmp_path):
    with pytest.raises(InputError, match="no pool spec"):
        load_text(tmp_path, "# nothing\n")


def test_two_pools_same_name(tmp_path):
    one = (
        "apiVersion: gpupool/v1\nkind: NodePool\nmetadata: {name: a}\n"
        "spec: {resourceGroup: r, clusterName: c, vmSize: Standard_D4s_v5}\n"
    )
    with pytest.raises(InputError, match="defined twice"):
        load_text(tmp_path, one + "---\n" + one)


def test_loader_accepts_line_aware_data():
    doc = yamlio.load_documents(
        "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: g}\nspec:\n"
        "  resourceGroup: r\n  clusterName: c\n  vmSize: Standard_NC4as_T4_v3\n",
        "x.yaml",
    )[0]
    p = parse_pool(doc.data, "x.yaml", doc.line)
    assert p.where.fields["vmSize"] == 7


def test_load_many_expands_directories(tmp_path):
    from gpupool.spec import load_many

    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "gpu.yaml").write_text((EXAMPLES / "t4-driver-only.yaml").read_text())
    (tmp_path / "sys.yml").write_text(
        "apiVersion: gpupool/v1\nkind: NodePool\nmetadata: {name: sys}\n"
        "spec: {resourceGroup: r, clusterName: c, vmSize: Standard_D4s_v5, mode: System}\n"
    )
    (tmp_path / "pod.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.yaml").write_text("not: a pool\n")
    (tmp_path / "notes.txt").write_text("ignored")
    assert sorted(p.name for p in load_many([tmp_path])) == ["gpunp", "sys"]
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no pool spec"):
        load_many([tmp_path / "empty"])


@pytest.mark.parametrize("size", ["Standard_M8-2ms", "Standard_M416-208s_v2", "standard_e4-2s_v3"])
def test_vm_size_names_with_a_hyphen_are_valid(size: str) -> None:
    """Constrained-vCPU sizes have a hyphen (both listed in az vm list-skus, see tests/preflight)."""
    assert parse_pool(pool_doc(vmSize=size), "p.yaml", 1).vm_size == size


@pytest.mark.parametrize(
    "size", ["-Standard_M8", "Standard_M8-", "Standard__M8", "Standard_M8--2ms", "M 8", "x"]
)
def test_vm_size_names_stay_strict(size: str) -> None:
    with pytest.raises(InputError, match="VM size name"):
        parse_pool(pool_doc(vmSize=size), "p.yaml", 1)
