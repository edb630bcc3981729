"""Inputs of ``gpupool lint``: which files, and the documents and objects in them.

- :func:`discover_inputs` (and :func:`discover`, its plain file list) expands the command line (every
  command's discovery): files as given, directories recursively (``*.yaml``,
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

import fnmatch
import json
import os
import re
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


CHART_FILES = ("Chart.yaml", "Chart.yml")


@dataclass
class Discovered:
    """What the command line names: files to lint, Helm charts found in directories (not linted: their
    templates are not YAML until rendered), and the files named explicitly (not found by a walk)."""

    files: list[str] = field(default_factory=list)
    charts: list[str] = field(default_factory=list)  # the chart's Chart.yaml
    explicit: set[str] = field(default_factory=set)


def _excluded(rel: str, patterns: tuple[str, ...]) -> bool:
    """``rel`` (a path relative to the input, with /) matches a glob: the whole path, its name, or one of
    its parent directories (``vendor`` and ``vendor/**`` exclude everything below vendor/)."""
    if not patterns:
        return False
    parts = rel.split("/")
    for g in patterns:
        g = g.rstrip("/")
        if g.startswith("./"):
            g = g[2:]
        if fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(parts[-1], g):
            return True
        base = g[:-3] if g.endswith("/**") else g
        for i in range(1, len(parts)):
            if fnmatch.fnmatch("/".join(parts[:i]), base) or fnmatch.fnmatch(parts[i - 1], base):
                return True
    return False


def discover_inputs(
    paths: list[str] | tuple[str, ...], exclude: tuple[str, ...] = (), charts: bool = True
) -> Discovered:
    """Expand a command line — the one discovery every command uses (``gpupool.cli.common.discover_files``):
    files as given, directories recursively (``*.yaml``, ``*.yml``, ``*.json``; hidden files and directories
    skipped), ``-`` for standard input; a directory holding a ``Chart.yaml`` is a Helm chart (recorded once,
    its files not read; ``charts=False``: walked like any directory); ``exclude`` globs drop files and
    directories (matched relative to each input directory, and against names)."""
    found = Discovered()
    seen: set[str] = set()

    def add(p: str) -> None:
        key = p if p == STDIN else os.path.normpath(p)
        if key not in seen:
            seen.add(key)
            found.files.append(p)

    for raw in paths:
        p = str(raw)
        if p == STDIN:
            add(p)
            continue
        path = Path(p)
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                rel_root = os.path.relpath(root, path).replace(os.sep, "/")
                rel_root = "" if rel_root == "." else rel_root + "/"
                chart = next((c for c in CHART_FILES if c in files), None) if charts else None
                if chart is not None:
                    found.charts.append(os.path.join(root, chart))
                    dirs[:] = []
                    continue
                dirs[:] = sorted(
                    d for d in dirs if not d.startswith(".") and not _excluded(rel_root + d, exclude)
                )
                for name in sorted(files):
                    wanted = name.lower().endswith(EXTENSIONS) and not name.startswith(".")
                    if wanted and not _excluded(rel_root + name, exclude):
                        add(os.path.join(root, name))
        elif path.exists():
            if not _excluded(p.replace(os.sep, "/"), exclude):
                add(p)
                found.explicit.add(p)
        else:
            raise InputError(p, None, "no such file or directory")
    return found


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
    sources: list[tuple[int, str]] = field(default_factory=list)  # helm template's "# Source:" (line, path)
    template: bool = False  # failed to parse and has Go template markers ({{ ... }}): render it first


_SOURCE_RE = re.compile(r"^# Source: (\S.*?)\s*$", re.MULTILINE)


def source_comments(text: str) -> list[tuple[int, str]]:
    """``# Source: chart/templates/x.yaml`` lines that ``helm template`` writes before each document:
    (line number, path), in order."""
    out = []
    for m in _SOURCE_RE.finditer(text):
        out.append((text.count("\n", 0, m.start()) + 1, m.group(1)))
    return out


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
    if "# Source: " in text:
        src.sources = source_comments(text)
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
        if src.syntax_error is not None and "{{" in text and "}}" in text:
            src.template = True
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
