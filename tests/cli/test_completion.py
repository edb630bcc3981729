"""Shell completion through the real program: the _GPUPOOL_COMPLETE protocol (Typer's ``complete_bash`` and
Click's ``bash_complete``), rule IDs for --ignore and explain, and the bash script driven by a real bash."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support import REPO

BIN = Path(sys.executable).parent


def complete(env: dict[str, str]) -> list[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("COMP_", "_GPUPOOL", "_TYPER"))}
    r = subprocess.run(
        [sys.executable, "-m", "gpupool"], capture_output=True, text=True, env={**base, **env}, cwd=REPO,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    return r.stdout.splitlines()


def bash(words: str, cword: int, instruction: str = "complete_bash") -> list[str]:
    return complete({"_GPUPOOL_COMPLETE": instruction, "COMP_WORDS": words, "COMP_CWORD": str(cword)})


@pytest.mark.parametrize("instruction", ["complete_bash", "bash_complete"])
def test_commands_and_options(instruction: str) -> None:
    assert bash("gpupool che", 1, instruction) == ["check"]
    assert {"check", "plan", "lint", "simulate", "completion"} <= set(bash("gpupool ", 1, instruction))
    assert bash("gpupool lint -o ", 3, instruction) == ["text", "json", "sarif", "junit", "github"]
    assert "--kubernetes-version" in bash("gpupool lint --kub", 2, instruction)
    assert bash("gpupool --color a", 2, instruction) == ["auto", "always"]


def test_rule_ids_for_ignore_and_explain() -> None:
    from gpupool.rules import all_rules

    ids = sorted(all_rules())
    assert bash("gpupool check --ignore GP10", 3) == [i for i in ids if i.startswith("GP10")]
    assert bash("gpupool explain GP3", 2) == [i for i in ids if i.startswith("GP3")]
    assert bash("gpupool lint --ignore gp20", 3) == [i for i in ids if i.startswith("GP20")]
    assert bash("gpupool simulate --ignore GP5", 3) == [i for i in ids if i.startswith("GP5")]
    # after a comma the last item is completed, the ones before kept
    assert bash("gpupool check --ignore GP101,GP12", 3) == [f"GP101,{i}" for i in ids if i.startswith("GP12")]
    # names complete too
    names = [all_rules()[i].name for i in ids if all_rules()[i].name.startswith("retired")]
    assert "retired-vm-size" in names
    assert bash("gpupool explain retired", 2) == names


def test_zsh_and_fish_answer_one_line_per_item() -> None:
    out = complete({"_GPUPOOL_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "gpupool explain GP10"})
    assert out[0].startswith("_arguments '*: :((\"GP101\":\"unknown-vm-size\\\\: ")
    assert all(re.match(r'^(_arguments .*)?"GP10\d":"', line) for line in out), out
    out = complete(
        {
            "_GPUPOOL_COMPLETE": "complete_fish",
            "_TYPER_COMPLETE_FISH_ACTION": "get-args",
            "_TYPER_COMPLETE_ARGS": "gpupool check --ignore GP11",
        }
    )
    assert out and all(re.match(r"^GP11\d\t[a-z0-9-]+: ", line) for line in out), out


def test_completion_scripts() -> None:
    markers = {
        "bash": "complete -o default -F", "zsh": "#compdef gpupool", "fish": "complete --command gpupool"
    }
    for shell, marker in markers.items():
        r = subprocess.run(
            [sys.executable, "-m", "gpupool", "completion", shell], capture_output=True, text=True
        )
        assert r.returncode == 0 and marker in r.stdout and "_GPUPOOL_COMPLETE=complete_" in r.stdout


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_script_in_a_real_bash(tmp_path: Path) -> None:
    """Source `gpupool completion bash` in bash, fill COMP_WORDS as readline would, call the function."""
    if not (BIN / "gpupool").exists():
        pytest.skip("the gpupool console script is not installed next to this Python")
    script = subprocess.run(
        [str(BIN / "gpupool"), "completion", "bash"], capture_output=True, text=True, check=True
    ).stdout
    (tmp_path / "gpupool.bash").write_text(script)
    driver = (
        'source "$1"\n'
        "COMP_WORDS=(gpupool explain GP40); COMP_CWORD=2\n"
        "_gpupool_completion gpupool\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    r = subprocess.run(
        ["bash", "--norc", "-c", driver, "bash", str(tmp_path / "gpupool.bash")],
        capture_output=True, text=True, env=env, timeout=60,
    )
    from gpupool.rules import all_rules

    assert r.stdout.split() == sorted(i for i in all_rules() if i.startswith("GP40")), r.stderr


def test_rules_are_not_imported_at_normal_start_up() -> None:
    """Completion support costs a normal run nothing: no rule module is imported for --version or --help."""
    for argv in (["--version"], ["check", "--help"], ["explain", "--help"]):
        r = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "gpupool", *argv], capture_output=True, text=True
        )
        assert r.returncode == 0
        loaded = re.findall(r"\|\s+(gpupool\.\S+)", r.stderr)
        assert loaded, r.stderr[:500]
        assert not [m for m in loaded if re.search(r"\.rules\.gp\d", m)], argv
