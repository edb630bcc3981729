"""Line-aware, hostile-input-safe YAML loading (libyaml's C parser, Python construction).

Every mapping is a :class:`LineDict` and every sequence a :class:`LineList`: plain ``dict``/``list``
subclasses that also remember where they and their keys/items start (1-based line and column), so any
engine can point at ``file:line`` without a second parse. Duplicate keys are recorded, not silently
dropped. Limits refuse huge files, binary files, alias bombs and absurd nesting with an
:class:`~gpupool.errors.InputError` instead of a hang, a traceback or an out-of-memory kill.

This module is the front: files and their byte limit, and the choice of path. The general path and the
data types are in :mod:`gpupool._yamlgeneral`, the fast path in :mod:`gpupool._yamlfast`; both sit under
this one and neither imports it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gpupool._yamlgeneral import (  # the data a read gives back, and the general path (re-exported here)
    MAX_DEPTH,
    MAX_EXPANDED_NODES,
    Document,
    DuplicateKey,
    LineDict,
    LineList,
    construct_number,
    general_documents,
    locate,
)
from gpupool.errors import InputError, safe_text

__all__ = [
    "MAX_DEPTH",
    "MAX_EXPANDED_NODES",
    "MAX_FILE_BYTES",
    "BinaryFileError",
    "Document",
    "DuplicateKey",
    "LineDict",
    "LineList",
    "construct_number",
    "decode",
    "iter_documents",
    "load_documents",
    "load_file",
    "locate",
    "read_text",
    "refuse_duplicates",
    "to_plain",
    "type_name",
]


MAX_FILE_BYTES = 32 * 1024 * 1024
"""Files above this size are refused (a 10,000-object manifest file is ~20 MB)."""


class BinaryFileError(InputError):
    """The file is not text (NUL bytes or not UTF-8). Lint skips such files with a notice."""


def decode(raw: bytes, path: str) -> str:
    """Bytes -> text, refusing binary content."""
    if b"\x00" in raw[:8192]:
        raise BinaryFileError(path, None, "binary file (contains NUL bytes), not YAML or JSON")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise BinaryFileError(path, line, "not UTF-8 text") from None
    return text


def read_text(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read a file (``-`` is stdin) as text, within the size limit."""
    name = str(path)
    try:
        if name == "-":
            raw = sys.stdin.buffer.read(max_bytes + 1)
        else:
            p = Path(path)
            if p.is_dir():
                raise InputError(name, None, "is a directory")
            with p.open("rb") as fh:
                raw = fh.read(max_bytes + 1)
    except InputError:
        raise
    except FileNotFoundError:
        raise InputError(name, None, "no such file") from None
    except OSError as e:
        raise InputError(name, None, f"cannot read: {e.strerror or e}") from None
    if len(raw) > max_bytes:
        raise InputError(
            name, None, f"file is larger than {max_bytes // (1024 * 1024)} MiB; refusing to load it"
        )
    return decode(raw, "<stdin>" if name == "-" else name)


def iter_documents(text: str, path: str, fast: bool = True, positions: str = "eager") -> Iterator[Document]:
    """Yield each document of ``text``. Raises InputError (with line) on the first bad one.

    Documents before a syntax error are yielded first, so a caller can keep what was good.
    Plain files take a faster path (:mod:`gpupool._yamlfast`) with identical results; there
    ``positions="lazy"`` builds plain dicts and lists and leaves positions to :meth:`Document.locate`
    (documents with duplicate keys, and files the fast path does not take, still come with positions).
    """
    from gpupool._yamlfast import fast_documents

    docs = fast_documents(text, path, lazy=positions == "lazy") if fast else None
    if docs is not None:
        yield from docs
        return
    yield from general_documents(text, path)


def refuse_duplicates(doc: Document) -> None:
    """For inputs where a duplicate key is bad input (pool specs, simulate): InputError at the first one."""
    if doc.duplicates:
        d = doc.duplicates[0]
        key = safe_text(d.key)
        raise InputError(doc.path, d.line, f'duplicate key "{key}" (first at line {d.first_line})')


def load_documents(text: str, path: str, fast: bool = True) -> list[Document]:
    """All documents of ``text``; ``fast=False`` forces the general loader (tests compare the two)."""
    return list(iter_documents(text, path, fast))


def load_file(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> list[Document]:
    name = str(path)
    return load_documents(read_text(path, max_bytes), "<stdin>" if name == "-" else name)


def type_name(value: Any) -> str:
    """The YAML/JSON name of a value's type, for messages ("expected an integer, got string")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "mapping"
    return type(value).__name__


def to_plain(data: Any) -> Any:
    """Deep copy into plain dict/list (for JSON output or libraries that reject subclasses)."""
    if isinstance(data, dict):
        return {str(k) if not isinstance(k, str) else k: to_plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [to_plain(v) for v in data]
    return data
