"""`gpupool render SPEC --out DIR`: exit codes, nothing written for invalid specs, hostile input."""

from __future__ import annotations

import shutil
import subprocess

import pytest
import yaml

import gpupool.cli.render as render_cli
from gpupool.findings import Finding, Severity
from support import EXAMPLES, pool_doc

T4 = str(EXAMPLES / "t4-driver-only.yaml")


def write_spec(tmp_path, *docs) -> str:
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    return str(path)


def test_renders_the_example(cli, tmp_path):
    out = tmp_path / "out"
    r = cli("render", T4, "--out", str(out))
    assert r.exit_code == 0, r.stderr
    assert "wrote 8 files" in r.stdout
    for rel in ("README.md", "az/create-node-pools.sh", "arm/gpunp.json", "terraform/main.tf",
                "k8s/00-namespace.yaml", "k8s/gpunp/10-device-plugin.yaml", "k8s/gpunp/20-dcgm-exporter.yaml",
                "k8s/gpunp/90-smoke-test.yaml"):
        assert (out / rel).is_file(), rel
        assert str(out / rel) in r.stdout


def test_format_selection(cli, tmp_path):
    out = tmp_path / "out"
    r = cli("render", T4, "--out", str(out), "--format", "az", "--format", "arm,terraform")
    assert r.exit_code == 0, r.stderr
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        ".gpupool-render.json", "README.md", "arm/gpunp.json", "az/create-node-pools.sh", "terraform/main.tf"]
    # without k8s manifests the script says what to deploy instead of applying files that do not exist
    script = (out / "az/create-node-pools.sh").read_text()
    assert '"$ROOT"' not in script and "deploy the NVIDIA device plugin" in script


def test_unknown_format_is_bad_usage(cli, tmp_path):
    r = cli("render", T4, "--out", str(tmp_path / "out"), "--format", "helm")
    assert r.exit_code == 2
    assert "unknown --format 'helm'" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_non_empty_directory_needs_force(cli, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "x").write_text("x")
    r = cli("render", T4, "--out", str(out))
    assert r.exit_code == 2
    assert "not empty" in r.stderr and "--force" in r.stderr
    r = cli("render", T4, "--out", str(out), "--force")
    assert r.exit_code == 0, r.stderr
    assert (out / "x").read_text() == "x" and (out / "README.md").is_file()


def test_missing_spec_is_bad_input(cli, tmp_path):
    r = cli("render", str(tmp_path / "nope.yaml"), "--out", str(tmp_path / "out"))
    assert r.exit_code == 2
    assert "no such file" in r.stderr
    assert not (tmp_path / "out").exists()


def test_invalid_spec_renders_nothing_and_exits_1(cli, tmp_path):
    # MIG on a T4: no MIG on that GPU (a design error), so nothing may be rendered.
    spec = write_spec(tmp_path, pool_doc(nodeTaints=["sku=gpu:NoSchedule"], gpu={"instanceProfile": "MIG1g"}))
    out = tmp_path / "out"
    r = cli("render", spec, "--out", str(out))
    assert r.exit_code == 1, r.stdout + r.stderr
    assert "error" in r.stdout
    assert "nothing rendered" in r.stderr
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec.yaml"]


def test_error_findings_block_rendering_whatever_the_rule(cli, tmp_path, monkeypatch):
    def fake_checks(pools):
        return [Finding("GP999", Severity.ERROR, "made-up error", path=pools[0].where.path, line=1,
                        object=pools[0].label)]

    monkeypatch.setattr(render_cli, "run_checks", fake_checks)
    out = tmp_path / "out"
    out.mkdir()
    r = cli("render", T4, "--out", str(out), "--force")
    assert r.exit_code == 1
    assert "GP999" in r.stdout
    assert list(out.iterdir()) == []


def test_warnings_do_not_block(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(render_cli, "run_checks",
                        lambda pools: [Finding("GP998", Severity.WARNING, "just a warning")])
    r = cli("render", T4, "--out", str(tmp_path / "out"))
    assert r.exit_code == 0
    assert "GP998" in r.stderr


HOSTILE = [
    "$(touch gpupool-pwned)",
    "`id`",
    "a;rm -rf /",
    "a b",
    "a'b",
    'a"b',
    "a\nb",
    "a|b",
    "${IFS}",
    "../../etc",
    "-rf",
    "--help",
    "(x)",
]
FIELDS = ["name", "resourceGroup", "clusterName", "vmSize", "osSku", "location", "kubernetesVersion",
          "label-key", "label-value", "taint"]
BASH = shutil.which("bash")


def hostile_doc(field: str, value: str) -> dict:
    doc = pool_doc(nodeTaints=["sku=gpu:NoSchedule"])
    if field == "name":
        doc["metadata"]["name"] = value
    elif field == "label-key":
        doc["spec"]["nodeLabels"] = {value: "x"}
    elif field == "label-value":
        doc["spec"]["nodeLabels"] = {"team": value}
    elif field == "taint":
        doc["spec"]["nodeTaints"] = [f"{value}=x:NoSchedule"]
    else:
        doc["spec"][field] = value
    return doc


def fake_az_argv(script: str, cwd=None) -> list[str]:
    """Run the script's `az aks nodepool add` against a fake az that prints its arguments."""
    start = script.index("az aks nodepool add")
    end = script.index("\n\n", start)
    fake = "az() { printf '%s\\0' \"$@\"; }\n" + script[start:end] + "\n"
    r = subprocess.run([BASH, "-c", fake], capture_output=True, check=True, cwd=cwd)
    return r.stdout.decode().split("\0")[:-1]


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_values_are_rejected_or_rendered_harmlessly(cli, tmp_path, field, value):
    out = tmp_path / "out"
    r = cli("render", write_spec(tmp_path, hostile_doc(field, value)), "--out", str(out))
    if r.exit_code == 2:  # rejected at load: one line, nothing written
        assert len(r.stderr.strip().splitlines()) == 1
        assert not out.exists()
        return
    # Accepted by the loader: then it must reach az as one literal argument, nothing more.
    assert r.exit_code in (0, 1), r.stdout + r.stderr
    if r.exit_code == 1 or BASH is None:
        return
    from gpupool.render import az
    from gpupool.spec import load_pools

    script = (out / "az/create-node-pools.sh").read_text()
    pool = load_pools(tmp_path / "spec.yaml")[0]
    assert fake_az_argv(script, cwd=tmp_path) == az.nodepool_add_argv(pool)[1:]
    assert not (tmp_path / "gpupool-pwned").exists()


@pytest.mark.parametrize("value", HOSTILE)
def test_names_with_shell_or_path_characters_never_load(cli, tmp_path, value):
    """Pool and cluster names become file names and Kubernetes names: anything odd is refused outright."""
    for field in ("name", "clusterName"):
        r = cli("render", write_spec(tmp_path, hostile_doc(field, value)), "--out", str(tmp_path / "out"))
        assert r.exit_code == 2, (field, value)


def test_a_resource_group_starting_with_a_dash_is_not_taken_for_an_option(tmp_path):
    from gpupool.render import az
    from support import make_pool

    pool = make_pool(resourceGroup="-rg")
    argv = az.nodepool_add_argv(pool)
    assert "--resource-group=-rg" in argv
    assert "--resource-group='-rg'" in az.script([pool])


@pytest.mark.skipif(BASH is None, reason="bash not installed")
def test_odd_values_that_load_are_rendered_harmlessly(cli, tmp_path):
    """Values the loader allows but a shell would read specially (parentheses, unicode) stay literal."""
    doc = pool_doc(name="odd", nodeTaints=["sku=gpu:NoSchedule"])
    doc["spec"]["resourceGroup"] = "rg(prod).ü"
    out = tmp_path / "out"
    r = cli("render", write_spec(tmp_path, doc), "--out", str(out), "--format", "az")
    assert r.exit_code == 0, r.stdout + r.stderr
    script = (out / "az/create-node-pools.sh").read_text()
    assert "--resource-group 'rg(prod).ü'" in script
    printed = fake_az_argv(script)
    assert printed[printed.index("--resource-group") + 1] == "rg(prod).ü"


def test_program_exit_codes(program, tmp_path):
    """The real entry point: exit 0 with files, exit 2 for a bad option value."""
    out = tmp_path / "out"
    r = program("render", T4, "--out", str(out), "--format", "k8s")
    assert r.exit_code == 0, r.stderr
    assert (out / "k8s/gpunp/10-device-plugin.yaml").is_file()
    r = program("render", T4, "--out", str(out))
    assert r.exit_code == 2 and "not empty" in r.stderr
