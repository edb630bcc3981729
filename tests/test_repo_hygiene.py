"""The tree stays ruff-clean and free of machine-specific absolute paths (part of the test command)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_ruff_clean():
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.skip("ruff not installed")
    r = subprocess.run([ruff, "check", "src", "tests", "bench"], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_no_absolute_machine_paths():
    r = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("not a git checkout")
    needles = ("/" + "work/", "/" + "root/", "/" + "home/")  # split so this file does not match itself
    bad = []
    for name in r.stdout.splitlines():
        p = REPO / name
        if not p.is_file() or p.suffix not in {".py", ".md", ".yaml", ".yml", ".toml", ".json", ".sh", ""}:
            continue
        text = p.read_text(errors="replace")
        bad += [f"{name}: {n}" for n in needles if n in text]
    assert not bad, bad
