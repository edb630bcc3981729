"""One config file for every command (``.gpupool.yaml``: a global part and a section per command) and the
``gpupool.io/ignore`` annotation on pool specs, honoured by every command that reports on pools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpupool.config import object_ident, parse
from gpupool.errors import InputError
from support import EXAMPLES, run_cli, run_program

SPOT = (EXAMPLES / "t4-time-sliced-spot.yaml").read_text()  # GP131 info (line 11), GP128 warning (line 13)
WORKLOAD = EXAMPLES / "workloads" / "gpu-test.yaml"


def _rules(r) -> list[str]:
    return sorted(f["rule"] for f in json.loads(r.stdout)["findings"])


def _config(tmp: Path, text: str) -> str:
    cfg = tmp / "gpupool-config.yaml"
    cfg.write_text(text)
    return str(cfg)


def _spot(tmp: Path, annotation: str | None = None) -> str:
    text = SPOT
    if annotation is not None:
        text = text.replace(
            "  name: t4spot\n", f"  name: t4spot\n  annotations:\n    gpupool.io/ignore: {annotation}\n"
        )
    f = tmp / "spot.yaml"
    f.write_text(text)
    return str(f)


def test_global_rules_apply_to_every_pool_command(tmp_path: Path) -> None:
    spec = _spot(tmp_path)
    assert _rules(run_cli("check", "--no-config", spec, "-o", "json")) == ["GP128", "GP131"]
    cfg = _config(tmp_path, "rules:\n  GP128: off\n  spot-gpu-pool: error\n")
    for command in ("check", "plan"):
        r = run_cli(command, "--config", cfg, spec, "-o", "json")
        assert _rules(r) == ["GP131"], (command, r.stdout)
        assert [f["severity"] for f in json.loads(r.stdout)["findings"]] == ["error"] and r.exit_code == 1
        assert "1 finding left out" in r.stderr
    r = run_cli("simulate", "--config", cfg, spec, str(WORKLOAD), "-o", "json")
    assert "GP128" not in _rules(r)


def test_section_wins_over_global_for_its_command_only(tmp_path: Path) -> None:
    spec = _spot(tmp_path)
    cfg = _config(tmp_path, "rules: {GP128: warning}\ncheck:\n  rules: {scale-from-zero: error}\n")
    r = run_cli("check", "--config", cfg, spec, "-o", "json")
    assert r.exit_code == 1
    assert [f["severity"] for f in json.loads(r.stdout)["findings"] if f["rule"] == "GP128"] == ["error"]
    r = run_cli("plan", "--config", cfg, spec, "-o", "json")  # plan has no section: the global warning
    assert r.exit_code == 0
    assert [f["severity"] for f in json.loads(r.stdout)["findings"] if f["rule"] == "GP128"] == ["warning"]


def test_an_error_turned_off_unblocks_plan_and_render(tmp_path: Path) -> None:
    spec = tmp_path / "old.yaml"
    spec.write_text(
        "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\nspec:\n"
        "  resourceGroup: rg\n  clusterName: aks\n  vmSize: Standard_NC4as_T4_v3\n  nodeTaints: []\n"
    )
    assert run_cli("plan", "--no-config", str(spec)).exit_code == 0
    cfg = _config(tmp_path, "render:\n  rules: {GP126: error}\nplan:\n  rules: {GP126: error}\n")
    r = run_cli("plan", "--config", cfg, str(spec), "-o", "json")
    assert r.exit_code == 1 and json.loads(r.stdout)["refused"] is True
    r = run_cli("render", "--config", cfg, str(spec), "--out", str(tmp_path / "out"))
    assert r.exit_code == 1 and not (tmp_path / "out").exists()
    cfg2 = _config(
        tmp_path, "ignore:\n- {rules: [GP126], kind: GpuNodePool, name: gpu*, reason: dev cluster}\n"
    )
    r = run_cli("render", "--config", cfg2, str(spec), "--out", str(tmp_path / "out2"))
    assert r.exit_code == 0 and (tmp_path / "out2").is_dir()


def test_ignore_entries_match_path_and_object(tmp_path: Path) -> None:
    spec = _spot(tmp_path)
    for entry, left in [
        ("{rules: [GP128], path: 'spot.yaml', reason: r}", ["GP131"]),
        ("{rules: [GP128], path: '*/other.yaml', reason: r}", ["GP128", "GP131"]),
        ("{kind: GpuNodePool, name: 't4*', reason: r}", []),
        ("{kind: NodePool, reason: r}", ["GP128", "GP131"]),
    ]:
        cfg = _config(tmp_path, f"check:\n  ignore:\n  - {entry}\n")
        assert _rules(run_cli("check", "--config", cfg, spec, "-o", "json")) == left, entry


@pytest.mark.parametrize(
    ("text", "needle", "line"),
    [
        ("lnt:\n  rules: {}\n", 'unknown section or key "lnt" (did you mean "lint"?)', 1),
        ("check:\n  ignor: []\n", 'check: unknown field "ignor" (did you mean "ignore"?)', 2),
        ("diff:\n  exclude: [x]\n", 'diff: unknown field "exclude"', 2),
        ("rules:\n  GP1288: off\n", "rules: unknown rule 'GP1288' (did you mean \"GP128\"?)", 2),
        ("rules:\n  GP128: loud\n", "not one of error, warning, info, off", 2),
        ("ignore:\n- {rules: [GP128]}\n", "a reason is required", 2),
        ("kubernetesVersion: 1.34\n", "quoted string", 1),
        ("kubernetesVersion: 'latest'\n", "not a Kubernetes version", 1),
        ("sizes:\n- {name: Standard_X1, vcpus: 2}\n", "missing memoryGiB, gpus", 2),
        ("- rules\n", "expected a mapping at the top level", 1),
        ("check: {rules: {GP128: off}}\ncheck: {}\n", 'duplicate key "check"', 2),
    ],
)
def test_bad_config_is_one_line_exit_2_in_every_command(
    tmp_path: Path, text: str, needle: str, line: int
) -> None:
    cfg = _config(tmp_path, text)
    spec = _spot(tmp_path)
    for args in (
        ["check", spec],
        ["plan", spec],
        ["simulate", spec],
        ["preflight", spec],
        ["lint", str(WORKLOAD)],
        ["render", spec, "--out", str(tmp_path / "o")],
    ):
        r = run_cli(args[0], "--config", cfg, *args[1:])
        assert r.exit_code == 2, (args, r.stdout, r.stderr)
        assert needle in r.stderr and f"{cfg}:{line}:" in r.stderr and len(r.stderr.splitlines()) == 1, (
            r.stderr
        )
    assert not (tmp_path / "o").exists()


def test_found_upward_and_no_config(tmp_path: Path) -> None:
    spec = _spot(tmp_path)
    (tmp_path / ".gpupool.yaml").write_text("rules: {GP128: off}\n")
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    r = run_program("check", spec, "-o", "json", cwd=sub)
    assert r.exit_code == 0 and _rules(r) == ["GP131"]
    r = run_program("check", "--no-config", spec, "-o", "json", cwd=sub)
    assert _rules(r) == ["GP128", "GP131"]
    (tmp_path / ".gpupool.yaml").write_text("chekc: {}\n")
    r = run_program("doctor", "--snapshot", str(tmp_path), cwd=sub)
    assert r.exit_code == 2 and 'did you mean "check"' in r.stderr


def test_global_kubernetes_version_is_the_assumed_one(tmp_path: Path) -> None:
    spec = _spot(tmp_path)
    cfg = _config(tmp_path, 'kubernetesVersion: "1.33"\n')
    d = json.loads(run_cli("check", "--config", cfg, spec, "-o", "json").stdout)
    assert (
        d["assumed"].startswith("assuming Kubernetes 1.33, the kubernetesVersion of ") and cfg in d["assumed"]
    )
    d = json.loads(run_cli("check", "--no-config", spec, "-o", "json").stdout)
    assert "AKS's default" in d["assumed"]
    d = json.loads(run_cli("lint", "--config", cfg, str(WORKLOAD), "-o", "json").stdout)
    assert d["summary"]["kubernetesVersion"] == "1.33" and not d["summary"].get("assumed")
    cfg = _config(tmp_path, 'kubernetesVersion: "1.33"\nlint: {kubernetesVersion: "1.32"}\n')
    d = json.loads(run_cli("lint", "--config", cfg, str(WORKLOAD), "-o", "json").stdout)
    assert d["summary"]["kubernetesVersion"] == "1.32"


def test_global_pools_and_rules_reach_lint(tmp_path: Path) -> None:
    pools = tmp_path / "pools"
    pools.mkdir()
    (pools / "t4.yaml").write_text((EXAMPLES / "t4-driver-only.yaml").read_text())
    web = tmp_path / "web.yaml"
    web.write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n"
        "  selector: {matchLabels: {a: b}}\n"
        "  template:\n    metadata: {labels: {a: b}}\n    spec:\n      tolerations:\n"
        "      - {key: sku, operator: Equal, value: gpu, effect: NoSchedule}\n"
        "      containers: [{name: web, image: nginx}]\n"
    )
    cfg = _config(tmp_path, "pools: [pools/]\nrules: {GP308: error}\n")
    r = run_cli("lint", "--config", cfg, str(web), "-o", "json")
    assert r.exit_code == 1 and [(f["rule"], f["severity"]) for f in json.loads(r.stdout)["findings"]] == [
        ("GP308", "error")
    ]
    cfg = _config(tmp_path, "pools: [pools/]\nrules: {GP308: error}\nlint: {rules: {GP308: info}}\n")
    r = run_cli("lint", "--config", cfg, str(web), "-o", "json")
    assert r.exit_code == 0 and [f["severity"] for f in json.loads(r.stdout)["findings"]] == ["info"]


def test_pool_annotation_honoured_by_every_command(tmp_path: Path) -> None:
    spec = _spot(tmp_path, '"GP128 scales from zero on purpose; spot-gpu-pool: documented"')
    for args in (
        ["check", spec],
        ["plan", spec],
        ["lint", "--pool", spec, str(WORKLOAD)],
        ["simulate", spec, str(WORKLOAD)],
    ):
        r = run_cli(args[0], "--no-config", *args[1:], "-o", "json")
        left = _rules(r)
        assert "GP128" not in left and "GP131" not in left, (args, left)
    r = run_cli("check", "--no-config", spec)
    assert "2 findings left out by gpupool.io/ignore" in r.stderr
    out = tmp_path / "page.html"
    r = run_cli("report", "--no-config", spec, "--out", str(out))
    assert r.exit_code == 0 and 'href="#rule-GP128"' not in out.read_text()
    run_cli("report", "--no-config", _spot(tmp_path), "--out", str(out))
    assert 'href="#rule-GP128"' in out.read_text()


def test_pool_annotation_diff_and_preflight(tmp_path: Path) -> None:
    cur = EXAMPLES / "diff" / "current-gpunp.json"
    desired = (EXAMPLES / "diff" / "desired-gpunp-a100.yaml").read_text()
    d = tmp_path / "desired.yaml"
    d.write_text(desired)
    before = _rules(run_cli("diff", "--no-config", str(cur), str(d), "-o", "json"))
    assert before, "the example diff has findings"
    rule = before[0]
    d.write_text(
        desired.replace(
            "  name: gpunp\n", f"  name: gpunp\n  annotations:\n    gpupool.io/ignore: {rule} known\n", 1
        )
    )
    after = _rules(run_cli("diff", "--no-config", str(cur), str(d), "-o", "json"))
    assert rule not in after
    pf = (EXAMPLES / "preflight" / "gpu.yaml").read_text()
    p = tmp_path / "pf.yaml"
    p.write_text(pf)
    az = str(EXAMPLES / "preflight" / "az")
    found = json.loads(run_cli("preflight", "--no-config", str(p), "--from", az, "-o", "json").stdout)[
        "findings"
    ]
    assert found, "the preflight example has findings"
    first = found[0]
    name = first["object"].split(" ", 1)[1]
    p.write_text(
        pf.replace(
            f"  name: {name}\n",
            f"  name: {name}\n  annotations:\n    gpupool.io/ignore: {first['rule']} known\n",
            1,
        )
    )
    after = json.loads(run_cli("preflight", "--no-config", str(p), "--from", az, "-o", "json").stdout)[
        "findings"
    ]
    assert not [f for f in after if f["rule"] == first["rule"] and f["object"] == first["object"]]


@pytest.mark.parametrize(
    ("value", "needle"),
    [
        ('"GP128"', "GP128 has no reason"),
        ('"GP1280 why"', "unknown rule 'GP1280' (did you mean \"GP128\"?)"),
        ("[GP128]", "expected a string"),
        ('"; ,"', "names no rule"),
    ],
)
def test_pool_annotation_without_reason_or_rule_is_bad_input(tmp_path: Path, value: str, needle: str) -> None:
    spec = _spot(tmp_path, value)
    r = run_cli("check", "--no-config", spec)
    assert r.exit_code == 2 and needle in r.stderr and f"{spec}:8:" in r.stderr, r.stderr


def test_parse_unit() -> None:
    cfg = parse({"rules": {"GP128": "off"}, "check": {"rules": {"GP128": "error"}}}, "c.yaml")
    assert cfg.section("check").levels["GP128"].value == "error"
    assert cfg.section("plan").levels["GP128"] is None
    assert object_ident("Deployment ml/train") == ("Deployment", "ml", "train")
    assert object_ident("GpuNodePool gpunp") == ("GpuNodePool", "", "gpunp")
    with pytest.raises(InputError):
        parse({"check": []}, "c.yaml")


def test_readme_config_example_is_valid() -> None:
    import re

    from gpupool import yamlio
    from support import REPO

    text = (REPO / "README.md").read_text()
    body = text[text.index("### One config file") :]
    block = re.search(r"^```yaml\n(.*?)^```$", body, re.S | re.M)
    assert block
    docs = yamlio.load_documents(block.group(1), "README.md")
    cfg = parse(docs[0].data, "README.md")
    assert set(cfg.sections) == {"check", "plan", "lint", "diff", "simulate", "doctor", "preflight", "render",
                                 "report"}
    assert cfg.kubernetes_version == "1.34" and cfg.levels["GP128"] is None
