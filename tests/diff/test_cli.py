"""`gpupool diff` and `gpupool import` as users run them: output, exit codes, files, bad input."""

from __future__ import annotations

import json
import os
import stat

import pytest
import yaml

from diff.helpers import AZ_A100, AZ_LIST, AZ_T4, SKU_GPU, az_json, deployment, spec
from gpupool.spec import load_pools
from support import run_cli

# ---- diff --------------------------------------------------------------------------------------------


def test_diff_text_output_for_in_place_changes(write):
    desired = write("desired.yaml", spec(nodeTaints=["sku=gpu:NoSchedule", "sku=gpu:NoExecute"]))
    r = run_cli("diff", str(AZ_T4), str(desired))
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "pool gpunp (cluster myAKSCluster, resource group myResourceGroup): 1 change, all in place" in out
    assert "nodeTaints" in out and "update" in out
    assert (
        "run: az aks nodepool update --resource-group 'myResourceGroup' --cluster-name 'myAKSCluster' "
        "--name 'gpunp' --node-taints 'sku=gpu:NoSchedule,sku=gpu:NoExecute'" in out
    )
    assert "source:" in out and "2.34.0" in out
    assert "warning GP401" in out


def test_diff_values_in_the_spec_spelling(write):
    """Issue 21: values read as in a pool spec (renameByDefault: false), not Python's (renameByDefault=False);
    sources are public (no internal notes)."""
    sliced = {"sharing": {"timeSlicing": {"replicas": 4, "renameByDefault": True}}}
    before = write("before.yaml", spec(gpu=sliced))
    after = write("after.yaml", spec(gpu={"sharing": {"timeSlicing": {"replicas": 2}}}))
    r = run_cli("diff", str(before), str(after))
    assert r.exit_code == 0, r.stderr
    assert "{replicas: 4, renameByDefault: true, failRequestsGreaterThanOne: false}" in r.stdout
    assert "renameByDefault: false" in r.stdout
    assert "=False" not in r.stdout and "=True" not in r.stdout
    assert "aks-gpu-facts" not in r.stdout and "§" not in r.stdout


def test_diff_text_output_for_a_new_pool(write, tmp_path):
    desired = write("desired.yaml", spec(vm_size="Standard_NC8as_T4_v3"))
    rb = tmp_path / "runbook.sh"
    r = run_cli("diff", str(AZ_T4), str(desired), "--runbook", str(rb))
    assert r.exit_code == 0, r.stderr
    assert "needs a NEW POOL (gpunp2)" in r.stdout and "recreate" in r.stdout
    assert "preview only" in r.stdout and "PREVIEW ONLY, not the default" in r.stdout
    assert "Migration (main steps" in r.stdout
    assert f"runbook written to {rb}" in r.stdout
    mode = rb.stat().st_mode
    assert mode & stat.S_IXUSR and rb.read_text().startswith("#!/usr/bin/env bash")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".runbook.sh.")]  # no temp file left


def test_diff_json_output(write):
    desired = write("desired.yaml", spec(vm_size="Standard_NC8as_T4_v3", nodeLabels={"team": "ml"}))
    r = run_cli("diff", str(AZ_T4), str(desired), "-o", "json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["version"] == 1 and d["requiresNewPool"] is True
    fields = {c["field"]: c for c in d["changes"]}
    assert set(fields) == {"vmSize", "nodeLabels"}
    for c in d["changes"]:
        assert {"field", "from", "to", "action", "reason", "source"} <= set(c)
    assert fields["vmSize"]["action"] == "recreate" and fields["nodeLabels"]["action"] == "update"
    assert fields["nodeLabels"]["command"].endswith("--labels 'team=ml'")
    assert d["commands"][0].startswith("az aks nodepool add ") and d["commands"][-1].startswith(
        "az aks nodepool delete"
    )
    assert d["runbook"] is None
    assert {f["rule"] for f in d["findings"]} == {"GP405"}


def test_exit_code_option(write):
    same = write("same.yaml", spec())
    changed = write("changed.yaml", spec(nodeLabels={"a": "b"}))
    assert run_cli("diff", str(AZ_T4), str(same), "--exit-code").exit_code == 0
    assert run_cli("diff", str(AZ_T4), str(changed), "--exit-code").exit_code == 1
    assert run_cli("diff", str(AZ_T4), str(changed)).exit_code == 0
    r = run_cli("diff", str(AZ_T4), str(same))
    assert "no changes" in r.stdout


def test_error_findings_exit_1(write):
    desired = write("desired.yaml", spec(vm_size="Standard_NC8as_T4_v3"))
    wl = write("w.yaml", [deployment("pinned", tolerations=[SKU_GPU], node_selector={"agentpool": "gpunp"})])
    r = run_cli("diff", str(AZ_T4), str(desired), "--workloads", str(wl))
    assert r.exit_code == 1
    assert "error GP402" in r.stdout and "Deployment ml/pinned" in r.stdout


def test_current_from_list_json_is_picked_by_name(write):
    desired = write("desired.yaml", spec(nodeLabels={"a": "b"}))
    r = run_cli("diff", str(AZ_LIST), str(desired), "-o", "json")  # DESIRED's name picks gpunp
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["pool"]["name"] == "gpunp"
    r = run_cli("diff", str(AZ_LIST), str(desired), "--name", "spotgpu", "-o", "json")
    assert r.exit_code == 0, r.stderr
    fields = {c["field"] for c in json.loads(r.stdout)["changes"]}
    assert {"name", "priority"} <= fields
    other = write("other.yaml", spec(name="zzz"))
    r = run_cli("diff", str(AZ_LIST), str(other))
    assert r.exit_code == 2 and "pick one with --name" in r.stderr
    r = run_cli("diff", str(AZ_LIST), str(other), "--name", "nope")
    assert r.exit_code == 2 and 'no pool named "nope"' in r.stderr


def test_new_pool_name_avoids_pools_in_the_list(write):
    data = json.loads(AZ_LIST.read_text())
    extra = dict(data[1])
    extra["name"] = "gpunp2"
    extra["id"] = extra["id"].replace("/gpunp", "/gpunp2")
    listing = write("list.json", [*data, extra])
    desired = write("desired.yaml", spec(vm_size="Standard_NC8as_T4_v3"))
    d = json.loads(run_cli("diff", str(listing), str(desired), "-o", "json").stdout)
    assert d["newPool"] == "gpunp3"


def test_overrides_for_resource_group_and_cluster(write):
    data = az_json()
    data.pop("id")
    cur = write("noid.json", data)
    desired = write("desired.yaml", spec(nodeLabels={"a": "b"}))
    r = run_cli("diff", str(cur), str(desired))
    assert r.exit_code == 2 and "pass --cluster-name" in r.stderr
    r = run_cli("diff", str(cur), str(desired), "--cluster-name", "myAKSCluster", "-o", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["pool"]["clusterName"] == "myAKSCluster"


def test_new_name_option(write, tmp_path):
    desired = write("desired.yaml", spec(vm_size="Standard_NC8as_T4_v3"))
    rb = tmp_path / "rb.sh"
    r = run_cli("diff", str(AZ_T4), str(desired), "--new-name", "t4big", "--runbook", str(rb))
    assert r.exit_code == 0 and "--name 't4big'" in rb.read_text()
    r = run_cli("diff", str(AZ_T4), str(desired), "--new-name", "T4-Big", "--runbook", str(rb))
    assert r.exit_code == 2 and "--new-name" in r.stderr and "lowercase" in r.stderr


def test_runbook_not_written_without_a_new_pool(write, tmp_path):
    desired = write("desired.yaml", spec(nodeLabels={"a": "b"}))
    rb = tmp_path / "rb.sh"
    r = run_cli("diff", str(AZ_T4), str(desired), "--runbook", str(rb))
    assert r.exit_code == 0 and not rb.exists() and "no runbook written" in r.stderr


@pytest.mark.parametrize(
    ("current_text", "message", "line"),
    [
        ('{"name": "gpunp",\n "vmSize": [\n', "invalid YAML", 3),
        ('{\n  "hello": "world"\n}\n', "neither a pool spec nor", 1),
        ('{\n  "name": "gpunp",\n  "count": "3",\n  "vmSize": "Standard_NC4as_T4_v3"\n}\n', "count", 3),
        ("- 1\n- 2\n", "expected a node pool object", 1),
    ],
)
def test_bad_current_is_one_line_and_exit_2(write, current_text, message, line):
    cur = write("current.json", current_text)
    desired = write("desired.yaml", spec())
    r = run_cli("diff", str(cur), str(desired))
    assert r.exit_code == 2
    assert r.stdout == ""
    assert r.stderr.count("\n") == 1 and message in r.stderr
    assert f"current.json:{line}: " in r.stderr


def test_bad_desired_and_workloads(write):
    bad = write(
        "desired.yaml",
        {
            "apiVersion": "gpupool/v1",
            "kind": "GpuNodePool",
            "metadata": {"name": "x"},
            "spec": {"vmSize": "a"},
        },
    )
    r = run_cli("diff", str(AZ_T4), str(bad))
    assert r.exit_code == 2 and "desired.yaml" in r.stderr
    r = run_cli("diff", str(AZ_T4), str(AZ_T4))
    assert r.exit_code == 2 and "not a pool spec" in r.stderr
    desired = write("d.yaml", spec())
    r = run_cli("diff", str(AZ_T4), str(desired), "--workloads", "/nonexistent/dir")
    assert r.exit_code == 2 and "no such file" in r.stderr
    broken = write("broken.yaml", "kind: Deployment\nspec: [\n")
    r = run_cli("diff", str(AZ_T4), str(desired), "--workloads", str(broken))
    assert r.exit_code == 2 and "broken.yaml:" in r.stderr


def test_current_from_stdin(write):
    desired = write("desired.yaml", spec(nodeLabels={"a": "b"}))
    r = run_cli("diff", "-", str(desired), "-o", "json", input=AZ_T4.read_text())
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["changes"][0]["field"] == "nodeLabels"


def test_diff_against_a_current_spec(write):
    cur = write("current.yaml", spec())
    desired = write("desired.yaml", spec(priority="Spot"))
    d = json.loads(run_cli("diff", str(cur), str(desired), "-o", "json").stdout)
    assert d["requiresNewPool"] is True and d["changes"][0]["field"] == "priority"


# ---- import ------------------------------------------------------------------------------------------


def test_import_show_json_to_stdout(tmp_path):
    r = run_cli("import", str(AZ_A100))
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith("# Imported from `az aks nodepool` JSON")
    docs = list(yaml.safe_load_all(r.stdout))
    assert len(docs) == 1 and docs[0]["metadata"]["name"] == "a100mig"
    assert docs[0]["spec"]["gpu"] == {
        "driver": "Install",
        "managed": True,
        "instanceProfile": "MIG1g",
        "migStrategy": "Mixed",
    }
    assert "not model" in r.stderr and "osDiskType" in r.stderr
    p = tmp_path / "a.yaml"
    p.write_text(r.stdout)
    assert load_pools(p)[0].name == "a100mig"


def test_import_list_json_multi_doc_and_name(tmp_path):
    out = tmp_path / "pools.yaml"
    r = run_cli("import", str(AZ_LIST), "--write", str(out))
    assert r.exit_code == 0, r.stderr
    assert [p.name for p in load_pools(out)] == ["nodepool1", "gpunp", "spotgpu"]
    assert "wrote 3 pool specs" in r.stderr
    r = run_cli("import", str(AZ_LIST), "--name", "spotgpu")
    docs = list(yaml.safe_load_all(r.stdout))
    assert len(docs) == 1 and docs[0]["spec"]["priority"] == "Spot"
    assert "scalesetpriority" not in r.stdout.split("apiVersion")[1]  # implied by priority: Spot
    r = run_cli("import", str(AZ_LIST), "--name", "nope")
    assert r.exit_code == 2 and "no node pool named" in r.stderr


def test_import_then_diff_is_clean(tmp_path):
    out = tmp_path / "gpunp.yaml"
    assert run_cli("import", str(AZ_T4), "--write", str(out)).exit_code == 0
    r = run_cli("diff", str(AZ_T4), str(out), "--exit-code")
    assert r.exit_code == 0 and "no changes" in r.stdout


def test_import_garbage_is_one_line_exit_2(write):
    bad = write(
        "bad.json",
        '{\n  "name": "gpunp",\n  "vmSize": "Standard_NC4as_T4_v3",\n  "count": 1,\n'
        '  "gpuInstanceProfile": "MIG9g"\n}\n',
    )
    r = run_cli("import", str(bad))
    assert r.exit_code == 2 and r.stdout == ""
    assert f"{bad}:5: " in r.stderr and r.stderr.count("\n") == 1
    assert run_cli("import", "/no/such/file.json").exit_code == 2


def test_import_refuses_a_directory_as_output(tmp_path):
    r = run_cli("import", str(AZ_T4), "--write", str(tmp_path))
    assert r.exit_code == 2 and "is a directory" in r.stderr


def test_help_lists_both_commands():
    r = run_cli("--help")
    assert "diff" in r.stdout and "import" in r.stdout
    assert os.environ.get("GPUPOOL_DEBUG") is None


def test_ignore_a_rule(write):
    desired = write("desired.yaml", spec(vm_size="Standard_NC8as_T4_v3"))
    wl = write("w.yaml", [deployment("pinned", tolerations=[SKU_GPU], node_selector={"agentpool": "gpunp"})])
    r = run_cli("diff", str(AZ_T4), str(desired), "--workloads", str(wl),
                "--ignore", "GP402,settings-not-carried", "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["findings"] == []
    r = run_cli("diff", str(AZ_T4), str(desired), "--ignore", "GP999")
    assert r.exit_code == 2 and "unknown rule" in r.stderr
