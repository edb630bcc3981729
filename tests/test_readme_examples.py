"""The README's shown sessions are true: every ``$ gpupool ...`` line of the preflight and "For CI" sections
runs from the repository root as written and prints exactly the lines shown under it."""

from __future__ import annotations

import re
import shlex

import pytest

from support import REPO, run_program

SECTIONS = ("### preflight", "## For CI")


def sessions() -> list[tuple[str, list[str]]]:
    text = (REPO / "README.md").read_text()
    out: list[tuple[str, list[str]]] = []
    for title in SECTIONS:
        body = text[text.index(title + "\n") :]
        block = re.search(r"^```\n(.*?)^```$", body, re.S | re.M)
        assert block, title
        current: tuple[str, list[str]] | None = None
        for line in block.group(1).splitlines():
            if line.startswith("$ "):
                current = (line[2:], [])
                out.append(current)
            elif current is not None:
                current[1].append(line)
    return out


def test_readme_has_sessions() -> None:
    commands = [c for c, _ in sessions()]
    assert any("--print-commands" in c for c in commands) and any("--from" in c for c in commands)


@pytest.mark.parametrize(("command", "shown"), sessions(), ids=lambda x: x if isinstance(x, str) else "")
def test_readme_session_is_true(command: str, shown: list[str]) -> None:
    argv = shlex.split(command, comments=True)
    assert argv[0] == "gpupool"
    r = run_program(*argv[1:])
    assert r.exit_code in (0, 1, 2)
    assert (r.stdout + r.stderr).splitlines() == shown
