"""Counted nouns for the page's text: "1 pod", "9 pods" (never "pod(s)")."""

from __future__ import annotations

_IRREGULAR = {"is": "are", "stays": "stay", "was": "were"}


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word`` in the number ``n`` asks for: ``plural(1, "pod")`` is "1 pod", ``plural(9, "pod")``
    "9 pods"; ``many`` when the plural is not the word and an "s"."""
    return f"{n} {word if n == 1 else (many or _IRREGULAR.get(word) or word + 's')}"


def verb(n: int, singular: str) -> str:
    """The verb agreeing with ``n``: ``verb(1, "stays")`` is "stays", ``verb(9, "stays")`` "stay"."""
    return singular if n == 1 else _IRREGULAR.get(singular, singular.removesuffix("s"))
