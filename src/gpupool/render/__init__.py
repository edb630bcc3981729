"""Render pool specs into files: an Azure CLI script, ARM templates, Terraform, Kubernetes manifests.

:func:`render_files` is pure (pools -> relative path -> text); :func:`write_all` writes them atomically:
everything is rendered in memory and written into a temporary directory next to the target, which is
then moved into place, so a failure never leaves a half-written output directory.

Layout of an output directory::

    README.md                          what each file is and the order to apply them
    az/create-node-pools.sh            az aks nodepool add + verification        (--format az)
    arm/<pool>.json                    one agent pool per template               (--format arm)
    terraform/main.tf                  azurerm (+ azapi for managed GPU)         (--format terraform)
    k8s/00-namespace.yaml              gpu-resources                             (--format k8s)
    k8s/<pool>/10-device-plugin.yaml   self-managed pools
    k8s/<pool>/20-dcgm-exporter.yaml   self-managed pools
    k8s/<pool>/90-smoke-test.yaml      NVIDIA pools
    gpu-operator/<cluster>/values.yaml, install.sh      --gpu-driver None pools
    monitoring/<pool>-dcgm-scrape.yaml                  managed pools
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from gpupool.errors import InputError
from gpupool.nap.model import NapInputs
from gpupool.spec.model import PoolSpec

FORMATS = ("az", "arm", "terraform", "k8s")
MANIFEST = ".gpupool-render.json"
"""Lists the files of the last render, so ``--force`` can remove files a new render no longer writes."""


@dataclass(frozen=True)
class RenderedFile:
    path: str  # relative, with forward slashes
    text: str
    executable: bool = False


def _cluster_stems(keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], str]:
    names = [c for _, c in keys]
    lowered = [n.lower() for n in names]
    return {k: (k[1] if lowered.count(k[1].lower()) == 1 else f"{k[0]}-{k[1]}") for k in keys}


def render_files(pools: Sequence[PoolSpec], formats: Iterable[str] = FORMATS, nap: NapInputs | None = None,
                 cluster: tuple[str, str] | None = None) -> list[RenderedFile]:
    """Every file of a render, in a stable order. Pure: nothing is written. ``nap``: Karpenter NodePools and
    AKSNodeClasses, rendered for ``cluster`` (resource group, name) by :mod:`gpupool.render.nap`."""
    from gpupool.render import arm, az, manifests, operator, readme, terraform
    from gpupool.render.naming import check_renderable, stems

    check_renderable(pools)
    requested = set(formats)
    fmts = tuple(f for f in FORMATS if f in requested)
    unknown = requested - set(FORMATS)
    if unknown:
        raise ValueError(f"unknown render formats: {', '.join(sorted(unknown))}")
    pool_stems = stems(pools)
    out: list[RenderedFile] = []
    k8s_paths: dict[str, dict[str, str]] = {}
    operator_paths: dict[str, str] = {}

    if "k8s" in fmts:
        body: list[RenderedFile] = []
        for pool, stem in zip(pools, pool_stems, strict=True):
            files = manifests.pool_manifests(pool, stem)
            for name, docs in files.items():
                path = f"k8s/{stem}/{name}"
                header = f"# Rendered by gpupool for pool {pool.name} of cluster {pool.cluster_name}.\n"
                body.append(RenderedFile(path, manifests.dump(docs, header)))
                k8s_paths.setdefault(stem, {})[name] = path
            if pool.is_gpu_pool and pool.gpu_settings.managed:
                scrape = manifests.managed_scrape_config(pool, stem)
                header = (
                    f"# Prometheus scrape config: host DCGM exporter of managed GPU pool {pool.name}.\n"
                    "# Not a Kubernetes object: merge it into your Prometheus configuration.\n"
                )
                text = header + manifests.to_yaml(scrape)
                body.append(RenderedFile(f"monitoring/{stem}-dcgm-scrape.yaml", text))
        if body:
            out.append(RenderedFile("k8s/00-namespace.yaml", manifests.dump([manifests.namespace()])))
        groups = operator.by_cluster(pools)
        cstems = _cluster_stems(list(groups))
        for key, group in groups.items():
            base = f"gpu-operator/{cstems[key]}"
            out.append(RenderedFile(f"{base}/values.yaml", operator.values_yaml(group)))
            script = operator.install_script(group, "values.yaml")
            out.append(RenderedFile(f"{base}/install.sh", script, executable=True))
            for pool, stem in zip(pools, pool_stems, strict=True):
                if any(pool is g for g in group):
                    operator_paths[stem] = f"{base}/install.sh"
        out += body
    if "az" in fmts and pools:
        with_k8s = "k8s" in fmts
        text = az.script(pools, k8s_paths if with_k8s else None, operator_paths if with_k8s else None)
        out.append(RenderedFile("az/create-node-pools.sh", text, True))
    if "arm" in fmts:
        for pool, stem in zip(pools, pool_stems, strict=True):
            out.append(RenderedFile(f"arm/{stem}.json", arm.render(pool)))
    if "terraform" in fmts and pools:
        out.append(RenderedFile("terraform/main.tf", terraform.render(pools)))
    if nap and cluster is not None:
        from gpupool.render import nap as nap_render

        out += [RenderedFile(p, t, x) for p, t, x in nap_render.files(nap, cluster, fmts)]
    paths = [f.path for f in out]
    text = readme.readme(pools, pool_stems, paths, fmts) if pools else ""
    if nap and cluster is not None:
        text += ("\n" if text else "") + nap_render.readme_section(nap, cluster, paths, alone=not pools)
    out.insert(0, RenderedFile("README.md", text))
    out.sort(key=lambda f: (f.path != "README.md", f.path))
    return out


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _is_empty_dir(path: Path) -> bool:
    return path.is_dir() and not any(path.iterdir())


def write_all(pools: Sequence[PoolSpec], outdir: str | Path, formats: Iterable[str] = FORMATS,
              force: bool = False, nap: NapInputs | None = None,
              cluster: tuple[str, str] | None = None) -> list[Path]:
    """Render ``pools`` into ``outdir`` atomically; returns the files written.

    ``outdir`` must not exist, or be empty, unless ``force``: then the rendered files replace their old
    versions and files of the previous render that this one no longer writes are removed; other files are
    left alone. Raises InputError for an unusable ``outdir``.
    """
    out = Path(outdir)
    files = render_files(pools, formats, nap, cluster)  # render first: errors before the disk is touched
    if out.exists() and not out.is_dir():
        raise InputError(str(out), None, "exists and is not a directory")
    replacing = out.exists() and not _is_empty_dir(out)
    if replacing and not force:
        raise InputError(str(out), None, "output directory is not empty",
                         "use --force to overwrite the rendered files, or choose another directory")
    parent = out.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    mask = _umask()
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.gpupool-", dir=parent))
    try:
        for f in files:
            target = tmp / f.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(f.text, encoding="utf-8", newline="\n")
            target.chmod((0o777 if f.executable else 0o666) & ~mask)
        listing = {"version": 1, "files": [f.path for f in files]}
        (tmp / MANIFEST).write_text(json.dumps(listing, indent=2) + "\n", encoding="utf-8")
        for d in [tmp, *(p for p in tmp.rglob("*") if p.is_dir())]:
            d.chmod(0o777 & ~mask)
        if not replacing:
            if out.exists():
                out.rmdir()  # empty
            os.replace(tmp, out)
        elif _only_rendered_files(out):
            _swap(tmp, out)
        else:
            _merge_into(tmp, out, [f.path for f in files])
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return [out / f.path for f in files]


def _previous_files(out: Path) -> list[str]:
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
        files = data.get("files", []) if isinstance(data, dict) else []
        return [f for f in files if isinstance(f, str)]
    except (OSError, ValueError):
        return []


def _only_rendered_files(out: Path) -> bool:
    """True when ``out`` holds nothing but the files of a previous render (then it can be swapped whole)."""
    known = {*_previous_files(out), MANIFEST}
    if len(known) == 1:
        return False
    for p in out.rglob("*"):
        if p.is_symlink() or (p.is_file() and p.relative_to(out).as_posix() not in known):
            return False
        if not p.is_dir() and not p.is_file():
            return False
    return True


def _swap(tmp: Path, out: Path) -> None:
    """Replace ``out`` by ``tmp`` with two renames; the old directory is restored if the second fails."""
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.gpupool-old-", dir=tmp.parent))
    old.rmdir()
    os.replace(out, old)
    try:
        os.replace(tmp, out)
    except BaseException:
        os.replace(old, out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _merge_into(tmp: Path, out: Path, new_files: list[str]) -> None:
    """Move the staged files over ``out`` one rename at a time, then drop stale files of the last render.

    Used when ``out`` also holds files gpupool did not write; those are left alone.
    """
    old = _previous_files(out)
    moves = [*new_files, MANIFEST]
    for rel in moves:  # check everything before the first rename
        dst = out / rel
        if dst.is_symlink() or dst.is_dir() or any(q.is_file() or q.is_symlink() for q in dst.parents
                                                     if out in q.parents):
            raise InputError(str(dst), None, "is in the way of a file gpupool writes",
                             "remove it or render into another directory")
    for rel in moves:
        dst = out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        os.replace(tmp / rel, dst)
    root = out.resolve()
    for rel in set(old) - set(new_files):
        stale = (out / rel).resolve()
        if root not in stale.parents or not stale.is_file():
            continue  # never follow a tampered manifest out of the directory
        stale.unlink()
        parent = stale.parent
        while parent != root and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent


__all__ = ["FORMATS", "MANIFEST", "RenderedFile", "render_files", "write_all"]
