"""Catalog integrity (every fact has a source and an as-of date; MIG names; key GPU rows) and a cross-check
of our enums against Azure's own SDK models (``azure-mgmt-containerservice``)."""

from __future__ import annotations

import datetime as dt
import re
from fractions import Fraction

import pytest

from gpupool import catalog
from gpupool.catalog import _data
from gpupool.spec.model import GPU_DRIVERS, INSTANCE_PROFILES, MIG_STRATEGIES, MODES, PRIORITIES

DATA_FILES = ("gpus.yaml", "vm_sizes.yaml", "drivers.yaml", "os_skus.yaml", "images.yaml", "cuda.yaml",
              "aks_limits.yaml")


def _is_date(value: object) -> bool:
    try:
        dt.date.fromisoformat(str(value))
    except ValueError:
        return False
    return True


def _assert_sourced(where: str, row: dict) -> None:
    assert isinstance(row.get("source"), str) and row["source"].strip(), f"{where}: no source"
    assert _is_date(row.get("asOf")), f"{where}: asOf {row.get('asOf')!r} is not a YYYY-MM-DD date"


# ---- every row has source and asOf ------------------------------------------------------------------


@pytest.mark.parametrize("name", DATA_FILES)
def test_file_has_as_of(name: str) -> None:
    assert _is_date(_data(name)["asOf"])


def test_gpu_rows_sourced() -> None:
    for row in _data("gpus.yaml")["gpus"]:
        _assert_sourced(f"gpus.yaml {row['id']}", row)
    assert _data("gpus.yaml")["migInstancesSource"]


def test_vm_size_families_and_rows_sourced() -> None:
    d = _data("vm_sizes.yaml")
    _assert_sourced("vm_sizes.yaml recommendedMinimum", d["recommendedMinimum"])
    for name, fam in d["families"].items():
        _assert_sourced(f"vm_sizes.yaml family {name}", fam)
    for name, (family, *_rest) in d["sizes"].items():
        assert family in d["families"], f"{name}: unknown family {family}"
    for size in catalog.vm_sizes().values():  # size rows inherit their family's source
        assert size.source and _is_date(size.as_of), size.name


def test_driver_os_image_and_limit_rows_sourced() -> None:
    for k, row in _data("drivers.yaml")["drivers"].items():
        _assert_sourced(f"drivers.yaml {k}", row)
    _assert_sourced("drivers.yaml driverPinning", _data("drivers.yaml")["driverPinning"])
    for k, row in _data("os_skus.yaml")["osSkus"].items():
        _assert_sourced(f"os_skus.yaml {k}", row)
    for k, row in _data("images.yaml")["images"].items():
        _assert_sourced(f"images.yaml {k}", row)
    for k, row in _data("aks_limits.yaml").items():
        if isinstance(row, dict):
            _assert_sourced(f"aks_limits.yaml {k}", row)
    cuda = _data("cuda.yaml")
    assert cuda["source"]
    _assert_sourced("cuda.yaml lastCudaMajor", cuda["lastCudaMajor"])


# ---- VM sizes, GPUs, drivers --------------------------------------------------------------------------


def test_every_size_references_known_gpu_and_driver() -> None:
    fams = _data("vm_sizes.yaml")["families"]
    for name, fam in fams.items():
        if fam.get("gpu"):
            assert fam["gpu"] in catalog.gpus(), f"{name}: GPU {fam['gpu']} not in gpus.yaml"
        drv = fam.get("driver")
        assert drv in (None, "amd") or drv in catalog.drivers(), f"{name}: driver {drv}"
        assert fam["status"] in ("recommended", "supported", "retired", "unsupported", "below-minimum",
                                 "undocumented")
        assert fam["path"] in ("nvidia", "amd", "none")
        if fam["status"] == "retired":
            assert _is_date(fam.get("retired")), f"{name}: retired without a date"


def test_recommended_minimum() -> None:
    name, source, since = catalog.recommended_minimum()
    size = catalog.vm_size(name)
    assert name == "Standard_NC4as_T4_v3" and size is not None and size.is_gpu
    assert size.status == "recommended" and since == "2026-07-02" and "use-nvidia-gpu.md" in source


def test_lookups_are_case_insensitive() -> None:
    assert catalog.vm_size("standard_nc4as_t4_v3") is catalog.vm_size("Standard_NC4as_T4_v3")
    assert catalog.os_sku("azurelinux") is catalog.os_sku("AzureLinux")


@pytest.mark.parametrize(
    ("size", "gpu", "count", "vcpu", "memory", "mig1g", "mig7g", "status"),
    [
        ("Standard_NC4as_T4_v3", "T4", 1, 4, 28, None, None, "recommended"),
        ("Standard_NC64as_T4_v3", "T4", 4, 64, 440, None, None, "supported"),
        ("Standard_ND96asr_v4", "A100-40GB", 8, 96, 900, "1g.5gb", "7g.40gb", "supported"),
        ("Standard_NC24ads_A100_v4", "A100-80GB", 1, 24, 220, "1g.10gb", "7g.80gb", "supported"),
        ("Standard_ND96amsr_A100_v4", "A100-80GB", 8, 96, 1900, "1g.10gb", "7g.80gb", "supported"),
        ("Standard_ND96isr_H100_v5", "H100-80GB", 8, 96, 1900, "1g.10gb", "7g.80gb", "supported"),
        ("Standard_NC40ads_H100_v5", "H100-94GB", 1, 40, 320, "1g.12gb", "7g.94gb", "supported"),
        ("Standard_NC80adis_H100_v5", "H100-94GB", 2, 80, 640, "1g.12gb", "7g.94gb", "supported"),
        ("Standard_ND96isr_H200_v5", "H200-141GB", 8, 96, 1850, "1g.18gb", "7g.141gb", "supported"),
    ],
)
def test_key_gpu_rows(size, gpu, count, vcpu, memory, mig1g, mig7g, status) -> None:
    s = catalog.vm_size(size)
    assert s is not None
    assert s.gpu is not None and s.gpu.id == gpu
    assert (s.gpu_devices, s.vcpu, s.memory_gib, s.status) == (count, vcpu, memory, status)
    assert s.gpu.mig.get("MIG1g") == mig1g and s.gpu.mig.get("MIG7g") == mig7g
    assert s.mig_capable == (mig1g is not None)
    assert s.driver == "cuda-lts" and s.path == "nvidia"


def test_fractional_sizes() -> None:
    nv6 = catalog.vm_size("Standard_NV6ads_A10_v5")
    assert nv6.gpus == Fraction(1, 6) and nv6.is_fractional and nv6.gpu_devices == 1 and not nv6.mig_capable
    assert nv6.driver == "grid"


def test_status_rows() -> None:
    assert catalog.vm_size("Standard_NC6s_v3").retirement() == ("retired", 429)  # judged on 2026-12-03
    assert catalog.vm_size("Standard_NC6s_v3").retired == "2025-09-30"
    assert catalog.vm_size("Standard_NV32as_v4").status == "unsupported"
    mi300x = catalog.vm_size("Standard_ND96isr_MI300X_v5")
    assert (mi300x.status, mi300x.path, mi300x.gpu.vendor) == ("supported", "amd", "amd")


# ---- MIG ---------------------------------------------------------------------------------------------------


def test_mig_instances_per_gpu_match_aks_partitioning() -> None:
    assert catalog.mig_instances_per_gpu() == {"MIG1g": 7, "MIG2g": 3, "MIG3g": 2, "MIG4g": 1, "MIG7g": 1}
    assert set(catalog.mig_instances_per_gpu()) == set(INSTANCE_PROFILES)


@pytest.mark.parametrize("gpu", [g for g in catalog.gpus().values() if g.mig], ids=lambda g: g.id)
def test_mig_device_names_per_profile(gpu) -> None:
    assert set(gpu.mig) == set(INSTANCE_PROFILES), f"{gpu.id}: a device name for every AKS profile"
    memory = []
    for profile in INSTANCE_PROFILES:
        device = gpu.mig[profile]
        m = re.fullmatch(r"(\d)g\.(\d+)gb", device)
        assert m, f"{gpu.id} {profile}: {device!r} is not a MIG device name"
        assert m.group(1) == profile[3], f"{gpu.id} {profile}: compute slices of {device}"
        memory.append(int(m.group(2)))
    assert memory == sorted(memory), f"{gpu.id}: memory must grow with the profile"
    assert memory[-1] == gpu.memory_gb, f"{gpu.id}: 7g holds the whole GPU memory"
    assert gpu.vendor == "nvidia"


def test_exact_mig_names_from_the_docs() -> None:
    a100_40 = catalog.gpus()["A100-40GB"].mig
    assert a100_40 == {"MIG1g": "1g.5gb", "MIG2g": "2g.10gb", "MIG3g": "3g.20gb", "MIG4g": "4g.20gb",
                       "MIG7g": "7g.40gb"}
    assert catalog.gpus()["H100-94GB"].mig["MIG3g"] == "3g.47gb"
    assert catalog.gpus()["H200-141GB"].mig["MIG2g"] == "2g.35gb"


# ---- CUDA ----------------------------------------------------------------------------------------------


def test_cuda_table_is_monotonic_and_floors_match() -> None:
    d = _data("cuda.yaml")
    rows = sorted(d["toolkits"].items(), key=lambda kv: catalog.version_tuple(kv[0]))
    drivers = [catalog.version_tuple(v) for _, v in rows]
    assert drivers == sorted(drivers)
    for major, floor in d["minorCompatibility"].items():
        # the major's floor is at least its x.0 GA driver (11.x: 450.80.02 > 11.0's 450.51.05)
        assert catalog.version_tuple(floor) >= catalog.version_tuple(d["toolkits"][f"{major}.0"])


@pytest.mark.parametrize(
    ("cuda", "driver", "level"),
    [
        ("12.4", "580.159.04", "native"),
        ("13.0", "580.159.04", "native"),
        ("13.2", "580.159.04", "minor-compat"),
        ("12.9", "570.211.01", "minor-compat"),
        ("12.8", "570.211.01", "native"),
        ("13.0", "570.211.01", "unsupported"),
        ("12.7", "580.159.04", "unknown"),
    ],
)
def test_cuda_support_levels(cuda, driver, level) -> None:
    assert catalog.cuda_support(cuda, driver).level == level


def test_driver_pinning_and_architecture_caps() -> None:
    assert catalog.driver_pinning("Ubuntu") == "pinned"
    assert catalog.driver_pinning("azurelinux") == "unpinned"
    assert catalog.driver_pinning("AzureContainerLinux") == "unknown"
    assert catalog.last_cuda_major("Volta") == 12
    assert catalog.last_cuda_major("Hopper") is None


def test_pool_limits() -> None:
    lim = catalog.pool_limits()
    assert lim.node_count == {"User": (0, 1000), "System": (1, 1000)}
    assert lim.name_max == {"Linux": 12, "Windows": 6}
    assert re.match(lim.name_pattern, "gpunp") and not re.match(lim.name_pattern, "gpu-np")


# ---- our enums against Azure's SDK models -----------------------------------------------------------

# OS SKUs gpupool knows that azure-mgmt-containerservice (stable API) lacks, and why. If the SDK gains one,
# test_os_sku_exceptions_are_still_needed fails: remove it here.
OS_SKUS_NOT_IN_STABLE_SDK = {
    "Flatcar": "preview-API-only OS SKU (Flatcar Container Linux for AKS); new Flatcar pools blocked since "
    "2026-07-17 (Azure/AKS CHANGELOG) - known so that GP121 can say GPUs are unsupported on it",
    "AzureLinuxOSGuard": "preview-API-only OS SKU (Azure Linux with OS Guard); GPUs unsupported (GP121)",
    "WindowsAnnual": "preview-API-only OS SKU (Windows Server Annual Channel)",
    "Ubuntu2604": "preview-API-only OS SKU (Ubuntu 26.04, feature Ubuntu2604Preview; Azure/AKS#5905) - known "
    "so that GP121 can say GPU sizes are unsupported on it and GP142 that it is a preview",
    "Mariner": "legacy alias of Azure Linux 2 still accepted by Azure CLI --os-sku "
    "(azure-cli acs/_consts.py CONST_OS_SKU_MARINER); the SDK keeps only CBLMariner",
}


@pytest.fixture(scope="module")
def models():
    return pytest.importorskip("azure.mgmt.containerservice.models")


def _values(enum) -> set[str]:
    return {e.value for e in enum}


def test_gpu_instance_profiles_match_sdk(models) -> None:
    assert set(INSTANCE_PROFILES) == _values(models.GPUInstanceProfile)


def test_gpu_driver_values_exist_in_sdk(models) -> None:
    assert set(GPU_DRIVERS) <= _values(models.GPUDriver)


def test_os_skus_exist_in_sdk(models) -> None:
    ours = set(catalog.os_skus())
    missing = ours - _values(models.OSSKU) - set(OS_SKUS_NOT_IN_STABLE_SDK)
    assert not missing, f"OS SKUs gpupool accepts but the SDK does not know: {sorted(missing)}"


def test_os_sku_exceptions_are_still_needed(models) -> None:
    assert not set(OS_SKUS_NOT_IN_STABLE_SDK) & _values(models.OSSKU)
    assert set(OS_SKUS_NOT_IN_STABLE_SDK) <= set(catalog.os_skus())


def test_os_types_match_sdk(models) -> None:
    assert {s.os_type for s in catalog.os_skus().values()} <= _values(models.OSType)


def test_modes_and_priorities_exist_in_sdk(models) -> None:
    assert set(MODES) <= _values(models.AgentPoolMode)
    assert set(PRIORITIES) <= _values(models.ScaleSetPriority)


def test_managed_gpu_and_mig_strategy_in_sdk(models) -> None:
    # gpu.managed maps to gpuProfile.nvidia.managementMode Managed/Unmanaged.
    if hasattr(models, "ManagementMode"):
        assert {"Managed", "Unmanaged"} <= _values(models.ManagementMode)
    # gpuProfile.nvidia.migStrategy (None/Single/Mixed) exists only in preview APIs (2026-01-02-preview and
    # later, azure-rest-api-specs managedClusters.json MigStrategy); the stable SDK does not model it.
    if hasattr(models, "MigStrategy"):
        assert set(MIG_STRATEGIES) <= _values(models.MigStrategy)
