"""k8s.validation on its own: versioned rules, what the server accepts, the cron parser, robustness; and
lint's verdict on the issue's hostile Deployment through the real CLI."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpupool.k8s.validation import cron, names, validate
from support import run_cli, run_program


def _pod(env=None, **spec) -> dict:
    c = {"name": "c", "image": "busybox:1.36"}
    if env is not None:
        c["env"] = env
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [c], **spec}}


def _fields(obj: dict, version: tuple[int, int] = (1, 36)) -> set[str]:
    return {p.field for p in validate(obj, version)}


@pytest.mark.parametrize("name", ["1ST_GPU", "a$b", "my var", "a:b"])
def test_relaxed_env_names_are_accepted_from_1_32_only(name: str) -> None:
    pod = _pod(env=[{"name": name, "value": "1"}])
    assert _fields(pod, (1, 32)) == set() and _fields(pod, (1, 36)) == set()
    assert _fields(pod, (1, 31)) == {"spec.containers[0].env[0].name"}


def test_an_env_name_with_equals_is_refused_in_every_version() -> None:
    pod = _pod(env=[{"name": "A=B", "value": "1"}])
    for v in ((1, 25), (1, 36)):
        assert _fields(pod, v) == {"spec.containers[0].env[0].name"}


def test_statefulset_names_are_dns_labels_from_1_27() -> None:
    sts = {
        "apiVersion": "apps/v1",
        "kind": "StatefulSet",
        "metadata": {"name": "db.main"},
        "spec": {
            "selector": {"matchLabels": {"a": "b"}},
            "template": {
                "metadata": {"labels": {"a": "b"}},
                "spec": {"containers": [{"name": "c", "image": "x"}]},
            },
        },
    }
    assert _fields(sts, (1, 26)) == set()
    assert _fields(sts, (1, 27)) == {"metadata.name"}


def test_service_names_may_start_with_a_digit_from_1_36() -> None:
    svc = {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": "7th-gw"},
        "spec": {"ports": [{"port": 80}]},
    }
    assert _fields(svc, (1, 35)) == {"metadata.name"}
    assert _fields(svc, (1, 36)) == set()


def test_a_job_name_longer_than_a_label_value_fails_in_the_template_labels() -> None:
    job = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "j" * 64},
        "spec": {
            "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "x"}]}}
        },
    }
    assert _fields(job) == {"spec.template.labels"}
    job["metadata"]["name"] = "j" * 63
    assert _fields(job) == set()


def test_what_the_server_accepts() -> None:
    gpu = _pod()
    gpu["spec"]["containers"][0]["resources"] = {"limits": {"nvidia.com/gpu": 1}}
    gpu["spec"]["terminationGracePeriodSeconds"] = -1
    gpu["spec"]["containers"][0]["env"] = [{"name": "A", "value": "1"}, {"name": "A", "value": "2"}]
    assert _fields(gpu) == set()
    role = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "Api-T4_x"}}
    assert _fields(role) == set()
    pdb = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "A.b"}, "spec": {}}
    assert _fields(pdb) == set()
    long_prefix = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"generateName": "a" * 80 + "-"}}
    assert _fields(long_prefix) == set()


def test_annotations_over_256_kib_are_refused() -> None:
    cm = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "c", "annotations": {"a": "x" * 262_143}},
    }
    assert _fields(cm) == set()
    cm["metadata"]["annotations"]["b"] = "yy"
    assert _fields(cm) == {"metadata.annotations"}


def test_custom_resources_get_metadata_rules_only() -> None:
    cr = {
        "apiVersion": "example.com/v1",
        "kind": "Thing",
        "metadata": {"name": "Bad_Name"},
        "spec": {"x": -1},
    }
    assert {p.field for p in validate(cr, (1, 36), builtin=False)} == {"metadata.name"}


@pytest.mark.parametrize(
    "schedule",
    [
        "*/5 * * * *",
        "0 0 1 1 *",
        "0 3 * JAN-MAR mon-fri",
        "5/15 * * * *",
        "@hourly",
        "@every 1h30m",
        "0 0 ? * 0",
    ],
)
def test_schedules_the_parser_reads(schedule: str) -> None:
    assert cron.parse_error(schedule) is None


@pytest.mark.parametrize(
    ("schedule", "reason"),
    [
        ("* * * *", "expected exactly 5 fields, found 4"),
        ("60 * * * *", "above maximum (59)"),
        ("0 0 0 * *", "below minimum (1)"),
        ("5-1 * * * *", "beyond end of range"),
        ("*/0 * * * *", "step of range should be a positive number"),
        ("0 0 * * 7", "above maximum (6)"),
        ("@fortnightly", "unrecognized descriptor"),
        ("x * * * *", "failed to parse int from x"),
    ],
)
def test_schedules_the_parser_refuses(schedule: str, reason: str) -> None:
    assert reason in (cron.parse_error(schedule) or "")


def test_time_zones() -> None:
    assert cron.time_zone_error("Local") and cron.time_zone_error("")
    assert cron.time_zone_error("Europe/Berlin") is None and cron.time_zone_error("UTC") is None
    if cron._zones():
        assert cron.time_zone_error("UTC+2") == "unknown time zone UTC+2"


def test_name_formats() -> None:
    assert names.dns1123_label("a" * 63) is None and names.dns1123_label("a" * 64)
    assert names.dns1123_subdomain("a.b-c") is None and names.dns1123_subdomain("a..b")
    assert names.qualified_name("example.com/My_Key.1") is None and names.qualified_name("a/b/c")
    assert names.label_value("") is None and names.label_value("-a")
    assert names.port_name("http") is None and names.port_name("8080") and names.port_name("a--b")
    assert names.config_key(".env") is None and names.config_key("..x")


_scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.text(max_size=12))
_data = st.recursive(
    _scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=4)
)
_kinds = st.sampled_from(
    [
        ("v1", "Pod"),
        ("apps/v1", "Deployment"),
        ("batch/v1", "CronJob"),
        ("v1", "Service"),
        ("v1", "Secret"),
        ("policy/v1", "PodDisruptionBudget"),
        ("networking.k8s.io/v1", "NetworkPolicy"),
        ("v1", "ConfigMap"),
        ("rbac.authorization.k8s.io/v1", "RoleBinding"),
        ("autoscaling/v2", "HorizontalPodAutoscaler"),
    ]
)


@settings(max_examples=300, deadline=None)
@given(_kinds, _data, _data)
def test_any_shape_gives_problems_never_an_exception(kind, spec, meta) -> None:
    obj = {"apiVersion": kind[0], "kind": kind[1], "metadata": meta, "spec": spec, "data": spec}
    for p in validate(obj, (1, 36)):
        assert p.message.startswith(p.field) and p.area


HOSTILE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: <img src=x onerror=alert(1)>
  namespace: <script>
  labels: {app: web, tier: "<b>bold</b>"}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: c<b>x</b>
        image: nginx:1.27
"""

GPU_ONLY = """\
apiVersion: v1
kind: Pod
metadata: {name: train}
spec:
  containers:
  - name: t
    image: busybox:1.36
    resources:
      requests: {nvidia.com/gpu: 1}
"""


def test_the_issues_hostile_deployment_is_refused_through_the_cli() -> None:
    r = run_program("lint", "-k", "1.36", "-o", "json", "-", input=HOSTILE)
    assert r.exit_code == 1, r.stderr
    doc = json.loads(r.stdout)
    (obj,) = doc["objects"]
    assert obj["status"] == "invalid" and doc["summary"]["invalid"] == 1 and doc["summary"]["valid"] == 0
    fields = {f.get("field") for f in obj["findings"]}
    assert {
        "metadata.name",
        "metadata.namespace",
        "metadata.labels",
        "spec.template.spec.containers[0].name",
    } <= fields


def test_an_object_refused_only_for_gp301_is_invalid_in_json() -> None:
    r = run_cli("lint", "-o", "json", "-", input=GPU_ONLY)
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    assert [f["rule"] for f in doc["objects"][0]["findings"]] == ["GP301"]
    assert doc["objects"][0]["status"] == "invalid"
    assert doc["summary"]["invalid"] == 1 and doc["summary"]["valid"] == 0


def test_the_validation_can_be_turned_off() -> None:
    r = run_cli(
        "lint",
        "--ignore",
        "GP220",
        "--ignore",
        "GP221",
        "--ignore",
        "GP223",
        "-o",
        "json",
        "-",
        input=HOSTILE,
    )
    assert r.exit_code == 0, r.stdout


def test_template_placeholders_are_not_judged() -> None:
    cm = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": "{{ .Release.Name }}-cfg",
            "namespace": "${NS}",
            "labels": {"app": "{{ .Chart.Name }}"},
        },
    }
    assert _fields(cm) == set()


def test_one_rule_per_area() -> None:
    from gpupool.k8s.validation import AREAS
    from gpupool.lint import apiserver

    assert sorted(apiserver.BY_AREA) == sorted(AREAS)
    assert [m.ID for m in apiserver.RULES] == [f"GP{n}" for n in range(220, 230)]
