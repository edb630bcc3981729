from __future__ import annotations

import json

from gpupool.render.plan import final_settings, plan_pools
from support import EXAMPLES, make_pool, run_cli, run_program


def test_plan_quickstart_example_text():
    r = run_cli("plan", str(EXAMPLES / "t4-driver-only.yaml"))
    assert r.exit_code == 0, r.stdout + r.stderr
    out = r.stdout
    assert "GpuNodePool gpunp" in out and "nvidia.com/gpu: 1" in out
    assert "Final at creation" in out and "vmSize = Standard_NC4as_T4_v3" in out
    assert "--node-taints 'sku=gpu:NoSchedule'" in out and "--enable-cluster-autoscaler" in out


def test_plan_json_mig_mixed():
    r = run_cli("plan", str(EXAMPLES / "a100-mig-mixed.yaml"), "-o", "json")
    data = json.loads(r.stdout)
    assert data["version"] == 1
    pools = {p["name"]: p for p in data["pools"]}
    assert pools["a100mig"]["advertised"] == {"nvidia.com/mig-1g.5gb": 56}
    assert pools["a100mig"]["advertisedTotal"]["max"] == {"nvidia.com/mig-1g.5gb": 112}
    assert pools["system"]["advertised"] == {}
    fields = [f["field"] for f in pools["a100mig"]["finalAtCreation"]]
    assert {"vmSize", "gpu.instanceProfile", "gpu.driver", "priority"} <= set(fields)
    assert "gpu.migStrategy" not in fields  # self-managed: the plugin's flag, changeable in place
    assert all(f["source"] for f in pools["a100mig"]["finalAtCreation"])
    assert pools["a100mig"]["commands"][0][:4] == ["az", "aks", "nodepool", "add"]


def test_managed_mig_strategy_is_final():
    pool = make_pool(
        "Standard_NC24ads_A100_v4", gpu={"managed": True, "instanceProfile": "MIG1g", "migStrategy": "Mixed"}
    )
    fields = {s.field: s.value for s in final_settings(pool)}
    assert fields["gpu.migStrategy"] == "Mixed" and fields["gpu.managed"] == "true"


def test_plan_carries_check_findings_and_exit_code():
    r = run_cli("plan", str(EXAMPLES / "mistakes.yaml"), "-o", "json")
    assert r.exit_code == 1
    rules = {f["rule"] for f in json.loads(r.stdout)["findings"]}
    assert {"GP105", "GP109", "GP114"} <= rules
    plan = plan_pools([make_pool()])
    assert plan.findings == [] or all(f.severity.value != "error" for f in plan.findings)


def test_plan_bad_input_exit_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: g}\nspec:\n  vmSize: [\n")
    r = run_program("plan", str(bad))
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.startswith(f"gpupool: error: {bad}:") and r.stderr.count("\n") == 1
    assert "Traceback" not in r.stderr


def test_spot_settings_final_only_on_spot_pools_with_their_values():
    """A Regular pool lists no Spot settings; a Spot pool shows its max price and eviction policy (were
    empty)."""
    regular = {s.field: s.value for s in final_settings(make_pool("Standard_NC4as_T4_v3"))}
    assert "spotMaxPrice" not in regular and "evictionPolicy" not in regular
    spot = {s.field: s.value for s in final_settings(make_pool("Standard_NC4as_T4_v3", priority="Spot"))}
    assert spot["spotMaxPrice"] == "-1 (up to the on-demand price)" and spot["evictionPolicy"] == "Delete"
    priced = make_pool(
        "Standard_NC4as_T4_v3", priority="Spot", spotMaxPrice=0.25, evictionPolicy="Deallocate"
    )
    spot = {s.field: s.value for s in final_settings(priced)}
    assert spot["spotMaxPrice"] == "0.25" and spot["evictionPolicy"] == "Deallocate"


def test_plan_summary_line_is_checks():
    """plan ends with the same summary line as check and preflight (was '3 pool(s): 0 error(s), ...')."""
    specs = [str(EXAMPLES / "a100-mig-mixed.yaml"), str(EXAMPLES / "t4-driver-only.yaml")]
    plan = run_cli("plan", *specs).stdout.splitlines()
    check = run_cli("check", *specs).stdout.splitlines()
    assert check[-1] == "3 pools in 2 files: 0 errors, 1 warning, 0 info" and check[-1] in plan
