"""POSIX shell quoting for rendered scripts: every value goes through :func:`quote`.

Single quotes are the only POSIX quoting in which no character is special, so a value is wrapped in
``'...'`` and each ``'`` inside becomes ``'"'"'`` (close, a double-quoted quote, reopen). Nothing can
expand inside: no ``$``, no backticks, no globbing, no word splitting. What quoting cannot carry is
refused: NUL (cannot be in an argument at all) and other control characters (newlines, escape
sequences) that would make a script misleading to read, so a rendered line always shows what runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_FLAG = re.compile(r"^--?[A-Za-z][A-Za-z0-9-]*$")
_BARE_WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def quote(value: str | int) -> str:
    """``value`` as one POSIX shell word, always single-quoted. Raises ValueError on control characters."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise TypeError(f"quote() takes a string or an integer, not {type(value).__name__}")
    text = str(value)
    bad = _CONTROL.search(text)
    if bad:
        raise ValueError(f"refusing to put a control character ({bad.group()!r}) into a shell script")
    return "'" + text.replace("'", "'\"'\"'") + "'"


def is_flag(token: str) -> bool:
    """Option names such as ``--node-count`` (rendered bare; they carry no user data)."""
    return bool(_FLAG.match(token))


def word(token: str) -> str:
    """A fixed command word (``az``, ``aks``, ``kubectl``) or flag, rendered bare after a safety check."""
    if not (_BARE_WORD.match(token) or is_flag(token)):
        raise ValueError(f"{token!r} is not a plain command word; quote it")
    return token


def command(argv: Sequence[str], words: int, indent: str = "", wrap: bool = True) -> str:
    """Render ``argv`` as one shell command: the first ``words`` tokens and option names bare, all values
    quoted. With ``wrap``, each option and its values go on their own continuation line."""
    if words > len(argv):
        raise ValueError("more command words than tokens")
    head = " ".join(word(t) for t in argv[:words])
    groups: list[list[str]] = []
    for token in argv[words:]:
        name, eq, value = token.partition("=")
        if token.startswith("-") and is_flag(token):
            groups.append([token])
        elif token.startswith("--") and eq and is_flag(name):
            groups.append([f"{name}={quote(value)}"])  # --flag=value: for values that start with "-"
        elif groups:
            groups[-1].append(quote(token))
        else:
            groups.append([quote(token)])
    parts = [" ".join(g) for g in groups]
    if not wrap or not parts:
        return indent + " ".join([head, *parts])
    inner = indent + "    "
    return indent + head + " \\\n" + " \\\n".join(inner + p for p in parts)


def join(argv: Iterable[str]) -> str:
    """Every token quoted (for values only, e.g. in an echo)."""
    return " ".join(quote(t) for t in argv)
