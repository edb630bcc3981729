"""write_all: everything or nothing, never a half-written directory; --force semantics."""

from __future__ import annotations

import json
import os
import stat

import pytest

import gpupool.render as render
from gpupool.errors import InputError
from gpupool.render import MANIFEST, render_files, write_all
from support import make_pool


def tree(path):
    return sorted(p.relative_to(path).as_posix() for p in path.rglob("*") if p.is_file())


def test_writes_every_rendered_file(tmp_path, design_notes_pool):
    out = tmp_path / "out"
    written = write_all([design_notes_pool], out)
    expected = [f.path for f in render_files([design_notes_pool])]
    assert [p.relative_to(out).as_posix() for p in written] == expected
    assert tree(out) == sorted([*expected, MANIFEST])
    assert json.loads((out / MANIFEST).read_text())["files"] == expected
    script = out / "az/create-node-pools.sh"
    assert script.stat().st_mode & stat.S_IXUSR
    assert not (out / "README.md").stat().st_mode & stat.S_IXUSR
    # no staging directories left next to the output
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_formats_select_files(tmp_path, design_notes_pool):
    written = write_all([design_notes_pool], tmp_path / "o", formats=["arm"])
    names = sorted(p.relative_to(tmp_path / "o").as_posix() for p in written)
    assert names == ["README.md", "arm/gpunp.json"]
    with pytest.raises(ValueError):
        render_files([design_notes_pool], ["helm"])


def test_failure_while_rendering_writes_nothing(tmp_path, design_notes_pool, monkeypatch):
    from gpupool.render import terraform

    def boom(pools):
        raise RuntimeError("renderer crashed")

    monkeypatch.setattr(terraform, "render", boom)
    out = tmp_path / "out"
    with pytest.raises(RuntimeError):
        write_all([design_notes_pool], out)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_failure_while_writing_leaves_the_old_render_intact(tmp_path, design_notes_pool, monkeypatch):
    out = tmp_path / "out"
    write_all([design_notes_pool], out)
    before = {p: (out / p).read_text() for p in tree(out)}
    other = make_pool(name="second", nodeTaints=["a=b:NoSchedule"])
    real_replace = os.replace
    calls = []

    def flaky_replace(src, dst):
        calls.append(dst)
        if len(calls) == 2:  # the move that would put the new directory in place
            raise OSError(28, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(render.os, "replace", flaky_replace)
    with pytest.raises(OSError):
        write_all([design_notes_pool, other], out, force=True)
    monkeypatch.undo()
    assert {p: (out / p).read_text() for p in tree(out)} == before
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_non_empty_directory_needs_force(tmp_path, design_notes_pool):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match="not empty") as e:
        write_all([design_notes_pool], out)
    assert "--force" in str(e.value)
    assert tree(out) == ["notes.txt"]


def test_empty_directory_is_fine(tmp_path, design_notes_pool):
    out = tmp_path / "out"
    out.mkdir()
    write_all([design_notes_pool], out)
    assert "README.md" in tree(out)


def test_a_file_is_not_a_directory(tmp_path, design_notes_pool):
    out = tmp_path / "out"
    out.write_text("x")
    with pytest.raises(InputError, match="not a directory"):
        write_all([design_notes_pool], out, force=True)


def test_force_replaces_a_previous_render_and_drops_stale_files(tmp_path, design_notes_pool):
    out = tmp_path / "out"
    other = make_pool(name="second", nodeTaints=["a=b:NoSchedule"])
    write_all([design_notes_pool, other], out)
    assert "k8s/second/10-device-plugin.yaml" in tree(out)
    write_all([design_notes_pool], out, force=True)
    assert not any("second" in p for p in tree(out))
    assert not (out / "k8s/second").exists()
    assert tree(out) == sorted([*(f.path for f in render_files([design_notes_pool])), MANIFEST])


def test_force_keeps_files_gpupool_did_not_write(tmp_path, design_notes_pool):
    out = tmp_path / "out"
    other = make_pool(name="second")
    write_all([design_notes_pool, other], out)
    (out / "my-notes.md").write_text("keep me")
    (out / "k8s" / "extra.yaml").write_text("keep me too")
    write_all([design_notes_pool], out, force=True)
    files = tree(out)
    assert "my-notes.md" in files and "k8s/extra.yaml" in files
    assert "arm/second.json" not in files and "arm/gpunp.json" in files


def test_force_never_deletes_outside_the_directory(tmp_path, design_notes_pool):
    out = tmp_path / "out"
    write_all([design_notes_pool], out)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (out / "mine.txt").write_text("forces a merge")
    (out / MANIFEST).write_text(json.dumps({"version": 1, "files": ["../victim.txt", "/etc/hostname"]}))
    write_all([design_notes_pool], out, force=True)
    assert victim.read_text() == "precious"


def test_creates_missing_parents(tmp_path, design_notes_pool):
    out = tmp_path / "a" / "b" / "out"
    write_all([design_notes_pool], out)
    assert (out / "README.md").is_file()


def test_readme_names_every_file(all_matrix_pools):
    pools = [*all_matrix_pools, make_pool(name="win", osSku="Windows2022")]
    files = render_files(pools)
    readme = next(f.text for f in files if f.path == "README.md")
    for f in files:
        if f.path != "README.md":
            assert f"`{f.path}`" in readme, f.path
    assert "## Order" in readme
    for pool in pools:
        assert f"`{pool.name}`" in readme


def test_render_is_deterministic(all_matrix_pools):
    assert render_files(all_matrix_pools) == render_files(all_matrix_pools)


@pytest.mark.parametrize("field", ["name", "cluster_name"])
@pytest.mark.parametrize("value", ["../evil", "a/b", "$(id)", "", "a b", "x\ny"])
def test_specs_built_in_code_cannot_escape(tmp_path, design_notes_pool, field, value):
    import dataclasses

    pool = dataclasses.replace(design_notes_pool, **{field: value})
    with pytest.raises(InputError, match="cannot be rendered safely"):
        write_all([pool], tmp_path / "out")
    assert not (tmp_path / "out").exists()
    assert list(tmp_path.iterdir()) == []
