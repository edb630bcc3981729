"""The migration runbook: new pool name, script content, shellcheck, and an end-to-end run against stub
`az` and `kubectl` executables that record their arguments (create -> wait -> cordon -> drain -> verify ->
delete)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from diff.helpers import AZ_T4, SKU_GPU, deployment, spec
from gpupool.diff import diff, load_workloads, new_pool_name
from gpupool.diff.runbook import seconds
from gpupool.errors import InputError
from gpupool.spec import azjson, parse_pool

REPO = Path(__file__).resolve().parents[2]


def shellcheck() -> str | None:
    local = Path(sys.executable).parent / "shellcheck"
    return str(local) if local.exists() else shutil.which("shellcheck")


def migration(desired=None, workloads=None, **kw):
    az = azjson.load_az_pools(AZ_T4)[0]
    des = parse_pool(desired or spec(vm_size="Standard_NC8as_T4_v3"), "desired.yaml")
    r = diff(az.pool, des, current_az=az, workloads=workloads, **kw)
    assert r.migration is not None
    return r


def pool(name, os_sku=None):
    return parse_pool(spec(name=name, osSku=os_sku), "p.yaml")


@pytest.mark.parametrize(
    ("current", "expected"),
    [
        ("gpunp", "gpunp2"),
        ("gpunp2", "gpunp3"),
        ("gpu9", "gpu10"),
        ("abcdefghijkl", "abcdefghijk2"),
        ("abcdefghij99", "abcdefghi100"),
    ],
)
def test_new_pool_name_is_derived_and_valid(current, expected):
    assert new_pool_name(pool(current), pool(current)) == expected


def test_new_pool_name_rules():
    cur = pool("gpunp")
    assert new_pool_name(cur, pool("gpunp"), taken=("gpunp2",)) == "gpunp3"
    assert new_pool_name(cur, pool("gpunew")) == "gpunew"  # DESIRED renames: use its name
    assert new_pool_name(pool("nodepool1"), cur, taken=("nodepool1", "gpunp")) == "gpunp2"  # unless it exists
    with pytest.raises(InputError, match="already exists"):
        new_pool_name(cur, cur, "spot", taken=("gpunp", "spot"))
    assert new_pool_name(pool("winnp", "Windows2022"), pool("winnp", "Windows2022")) == "winnp2"
    assert new_pool_name(pool("wingpu", "Windows2022"), pool("wingpu", "Windows2022")) == "wingp2"
    assert new_pool_name(cur, cur, "t4new") == "t4new"
    for bad in ("T4New", "gpu-new", "1gpu", "muchtoolongname", "gpunp"):
        with pytest.raises(InputError, match="--new-name"):
            new_pool_name(cur, cur, bad)


def test_durations():
    assert seconds("90s") == 90 and seconds("30m") == 1800 and seconds("2h") == 7200
    for bad in ("30", "0m", "1d", "-5m", "5 m"):
        with pytest.raises(ValueError):
            seconds(bad)


def test_script_content():
    r = migration()
    s = r.migration.script()
    assert s.startswith("#!/usr/bin/env bash\n")
    assert "\nset -euo pipefail\n" in s
    assert (
        "run az aks nodepool add --resource-group 'myResourceGroup' --cluster-name 'myAKSCluster' "
        "--name 'gpunp2'" in s
    )
    assert "--node-vm-size 'Standard_NC8as_T4_v3'" in s
    drain = next(line for line in s.splitlines() if line.startswith("run kubectl drain"))
    assert drain == (
        "run kubectl drain -l 'kubernetes.azure.com/agentpool=gpunp' --ignore-daemonsets "
        "--delete-emptydir-data '--timeout=30m'"
    )
    assert "--disable-eviction" not in s and "--force" not in drain and "--ignore-pdb" not in s
    assert "run kubectl cordon -l 'kubernetes.azure.com/agentpool=gpunp'" in s
    assert "'--for=jsonpath={.status.allocatable.nvidia\\.com/gpu}=1'" in s  # advertises the expected GPUs
    lines = s.splitlines()
    order = [
        next(i for i, line in enumerate(lines) if line.startswith(p))
        for p in (
            "run az aks nodepool add",
            "run wait_nodes_registered",
            "run az aks nodepool update",
            "run kubectl cordon",
            "run kubectl drain",
            "run az aks nodepool scale",
            "run az aks nodepool delete",
        )
    ]
    assert order == sorted(order)
    assert "--disable-cluster-autoscaler" in lines[order[2]] and "--node-count '0'" in lines[order[5]]


def test_system_pool_is_not_scaled_to_zero():
    az = azjson.load_az_pools(AZ_T4)[0]
    cur = parse_pool(spec(mode="System", autoscaler=None), "c.yaml")
    r = diff(cur, parse_pool(spec(mode="System", autoscaler=None, vm_size="Standard_NC8as_T4_v3"), "d.yaml"))
    s = r.migration.script()
    assert "nodepool scale" not in s and "run az aks nodepool delete" in s
    assert "--disable-cluster-autoscaler" not in s
    assert az.pool.autoscaler is not None


def test_custom_timeouts_and_bad_ones():
    s = migration(drain_timeout="45m", wait_timeout="10m").migration.script()
    assert "'--timeout=45m'" in s and "WAIT_TIMEOUT_S=600" in s and "'--timeout=600s'" in s
    with pytest.raises(InputError, match="duration"):
        migration(drain_timeout="forever")


def test_shellcheck_passes(tmp_path, write):
    sc = shellcheck()
    if sc is None:
        pytest.skip("shellcheck not installed")
    items = load_workloads(
        [
            write(
                "w.yaml",
                [
                    deployment(
                        "train",
                        tolerations=[SKU_GPU],
                        node_selector={"kubernetes.azure.com/accelerator": "nvidia"},
                    ),
                    deployment("pinned", tolerations=[SKU_GPU], node_selector={"agentpool": "gpunp"}),
                ],
            )
        ]
    )
    for r in (
        migration(),
        migration(workloads=items),
        migration(
            spec(vm_size="Standard_NC24ads_A100_v4", gpu={"instanceProfile": "MIG1g", "migStrategy": "Mixed"})
        ),
    ):
        p = tmp_path / "rb.sh"
        p.write_text(r.migration.script())
        out = subprocess.run([sc, "-s", "bash", str(p)], capture_output=True, text=True)
        assert out.returncode == 0, out.stdout


def _calls(log: Path) -> list[str]:
    return [line for line in log.read_text().splitlines() if line]


def _index(calls: list[str], needle: str) -> int:
    return next(i for i, c in enumerate(calls) if needle in c)


def test_dry_run_changes_nothing(tmp_path, stubs):
    env, log = stubs
    p = tmp_path / "rb.sh"
    p.write_text(migration().migration.script())
    out = subprocess.run(["bash", str(p)], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert _calls(log) == []  # no az, no kubectl
    assert "would run: az aks nodepool add" in out.stdout
    assert (
        "would run: kubectl drain -l kubernetes.azure.com/agentpool=gpunp --ignore-daemonsets" in out.stdout
    )


def test_runbook_for_a_vm_size_change_runs_end_to_end_against_stubs(tmp_path, stubs, write, program):
    env, log = stubs
    wl = write(
        "workloads/train.yaml",
        [
            deployment(
                "train", tolerations=[SKU_GPU], node_selector={"kubernetes.azure.com/accelerator": "nvidia"}
            ),
            deployment("exporter", kind="DaemonSet", gpus=None, tolerations=[SKU_GPU]),
            deployment("web", namespace="default", gpus=None),  # does not run on the tainted GPU pool
        ],
    )
    desired = write("desired.yaml", spec(vm_size="Standard_NC8as_T4_v3"))
    rb = tmp_path / "out" / "runbook.sh"
    rb.parent.mkdir()
    res = program("diff", str(AZ_T4), str(desired), "--workloads", str(wl.parent), "--runbook", str(rb))
    assert res.exit_code == 0, res.stderr
    assert os.access(rb, os.X_OK)
    if shellcheck():
        sc = subprocess.run([shellcheck(), str(rb)], capture_output=True, text=True)
        assert sc.returncode == 0, sc.stdout
    out = subprocess.run(["bash", str(rb), "--execute"], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    calls = _calls(log)
    create = _index(calls, "az aks nodepool add")
    wait = _index(calls, "kubectl wait --for=condition=Ready node -l kubernetes.azure.com/agentpool=gpunp2")
    gpus = _index(calls, "kubectl wait --for=jsonpath={.status.allocatable.nvidia\\.com/gpu}=1")
    cordon = _index(calls, "kubectl cordon -l kubernetes.azure.com/agentpool=gpunp")
    drain = _index(calls, "kubectl drain -l kubernetes.azure.com/agentpool=gpunp")
    verify = _index(calls, "kubectl get pods -n ml -l app=train")
    verify_ds = _index(calls, "kubectl get pods -n ml -l app=exporter")
    scale = _index(calls, "az aks nodepool scale")
    delete = _index(calls, "az aks nodepool delete")
    assert create < wait < gpus < cordon < drain < verify < scale < delete
    assert drain < verify_ds < scale
    assert "--name gpunp2 " in calls[create] and "--node-vm-size Standard_NC8as_T4_v3" in calls[create]
    assert calls[drain].endswith("--ignore-daemonsets --delete-emptydir-data --timeout=30m")
    assert calls[scale].endswith("--name gpunp --node-count 0")
    assert calls[delete] == (
        "az aks nodepool delete --resource-group myResourceGroup --cluster-name myAKSCluster --name gpunp"
    )
    assert wait < calls.index(next(c for c in calls if "--disable-cluster-autoscaler" in c)) < cordon
    assert not any("app=web" in c for c in calls)  # not relying on the pool: not verified
    assert "ok: Deployment ml/train runs on pool gpunp2" in out.stdout


def test_workloads_that_would_not_follow_stop_the_runbook(tmp_path, stubs, write):
    env, log = stubs
    items = load_workloads(
        [
            write(
                "w.yaml",
                [
                    deployment("pinned", tolerations=[SKU_GPU], node_selector={"agentpool": "gpunp"}),
                ],
            )
        ]
    )
    r = migration(workloads=items)
    p = tmp_path / "rb.sh"
    p.write_text(r.migration.script())
    out = subprocess.run(["bash", str(p), "--execute"], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 1
    assert "Deployment ml/pinned" in out.stderr and "pinned to the old pool name gpunp" in out.stderr
    calls = _calls(log)
    assert any("nodepool add" in c for c in calls)
    assert not any("cordon" in c or "drain" in c or "delete" in c for c in calls)
    # --force goes on
    log.write_text("")
    out = subprocess.run(
        ["bash", str(p), "--execute", "--force"], capture_output=True, text=True, env=env, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert any("nodepool delete" in c for c in _calls(log))


def test_values_are_quoted_against_injection(tmp_path, stubs, write):
    """Workload names and labels come from manifests nobody validated: they must never run as code."""
    env, log = stubs
    marker = tmp_path / "pwned"
    evil = f"x$(touch {marker})"
    d = deployment("evil", tolerations=[SKU_GPU], labels={"app": evil})
    d["metadata"]["namespace"] = f"ml'; touch {marker}; '"
    items = load_workloads([write("w.yaml", [d])])
    r = migration(workloads=items)
    p = tmp_path / "rb.sh"
    p.write_text(r.migration.script())
    for args in (["bash", str(p)], ["bash", str(p), "--execute"]):
        subprocess.run(args, capture_output=True, text=True, env=env, timeout=60)
    assert not marker.exists()
    assert any(evil in c for c in _calls(log))


def test_unknown_argument_is_refused(tmp_path):
    p = tmp_path / "rb.sh"
    p.write_text(migration().migration.script())
    out = subprocess.run(["bash", str(p), "--exec"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 2 and "unknown argument" in out.stderr


def test_a_failed_drain_stops_before_delete_and_says_how_to_undo(tmp_path, stubs):
    env, log = stubs
    p = tmp_path / "rb.sh"
    p.write_text(migration().migration.script())
    out = subprocess.run(["bash", str(p), "--execute"], capture_output=True, text=True,
                         env={**env, "STUB_FAIL": "drain"}, timeout=60)
    assert out.returncode != 0
    calls = _calls(log)
    assert any("kubectl drain" in c for c in calls)
    assert not any("nodepool scale" in c or "nodepool delete" in c for c in calls)
    assert "to put it back as it was" in out.stderr
    assert "kubectl uncordon -l 'kubernetes.azure.com/agentpool=gpunp'" in out.stderr
    assert "--enable-cluster-autoscaler --min-count '1' --max-count '3'" in out.stderr


def test_custom_resources_that_follow_are_not_verified(write):
    """A RayCluster's pods are the operator's (its labels, its lifetimes): the runbook verifies the
    Deployment only and says which kinds it leaves out."""
    ray = {
        "apiVersion": "ray.io/v1",
        "kind": "RayCluster",
        "metadata": {"name": "rc", "namespace": "ml"},
        "spec": {
            "headGroupSpec": {"template": {"metadata": {"labels": {"app": "rc"}}, "spec": {
                "tolerations": [SKU_GPU],
                "containers": [{"name": "h", "image": "x", "resources": {"limits": {"nvidia.com/gpu": 1}}}],
            }}},
        },
    }
    train = deployment("train", tolerations=[SKU_GPU])
    r = migration(workloads=load_workloads([write("w.yaml", [ray, train])]))
    follows = {f.ref: f for f in r.follows}
    assert follows["RayCluster ml/rc (head)"].relies_on_old and follows["RayCluster ml/rc (head)"].follows
    verified = [f.ref for f in r.migration.to_verify()]
    assert verified == ["Deployment ml/train"]
    r = migration(workloads=load_workloads([write("w.yaml", [ray])]))
    assert "bare Pods and custom resources are not verified" in r.migration.script()
