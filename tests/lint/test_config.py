"""Suppressions: ``gpupool.io/ignore`` annotations (object and pod template), ``.gpupool.yaml`` (levels and
ignores by kind/namespace/name/path, found upward or given), ``--disallow-ignores``."""

from __future__ import annotations

import json
from pathlib import Path

from gpupool.lint.config import parse_ignore_annotation
from support import EXAMPLES, run_cli, run_program

POOL = (EXAMPLES / "t4-driver-only.yaml").read_text()
WEB = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
{obj_ann}spec:
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata:
      labels: {{app: web}}
{tpl_ann}    spec:
      tolerations:
      - {{key: sku, operator: Equal, value: gpu, effect: NoSchedule}}
      containers:
      - {{name: web, image: nginx}}
"""


def _write(tmp: Path, obj_ann: str = "", tpl_ann: str = "") -> Path:
    (tmp / "pool.yaml").write_text(POOL)
    f = tmp / "web.yaml"
    f.write_text(WEB.format(obj_ann=obj_ann, tpl_ann=tpl_ann))
    return f


def _rules(r) -> list[tuple[str, str]]:
    return [(f["rule"], f["severity"]) for f in json.loads(r.stdout)["findings"]]


def test_warning_without_suppression(tmp_path: Path) -> None:
    _write(tmp_path)
    r = run_cli("lint", "--no-config", str(tmp_path), "-o", "json")
    assert r.exit_code == 0 and _rules(r) == [("GP308", "warning")]


def test_annotation_on_object_and_on_pod_template(tmp_path: Path) -> None:
    _write(tmp_path, obj_ann="  annotations:\n    gpupool.io/ignore: GP308 warms the GPU pool on purpose\n")
    r = run_cli("lint", "--no-config", str(tmp_path), "-o", "json")
    assert _rules(r) == [] and json.loads(r.stdout)["summary"]["suppressed"] == 1
    _write(
        tmp_path,
        tpl_ann="      annotations:\n        gpupool.io/ignore: gpu-toleration-without-request needed\n",
    )
    assert _rules(run_cli("lint", "--no-config", str(tmp_path), "-o", "json")) == []


def test_annotation_accepts_id_name_and_name_colon_reason(tmp_path: Path) -> None:
    _write(tmp_path, obj_ann='  annotations:\n    gpupool.io/ignore: "GP308; GP999 typo"\n')
    r = run_cli("lint", "--no-config", str(tmp_path), "-o", "json")
    assert _rules(r) == [("GP211", "warning")]  # GP308 honoured without a reason; GP999 unknown
    s = parse_ignore_annotation("GP301,GP305 vendor chart\nGP308 ok")
    assert s.rules == {"GP301": "vendor chart", "GP305": "vendor chart", "GP308": "ok"} and not s.problems
    s = parse_ignore_annotation("gpu-toleration-without-request: warms the pool; GP311")
    assert s.rules == {"GP308": "warms the pool", "GP311": "(no reason given)"} and not s.problems
    s = parse_ignore_annotation("gpu-toleration-without-request")
    assert s.rules == {"GP308": "(no reason given)"} and not s.problems
    ann = '    gpupool.io/ignore: "gpu-toleration-without-request: on purpose"\n'
    _write(tmp_path, obj_ann="  annotations:\n" + ann)
    assert _rules(run_cli("lint", "--no-config", str(tmp_path), "-o", "json")) == []


def test_disallow_ignores(tmp_path: Path) -> None:
    _write(tmp_path, obj_ann="  annotations:\n    gpupool.io/ignore: GP308 on purpose\n")
    r = run_cli("lint", "--no-config", "--disallow-ignores", str(tmp_path), "-o", "json")
    assert sorted(_rules(r)) == [("GP211", "info"), ("GP308", "warning")]


def test_config_levels_and_ignores_found_upward(tmp_path: Path) -> None:
    _write(tmp_path)
    (tmp_path / ".gpupool.yaml").write_text("lint:\n  rules:\n    GP308: error\n")
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    r = run_program("lint", str(tmp_path / "web.yaml"), str(tmp_path / "pool.yaml"), "-o", "json", cwd=sub)
    assert r.exit_code == 1 and _rules(r) == [("GP308", "error")]
    (tmp_path / ".gpupool.yaml").write_text(
        "lint:\n  rules: {GP308: error}\n  ignore:\n  - {rules: [GP308], kind: Deployment, namespace: sh*, "
        "name: web, reason: vendor chart}\n"
    )
    r = run_program("lint", str(tmp_path / "web.yaml"), str(tmp_path / "pool.yaml"), "-o", "json", cwd=sub)
    assert r.exit_code == 0 and _rules(r) == []
    r = run_program(
        "lint",
        "--disallow-ignores",
        str(tmp_path / "web.yaml"),
        str(tmp_path / "pool.yaml"),
        "-o",
        "json",
        cwd=sub,
    )
    assert r.exit_code == 1 and _rules(r) == [("GP308", "error")]


def test_config_ignore_by_path_and_off(tmp_path: Path) -> None:
    m = tmp_path / "m"
    m.mkdir()
    _write(m)
    (m / ".gpupool.yaml").write_text("lint: {}\n")  # never linted as a manifest
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("lint:\n  ignore:\n  - {path: 'm/web.yaml', reason: generated}\n")
    assert _rules(run_cli("lint", "--config", str(cfg), str(m), "-o", "json")) == []
    cfg.write_text("lint:\n  rules: {gpu-toleration-without-request: off}\n  kubernetesVersion: '1.30'\n")
    r = run_cli("lint", "--config", str(cfg), str(m), "-o", "json")
    assert _rules(r) == [] and json.loads(r.stdout)["summary"]["kubernetesVersion"] == "1.30"


def test_bad_config_is_bad_usage(tmp_path: Path) -> None:
    f = _write(tmp_path)
    cfg = tmp_path / "cfg.yaml"
    for text, needle in [
        ("lint:\n  rulez: {}\n", 'did you mean "rules"'),
        ("lint:\n  rules: {GP999: error}\n", "unknown lint rule"),
        ("lint:\n  rules: {GP308: loud}\n", "not one of"),
        ("lint:\n  ignore:\n  - {kind: Pod}\n", "a reason is required"),
        ("lint:\n  kubernetesVersion: 1.30\n", "quoted string"),
    ]:
        cfg.write_text(text)
        r = run_cli("lint", "--config", str(cfg), str(f))
        assert r.exit_code == 2 and needle in r.stderr, (text, r.stderr)


def test_ignore_flag(tmp_path: Path) -> None:
    _write(tmp_path)
    assert _rules(run_cli("lint", "--no-config", "--ignore", "GP308", str(tmp_path), "-o", "json")) == []
    r = run_cli(
        "lint", "--no-config", "--ignore", "gpu-toleration-without-request,GP201", str(tmp_path), "-o", "json"
    )
    assert _rules(r) == []
    assert run_cli("lint", "--no-config", "--ignore", "GP999", str(tmp_path)).exit_code == 2
