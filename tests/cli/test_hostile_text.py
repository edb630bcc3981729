"""User text is printed as text: Rich markup (``[bold]x[/]``) and emoji shortcodes (``:100:``, ``:smile:``)
in file names, object names and messages come out as written, in every command's text output, coloured
or not, through the real entry point. (Rich turned ``file:100:`` into ``file💯``: a finding on line 100
lost its location.)"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cli.test_output import piped
from support import EXAMPLES, REPO

HOSTILE_DIR = "[bold]x[/] :smile: [red]"
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
EMOJI = re.compile("[\U0001f300-\U0001faff\u2600-\u27bf]")


def _pad(text: str, lines: int) -> str:
    """``text`` moved down so that its findings land on lines 100 and beyond (``file:1xx:``)."""
    return "".join(f"# {i}\n" for i in range(lines)) + text


def workspace(root: Path) -> Path:
    """A folder whose name is hostile, holding copies of the examples with findings on line 100+ and a
    manifest whose object name is hostile."""
    d = root / HOSTILE_DIR
    shutil.copytree(EXAMPLES, d)
    for name in ("mistakes.yaml", "t4-driver-only.yaml", "a100-mig-mixed.yaml"):
        f = d / name
        f.write_text(_pad(f.read_text(), 97))
    (d / "workloads" / "hostile.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: '[bold]x[/]:100::smile:'\n  labels: {app: ':smile:'}\n"
        "spec:\n  containers:\n  - name: c\n    image: 'example.com/x:100'\n"
        "    resources: {limits: {nvidia.com/gpu: 1}}\n"
    )
    return d


def commands(d: Path, tmp: Path) -> dict[str, list[str]]:
    az = REPO / "tests" / "diff" / "data" / "az-list.json"
    shutil.copy(az, d / "az :100:.json")
    snap = d / "snapshot :100:"
    if not snap.exists():
        shutil.copytree(REPO / "tests" / "doctor" / "snapshots" / "driver-missing", snap)
    return {
        "check": ["check", f"{d}/mistakes.yaml", f"{d}/a100-mig-mixed.yaml"],
        "plan": ["plan", f"{d}/a100-mig-mixed.yaml", f"{d}/t4-driver-only.yaml"],
        "render-blocked": ["render", f"{d}/mistakes.yaml", "--out", str(tmp / "none")],
        "lint": ["lint", f"{d}/workloads", "--pool", f"{d}/a100-mig-mixed.yaml"],
        "diff": [
            "diff",
            f"{d}/diff/current-gpunp.json",
            f"{d}/diff/desired-gpunp-a100.yaml",
            "-w",
            f"{d}/workloads",
        ],
        "import": ["import", f"{d}/az :100:.json"],
        "simulate": [
            "simulate",
            f"{d}/a100-mig-mixed.yaml",
            f"{d}/t4-driver-only.yaml",
            f"{d}/workloads/training.yaml",
            f"{d}/workloads/hostile.yaml",
        ],
        "preflight": ["preflight", f"{d}/preflight/gpu.yaml", "--from", f"{d}/preflight/az"],
        "doctor": ["doctor", "--snapshot", str(snap), "--pool", f"{d}/t4-driver-only.yaml"],
        "error": ["check", f"{d}/missing :100:.yaml"],
    }


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    tmp = tmp_path_factory.mktemp("hostile")
    d = workspace(tmp)
    out: dict[str, dict[str, str]] = {}
    for color in ("never", "always"):
        for name, argv in commands(d, tmp).items():
            r = piped("--color", color, *argv)
            assert r.returncode in ((2,) if name == "error" else (0, 1)), (name, r.stderr)
            out.setdefault(name, {})[color] = ANSI.sub("", r.stdout + r.stderr)
    return out


@pytest.mark.parametrize("color", ["never", "always"])
def test_no_markup_or_emoji_is_applied_to_user_text(outputs, color) -> None:
    for name, by_color in outputs.items():
        text = by_color[color]
        assert not EMOJI.search(text), (name, color, EMOJI.search(text))
        assert HOSTILE_DIR in text, (name, color, text[:2000])


def test_locations_on_line_100_and_more_stay_file_line(outputs) -> None:
    check = outputs["check"]["always"]
    assert re.search(r"mistakes\.yaml:1\d\d: error GP", check), check
    assert f"{HOSTILE_DIR}/az :100:.json:" in outputs["import"]["never"]
    assert f"{HOSTILE_DIR}/missing :100:.yaml" in outputs["error"]["always"]


def test_hostile_object_names_print_as_written(outputs) -> None:
    assert "[bold]x[/]:100::smile:" in outputs["lint"]["always"]
