"""``--skus FILE`` (sizes from the user's az vm list-skus) on check, plan, simulate; ``gpupool catalog``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from gpupool import catalog
from support import REPO, run_cli, run_program

SKUS = Path(__file__).parent / "preflight" / "data" / "eastus" / "skus.json"


@pytest.fixture(autouse=True)
def _fresh_catalog():
    catalog.clear_user_sizes()
    yield
    catalog.clear_user_sizes()


def _spec(tmp_path: Path, vm_size: str = "Standard_ND40rs_v2") -> Path:
    doc = {
        "apiVersion": "gpupool/v1",
        "kind": "GpuNodePool",
        "metadata": {"name": "gpunp"},
        "spec": {
            "resourceGroup": "rg",
            "clusterName": "c",
            "kubernetesVersion": "1.35",
            "vmSize": vm_size,
            "nodeTaints": ["sku=gpu:NoSchedule"],
            "nodeCount": 1,
        },
    }
    f = tmp_path / "p.yaml"
    f.write_text(yaml.safe_dump(doc))
    return f


def test_check_without_skus_says_unknown_size(tmp_path) -> None:
    d = json.loads(run_cli("check", str(_spec(tmp_path)), "-o", "json").stdout)
    assert [f["rule"] for f in d["findings"]] == ["GP101"]


def test_check_with_skus_uses_list_skus_facts(tmp_path) -> None:
    r = run_cli("check", str(_spec(tmp_path)), "--skus", str(SKUS), "-o", "json")
    d = json.loads(r.stdout)
    rules = {f["rule"]: f for f in d["findings"]}
    assert "GP101" not in rules and rules["GP141"]["severity"] == "warning"
    assert "40 vCPUs, 672 GiB, 8 GPUs;" in rules["GP141"]["message"]
    assert "driver AKS installs" in rules["GP141"]["message"]


def test_catalog_rows_win_over_list_skus(tmp_path) -> None:
    from gpupool.preflight.listskus import use_list_skus

    added = {s.name for s in use_list_skus(SKUS)}
    assert added == {"Standard_ND40rs_v2"}  # every other size of the file is in the catalog
    assert catalog.vm_size("Standard_NC4as_T4_v3").origin == "catalog"
    s = catalog.vm_size("standard_nd40rs_v2")
    assert (s.vcpu, s.memory_gib, int(s.gpus), s.quota_family, s.driver) == (
        40,
        672.0,
        8,
        "standardNDSv2Family",
        None,
    )


def test_plan_with_skus_shows_the_size(tmp_path) -> None:
    r = run_cli("plan", str(_spec(tmp_path)), "--skus", str(SKUS), "-o", "json")
    d = json.loads(r.stdout)
    pool = d["pools"][0] if "pools" in d else d
    assert pool["vcpu"] == 40 and pool["gpusPerNode"] == 8 and pool["advertised"] == {"nvidia.com/gpu": 8}


def test_simulate_with_skus_places_on_the_size(tmp_path) -> None:
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "train"},
        "spec": {
            "tolerations": [{"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}],
            "containers": [{"name": "c", "image": "x", "resources": {"limits": {"nvidia.com/gpu": 8}}}],
        },
    }
    w = tmp_path / "w.yaml"
    w.write_text(yaml.safe_dump(pod))
    r = run_cli("simulate", str(_spec(tmp_path)), str(w), "--skus", str(SKUS), "-o", "json")
    assert r.exit_code == 0, r.stdout + r.stderr


def test_bad_skus_file_is_exit_2(tmp_path) -> None:
    bad = tmp_path / "s.json"
    bad.write_text("{")
    r = run_cli("check", str(_spec(tmp_path)), "--skus", str(bad))
    assert r.exit_code == 2 and "not JSON" in r.stderr


def test_catalog_command_json_and_text() -> None:
    d = json.loads(run_cli("catalog", "-o", "json").stdout)
    assert d["version"] == 1 and set(d) == {"version", "sizes", "os", "gpus", "versions"}
    assert all(
        row["source"] and row["asOf"] for sect in ("sizes", "os", "gpus", "versions") for row in d[sect]
    )
    rtx = next(s for s in d["sizes"] if s["name"] == "Standard_NC36ds_xl_RTXPRO6000BSE_v6")
    assert rtx["unverified"] == ["memory", "gpus"] and rtx["driver"] == "grid-v20"
    w19 = next(o for o in d["os"] if o["name"] == "Windows2019")
    assert w19["retired"] == "2026-03-01" and w19["kubernetes"] == [None, "1.32"]
    d = json.loads(run_cli("catalog", "--versions", "-o", "json").stdout)
    assert set(d) == {"version", "versions"}
    assert {v["version"]: v["status"] for v in d["versions"]}["1.35"] == "supported"
    r = run_cli("catalog", "--sizes", "--sources")
    assert r.exit_code == 0 and "* unverified" in r.stdout and "AgentBaker" in r.stdout


def test_catalog_json_gpu_counts_are_numbers() -> None:
    """A GPU count is a JSON number (a partial-GPU vGPU size as a decimal), the exact fraction in gpusText."""
    d = json.loads(run_cli("catalog", "--sizes", "-o", "json").stdout)
    by = {s["name"]: s for s in d["sizes"]}
    t4, h200, a10 = by["Standard_NC4as_T4_v3"], by["Standard_ND96isr_H200_v5"], by["Standard_NV6ads_A10_v5"]
    assert t4["gpus"] == 1 and isinstance(t4["gpus"], int)
    assert h200["gpus"] == 8 and h200["gpuId"] == "H200-141GB"
    assert a10["gpus"] == 0.1667 and a10["gpusText"] == "1/6"
    assert by["Standard_DS3_v2"]["gpus"] == 0 and by["Standard_DS3_v2"]["gpu"] is None


def _catalog_lines(*args: str) -> list[str]:
    r = run_program("catalog", *args)  # through a pipe: no terminal, no width limit
    assert r.exit_code == 0 and r.stderr == ""
    return r.stdout.splitlines()


def test_catalog_text_is_plain_aligned_columns() -> None:
    """Piped (CI logs, grep, awk): no box drawing, a header per section, each row one line whose first column
    is as wide as the longest size name (not padded out by markers)."""
    lines = _catalog_lines("--sizes")
    assert lines[0] == f"sizes ({len(catalog.vm_sizes())})"
    assert not any(ch in "\n".join(lines) for ch in "│┃━─┏└")
    header = lines[1].split()
    assert header == ["name", "vCPU", "GiB", "GPUs", "GPU", "status", "driver", "asOf"]
    longest = max(len(n) for n in catalog.vm_sizes())
    assert lines[1].index("vCPU") <= longest + 2 + len("vCPU")
    row = next(x for x in lines if x.startswith("Standard_NV6ads_A10_v5 "))
    assert row.split()[:7] == ["Standard_NV6ads_A10_v5", "6", "55", "1/6", "A10", "supported", "grid"]
    rtx = next(x for x in lines if x.startswith("Standard_NC36ds_xl_RTXPRO6000BSE_v6 ")).split()
    assert rtx[2:4] == ["132*", "1/4*"]  # unverified memory and GPU count marked, the note says what * means
    assert lines[-1].startswith("* unverified: ")


def test_catalog_text_ranges_and_mig_profiles() -> None:
    lines = _catalog_lines("--os", "--gpus")
    rows = {x.split()[0]: x.split() for x in lines if x and not x.endswith(")")}
    assert rows["Windows2019"][3] == "<=1.32" and rows["AzureContainerLinux"][3] == "1.34+"
    assert rows["Ubuntu2204"][3] == "1.25-1.36"
    a100 = next(x for x in lines if x.startswith("A100-80GB "))
    assert "1g,2g,3g,4g,7g" in a100


@pytest.mark.parametrize("width", [80, 120, 200])
def test_catalog_on_a_terminal_fits_its_width(width: int) -> None:
    """On a terminal the table fits: low-priority columns are left out (and named), nothing wraps."""
    from gpupool.cli.catalog import SECTIONS, table_lines

    for name, fn in SECTIONS.items():
        lines, left_out = table_lines(name, fn(), width)
        assert all(len(x) <= width for x in lines), (name, width)
        assert lines[0].split()[0] in ("name", "id", "version")
        if width >= 200:
            assert left_out == []
    lines, left_out = table_lines("sizes", SECTIONS["sizes"](), 80)
    assert "asOf" in left_out and lines[0].split()[:4] == ["name", "vCPU", "GiB", "GPUs"]
    assert "status" in lines[0]  # retired / recommended is never left out


def test_catalog_sources_on_a_pseudo_terminal() -> None:
    """--sources on a terminal of 80 columns: each row's source wraps under it, indented, within 80."""
    import os
    import pty
    import subprocess
    import sys

    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(COLUMNS="80", LINES="50")
    p = subprocess.Popen(
        [sys.executable, "-m", "gpupool", "--color", "never", "catalog", "--os", "--sources"],
        stdout=slave, stderr=slave, env=env, cwd=REPO,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    p.wait(timeout=60)
    os.close(master)
    out = b"".join(chunks).decode().replace("\r\n", "\n").splitlines()
    assert p.returncode == 0
    assert all(len(x) <= 80 for x in out), max(out, key=len)
    i = next(n for n, x in enumerate(out) if x.startswith("Ubuntu2204 "))
    assert out[i + 1].startswith("    source: azure-aks-docs")


def test_catalog_range_text() -> None:
    from gpupool.cli.catalog import _range

    cases = (None, [], [None, None], ["1.25", "1.36"], ["1.34", None], [None, "1.32"])
    assert [_range(v) for v in cases] == ["-", "-", "-", "1.25-1.36", "1.34+", "<=1.32"]


def test_root_help_lists_preflight_and_catalog_whole() -> None:
    """The command list names what preflight and catalog do, not a sentence cut at '...'."""
    out = run_cli("--help").stdout
    assert "preflight   Can the pools be created here, now? (region, quota, versions)" in out
    assert "catalog     What gpupool knows: sizes, OS SKUs, GPUs, versions, sources." in out
