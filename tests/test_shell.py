"""Shell quoting: what bash reads back is exactly the value, whatever the value is."""

from __future__ import annotations

import shlex
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpupool import shell

BASH = shutil.which("bash")
HOSTILE = [
    "",
    "plain",
    "it's",
    "'",
    "''",
    "$(touch /tmp/gpupool-pwned)",
    "`id`",
    "${HOME}",
    "a b  c",
    "x; rm -rf /",
    "a && b || c",
    "*",
    "~root",
    "\\",
    '"double"',
    "-n",
    "--help",
    "!event",
    "ünïcødé ✓",
    "a|b>c<d",
    "#comment",
]


def bash_echo(words: list[str]) -> list[str]:
    """Run ``printf '%s\\0' <quoted words>`` in bash and return what it printed."""
    script = "printf '%s\\0' " + " ".join(shell.quote(w) for w in words)
    out = subprocess.run([BASH, "-c", script], capture_output=True, check=True).stdout
    return out.decode().split("\0")[:-1]


@pytest.mark.skipif(BASH is None, reason="bash not installed")
def test_hostile_values_come_back_verbatim():
    assert bash_echo(HOSTILE) == HOSTILE


@pytest.mark.skipif(BASH is None, reason="bash not installed")
@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs")), max_size=20), min_size=1,
                max_size=5))
def test_any_text_round_trips_through_bash(words):
    assert bash_echo(words) == words


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs")), max_size=40))
def test_quote_round_trips_through_shlex(text):
    assert shlex.split(shell.quote(text)) == [text]


def test_always_single_quoted():
    assert shell.quote("gpunp") == "'gpunp'"
    assert shell.quote(3) == "'3'"
    assert shell.quote("it's") == "'it'\"'\"'s'"


@pytest.mark.parametrize("bad", ["a\nb", "a\x00b", "\r", "\x1b[31m", "tab\there", "\x7f"])
def test_control_characters_are_refused(bad):
    with pytest.raises(ValueError, match="control character"):
        shell.quote(bad)


@pytest.mark.parametrize("bad", [None, True, 1.5, b"bytes", ["list"]])
def test_only_strings_and_integers(bad):
    with pytest.raises(TypeError):
        shell.quote(bad)


def test_command_words_must_be_plain():
    with pytest.raises(ValueError):
        shell.word("az;rm")
    with pytest.raises(ValueError):
        shell.command(["$(x)", "--flag", "v"], words=1)


def test_command_quotes_values_and_keeps_flags_bare():
    text = shell.command(["az", "aks", "nodepool", "add", "--name", "gpunp", "--enable-cluster-autoscaler",
                          "--spot-max-price", "-1", "--labels", "a=b", "c=d"], words=4)
    assert text.splitlines() == [
        "az aks nodepool add \\",
        "    --name 'gpunp' \\",
        "    --enable-cluster-autoscaler \\",
        "    --spot-max-price '-1' \\",
        "    --labels 'a=b' 'c=d'",
    ]
    assert shlex.split(text.replace("\\\n", " "))[4:] == ["--name", "gpunp", "--enable-cluster-autoscaler",
                                                           "--spot-max-price", "-1", "--labels", "a=b", "c=d"]
