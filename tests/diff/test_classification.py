"""One test per field class: what changes in place (update) and what needs a new pool (recreate), with the
exact command, the reason and its source. CURRENT is `az aks nodepool show -o json` as the CLI prints it."""

from __future__ import annotations

import pytest

from diff.helpers import AZ_A100, AZ_T4, az_json, spec
from gpupool.catalog import mutability as table
from gpupool.diff import diff
from gpupool.diff.engine import COMPARERS
from gpupool.spec import azjson, parse_pool


def current_t4():
    return azjson.load_az_pools(AZ_T4)[0]


def run(desired: dict, current=None):
    az = current or current_t4()
    return diff(az.pool, parse_pool(desired, "desired.yaml"), current_az=az)


def only(result, field):
    changes = {c.field: c for c in result.changes}
    assert field in changes, [c.field for c in result.changes]
    return changes[field]


BASE = (
    "az aks nodepool update --resource-group 'myResourceGroup' --cluster-name 'myAKSCluster' --name 'gpunp'"
)


def test_identical_pool_has_no_changes():
    r = run(spec())
    assert r.changes == () and not r.requires_new_pool and r.commands() == []
    assert r.to_dict()["requiresNewPool"] is False


def test_imported_spec_has_no_changes():
    az = current_t4()
    same = parse_pool(azjson.pool_document(az.pool), "imported.yaml")
    assert diff(az.pool, same, current_az=az).changes == ()


# ---- taints: updatable in place (the design notes' "fixed at creation" is outdated) -------------------


def test_taint_change_is_an_in_place_update():
    r = run(spec(nodeTaints=["nvidia.com/gpu=present:NoSchedule"]))
    c = only(r, "nodeTaints")
    assert c.action == "update" and not r.requires_new_pool
    assert c.before == ["sku=gpu:NoSchedule"] and c.after == ["nvidia.com/gpu=present:NoSchedule"]
    assert c.command == BASE + " --node-taints 'nvidia.com/gpu=present:NoSchedule'"
    assert "2.34.0" in c.rule.source and "use-node-taints.md" in c.rule.source
    assert "outdated" in c.rule.reason
    assert r.commands() == [c.command]
    assert c.to_dict()["note"] == "needs Azure CLI >= 2.34.0"


def test_clearing_taints_uses_an_empty_value():
    c = only(run(spec(nodeTaints=None)), "nodeTaints")
    assert c.action == "update" and c.command == BASE + " --node-taints ''"


def test_taint_order_is_not_a_change():
    cur = parse_pool(spec(nodeTaints=["a=b:NoSchedule", "c=d:NoExecute"]), "c.yaml")
    des = parse_pool(spec(nodeTaints=["c=d:NoExecute", "a=b:NoSchedule"]), "d.yaml")
    assert diff(cur, des).changes == ()


# ---- other in-place updates ------------------------------------------------------------------------


def test_labels_update_and_clear():
    c = only(run(spec(nodeLabels={"team": "ml", "tier": "gpu"})), "nodeLabels")
    assert c.action == "update" and c.command == BASE + " --labels 'team=ml' 'tier=gpu'"
    cur = parse_pool(spec(nodeLabels={"team": "ml"}), "c.yaml")
    c2 = only(diff(cur, parse_pool(spec(), "d.yaml")), "nodeLabels")
    assert c2.command.endswith("--name 'gpunp' --labels")  # no value: clears every label


@pytest.mark.parametrize(
    ("desired", "flags"),
    [
        (
            spec(autoscaler={"minCount": 0, "maxCount": 5}),
            "--update-cluster-autoscaler --min-count '0' --max-count '5'",
        ),
        (spec(autoscaler=None), "--disable-cluster-autoscaler"),
    ],
)
def test_autoscaler_range_and_off_are_updates(desired, flags):
    c = only(run(desired), "autoscaler")
    assert c.action == "update" and c.command == f"{BASE} {flags}"


def test_autoscaler_on_is_an_update():
    cur = parse_pool(spec(autoscaler=None), "c.yaml")
    c = only(diff(cur, parse_pool(spec(), "d.yaml")), "autoscaler")
    assert c.command == f"{BASE} --enable-cluster-autoscaler --min-count '1' --max-count '3'"


def test_node_count_is_a_scale_without_autoscaler():
    cur = parse_pool(spec(autoscaler=None, nodeCount=2), "c.yaml")
    c = only(diff(cur, parse_pool(spec(autoscaler=None, nodeCount=4), "d.yaml")), "nodeCount")
    assert c.action == "update"
    assert c.command == (
        "az aks nodepool scale --resource-group 'myResourceGroup' --cluster-name 'myAKSCluster' "
        "--name 'gpunp' --node-count '4'"
    )
    # with the autoscaler on, the count is the autoscaler's business: not a change
    assert run(spec(nodeCount=3)).changes == ()


def test_mode_is_an_update():
    c = only(run(spec(mode="System")), "mode")
    assert c.action == "update" and c.command == BASE + " --mode 'System'"
    assert "use-system-pools.md" in c.rule.source


def test_kubernetes_upgrade_in_place_and_downgrade_needs_a_new_pool():
    c = only(run(spec(kubernetesVersion="1.35")), "kubernetesVersion")
    assert c.action == "update"
    assert c.command.startswith("az aks nodepool upgrade ") and c.command.endswith(
        "--kubernetes-version '1.35'"
    )
    assert run(spec(kubernetesVersion="1.34")).changes == ()  # 1.34 matches the pool's 1.34(.6)
    assert only(run(spec(kubernetesVersion="1.33")), "kubernetesVersion").action == "recreate"


def test_os_sku_ubuntu_to_azure_linux_is_a_migration_but_windows_is_not():
    c = only(run(spec(osSku="AzureLinux")), "osSku")
    assert c.action == "update" and c.command == BASE + " --os-sku 'AzureLinux'"
    assert only(run(spec(osSku="Windows2022")), "osSku").action == "recreate"


# ---- fixed at creation: a new pool -----------------------------------------------------------------


def test_vm_size_needs_a_new_pool_and_names_the_preview_resize():
    r = run(spec(vm_size="Standard_NC8as_T4_v3"))
    c = only(r, "vmSize")
    assert c.action == "recreate" and r.requires_new_pool
    assert c.command is None
    assert c.preview.startswith(BASE + " --node-vm-size 'Standard_NC8as_T4_v3'")
    assert "PREVIEW ONLY, not the default" in c.preview
    d = c.to_dict()
    assert {"field", "from", "to", "action", "reason", "source"} <= set(d)
    assert (d["from"], d["to"]) == ("Standard_NC4as_T4_v3", "Standard_NC8as_T4_v3")
    assert r.migration is not None and r.migration.new.name == "gpunp2"


def test_vm_size_from_cpu_to_gpu_has_no_preview_path():
    cur = parse_pool(spec(kind="NodePool", vm_size="Standard_D4s_v5"), "c.yaml")
    c = only(diff(cur, parse_pool(spec(), "d.yaml")), "vmSize")
    assert c.action == "recreate" and c.preview.startswith("not applicable here")


@pytest.mark.parametrize(
    ("desired", "field"),
    [
        (spec(priority="Spot"), "priority"),
        (spec(maxPods=50), "maxPods"),
        (spec(zones=[1, 2, 3]), "zones"),
        (spec(gpu={"driver": "None"}), "gpu.driver"),
        (spec(vm_size="Standard_NC24ads_A100_v4", gpu={"instanceProfile": "MIG1g"}), "gpu.instanceProfile"),
        (spec(gpu={"managed": True}, autoscaler=None), "gpu.managed"),
        (spec(name="gpunew"), "name"),
        (spec(clusterName="otherCluster"), "clusterName"),
        (spec(resourceGroup="otherRG"), "resourceGroup"),
    ],
)
def test_fields_fixed_at_creation_need_a_new_pool(desired, field):
    r = run(desired)
    c = only(r, field)
    assert c.action == "recreate" and r.requires_new_pool, c
    assert c.rule.source and c.rule.as_of


def test_gpu_driver_follows_the_docs_and_says_the_sources_conflict():
    r = run(spec(gpu={"driver": "None"}))
    c = only(r, "gpu.driver")
    assert c.action == "recreate" and "2.91.0" in c.rule.conflict
    assert any(f.rule == "GP403" for f in r.findings)


def test_mig_strategy_of_a_managed_pool_needs_a_new_pool():
    az = azjson.load_az_pools(AZ_A100)[0]
    doc = azjson.pool_document(az.pool)
    doc["spec"]["gpu"]["migStrategy"] = "Single"
    r = diff(az.pool, parse_pool(doc, "d.yaml"), current_az=az)
    c = only(r, "gpu.migStrategy")
    assert (c.before, c.after, c.action) == ("Mixed", "Single", "recreate")


def test_mig_strategy_of_a_self_managed_pool_is_a_device_plugin_change():
    a100 = dict(vm_size="Standard_NC24ads_A100_v4")
    cur = parse_pool(spec(gpu={"instanceProfile": "MIG1g", "migStrategy": "Single"}, **a100), "c.yaml")
    des = parse_pool(spec(gpu={"instanceProfile": "MIG1g", "migStrategy": "Mixed"}, **a100), "d.yaml")
    r = diff(cur, des)
    c = only(r, "gpu.migStrategy")
    assert c.action == "update" and c.rule.how == "plugin" and c.command is None
    assert not r.requires_new_pool
    # from az JSON the device plugin's strategy is unknown: said, not guessed
    az = current_t4()
    r2 = diff(az.pool, parse_pool(spec(gpu={"migStrategy": "Mixed"}), "d.yaml"), current_az=az)
    assert any(s.startswith("gpu.migStrategy") for s in r2.not_compared)


def test_time_slicing_is_a_device_plugin_change():
    cur = parse_pool(spec(), "c.yaml")
    des = parse_pool(spec(gpu={"sharing": {"timeSlicing": {"replicas": 4}}}), "d.yaml")
    c = only(diff(cur, des), "gpu.sharing.timeSlicing")
    assert c.action == "update" and c.rule.how == "plugin"


def test_fields_not_given_in_desired_are_kept():
    # the T4 JSON has maxPods 110 and osSku Ubuntu; a spec without them changes neither
    r = run(spec(maxPods=None, osSku=None))
    assert r.changes == ()


def test_another_cluster_has_no_migration():
    r = run(spec(clusterName="otherCluster", vm_size="Standard_NC8as_T4_v3"))
    assert r.requires_new_pool and r.migration is None and r.commands() == []


def test_commands_for_a_new_pool_are_the_migration_steps_in_order():
    cmds = run(spec(vm_size="Standard_NC8as_T4_v3")).commands()
    steps = ("nodepool add", "wait", "--disable-cluster-autoscaler", "cordon", "drain", "nodepool scale",
             "nodepool delete")
    kinds = [next(k for k in steps if k in c) for c in cmds]
    assert kinds == ["nodepool add", "wait", "wait", "--disable-cluster-autoscaler", "cordon", "drain",
                     "nodepool scale", "nodepool delete"]
    assert "--name 'gpunp2'" in cmds[0] and "--node-vm-size 'Standard_NC8as_T4_v3'" in cmds[0]


def test_json_payload_shape():
    r = run(spec(vm_size="Standard_NC8as_T4_v3", nodeTaints=["sku=gpu:NoExecute"]))
    d = r.to_dict()
    assert d["requiresNewPool"] is True and d["newPool"] == "gpunp2"
    for c in d["changes"]:
        assert {"field", "from", "to", "action", "reason", "source"} <= set(c)
        assert c["action"] in ("update", "recreate")
    assert isinstance(d["commands"], list) and d["commands"]


def test_current_can_be_a_pool_spec_too():
    cur = parse_pool(spec(), "current.yaml")
    r = diff(cur, parse_pool(spec(nodeTaints=["sku=gpu:NoExecute"]), "d.yaml"))
    assert only(r, "nodeTaints").action == "update"


# ---- the table itself --------------------------------------------------------------------------------


def test_every_table_row_has_action_reason_source_and_date():
    rows = table.table()
    assert rows
    for (fld, case), rule in rows.items():
        assert rule.action in ("update", "recreate"), (fld, case)
        assert rule.reason and rule.source and rule.as_of, (fld, case)
        if rule.action == "update":
            assert rule.how in ("az", "plugin"), (fld, case)
    assert set(table.fields()) == set(COMPARERS)


def test_table_matches_the_issue():
    """In place: taints, autoscaler, counts, labels, mode. New pool: VM size, driver, managed, MIG profile and
    (managed) strategy, priority."""
    for fld in ("nodeTaints", "autoscaler", "nodeCount", "nodeLabels", "mode"):
        assert table.rule(fld).action == "update", fld
    for fld in ("vmSize", "gpu.driver", "gpu.managed", "gpu.instanceProfile", "priority"):
        assert table.rule(fld).action == "recreate", fld
    assert table.rule("gpu.migStrategy", "managed").action == "recreate"
    assert table.rule("vmSize").preview is not None


def test_az_json_with_different_casing_of_the_size_is_no_change():
    az = azjson.parse_az_pool(az_json(vmSize="standard_nc4as_t4_v3"), "x.json")
    assert diff(az.pool, parse_pool(spec(), "d.yaml"), current_az=az).changes == ()
