"""The facts gpupool encodes, as typed, read-only data loaded from ``catalog/data/*.yaml``.

Every row carries ``source`` and ``as_of``; a new VM size or MIG profile is a data change, not a code
change. All accessors are cached; the data loads once per process (a few milliseconds).
"""

from __future__ import annotations

import contextlib
import difflib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from gpupool.catalog.datafiles import load as _data
from gpupool.catalog.datafiles import version_tuple


@dataclass(frozen=True)
class Gpu:
    id: str
    vendor: str  # nvidia | amd
    model: str
    memory_gb: int
    architecture: str
    mig: dict[str, str]  # AKS profile (MIG1g..) -> MIG device name (1g.5gb); empty when no MIG on AKS
    source: str
    as_of: str
    mig_hardware: bool = True  # False: the GPU itself has no MIG (migHardwareSource): a profile is impossible

    @property
    def mig_capable(self) -> bool:
        return bool(self.mig)


RETIREMENT_WARNING_DAYS = 90
"""A retirement within this many days of today is a warning naming the date; on or after it, an error."""


@dataclass(frozen=True)
class VmSize:
    name: str
    family: str
    vcpu: int
    memory_gib: float
    gpus: Fraction  # GPUs per VM; fractional for partial-GPU (vGPU) sizes
    gpu: Gpu | None
    status: str  # recommended | supported | retired | unsupported | below-minimum | undocumented
    path: str  # nvidia | amd | none
    driver: str | None  # key into drivers.yaml
    quota_family: str | None
    arch: str
    fabric_manager: bool
    retired: str | None
    source: str
    as_of: str
    unverified: tuple[str, ...] = ()  # fields (memory, gpus) no primary source confirms: never errors
    os_skus: tuple[str, ...] = ()  # the OS SKUs AKS supports the size on; empty: no limit recorded
    origin: str = "catalog"  # catalog | list-skus (--skus FILE) | declared (.gpupool.yaml sizes:)
    os_skus_proof: str | None = None  # a primary source that the size cannot work on other OS SKUs
    min_node_image: str | None = None  # the oldest AKS node image the size works on

    def retirement(self, on: Any = None) -> tuple[str, int] | None:
        """(``retired`` | ``retiring``, days) judged on ``on`` (default: catalog.aks.today()): retired on or
        after the date (days since), retiring within 90 days before it (days left); None otherwise."""
        if not self.retired:
            return None
        import datetime as dt

        from gpupool.catalog import aks

        day = on or aks.today()
        date = dt.date.fromisoformat(self.retired)
        if day >= date:
            return "retired", (day - date).days
        if (date - day).days <= RETIREMENT_WARNING_DAYS:
            return "retiring", (date - day).days
        return None

    @property
    def is_gpu(self) -> bool:
        return self.gpu is not None and self.gpus > 0

    @property
    def is_fractional(self) -> bool:
        return self.is_gpu and self.gpus.denominator != 1

    @property
    def gpu_devices(self) -> int:
        """GPU devices the VM (and the device plugin) sees: a partial vGPU shows as one device."""
        if not self.is_gpu:
            return 0
        return max(1, int(self.gpus))

    @property
    def mig_capable(self) -> bool:
        return self.is_gpu and not self.is_fractional and self.gpu is not None and self.gpu.mig_capable

    def gpus_text(self) -> str:
        return str(self.gpus)

    def gpus_number(self) -> int | float:
        """The GPU count as a JSON number: whole counts as integers, partial-GPU (vGPU) fractions such as 1/6
        as decimals rounded to 4 places (:meth:`gpus_text` keeps the exact fraction)."""
        g = self.gpus
        return int(g) if g.denominator == 1 else round(float(g), 4)


@dataclass(frozen=True)
class Driver:
    flavour: str
    image: str | None
    version: str
    source: str
    as_of: str


@dataclass(frozen=True)
class OsSku:
    name: str
    os_type: str  # Linux | Windows
    gpu: str  # supported | preview | unsupported
    mig: bool
    managed: bool
    auto_security_patches: bool
    kubernetes: tuple[str | None, str | None] | None
    source: str
    as_of: str
    retired: str | None = None  # the date AKS stopped supporting it
    preview: bool = False  # AKS offers the OS SKU as a preview only


@cache
def gpus() -> dict[str, Gpu]:
    d = _data("gpus.yaml")
    out = {}
    for row in d["gpus"]:
        out[row["id"]] = Gpu(
            id=row["id"],
            vendor=row["vendor"],
            model=row["model"],
            memory_gb=row["memoryGB"],
            architecture=row["architecture"],
            mig=dict(row["mig"] or {}),
            source=row["source"],
            as_of=str(row["asOf"]),
            mig_hardware=bool(row.get("migHardware", True)),
        )
    return out


def mig_hardware_source() -> str:
    return str(_data("gpus.yaml")["migHardwareSource"])


@cache
def mig_instances_per_gpu() -> dict[str, int]:
    return dict(_data("gpus.yaml")["migInstancesPerGpu"])


def mig_instances_source() -> str:
    return str(_data("gpus.yaml")["migInstancesSource"])


@cache
def vm_sizes() -> dict[str, VmSize]:
    d = _data("vm_sizes.yaml")
    fams = d["families"]
    minimum = d["recommendedMinimum"]["size"]
    gpu_table = gpus()
    out = {}
    for name, row in d["sizes"].items():
        family, vcpu, mem, count = row[:4]
        unverified = tuple(row[4]) if len(row) > 4 else ()
        fam = fams[family]
        status = fam["status"]
        if name == minimum:
            status = "recommended"
        out[name] = VmSize(
            name=name,
            family=family,
            vcpu=int(vcpu),
            memory_gib=float(mem),
            gpus=Fraction(str(count)),
            gpu=gpu_table[fam["gpu"]] if fam.get("gpu") else None,
            status=status,
            path=fam["path"],
            driver=fam.get("driver"),
            quota_family=fam.get("quotaFamily"),
            arch=fam.get("arch", "x64"),
            fabric_manager=bool(fam.get("fabricManager", False)),
            retired=fam.get("retired"),
            source=" ".join(str(fam["source"]).split()),
            as_of=str(fam["asOf"]),
            unverified=unverified,
            os_skus=tuple(fam.get("osSkus") or ()),
            os_skus_proof=fam.get("osSkusProof"),
            min_node_image=fam.get("minNodeImage"),
        )
    return out


@cache
def _by_lower() -> dict[str, VmSize]:
    return {k.lower(): v for k, v in vm_sizes().items()}


_USER_SIZES: dict[str, VmSize] = {}
"""Sizes the catalog lacks, described by the user's ``az vm list-skus`` output (``--skus FILE``)."""


def vm_size(name: str) -> VmSize | None:
    """Look a size up by name, case-insensitively (Azure treats VM size names case-insensitively): the
    catalog first, then sizes added from the user's list-skus output (:func:`add_user_sizes`)."""
    key = name.lower()
    return _by_lower().get(key) or _USER_SIZES.get(key)


def add_user_sizes(sizes: list[VmSize]) -> list[VmSize]:
    """Add sizes the catalog lacks (from list-skus); returns the ones added (catalog rows always win)."""
    added = []
    for s in sizes:
        if s.name.lower() not in _by_lower():
            _USER_SIZES[s.name.lower()] = s
            added.append(s)
    return added


def clear_user_sizes() -> None:
    _USER_SIZES.clear()


def close_vm_sizes(name: str, n: int = 3) -> list[str]:
    names = list(vm_sizes())
    lowered = {x.lower(): x for x in names}
    hits = difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.6)
    return [lowered[h] for h in hits]


def recommended_minimum() -> tuple[str, str, str]:
    m = _data("vm_sizes.yaml")["recommendedMinimum"]
    return m["size"], m["source"], str(m["asOf"])


@cache
def drivers() -> dict[str, Driver]:
    d = _data("drivers.yaml")["drivers"]
    return {
        k: Driver(
            flavour=k,
            image=v.get("image"),
            version=str(v["version"]),
            source=v["source"],
            as_of=str(v["asOf"]),
        )
        for k, v in d.items()
    }


def driver_for(size: VmSize) -> Driver | None:
    """The driver AKS installs for this size (Ubuntu node image value), or None when AKS installs none."""
    if not size.driver:
        return None
    return drivers().get(size.driver)


@cache
def os_skus() -> dict[str, OsSku]:
    d = _data("os_skus.yaml")["osSkus"]
    out = {}
    for name, v in d.items():
        k8s = v.get("kubernetes")
        out[name] = OsSku(
            name=name,
            os_type=v["osType"],
            gpu=v["gpu"],
            mig=bool(v["mig"]),
            managed=bool(v["managed"]),
            auto_security_patches=bool(v["autoSecurityPatches"]),
            kubernetes=(k8s[0], k8s[1]) if k8s else None,
            source=v["source"],
            as_of=str(v["asOf"]),
            retired=str(v["retired"]) if v.get("retired") else None,
            preview=bool(v.get("preview", False)),
        )
    return out


def os_sku(name: str) -> OsSku | None:
    lowered = {k.lower(): v for k, v in os_skus().items()}
    return lowered.get(name.lower())


def images() -> dict[str, dict[str, Any]]:
    return _data("images.yaml")["images"]


# ---- CUDA ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CudaSupport:
    """How a driver runs a CUDA toolkit version."""

    level: str  # native | minor-compat | unsupported | unknown
    cuda: str
    driver: str
    native_min_driver: str | None
    source: str


def cuda_support(cuda_version: str, driver_version: str) -> CudaSupport:
    d = _data("cuda.yaml")
    toolkits: dict[str, str] = d["toolkits"]
    source = d["source"]
    cv = version_tuple(cuda_version)
    key = f"{cv[0]}.{cv[1] if len(cv) > 1 else 0}"
    native = toolkits.get(key)
    dv = version_tuple(driver_version)
    if native is None:
        newest = max(toolkits, key=version_tuple)
        if cv > version_tuple(newest):
            return CudaSupport("unknown", cuda_version, driver_version, None, source)
        return CudaSupport("unknown", cuda_version, driver_version, None, source)
    if dv >= version_tuple(native):
        return CudaSupport("native", cuda_version, driver_version, native, source)
    floor = d["minorCompatibility"].get(str(cv[0]))
    if floor and dv >= version_tuple(floor):
        return CudaSupport("minor-compat", cuda_version, driver_version, native, source)
    return CudaSupport("unsupported", cuda_version, driver_version, native, source)


def cuda_min_driver_unverified(cuda_version: str) -> bool:
    """True when the toolkit's minimum driver in cuda.yaml is a placeholder (``unverified``)."""
    cv = version_tuple(cuda_version)
    key = f"{cv[0]}.{cv[1] if len(cv) > 1 else 0}"
    return key in set(_data("cuda.yaml").get("unverified") or ())


def newest_native_cuda(driver_version: str) -> str | None:
    """The newest CUDA toolkit (major.minor) this driver supports natively."""
    toolkits: dict[str, str] = _data("cuda.yaml")["toolkits"]
    dv = version_tuple(driver_version)
    ok = [k for k, v in toolkits.items() if dv >= version_tuple(v)]
    return max(ok, key=version_tuple) if ok else None


# ---- AKS limits, driver pinning, OS look-ups (used by the design rules) ---------------------------


@dataclass(frozen=True)
class PoolLimits:
    """AKS's limits on a node pool (``aks_limits.yaml``)."""

    name_pattern: str
    name_max: dict[str, int]  # os type (Linux | Windows) -> max name length
    name_source: str
    node_count: dict[str, tuple[int, int]]  # mode (User | System) -> (min, max)
    node_count_source: str
    system_os_type: str
    system_source: str
    as_of: str


@cache
def pool_limits() -> PoolLimits:
    d = _data("aks_limits.yaml")
    name, counts, system = d["poolName"], d["nodeCount"], d["systemPool"]
    return PoolLimits(
        name_pattern=name["pattern"],
        name_max={k: int(v) for k, v in name["maxLength"].items()},
        name_source=name["source"],
        node_count={m: (int(counts[m]["min"]), int(counts[m]["max"])) for m in ("User", "System")},
        node_count_source=counts["source"],
        system_os_type=system["osType"],
        system_source=system["source"],
        as_of=str(d["asOf"]),
    )


def windows_gpu() -> dict[str, Any]:
    """Windows GPU preview facts: feature flag, minimum Kubernetes version, resource name, source."""
    return dict(_data("aks_limits.yaml")["windowsGpu"])


def spot_taint() -> tuple[str, str]:
    """(taint, source) that AKS adds to Spot pools."""
    s = _data("aks_limits.yaml")["spot"]
    return s["taint"], s["source"]


def managed_gpu() -> dict[str, Any]:
    """Managed GPU (preview) prerequisites: feature, minimum CLI / aks-preview, API version, source."""
    return dict(images()["managedGpu"])


def driver_pinning(os_sku_name: str) -> str:
    """``pinned`` (the drivers.yaml version is what nodes get), ``unpinned`` (Azure Linux: latest RPM) or
    ``unknown`` (not documented for this OS)."""
    d = _data("drivers.yaml")["driverPinning"]
    lowered = os_sku_name.lower()
    if lowered in {x.lower() for x in d["unpinned"]}:
        return "unpinned"
    if lowered in {x.lower() for x in d["unknown"]}:
        return "unknown"
    return "pinned"


def driver_pinning_source() -> str:
    return str(_data("drivers.yaml")["driverPinning"]["source"])


def last_cuda_major(architecture: str) -> int | None:
    """The newest CUDA major version a GPU architecture supports, when it is capped (Volta -> 12)."""
    v = _data("cuda.yaml").get("lastCudaMajor", {}).get("architectures", {}).get(architecture)
    return int(v) if v is not None else None


def last_cuda_major_source() -> str:
    return str(_data("cuda.yaml")["lastCudaMajor"]["source"])


def close_os_skus(name: str, n: int = 3) -> list[str]:
    names = list(os_skus())
    lowered = {x.lower(): x for x in names}
    hits = difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.6)
    return [lowered[h] for h in hits]


def newest_kubernetes_version() -> str:
    """The newest Kubernetes minor on AKS's calendar whose GA month has come (``"1.37"`` on 2026-12-03, a
    *planned* GA included): the top of the range simulate renders. Never a default: a command without a
    version assumes :func:`gpupool.catalog.aks.default_kubernetes_version` (AKS's own default, N-1)."""
    from gpupool.catalog import aks

    on = aks.today()
    released = [v.minor for v in aks.kubernetes_versions().values() if v.ga is None or v.ga <= on]
    return max(released, key=version_tuple)


# ---- audit: which facts to re-check next ---------------------------------------------------------

DATA_FILES = (
    "vm_sizes.yaml", "gpus.yaml", "os_skus.yaml", "kubernetes_versions.yaml", "drivers.yaml", "cuda.yaml",
    "images.yaml", "aks_limits.yaml", "gpu_operator.yaml", "nap.yaml",
)


@dataclass(frozen=True)
class StaleRow:
    """A fact of the catalog to re-check: its place (file and key path), as-of date, age and why."""

    file: str
    key: str
    as_of: str
    age_days: int | None
    reasons: tuple[str, ...]  # older-than-N-days | planned | unverified
    source: str

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "key": self.key, "asOf": self.as_of, "ageDays": self.age_days,
                "reasons": list(self.reasons), "source": self.source}


def _rows_with_as_of(node: Any, path: tuple[str, ...], inherited: str) -> Any:
    """(key path, row, asOf) for every mapping that carries ``asOf`` (or is a row under a file's asOf)."""
    if isinstance(node, dict):
        as_of = str(node.get("asOf") or inherited)
        if "asOf" in node or "planned" in node:
            yield path, node, as_of
        for k, v in node.items():
            if k in ("asOf", "source"):
                continue
            yield from _rows_with_as_of(v, (*path, str(k)), as_of)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            key = str(v.get("id") or v.get("name") or i) if isinstance(v, dict) else str(i)
            yield from _rows_with_as_of(v, (*path, key), inherited)


def stale_rows(days: int = 90, on: Any = None) -> list[StaleRow]:
    """Rows of every catalog data file whose ``asOf`` is more than ``days`` before ``on`` (default
    catalog.aks.today()), whose source or row says *planned*, or that are marked unverified: where the next
    audit starts. Sorted oldest first."""
    import datetime as dt

    from gpupool.catalog import aks

    day = on or aks.today()
    out = []
    for name in DATA_FILES:
        data = _data(name)
        top = str(data.get("asOf") or "") if isinstance(data, dict) else ""
        for path, row, as_of in _rows_with_as_of(data, (), top):
            source = " ".join(str(row.get("source") or (data.get("source") if isinstance(data, dict) else "")
                                  or "").split())
            reasons = []
            age = None
            with contextlib.suppress(ValueError):
                age = (day - dt.date.fromisoformat(as_of[:10])).days
            if age is not None and age > days:
                reasons.append(f"older than {days} days")
            text = (source + " " + str(row.get("planned") or "")).lower()
            if row.get("planned") is True or "planned" in text:
                reasons.append("planned")
            if "[unverified]" in source.lower() or row.get("unverified"):
                reasons.append("unverified")
            if reasons:
                out.append(StaleRow(name, ".".join(path) or "(file)", as_of, age, tuple(reasons), source))
    for size in vm_sizes().values():  # size rows carry their unconfirmed fields, not an asOf of their own
        if size.unverified:
            why = f"unverified ({', '.join(size.unverified)})"
            age = (day - dt.date.fromisoformat(size.as_of)).days
            out.append(StaleRow("vm_sizes.yaml", f"sizes.{size.name}", size.as_of, age, (why,), size.source))
    return sorted(out, key=lambda r: (r.as_of, r.file, r.key))
