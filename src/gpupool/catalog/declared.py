"""Sizes the user declares in ``.gpupool.yaml`` (a top-level ``sizes:`` list): the way to use a VM size the
catalog does not know yet, besides ``--skus FILE`` (``az vm list-skus`` output).

Each entry gives what a plan needs and says nothing AKS-specific::

    sizes:
    - name: Standard_NC8ads_A10_v9     # the Azure size name
      vcpus: 8
      memoryGiB: 100
      gpus: 1                          # GPUs per VM; "1/2" for a partial GPU; 0 for none
      gpuVendor: nvidia                # nvidia (default) | amd

A declared size is known (no GP101 error); what the declaration cannot say (the GPU model, the driver AKS
installs, MIG, AKS support) stays unknown and GP141 warns about it. Catalog rows always win over a
declaration of the same name.
"""

from __future__ import annotations

import difflib
from fractions import Fraction
from pathlib import Path
from typing import Any

from gpupool import yamlio
from gpupool.catalog import Gpu, VmSize, add_user_sizes
from gpupool.errors import InputError

FIELDS = ("name", "vcpus", "memoryGiB", "gpus", "gpuVendor")
_REQUIRED = ("name", "vcpus", "memoryGiB", "gpus")


def _line(m: Any, key: str, default: int | None) -> int | None:
    if isinstance(m, yamlio.LineDict) and key in m.key_pos:
        return m.key_pos[key][0]
    return default


def _number(path: str, m: Any, key: str, where: str, line: int | None) -> float:
    v = m[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
        raise InputError(path, _line(m, key, line), f"{where}.{key}: expected a number >= 0, got {v!r}")
    return float(v)


def _gpus(path: str, m: Any, where: str, line: int | None) -> Fraction:
    v = m["gpus"]
    try:
        if isinstance(v, bool):
            raise ValueError
        g = Fraction(str(v))
    except (ValueError, ZeroDivisionError):
        raise InputError(path, _line(m, "gpus", line), f"{where}.gpus: expected a number such as 2 or 1/2, "
                         f"got {v!r}") from None
    if g < 0 or g > 64:
        raise InputError(path, _line(m, "gpus", line), f"{where}.gpus: {v} is outside 0..64")
    return g


def parse_sizes(data: Any, path: str) -> list[VmSize]:
    """The ``sizes:`` section of a loaded config document (absent: none)."""
    if not isinstance(data, dict) or data.get("sizes") is None:
        return []
    top = _line(data, "sizes", 1)
    items = data["sizes"]
    if not isinstance(items, list):
        raise InputError(path, top, "sizes: expected a list of {name, vcpus, memoryGiB, gpus}")
    out = []
    for i, m in enumerate(items):
        where = f"sizes[{i}]"
        line = m.line if isinstance(m, yamlio.LineDict) else top
        if not isinstance(m, dict):
            raise InputError(path, line, f"{where}: expected a mapping with {', '.join(_REQUIRED)}")
        for key in m:
            if key not in FIELDS:
                close = difflib.get_close_matches(str(key), FIELDS, n=1, cutoff=0.6)
                hint = f'did you mean "{close[0]}"?' if close else f"known: {', '.join(FIELDS)}"
                raise InputError(path, _line(m, str(key), line), f'{where}: unknown field "{key}"', hint)
        missing = [k for k in _REQUIRED if m.get(k) is None]
        if missing:
            raise InputError(path, line, f"{where}: missing {', '.join(missing)}",
                             "declare name, vcpus, memoryGiB and gpus (see az vm list-skus)")
        name = m["name"]
        if not isinstance(name, str) or not name.strip():
            raise InputError(path, _line(m, "name", line), f"{where}.name: expected the VM size name")
        vendor = str(m.get("gpuVendor") or "nvidia").lower()
        if vendor not in ("nvidia", "amd"):
            raise InputError(path, _line(m, "gpuVendor", line), f"{where}.gpuVendor: expected nvidia or amd")
        vcpus = _number(path, m, "vcpus", where, line)
        memory = _number(path, m, "memoryGiB", where, line)
        gpus = _gpus(path, m, where, line)
        source = f"declared in {path}:{line}"
        gpu = None
        if gpus:
            maker = "AMD" if vendor == "amd" else "NVIDIA"
            gpu = Gpu(id="declared", vendor=vendor, model=f"unknown {maker} GPU (declared size)", memory_gb=0,
                      architecture="unknown", mig={}, source=source, as_of="declared")
        out.append(
            VmSize(
                name=name.strip(), family="declared", vcpu=int(vcpus), memory_gib=memory, gpus=gpus, gpu=gpu,
                status="declared", path=vendor if gpus else "none", driver=None, quota_family=None,
                arch="x64", fabric_manager=False, retired=None, source=source, as_of="declared",
                origin="declared",
            )
        )
    return out


def use_config_sizes(start: Path | None = None) -> list[VmSize]:
    """Add the ``sizes:`` of the nearest ``.gpupool.yaml`` (upward from ``start``, default the working
    directory) to the catalog; returns the sizes added."""
    here = (start or Path.cwd()).resolve()
    for d in (here, *here.parents):
        candidate = d / ".gpupool.yaml"
        if candidate.is_file():
            docs = [doc for doc in yamlio.load_file(candidate) if doc.data is not None]
            if not docs:
                return []
            return add_user_sizes(parse_sizes(docs[0].data, str(candidate)))
    return []
