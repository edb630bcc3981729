"""Facts corrected by the 2026-12-03 audit (each against its primary source) and the small bugs fixed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpupool import catalog
from gpupool.catalog import aks
from gpupool.catalog import mutability as table
from gpupool.errors import InputError
from gpupool.spec.load import parse_pool
from support import pool_doc, run_cli

DIFF_DATA = Path(__file__).parent / "diff" / "data"


def _write(tmp_path: Path, doc: dict) -> Path:
    import yaml

    f = tmp_path / "p.yaml"
    f.write_text(yaml.safe_dump(doc))
    return f


@pytest.mark.parametrize(
    ("sku", "span"),
    [
        ("AzureLinux3", ("1.28", "1.36")),
        ("Windows2022", ("1.23", "1.36")),
        ("Windows2025", ("1.32", None)),
        ("Ubuntu2204", ("1.25", "1.36")),
        ("Ubuntu2404", ("1.32", "1.38")),
        ("AzureLinuxOSGuard", ("1.32", None)),
        ("AzureContainerLinux", ("1.34", None)),
        ("Windows2019", (None, "1.32")),
    ],
)
def test_os_sku_kubernetes_ranges(sku, span) -> None:  # upgrade-os-version.md @fb060abe6a8f
    assert catalog.os_sku(sku).kubernetes == span


def test_windows_retirements() -> None:  # windows-server-2019-retirement.md; AKS CHANGELOG 2026-06-19
    assert catalog.os_sku("Windows2019").retired == "2026-03-01"
    assert catalog.os_sku("Windows2022").retired == "2028-06-30"
    assert catalog.os_sku("WindowsAnnual").retired == "2026-05-15"  # AKS CHANGELOG (second audit)
    assert {o.name for o in catalog.os_skus().values() if o.retired} == {
        "Windows2019", "Windows2022", "WindowsAnnual", "CBLMariner", "Mariner", "Flatcar"
    }


def test_linux_retirements() -> None:  # upgrade-os-version.md (Azure Linux 2.0); AKS CHANGELOG (Flatcar)
    assert catalog.os_sku("CBLMariner").retired == catalog.os_sku("Mariner").retired == "2025-11-30"
    assert catalog.os_sku("Flatcar").retired == "2026-06-08"
    u = catalog.os_sku("Ubuntu2604")
    assert u.preview and u.gpu == "unsupported" and u.kubernetes == ("1.36", None)


def test_rtx_pro_6000_supported_on_ubuntu() -> None:  # AKS CHANGELOG 2026-06-19
    s = catalog.vm_size("Standard_NC144ds_xl_RTXPRO6000BSE_v6")
    assert s.status == "supported" and s.os_skus == ("Ubuntu", "Ubuntu2204", "Ubuntu2404")


def test_max_pods_defaults_and_bounds() -> None:  # ip-address-planning.md, azure-cni-overlay.md
    m = aks.max_pods()
    assert (m.min, m.max, m.min_pods_per_pool) == (10, 250, 30)
    assert m.defaults["overlay"] == 250 and m.defaults["podSubnet"] == 110
    assert m.defaults["nodeSubnet"] == 30 and m.defaults["kubenet"] == 110
    assert m.default == 250


def test_simulate_default_max_pods_is_overlay() -> None:
    from gpupool.k8s import facts

    assert facts.default_max_pods().value == aks.max_pods().default == 250


def test_update_os_sku_includes_azure_container_linux() -> None:  # azure-cli 2.91.0 _params.py
    assert "AzureContainerLinux" in table.update_os_skus()
    from gpupool.diff.engine import UPDATE_OS_SKUS

    assert table.update_os_skus() == UPDATE_OS_SKUS


def test_kubernetes_calendar() -> None:  # supported-kubernetes-versions.md @fb060abe6a8f
    v = aks.kubernetes_versions()
    assert str(v["1.33"].eol) == "2026-07-31" and str(v["1.34"].eol) == "2026-11-30"
    assert str(v["1.36"].ga) == "2026-06-01" and str(v["1.37"].ga) == "2026-10-01" and v["1.37"].planned
    assert str(v["1.30"].eol) == "2025-08-22"  # an explicit date in the doc
    assert aks.calendar_span() == ("1.29", "1.37")
    import datetime as dt

    day = dt.date(2026, 12, 3)
    assert v["1.35"].status(day) == "supported"
    assert v["1.34"].status(day) == "lts"
    assert v["1.29"].status(day) == "unsupported"


def test_today_honours_env(monkeypatch) -> None:
    monkeypatch.setenv("GPUPOOL_TODAY", "2027-01-02")
    assert str(aks.today()) == "2027-01-02"


def test_new_sizes() -> None:  # AgentBaker gpu_components.go @06836ee2301e
    s = catalog.vm_size("Standard_NC36ds_xl_RTXPRO6000BSE_v6")
    assert s.driver == "grid-v20" and s.gpu.id == "RTXPRO6000" and s.vcpu == 36
    assert set(s.unverified) == {"memory", "gpus"} and "Ubuntu" in s.os_skus
    preview = catalog.vm_size("Standard_NC128ds_xl_RTXPRO6000BSE_v6")
    assert (preview.vcpu, preview.memory_gib, int(preview.gpus), preview.unverified) == (128, 512, 1, ())
    for n in (8, 16, 32):
        a10 = catalog.vm_size(f"Standard_NC{n}ads_A10_v4")
        assert a10.driver == "grid" and a10.gpu.id == "A10" and a10.vcpu == n and "gpus" in a10.unverified


def test_cuda_13_3_minimum_driver_and_13_4_placeholder() -> None:
    assert catalog.cuda_support("13.3", "610.43.02").level == "native"
    assert catalog.cuda_support("13.3", "610.00.00").level == "minor-compat"
    assert catalog.cuda_min_driver_unverified("13.4") and not catalog.cuda_min_driver_unverified("13.3")


def test_cuda_13_4_placeholder_is_never_a_warning(tmp_path) -> None:
    f = _write(tmp_path, pool_doc(workload={"cudaVersion": "13.4"}, nodeTaints=["sku=gpu:NoSchedule"]))
    d = json.loads(run_cli("check", str(f), "-o", "json").stdout)
    gp129 = [x for x in d["findings"] if x["rule"] == "GP129"]
    assert gp129 and all(x["severity"] == "info" for x in gp129)


def test_reserved_prefixes() -> None:  # use-labels.md Reserved prefixes
    assert aks.reserved_prefix("kubernetes.azure.com/accelerator") == "kubernetes.azure.com/"
    assert aks.reserved_prefix("kubernetes.io/role") == "kubernetes.io/"
    assert aks.reserved_prefix("team") is None and aks.reserved_prefix("example.com/x") is None


# ---- small bugs ------------------------------------------------------------------------------------


def _doc(extra: str) -> dict:
    import yaml

    return yaml.safe_load(
        "apiVersion: gpupool/v1\nkind: GpuNodePool\nmetadata: {name: gpunp}\nspec:\n  resourceGroup: rg\n"
        "  clusterName: c\n  vmSize: Standard_NC4as_T4_v3\n" + extra
    )


def test_unquoted_kubernetes_version_hint_keeps_the_zero() -> None:
    with pytest.raises(InputError) as e:
        parse_pool(_doc("  kubernetesVersion: 1.30\n"), "p.yaml")
    assert '"1.30"' in (e.value.hint or "") and "number 1.3" in (e.value.hint or "")
    with pytest.raises(InputError) as e:
        parse_pool(_doc("  kubernetesVersion: 1.35\n"), "p.yaml")
    assert '"1.35"' in (e.value.hint or "")


def test_plan_json_gpus_per_node_is_a_number(tmp_path) -> None:
    f = _write(tmp_path, pool_doc())
    d = json.loads(run_cli("plan", str(f), "-o", "json").stdout)
    pool = d["pools"][0] if "pools" in d else d
    assert pool["gpusPerNode"] == 1 and isinstance(pool["gpusPerNode"], int)
    _write(tmp_path, pool_doc("Standard_NV6ads_A10_v5"))
    pool = json.loads(run_cli("plan", str(f), "-o", "json").stdout)
    pool = pool["pools"][0] if "pools" in pool else pool
    assert pool["gpusPerNode"] == pytest.approx(1 / 6, abs=1e-4) and pool["gpusPerNodeText"] == "1/6"


def _spot_json(tmp_path) -> Path:
    pools = json.loads((DIFF_DATA / "az-list.json").read_text())
    spot = next(p for p in pools if p.get("scaleSetPriority") == "Spot")
    spot["spotMaxPrice"], spot["scaleSetEvictionPolicy"] = 0.75, "Deallocate"
    f = tmp_path / "spot.json"
    f.write_text(json.dumps(spot))
    return f


def test_import_json_is_json_and_keeps_spot_settings(tmp_path) -> None:
    r = run_cli("import", str(_spot_json(tmp_path)), "-o", "json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    spec = d["pools"][0]["poolSpec"]["spec"]
    assert d["version"] == 1 and spec["spotMaxPrice"] == 0.75 and spec["evictionPolicy"] == "Deallocate"
    assert "spotMaxPrice" not in d["pools"][0]["unmodeled"]
    assert not (Path.cwd() / "json").exists()


def test_import_o_with_a_file_name_is_refused(tmp_path) -> None:
    r = run_cli("import", str(_spot_json(tmp_path)), "-o", str(tmp_path / "out.yaml"))
    assert r.exit_code == 2 and "--write FILE" in r.stderr
    assert not (tmp_path / "out.yaml").exists()


def test_import_yaml_round_trips_spot_settings_into_render(tmp_path) -> None:
    out = tmp_path / "spot.yaml"
    assert run_cli("import", str(_spot_json(tmp_path)), "--write", str(out)).exit_code == 0
    from gpupool.render import az
    from gpupool.spec import load_pools

    pool = load_pools(out)[0]
    assert (pool.spot_max_price, pool.eviction_policy) == (0.75, "Deallocate")
    argv = az.nodepool_add_argv(pool)
    assert argv[argv.index("--eviction-policy") + 1] == "Deallocate"
    assert argv[argv.index("--spot-max-price") + 1] == "0.75"


def test_spot_settings_need_spot_priority() -> None:
    with pytest.raises(InputError) as e:
        parse_pool(_doc("  evictionPolicy: Deallocate\n"), "p.yaml")
    assert "Spot pools only" in e.value.message


def test_diff_spot_settings_need_a_new_pool(tmp_path) -> None:
    cur = _spot_json(tmp_path)  # Spot, 0.75, Deallocate
    desired = tmp_path / "desired.yaml"
    run_cli("import", str(cur), "--write", str(desired))
    text = desired.read_text().replace("evictionPolicy: Deallocate", "evictionPolicy: Delete")
    desired.write_text(text)
    d = json.loads(run_cli("diff", str(cur), str(desired), "-o", "json").stdout)
    fields = {c["field"]: c for c in d["changes"]} if "changes" in d else {}
    assert fields["evictionPolicy"]["action"] == "recreate" and "spotMaxPrice" not in fields


def test_diff_ubuntu_to_azure_container_linux_is_in_place(tmp_path) -> None:
    import yaml

    cur = tmp_path / "cur.yaml"
    des = tmp_path / "des.yaml"
    cur.write_text(yaml.safe_dump(pool_doc(osSku="Ubuntu", kubernetesVersion="1.35")))
    des.write_text(yaml.safe_dump(pool_doc(osSku="AzureContainerLinux", kubernetesVersion="1.35")))
    d = json.loads(run_cli("diff", str(cur), str(des), "-o", "json").stdout)
    change = next(c for c in d["changes"] if c["field"] == "osSku")
    assert change["action"] == "update" and "--os-sku" in json.dumps(change)
