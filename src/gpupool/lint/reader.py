"""Inputs of ``gpupool lint``: which files, and the documents and objects in them.

- :func:`discover` expands the command line: files as given, directories recursively (``*.yaml``,
  ``*.yml``, ``*.json``; hidden directories and files such as ``.git`` and ``.gpupool.yaml`` are skipped),
  ``-`` for standard input. A path that does not exist is bad usage (:class:`~gpupool.errors.InputError`,
  exit 2).
- :func:`read_documents` parses one source into :mod:`gpupool.yamlio` documents (duplicate keys recorded;
  positions read on demand with ``Document.locate``, since only findings need them) and keeps the
  documents before a syntax error; a ``.json`` file
  that YAML cannot read (JSON allows tab indentation, YAML does not) is read as JSON, without positions.
- :func:`objects` expands ``kind: List`` (and ``*List``) documents into their items with
  :func:`gpupool.k8s.workloads.iter_objects`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpupool import yamlio
from gpupool.errors import InputError
from gpupool.k8s.workloads import iter_objects

EXTENSIONS = (".yaml", ".yml", ".json")
IGNORE_ANNOTATION = "gpupool.io/ignore"
STDIN = "-"
STDIN_NAME = "<stdin>"


def discover(paths: list[str] | tuple[str, ...]) -> list[str]:
    """Files to lint, in a stable order, each once."""
    out: list[str] = []
    seen: set[str] = set()

    def add(p: str) -> None:
        key = p if p == STDIN else os.path.normpath(p)
        if key not in seen:
            seen.add(key)
            out.append(p)

    for raw in paths:
        p = str(raw)
        if p == STDIN:
            add(p)
            continue
        path = Path(p)
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    if name.lower().endswith(EXTENSIONS) and not name.startswith("."):
                        add(os.path.join(root, name))
        elif path.exists():
            add(p)
        else:
            raise InputError(p, None, "no such file or directory")
    return out


@dataclass
class Source:
    """One input: its display path and its documents (or why it could not be read)."""

    path: str
    documents: list[yamlio.Document] = field(default_factory=list)
    syntax_error: InputError | None = None  # the file stopped parsing here (documents before it are kept)
    binary: InputError | None = None
    unreadable: InputError | None = None
    too_large: InputError | None = None
    has_ignores: bool = True  # the text mentions the gpupool.io/ignore annotation (else no need to look)


def read_text(path: str) -> str:
    return yamlio.read_text(path)


def read_documents(path: str, text: str | None = None) -> Source:
    """Parse one file (or ``text`` under the name ``path``)."""
    name = STDIN_NAME if path == STDIN else path
    src = Source(name)
    if text is None:
        try:
            text = yamlio.read_text(path)
        except yamlio.BinaryFileError as e:
            src.binary = e
            return src
        except InputError as e:
            if "larger than" in e.message:
                src.too_large = e
            else:
                src.unreadable = e
            return src
    src.has_ignores = IGNORE_ANNOTATION in text
    try:
        for doc in yamlio.iter_documents(text, name, positions="lazy"):
            src.documents.append(doc)
    except InputError as e:
        if not src.documents and name.lower().endswith(".json"):
            try:
                data = json.loads(text)
            except ValueError:
                src.syntax_error = e
            else:
                src.documents.append(yamlio.Document(name, 0, 1, data))
        else:
            src.syntax_error = e
    return src


def objects(data: Any) -> Iterator[tuple[Any, tuple]]:
    """``(object, path inside the document)``: the document itself, or the items of a ``*List``.

    Unlike :func:`~gpupool.k8s.workloads.iter_objects` alone, list items that are not mappings are yielded
    too, so that they can be reported.
    """
    if not isinstance(data, dict):
        yield data, ()
        return
    kind, items = data.get("kind"), data.get("items")
    if isinstance(kind, str) and kind.endswith("List") and isinstance(items, list):
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                yield item, ("items", i)
    yield from iter_objects(data)
