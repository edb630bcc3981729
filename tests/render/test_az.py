"""The az script: the exact `az aks nodepool add`, the preview prerequisites, verification, shell hygiene."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpupool import shell
from gpupool.design.node import advertised
from gpupool.render import az, render_files
from gpupool.spec import load_pools
from support import EXAMPLES, make_pool

RENDER_DATA = Path(__file__).resolve().parent / "data"
BASH = shutil.which("bash")
SHELLCHECK = shutil.which("shellcheck") or str(Path(sys.executable).parent / "shellcheck")


def docs_argv() -> list[str]:
    text = (RENDER_DATA / "aks-docs-nodepool-add.sh").read_text()
    code = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    return shlex.split(code.replace("\\\n", " "))


def flags(argv: list[str]) -> dict[str, list[str]]:
    """``--flag v1 v2`` groups of an argv (after the command words)."""
    out: dict[str, list[str]] = {}
    current = None
    for token in argv[4:]:
        if token.startswith("--"):
            current = token
            assert current not in out, f"{current} given twice"
            out[current] = []
        else:
            assert current is not None
            out[current].append(token)
    return out


def rendered_argv(pool) -> list[str]:
    """The nodepool add command as bash would split it, read back from the rendered script."""
    script = az.script([pool])
    m = re.search(r"^az aks nodepool add \\\n(?:    .*\\\n)*    .*$", script, re.M)
    assert m, script
    return shlex.split(m.group(0).replace("\\\n", " "))


def test_design_notes_pool_matches_the_aks_docs_flag_by_flag(design_notes_pool):
    docs = docs_argv()
    ours = az.nodepool_add_argv(design_notes_pool)
    assert ours[:4] == docs[:4] == ["az", "aks", "nodepool", "add"]
    assert flags(ours) == flags(docs)
    # Same flags in the same order as the docs, and the script says exactly that once bash has parsed it.
    assert ours == docs
    assert rendered_argv(design_notes_pool) == docs


def test_example_spec_adds_only_the_kubernetes_version():
    pool = load_pools(EXAMPLES / "t4-driver-only.yaml")[0]
    ours = flags(az.nodepool_add_argv(pool))
    expected = {**flags(docs_argv()), "--kubernetes-version": ["1.35"]}
    assert ours == expected


def test_spot_flags_as_in_the_aks_docs():
    f = flags(az.nodepool_add_argv(make_pool(priority="Spot")))
    assert f["--priority"] == ["Spot"]
    assert f["--eviction-policy"] == ["Delete"]
    assert f["--spot-max-price"] == ["-1"]


def test_every_spec_field_has_its_flag():
    pool = make_pool(
        "Standard_ND96asr_v4", name="sysmig", mode="System", osSku="AzureLinux", maxPods=50, zones=[1, 2],
        kubernetesVersion="1.34.1", nodeLabels={"team": "ml", "example.com/tier": "gold"},
        nodeTaints=["sku=gpu:NoSchedule", "dedicated:NoExecute"],
        gpu={"driver": "None", "instanceProfile": "MIG3g"},
    )
    f = flags(az.nodepool_add_argv(pool))
    assert f["--mode"] == ["System"]
    assert f["--os-sku"] == ["AzureLinux"]
    assert f["--max-pods"] == ["50"]
    assert f["--zones"] == ["1", "2"]
    assert f["--kubernetes-version"] == ["1.34.1"]
    assert f["--labels"] == ["team=ml", "example.com/tier=gold"]
    assert f["--node-taints"] == ["sku=gpu:NoSchedule,dedicated:NoExecute"]
    assert f["--gpu-driver"] == ["None"]
    assert f["--gpu-instance-profile"] == ["MIG3g"]
    assert "--enable-managed-gpu=true" not in f and "--gpu-mig-strategy" not in f  # managed (preview) only
    assert "--os-type" not in f


def test_defaults_are_left_out():
    f = flags(az.nodepool_add_argv(make_pool()))
    assert set(f) == {"--resource-group", "--cluster-name", "--name", "--node-count", "--node-vm-size"}


def test_managed_flags(pool_named):
    f = flags(az.nodepool_add_argv(pool_named("managed")))
    assert f["--enable-managed-gpu=true"] == []  # the docs spelling (aks-managed-gpu-nodes.md)
    assert f["--gpu-mig-strategy"] == ["Mixed"]
    assert f["--gpu-instance-profile"] == ["MIG1g"]
    assert "--gpu-driver" not in f
    # MIG profile without a strategy: the spec's default (Single) is written out.
    f = flags(az.nodepool_add_argv(make_pool("Standard_NC24ads_A100_v4", gpu={"managed": True,
                                                                             "instanceProfile": "MIG2g"})))
    assert f["--gpu-mig-strategy"] == ["Single"]
    f = flags(az.nodepool_add_argv(make_pool(gpu={"managed": True})))
    assert "--gpu-mig-strategy" not in f
    # migStrategy None is the API default; the CLI accepts only Single and Mixed, so it is left out.
    f = flags(az.nodepool_add_argv(make_pool(gpu={"managed": True, "migStrategy": "None"})))
    assert "--gpu-mig-strategy" not in f


def test_windows_pool_sets_the_os_type():
    f = flags(az.nodepool_add_argv(make_pool(name="win", osSku="Windows2022")))
    assert f["--os-type"] == ["Windows"]
    assert f["--os-sku"] == ["Windows2022"]


def test_managed_prerequisites_only_for_managed_pools(pool_named):
    plain = az.script([pool_named("t4")])
    assert "aks-preview" not in plain and "az feature" not in plain
    managed = az.script([pool_named("t4"), pool_named("managed")])
    assert "az extension add --name aks-preview" in managed
    assert "az extension update --name aks-preview" in managed
    assert ("az feature register --namespace Microsoft.ContainerService --name 'ManagedGPUExperiencePreview'"
            in managed)
    assert "az provider register --namespace Microsoft.ContainerService" in managed
    # prerequisites come before the first nodepool add
    assert managed.index("az feature register") < managed.index("az aks nodepool add")


def test_script_header_and_no_get_credentials(pool_named):
    text = az.script([pool_named("t4")])
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "\nset -euo pipefail\n" in text
    assert "get-credentials" not in text.replace("az aks get-credentials is not run", "")


def test_verification_checks_the_advertised_resource(matrix):
    pool = matrix
    name = pool.name
    files = {f.path: f.text for f in render_files([pool])}
    text = files["az/create-node-pools.sh"]
    assert f"wait_for_nodes {shell.quote(name)}" in text
    assert 'kubectl wait --for=condition=Ready node -l "kubernetes.azure.com/agentpool=$1"' in text
    for resource, count in advertised(pool).resources.items():
        jsonpath = "{.status.capacity." + resource.replace(".", "\\.") + "}"
        line = f"check_capacity {shell.quote(name)} {shell.quote(resource)} {shell.quote(jsonpath)} '{count}'"
        assert line in text
    if advertised(pool).plugin == "self-managed":
        # the device plugin is applied before the capacity check
        check = text.index(f"check_capacity {shell.quote(name)}")
        assert text.index(f"k8s/{name}/10-device-plugin.yaml") < check
    if advertised(pool).plugin == "gpu-operator":
        assert text.index("gpu-operator/") < text.index(f"check_capacity {shell.quote(name)}")


def test_expected_counts_from_advertised(pool_named):
    text = az.script([pool_named("migsingle"), pool_named("migmixed"), pool_named("tslicer")])
    assert "'nvidia.com/gpu' '{.status.capacity.nvidia\\.com/gpu}' '56'" in text
    assert "'nvidia.com/mig-1g.5gb' '{.status.capacity.nvidia\\.com/mig-1g\\.5gb}' '56'" in text
    assert "'nvidia.com/gpu.shared' '{.status.capacity.nvidia\\.com/gpu\\.shared}' '3'" in text


def _all_scripts(tmp_path: Path, pools: list) -> list[Path]:
    pools = list(pools)
    pools += [make_pool(name="win", osSku="Windows2022"), make_pool("Standard_ND96isr_MI300X_v5", name="amd",
                                                                     gpu={"driver": "None"}),
              make_pool("Standard_D4s_v5", kind="NodePool", name="cpu")]
    out = []
    for fmts in (("az",), ("az", "k8s")):
        for f in render_files(pools, fmts):
            if f.path.endswith(".sh"):
                p = tmp_path / "-".join(fmts) / f.path
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_text(f.text)
                out.append(p)
    return out


@pytest.mark.skipif(BASH is None, reason="bash not installed")
def test_scripts_parse_with_bash(tmp_path, all_matrix_pools):
    for p in _all_scripts(tmp_path, all_matrix_pools):
        r = subprocess.run([BASH, "-n", str(p)], capture_output=True, text=True)
        assert r.returncode == 0, (p, r.stderr)


def test_scripts_pass_shellcheck(tmp_path, all_matrix_pools):
    if not Path(SHELLCHECK).exists():
        pytest.skip("shellcheck not installed")
    scripts = _all_scripts(tmp_path, all_matrix_pools)
    r = subprocess.run([SHELLCHECK, "--severity=style", *map(str, scripts)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.skipif(BASH is None, reason="bash not installed")
def test_bash_passes_the_exact_argv_to_az(tmp_path):
    """Run the rendered command against a fake ``az`` that prints its arguments."""
    pool = make_pool("Standard_ND96asr_v4", name="odd", resourceGroup="rg.(weird)-ü",
                     nodeLabels={"example.com/x": "a_b.c"}, nodeTaints=["k=v:NoSchedule", "k2:NoExecute"],
                     gpu={"instanceProfile": "MIG1g"})
    argv = az.nodepool_add_argv(pool)
    script = "az() { printf '%s\\0' \"$@\"; }\n" + shell.command(argv, words=4) + "\n"
    out = subprocess.run([BASH, "-c", script], capture_output=True, check=True).stdout.decode()
    assert out.split("\0")[:-1] == argv[1:]


def test_gpu_operator_is_installed_once_per_cluster():
    a = make_pool(name="opa", nodeTaints=["a=1:NoSchedule"], gpu={"driver": "None"})
    b = make_pool(name="opb", gpu={"driver": "None"})
    c = make_pool(name="opc", clusterName="other", gpu={"driver": "None"})
    text = next(f.text for f in render_files([a, b, c]) if f.path == "az/create-node-pools.sh")
    assert text.count("bash \"$ROOT\"/'gpu-operator/myAKSCluster/install.sh'") == 1
    assert text.count("bash \"$ROOT\"/'gpu-operator/other/install.sh'") == 1
    assert "more than one cluster" in text
