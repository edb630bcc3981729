"""Linting real repositories and CI use: custom API groups, GPU Operator labels, GPU stack DaemonSets, Helm
charts and `helm template` streams, --exclude, --fail-on, --require-schemas, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from support import DATA, run_cli

CRDS = DATA / "lint" / "crds" / "gateway-api-mini.yaml"

ROUTES = """\
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  gatewayClassName: azure-alb-external
  listeners: [{name: http, port: 80, protocol: HTTP}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: route}
spec:
  parentRefs: [{name: gw}]
  rules:
  - backendRefs: [{name: web, port: 80}]
---
apiVersion: snapshot.storage.k8s.io/v1
kind: VolumeSnapshot
metadata: {name: snap}
spec: {source: {persistentVolumeClaimName: data}}
---
apiVersion: metrics.k8s.io/v1beta1
kind: PodMetrics
metadata: {name: m}
"""


def _json(r) -> dict:
    return json.loads(r.stdout)


def test_custom_k8s_io_groups_are_custom_resources_not_gp207(tmp_path: Path) -> None:
    f = tmp_path / "routes.yaml"
    f.write_text(ROUTES)
    r = run_cli("lint", "--no-config", str(f), "-o", "json")
    assert r.exit_code == 0, r.stdout
    out = _json(r)
    assert {x["rule"] for x in out["findings"]} == {"GP208"}
    assert [o["status"] for o in out["objects"]] == ["skipped"] * 4
    r = run_cli("lint", "--no-config", "--require-schemas", str(f), "-o", "json")
    assert r.exit_code == 1 and {x["severity"] for x in _json(r)["findings"]} == {"error"}


def test_gateway_and_httproute_validate_against_their_crd(tmp_path: Path) -> None:
    f = tmp_path / "routes.yaml"
    f.write_text(ROUTES)
    r = run_cli("lint", "--no-config", "--crd", str(CRDS), str(f), "-o", "json")
    out = _json(r)
    status = {o["kind"]: o["status"] for o in out["objects"]}
    assert status["Gateway"] == "valid" and status["HTTPRoute"] == "valid"
    assert status["VolumeSnapshot"] == "skipped"
    bad = tmp_path / "bad.yaml"
    bad.write_text(ROUTES.replace("  parentRefs: [{name: gw}]", "  parentRefs: [{name: gw}]\n  hostname: x"))
    r = run_cli("lint", "--no-config", "--crd", str(CRDS), str(bad), "-o", "json")
    assert r.exit_code == 1
    f201 = [x for x in _json(r)["findings"] if x["rule"] == "GP201"]
    assert f201 and f201[0]["line"] == 13 and "hostname" in f201[0]["message"]


def test_removed_builtin_versions_still_gp207(tmp_path: Path) -> None:
    f = tmp_path / "old.yaml"
    f.write_text("apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: d}\nspec: {}\n")
    r = run_cli("lint", "--no-config", str(f), "-o", "json")
    assert r.exit_code == 1 and [x["rule"] for x in _json(r)["findings"]] == ["GP207"]


OPERATOR_POOL = """\
apiVersion: gpupool/v1
kind: GpuNodePool
metadata: {name: gpunp}
spec:
  resourceGroup: rg
  clusterName: aks
  vmSize: Standard_NC24ads_A100_v4
  nodeTaints: ["sku=gpu:NoSchedule"]
  gpu: {driver: None}
"""
GPU_POD = """\
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  nodeSelector: {nvidia.com/gpu.present: "true"}
  tolerations: [{key: sku, operator: Exists}]
  containers:
  - name: c
    image: nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04
    resources: {limits: {nvidia.com/gpu: 1}}
"""


def test_gpu_operator_pool_has_gfd_labels(tmp_path: Path) -> None:
    (tmp_path / "pool.yaml").write_text(OPERATOR_POOL)
    (tmp_path / "pod.yaml").write_text(GPU_POD)
    r = run_cli("lint", "--no-config", str(tmp_path), "-o", "json")
    assert r.exit_code == 0 and _json(r)["findings"] == [], r.stdout
    # The same selector on a pool whose driver AKS installs (no GFD): GP306.
    installed = OPERATOR_POOL.replace("gpu: {driver: None}", "gpu: {driver: Install}")
    (tmp_path / "pool.yaml").write_text(installed)
    r = run_cli("lint", "--no-config", str(tmp_path), "-o", "json")
    assert [x["rule"] for x in _json(r)["findings"]] == ["GP306"]


def test_gfd_daemonset_is_not_the_device_plugin(tmp_path: Path) -> None:
    pool = OPERATOR_POOL.replace("  gpu: {driver: None}\n", "").replace("NC24ads_A100_v4", "NC4as_T4_v3")
    (tmp_path / "pool.yaml").write_text(pool)
    (tmp_path / "gfd.yaml").write_text(
        """\
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: gpu-feature-discovery}
spec:
  selector: {matchLabels: {app: gfd}}
  template:
    metadata: {labels: {app: gfd}}
    spec:
      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
      containers:
      - image: nvcr.io/nvidia/k8s-device-plugin:v0.20.0
        name: gpu-feature-discovery
        command: ["/usr/bin/gpu-feature-discovery"]
"""
    )
    r = run_cli("lint", "--no-config", str(tmp_path), "-o", "json")
    rules = [x["rule"] for x in _json(r)["findings"]]
    assert "GP309" not in rules and rules == ["GP312"] and r.exit_code == 0


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "charts" / "app" / "templates").mkdir(parents=True)
    (root / "charts" / "app" / "Chart.yaml").write_text("apiVersion: v2\nname: app\nversion: 0.1.0\n")
    (root / "charts" / "app" / "values.yaml").write_text("replicaCount: 1\n")
    (root / "charts" / "app" / "templates" / "deploy.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n"
        "spec:\n  {{- with .Values.x }}\n  foo: {{ . }}\n  {{- end }}\n"
    )
    (root / "base").mkdir()
    (root / "base" / "kustomization.yaml").write_text(
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [svc.yaml]\n"
    )
    svc = "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  ports: [{port: 80}]\n"
    (root / "base" / "svc.yaml").write_text(svc)
    (root / "manifests").mkdir()
    (root / "manifests" / "svc.yaml").write_text(svc.replace("web", "api"))
    (root / "vendor").mkdir()
    (root / "vendor" / "broken.yaml").write_text("kind: [\n")
    return root


def test_repository_with_chart_kustomize_and_manifests(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    r = run_cli("lint", "--no-config", str(root), "--exclude", "vendor", "-o", "json")
    assert r.exit_code == 0, r.stdout
    out = _json(r)
    charts = [x for x in out["findings"] if x["rule"] == "GP213"]
    assert len(charts) == 1 and charts[0]["path"].endswith("charts/app/Chart.yaml")
    assert "helm template" in charts[0]["message"] and charts[0]["severity"] == "info"
    assert out["summary"]["charts"] == 1 and out["summary"]["invalid"] == 0
    text = run_cli("lint", "--no-config", str(root), "--exclude", "vendor/**")
    assert text.exit_code == 0 and "1 Helm chart not linted" in text.stdout and "notice" not in text.stdout
    assert run_cli("lint", "--no-config", str(root)).exit_code == 2  # vendor/broken.yaml: GP200 (unusable)


def test_exclude_from_the_config(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    cfg = root / ".gpupool.yaml"
    cfg.write_text("lint:\n  exclude: [vendor]\n")
    assert run_cli("lint", "--config", str(cfg), str(root)).exit_code == 0


STREAM = """\
---
# Source: app/templates/serviceaccount.yaml
apiVersion: v1
kind: ServiceAccount
metadata:
  name: app
---
# Source: app/templates/job.yaml
apiVersion: batch/v1
kind: Job
metadata:
  name: train
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: c
        image: nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04
        bogus: 1
"""


def test_helm_template_stream_keeps_template_paths() -> None:
    r = run_cli("lint", "--no-config", "-", input=STREAM)
    assert r.exit_code == 1
    assert "<stdin>:20:9 (app/templates/job.yaml:12:9): error GP201" in r.stdout  # real line first
    out = _json(run_cli("lint", "--no-config", "-", "-o", "json", input=STREAM))
    f = out["findings"][0]
    assert (f["path"], f["line"]) == ("app/templates/job.yaml", 12)
    paths = {o["path"] for o in out["objects"]}
    assert paths == {"app/templates/serviceaccount.yaml", "app/templates/job.yaml"}
    sarif = json.loads(run_cli("lint", "--no-config", "-", "-o", "sarif", input=STREAM).stdout)
    loc = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "app/templates/job.yaml" and loc["region"]["startLine"] == 12


def test_fail_on_and_explicit_bad_paths(tmp_path: Path) -> None:
    f = tmp_path / "pod.yaml"
    placement = (
        '  nodeSelector: {nvidia.com/gpu.present: "true"}\n  tolerations: [{key: sku, operator: Exists}]\n'
    )
    f.write_text(GPU_POD.replace("nvidia.com/gpu: 1", "nvidia.com/gpus: 1").replace(placement, ""))
    assert run_cli("lint", "--no-config", str(f)).exit_code == 0  # GP313 is a warning
    assert run_cli("lint", "--no-config", "--fail-on", "warning", str(f)).exit_code == 1
    assert run_cli("lint", "--no-config", "--fail-on", "none", str(f)).exit_code == 0
    b = tmp_path / "image.yaml"
    b.write_bytes(b"\x00\x01\x02PNG")
    assert run_cli("lint", "--no-config", str(b)).exit_code == 2
    assert run_cli("lint", "--no-config", str(tmp_path)).exit_code == 0  # met in a directory: skipped
    missing = run_cli("lint", "--no-config", str(tmp_path / "nope.yaml"))
    assert missing.exit_code == 2 and "no such file" in missing.stderr


def test_status_is_schema_wise(tmp_path: Path) -> None:
    pool = OPERATOR_POOL.replace("  gpu: {driver: None}\n", "")
    f = tmp_path / "pod.yaml"
    f.write_text(pool + "---\n" + GPU_POD.replace("  tolerations: [{key: sku, operator: Exists}]\n", "")
                 .replace("  nodeSelector: {nvidia.com/gpu.present: \"true\"}\n", ""))
    r = run_cli("lint", "--no-config", str(f), "-o", "json")
    out = _json(r)
    assert r.exit_code == 1 and [o["status"] for o in out["objects"]] == ["valid"]
    assert [x["rule"] for x in out["objects"][0]["findings"]] == ["GP305"]
    assert out["summary"]["valid"] == 1 and out["summary"]["invalid"] == 0


def test_lone_template_is_an_info_not_a_parse_error(tmp_path: Path) -> None:
    (tmp_path / "deploy.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n"
        "spec:\n  {{- with .Values.x }}\n  foo: {{ . }}\n  {{- end }}\n"
    )
    r = run_cli("lint", "--no-config", str(tmp_path), "-o", "json")
    got = [(x["rule"], x["severity"]) for x in _json(r)["findings"]]
    assert r.exit_code == 0 and got == [("GP213", "info")]
    (tmp_path / "deploy.yaml").write_text("kind: [\n")  # broken YAML without template markers: GP200
    assert run_cli("lint", "--no-config", str(tmp_path)).exit_code == 2  # GP200: unusable input


def test_require_schemas_in_the_config(tmp_path: Path) -> None:
    (tmp_path / "routes.yaml").write_text(ROUTES)
    cfg = tmp_path / ".gpupool.yaml"
    cfg.write_text("lint:\n  requireSchemas: true\n")
    assert run_cli("lint", "--config", str(cfg), str(tmp_path / "routes.yaml")).exit_code == 1
    cfg.write_text(f"lint:\n  requireSchemas: true\n  crds: [{CRDS}]\n")
    r = run_cli("lint", "--config", str(cfg), str(tmp_path / "routes.yaml"), "-o", "json")
    assert {o["kind"] for o in _json(r)["objects"] if o["status"] == "valid"} == {"Gateway", "HTTPRoute"}


def test_operator_device_plugin_scoped_to_operator_pools(tmp_path: Path) -> None:
    t4 = OPERATOR_POOL.replace("  gpu: {driver: None}\n", "").replace("NC24ads_A100_v4", "NC4as_T4_v3")
    (tmp_path / "pools.yaml").write_text(t4 + "---\n" + OPERATOR_POOL.replace("name: gpunp", "name: opnp"))
    (tmp_path / "ds.yaml").write_text(
        """\
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: nvidia-device-plugin-daemonset, namespace: gpu-operator}
spec:
  selector: {matchLabels: {app: dp}}
  template:
    metadata: {labels: {app: dp}}
    spec:
      nodeSelector: {nvidia.com/gpu.deploy.device-plugin: "true"}
      tolerations: [{key: sku, operator: Exists}]
      containers:
      - {name: nvidia-device-plugin, image: "nvcr.io/nvidia/k8s-device-plugin:v0.18.0"}
"""
    )
    r = run_cli("lint", "--no-config", str(tmp_path), "-o", "json")
    assert r.exit_code == 0 and _json(r)["findings"] == [], r.stdout
