"""The one way bad input leaves gpupool: ``InputError`` -> one line ``file:line: message``, exit 2."""

from __future__ import annotations

from typing import Any


def safe_text(text: Any, limit: int = 60) -> str:
    """User text as it may appear in a one-line message: printable, bounded (hostile names stay harmless)."""
    text = str(text)
    if len(text) <= limit and text.isprintable():
        return text
    out = "".join(ch if ch.isprintable() else "?" for ch in text)
    return out if len(out) <= limit else out[: limit - 1] + "…"


class InputError(Exception):
    """Input that gpupool cannot use: unreadable file, malformed YAML, wrong field, bad value.

    ``str(err)`` is the one-line message the CLI prints (``path:line: message (hint)``).
    """

    def __init__(self, path: str | None, line: int | None, message: str, hint: str | None = None) -> None:
        self.path = path
        self.line = line
        self.message = message
        self.hint = hint
        super().__init__(self.render())

    def render(self) -> str:
        where = ""
        if self.path:
            where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: "
        text = f"{where}{self.message}"
        if self.hint:
            text += f" ({self.hint})"
        return " ".join(text.split("\n"))
