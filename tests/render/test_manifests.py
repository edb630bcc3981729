"""Kubernetes manifests: schema-valid, scoped to their pool, tolerating its taints, right resources."""

from __future__ import annotations

import copy
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from gpupool import catalog
from gpupool.design.node import advertised, device_plugin_mode, node_labels
from gpupool.k8s.taints import HARD_EFFECTS, untolerated
from gpupool.render import manifests, operator, render_files
from support import make_pool

RENDER_DATA = Path(__file__).resolve().parent / "data"
VERSIONS = sorted({"1.34", kubernetes_validate.latest_version()})
POOL_LABEL = "kubernetes.azure.com/agentpool"


def k8s_objects(pools) -> dict[str, list[dict]]:
    """path -> objects of every rendered Kubernetes file."""
    out = {}
    for f in render_files(pools, ["k8s"]):
        if f.path.startswith("k8s/"):
            out[f.path] = [d for d in yaml.safe_load_all(f.text) if d is not None]
    return out


def pod_specs(objects: list[dict]) -> list[tuple[dict, dict]]:
    """(object, pod spec) for every workload object."""
    out = []
    for o in objects:
        if o["kind"] in ("DaemonSet", "Job", "Deployment"):
            out.append((o, o["spec"]["template"]["spec"]))
    return out


def tolerates(toleration: dict, taint) -> bool:
    """Independent, minimal matcher (kube-scheduler semantics) to cross-check gpupool.k8s.taints."""
    if toleration.get("effect") not in (None, "", taint.effect):
        return False
    if toleration.get("operator") == "Exists":
        return toleration.get("key") in (None, "", taint.key)
    return toleration.get("key") == taint.key and toleration.get("value", "") == taint.value


@pytest.mark.parametrize("version", VERSIONS)
def test_every_manifest_is_strictly_schema_valid(matrix, version):
    objects = k8s_objects([matrix])
    assert objects, "nothing rendered"
    for docs in objects.values():
        for doc in docs:
            kubernetes_validate.validate(doc, version, strict=True)  # raises on any unknown or wrong field


def test_schema_validation_catches_a_bad_field(pool_named):
    """The check above is real: a misspelt field in a rendered DaemonSet fails strict validation."""
    ds = manifests.device_plugin_daemonset(pool_named("t4"))
    kubernetes_validate.validate(ds, "1.34", strict=True)
    bad = copy.deepcopy(ds)
    container = bad["spec"]["template"]["spec"]["containers"][0]
    container["resource"] = container.pop("securityContext")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, "1.34", strict=True)
    bad = copy.deepcopy(ds)
    bad["spec"]["template"]["spec"]["tolerations"][0]["effect"] = 7
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, "1.34", strict=True)


def test_pods_tolerate_every_hard_taint_of_their_pool(matrix):
    taints = [t for t in matrix.effective_taints if t.effect in HARD_EFFECTS]
    assert taints, "the matrix pools are all tainted"
    for path, docs in k8s_objects([matrix]).items():
        for obj, spec in pod_specs(docs):
            tols = spec.get("tolerations", [])
            assert untolerated(matrix.effective_taints, tols) == [], (path, obj["metadata"]["name"])
            for t in taints:
                assert any(tolerates(tol, t) for tol in tols), (path, str(t))


def test_spot_pool_tolerates_the_spot_taint_aks_adds(pool_named):
    pool = pool_named("t4spot")
    ds = manifests.device_plugin_daemonset(pool)
    tols = ds["spec"]["template"]["spec"]["tolerations"]
    assert {"key": "kubernetes.azure.com/scalesetpriority", "operator": "Equal", "value": "spot",
            "effect": "NoSchedule"} in tols
    assert {"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"} in tols


def test_pods_select_only_their_pool(matrix):
    labels = node_labels(matrix)
    other = node_labels(make_pool(name="otherpool"))
    for path, docs in k8s_objects([matrix]).items():
        for _obj, spec in pod_specs(docs):
            sel = spec["nodeSelector"]
            assert sel == {POOL_LABEL: matrix.name}, path
            assert all(labels.get(k) == v for k, v in sel.items())
            assert not all(other.get(k) == v for k, v in sel.items())


def _plugin(pool) -> dict:
    return manifests.device_plugin_daemonset(pool)


def _env(ds) -> dict[str, str]:
    return {e["name"]: e.get("value") for e in ds["spec"]["template"]["spec"]["containers"][0]["env"]}


def test_design_notes_plugin_is_the_aks_docs_daemonset(design_notes_pool):
    docs = yaml.safe_load((RENDER_DATA / "aks-docs-device-plugin.yaml").read_text())
    ours = _plugin(design_notes_pool)
    assert ours["metadata"]["namespace"] == docs["metadata"]["namespace"] == "gpu-resources"
    assert ours["spec"]["updateStrategy"] == docs["spec"]["updateStrategy"]
    d_spec, o_spec = docs["spec"]["template"]["spec"], ours["spec"]["template"]["spec"]
    assert o_spec["tolerations"] == d_spec["tolerations"]
    assert o_spec["priorityClassName"] == d_spec["priorityClassName"] == "system-node-critical"
    assert o_spec["volumes"] == d_spec["volumes"]
    d_c, o_c = d_spec["containers"][0], o_spec["containers"][0]
    for key in ("image", "name", "env", "securityContext", "volumeMounts"):
        assert o_c[key] == d_c[key], key
    # what gpupool adds: the plugin runs only on its pool
    assert o_spec["nodeSelector"] == {POOL_LABEL: "gpunp"}
    assert o_c["image"] == catalog.images()["devicePlugin"]["image"]


def test_image_tags_are_pinned(all_matrix_pools):
    for docs in k8s_objects(all_matrix_pools).values():
        for _, spec in pod_specs(docs):
            for c in spec["containers"]:
                name, _, tag = c["image"].rpartition(":")
                assert name and tag and tag != "latest", c["image"]


@pytest.mark.parametrize(("name", "strategy"), [("migsingle", "single"), ("migmixed", "mixed"),
                                                ("h100mig", "single"), ("azlmig", "single")])
def test_mig_strategy_is_passed_to_the_plugin(pool_named, name, strategy):
    ds = _plugin(pool_named(name))
    env = _env(ds)
    assert env["MIG_STRATEGY"] == strategy
    assert env["NVIDIA_MIG_MONITOR_DEVICES"] == "all"
    caps = ds["spec"]["template"]["spec"]["containers"][0]["securityContext"]["capabilities"]
    assert caps["add"] == ["SYS_ADMIN"]


def test_azure_linux_mig_pool_monitors_mig_devices(pool_named):
    pool = pool_named("azlmig")
    assert pool.os_sku == "AzureLinux"
    assert _env(_plugin(pool))["NVIDIA_MIG_MONITOR_DEVICES"] == "all"


def test_no_mig_settings_without_mig(pool_named):
    env = _env(_plugin(pool_named("t4")))
    assert env == {"FAIL_ON_INIT_ERROR": "false"}


@pytest.mark.parametrize(("name", "rename", "fail_gt1", "replicas"), [("tslice", False, False, 4),
                                                                      ("tslicer", True, True, 3)])
def test_time_slicing_config_is_mounted(pool_named, name, rename, fail_gt1, replicas):
    pool = pool_named(name)
    docs = k8s_objects([pool])[f"k8s/{name}/10-device-plugin.yaml"]
    cm = next(d for d in docs if d["kind"] == "ConfigMap")
    ds = next(d for d in docs if d["kind"] == "DaemonSet")
    config = yaml.safe_load(cm["data"]["config.yaml"])
    assert config["version"] == "v1"
    ts = config["sharing"]["timeSlicing"]
    assert ts["renameByDefault"] is rename
    assert ts["failRequestsGreaterThanOne"] is fail_gt1
    assert ts["resources"] == [{"name": "nvidia.com/gpu", "replicas": replicas}]
    spec = ds["spec"]["template"]["spec"]
    volume = next(v for v in spec["volumes"] if "configMap" in v)
    assert volume["configMap"]["name"] == cm["metadata"]["name"]
    mount = next(m for m in spec["containers"][0]["volumeMounts"] if m["name"] == volume["name"])
    assert _env(ds)["CONFIG_FILE"] == mount["mountPath"] + "/config.yaml"
    assert cm["metadata"]["namespace"] == ds["metadata"]["namespace"]


def test_time_slicing_with_mig_names_the_mig_resource():
    pool = make_pool("Standard_ND96asr_v4", name="tsmig",
                     gpu={"instanceProfile": "MIG1g", "migStrategy": "Mixed",
                          "sharing": {"timeSlicing": {"replicas": 2}}})
    config = manifests.device_plugin_config(pool)
    assert config["flags"]["migStrategy"] == "mixed"
    assert config["sharing"]["timeSlicing"]["resources"] == [{"name": "nvidia.com/mig-1g.5gb", "replicas": 2}]


@pytest.mark.parametrize(("name", "resource"), [
    ("t4", "nvidia.com/gpu"), ("t4spot", "nvidia.com/gpu"), ("migsingle", "nvidia.com/gpu"),
    ("migmixed", "nvidia.com/mig-1g.5gb"), ("h100mig", "nvidia.com/gpu"), ("tslice", "nvidia.com/gpu"),
    ("tslicer", "nvidia.com/gpu.shared"), ("managed", "nvidia.com/mig-1g.10gb"),
    ("drvnone", "nvidia.com/mig-1g.10gb"), ("azlmig", "nvidia.com/gpu"),
])
def test_smoke_test_requests_one_of_the_advertised_resource(pool_named, name, resource):
    pool = pool_named(name)
    assert resource in advertised(pool).resources
    job = k8s_objects([pool])[f"k8s/{name}/90-smoke-test.yaml"][0]
    assert job["kind"] == "Job"
    c = job["spec"]["template"]["spec"]["containers"][0]
    assert c["resources"] == {"limits": {resource: 1}}  # limits only: GPU requests default to (= ) limits
    assert c["image"] == catalog.images()["smokeTest"]["image"]


def test_managed_pool_gets_no_plugin_or_exporter(pool_named):
    pool = pool_named("managed")
    files = {f.path: f.text for f in render_files([pool])}
    assert "k8s/managed/10-device-plugin.yaml" not in files
    assert "k8s/managed/20-dcgm-exporter.yaml" not in files
    assert "k8s/managed/90-smoke-test.yaml" in files
    scrape = yaml.safe_load(files["monitoring/managed-dcgm-scrape.yaml"])
    relabel = scrape["scrape_configs"][0]["relabel_configs"]
    assert relabel[-1]["replacement"].endswith(":19400")
    assert relabel[0]["regex"] == "managed"
    assert "19400" in files["README.md"]


def test_self_managed_pool_gets_an_exporter(pool_named):
    docs = k8s_objects([pool_named("t4")])["k8s/t4/20-dcgm-exporter.yaml"]
    ds, svc = docs
    assert ds["kind"] == "DaemonSet" and svc["kind"] == "Service"
    c = ds["spec"]["template"]["spec"]["containers"][0]
    assert c["ports"] == [{"name": "metrics", "containerPort": 9400}]
    assert svc["spec"]["ports"][0]["port"] == 9400
    assert svc["spec"]["selector"].items() <= ds["spec"]["template"]["metadata"]["labels"].items()
    assert c["image"] == catalog.images()["dcgmExporter"]["image"]


def test_driver_none_pool_gets_the_operator_not_a_plugin(pool_named):
    pool = pool_named("drvnone")
    files = {f.path: f.text for f in render_files([pool])}
    assert not any(p.endswith(("10-device-plugin.yaml", "20-dcgm-exporter.yaml")) for p in files)
    values = yaml.safe_load(files["gpu-operator/myAKSCluster/values.yaml"])
    for key in ("daemonsets", ):
        assert untolerated(pool.effective_taints, values[key]["tolerations"]) == []
    assert untolerated(pool.effective_taints, values["node-feature-discovery"]["worker"]["tolerations"]) == []
    assert values["mig"] == {"strategy": "mixed"}
    script = files["gpu-operator/myAKSCluster/install.sh"]
    assert "helm repo add 'nvidia' 'https://helm.ngc.nvidia.com/nvidia'" in script
    assert ("helm install 'gpu-operator' 'nvidia/gpu-operator' -n 'gpu-operator' --create-namespace "
            '-f "$HERE"/\'values.yaml\'') in script


def test_operator_values_merge_the_pools_of_one_cluster():
    a = make_pool(name="opa", nodeTaints=["a=1:NoSchedule"], gpu={"driver": "None"})
    b = make_pool(name="opb", nodeTaints=["b:NoExecute"], priority="Spot",
                  gpu={"driver": "None", "sharing": {"timeSlicing": {"replicas": 2}}})
    c = make_pool(name="opc", clusterName="other", gpu={"driver": "None"})
    groups = operator.by_cluster([a, b, c])
    assert [[p.name for p in g] for g in groups.values()] == [["opa", "opb"], ["opc"]]
    values = operator.values(groups[("myResourceGroup", "myAKSCluster")])
    for p in (a, b):
        assert untolerated(p.effective_taints, values["daemonsets"]["tolerations"]) == []
    cfg = values["devicePlugin"]["config"]
    assert cfg["create"] is True and cfg["default"] in cfg["data"]
    config = yaml.safe_load(cfg["data"][cfg["default"]])
    assert config["sharing"]["timeSlicing"]["resources"][0]["replicas"] == 2
    paths = [f.path for f in render_files([a, b, c], ["k8s"])]
    assert "gpu-operator/myAKSCluster/values.yaml" in paths and "gpu-operator/other/install.sh" in paths


@pytest.mark.parametrize("pool", [
    make_pool(name="win", osSku="Windows2022"),
    make_pool("Standard_ND96isr_MI300X_v5", name="amd", gpu={"driver": "None"}),
    make_pool("Standard_D4s_v5", kind="NodePool", name="cpu"),
], ids=["windows", "amd", "cpu"])
def test_pools_without_nvidia_manifests(pool):
    files = {f.path: f.text for f in render_files([pool])}
    assert not any(p.startswith("k8s/") for p in files), files.keys()
    expected = {"az/create-node-pools.sh", f"arm/{pool.name}.json", "terraform/main.tf", "README.md"}
    assert expected <= set(files)
    mode = device_plugin_mode(pool)
    if mode == "windows-directx":
        assert "Windows GPU pools" in files["README.md"]
    if mode == "amd-gpu-operator":
        assert "AMD GPU Operator" in files["README.md"]


def test_multi_doc_yaml_has_no_anchors(all_matrix_pools):
    for f in render_files(all_matrix_pools):
        if f.path.endswith((".yaml", ".yml")):
            assert "&id" not in f.text and "*id" not in f.text, f.path


def test_rendered_workloads_pass_gpupool_lint_for_their_pool(matrix):
    """Cross-check with the lint engine (when present): what render writes, lint accepts for that pool."""
    gpu = pytest.importorskip("gpupool.lint.gpu")
    workloads = pytest.importorskip("gpupool.k8s.workloads")
    if not hasattr(gpu, "check_workload") or not hasattr(workloads, "workload_of"):
        pytest.skip("lint engine API not available")
    for path, docs in k8s_objects([matrix]).items():
        for doc in docs:
            w = workloads.workload_of(doc)
            if w is None:
                continue
            findings = gpu.check_workload(w, [matrix], path=path)
            assert [f for f in findings if f.severity.rank >= 1] == [], (path, [f.message for f in findings])
