"""Line-aware, hostile-input-safe YAML loading (libyaml's C parser, Python construction).

Every mapping is a :class:`LineDict` and every sequence a :class:`LineList`: plain ``dict``/``list``
subclasses that also remember where they and their keys/items start (1-based line and column), so any
engine can point at ``file:line`` without a second parse. Duplicate keys are recorded, not silently
dropped. Limits refuse huge files, binary files, alias bombs and absurd nesting with an
:class:`~gpupool.errors.InputError` instead of a hang, a traceback or an out-of-memory kill.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from gpupool.errors import InputError, safe_text

try:  # libyaml's C parser is ~10x faster; fall back to pure Python where it is not built.
    _BaseLoader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _BaseLoader = yaml.SafeLoader

MAX_FILE_BYTES = 32 * 1024 * 1024
"""Files above this size are refused (a 10,000-object manifest file is ~20 MB)."""
MAX_EXPANDED_NODES = 1_000_000
"""Per document: the node count after expanding every alias. Bounds billion-laughs style bombs."""
MAX_DEPTH = 200
"""Nesting deeper than this is refused (Kubernetes objects nest < 30 levels)."""


class BinaryFileError(InputError):
    """The file is not text (NUL bytes or not UTF-8). Lint skips such files with a notice."""


class LineDict(dict):
    """A mapping that knows its position and the position of each key."""

    __slots__ = ("col", "key_pos", "line")

    def __init__(self) -> None:
        super().__init__()
        self.line = 0
        self.col = 0
        self.key_pos: dict[Any, tuple[int, int]] = {}


class LineList(list):
    """A sequence that knows its position and the position of each item."""

    __slots__ = ("col", "item_pos", "line")

    def __init__(self) -> None:
        super().__init__()
        self.line = 0
        self.col = 0
        self.item_pos: list[tuple[int, int]] = []


@dataclass(frozen=True)
class DuplicateKey:
    key: str
    line: int
    column: int
    first_line: int


@dataclass
class Document:
    """One YAML document of a file.

    ``data`` is built of :class:`LineDict`/:class:`LineList`, except for documents read with
    ``positions="lazy"``: there it is plain ``dict``/``list``, and ``positions`` (an object with a
    ``locate(path)`` method: the kept node tree, or the document's lines to read again) answers
    :meth:`locate` only when a position is asked for (lint asks for a few in ten thousand).
    """

    path: str
    index: int  # 0-based position in the file
    line: int  # 1-based line of the document's first node
    data: Any
    duplicates: list[DuplicateKey] = field(default_factory=list)
    positions: Any = field(default=None, repr=False, compare=False)

    def locate(self, path: tuple | list) -> tuple[int, int] | None:
        """(line, column) of ``path`` inside the document, as :func:`locate` finds it in ``data``."""
        if self.positions is not None:
            return self.positions.locate(path)
        return locate(self.data, path)

    def positioned(self) -> Any:
        """``data`` with positions (:class:`LineDict`/:class:`LineList`): ``data`` itself, or for a document
        read with ``positions="lazy"``, built again with them (for the few documents that need them all)."""
        if self.positions is not None:
            return self.positions.positioned()
        return self.data


def construct_number(construct: Any, node: yaml.ScalarNode) -> Any:
    """An implicit int/float that PyYAML's YAML 1.1 pattern matches but cannot convert (``0b_``, ``0x_``)
    stays the string it is, as Kubernetes' YAML reader leaves a scalar it cannot parse as a number."""
    try:
        return construct(node)
    except ValueError:
        return node.value


class _Loader(_BaseLoader):  # type: ignore[misc,valid-type]
    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.duplicates: list[DuplicateKey] = []

    def construct_line_map(self, node: yaml.MappingNode) -> Iterator[LineDict]:
        data = LineDict()
        data.line = node.start_mark.line + 1
        data.col = node.start_mark.column + 1
        yield data
        explicit = [(k, v) for k, v in node.value if k.tag != "tag:yaml.org,2002:merge"]
        if len(explicit) != len(node.value):
            self.flatten_mapping(node)
        pairs = node.value
        explicit_ids = {id(k) for k, _ in explicit}
        seen_explicit: dict[Any, int] = {}
        for key_node, value_node in pairs:
            key = self.construct_object(key_node, deep=True)
            if isinstance(key, (list, dict)):
                raise InputError(
                    None, key_node.start_mark.line + 1, "a mapping key must be a scalar, not a collection"
                )
            pos = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if id(key_node) in explicit_ids:
                if key in seen_explicit:
                    self.duplicates.append(DuplicateKey(str(key), pos[0], pos[1], seen_explicit[key]))
                else:
                    seen_explicit[key] = pos[0]
            data[key] = self.construct_object(value_node, deep=True)
            data.key_pos[key] = pos

    def construct_line_seq(self, node: yaml.SequenceNode) -> Iterator[LineList]:
        data = LineList()
        data.line = node.start_mark.line + 1
        data.col = node.start_mark.column + 1
        yield data
        for item in node.value:
            data.append(self.construct_object(item, deep=True))
            data.item_pos.append((item.start_mark.line + 1, item.start_mark.column + 1))

    def construct_as_str(self, node: yaml.ScalarNode) -> str:
        # Kubernetes (sigs.k8s.io/yaml) keeps timestamps as strings; "=" is a plain string too.
        return str(node.value)


_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_line_map)
_Loader.add_constructor("tag:yaml.org,2002:omap", _Loader.construct_line_map)
_Loader.add_constructor("tag:yaml.org,2002:seq", _Loader.construct_line_seq)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _Loader.construct_as_str)
_Loader.add_constructor(
    "tag:yaml.org,2002:int", lambda loader, node: construct_number(loader.construct_yaml_int, node)
)
_Loader.add_constructor(
    "tag:yaml.org,2002:float", lambda loader, node: construct_number(loader.construct_yaml_float, node)
)
_Loader.add_constructor("tag:yaml.org,2002:value", _Loader.construct_as_str)


def _check_expansion(node: yaml.Node, path: str) -> None:
    """Refuse documents whose alias expansion or nesting is out of bounds (before constructing)."""
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def size(n: yaml.Node, depth: int) -> int:
        key = id(n)
        if key in sizes:
            return sizes[key]
        if depth > MAX_DEPTH:
            raise InputError(path, n.start_mark.line + 1, f"nesting deeper than {MAX_DEPTH} levels")
        if key in active:
            raise InputError(path, n.start_mark.line + 1, "recursive YAML alias (an anchor refers to itself)")
        total = 1
        if isinstance(n, yaml.SequenceNode):
            active.add(key)
            for child in n.value:
                total += size(child, depth + 1)
            active.discard(key)
        elif isinstance(n, yaml.MappingNode):
            active.add(key)
            for k, v in n.value:
                total += size(k, depth + 1) + size(v, depth + 1)
            active.discard(key)
        if total > MAX_EXPANDED_NODES:
            raise InputError(
                path,
                n.start_mark.line + 1,
                f"document expands to over {MAX_EXPANDED_NODES:,} nodes through YAML aliases",
                "refusing a likely alias bomb; remove the anchors/aliases",
            )
        sizes[key] = total
        return total

    size(node, 0)


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


def _syntax_error(path: str, err: yaml.YAMLError) -> InputError:
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    line = mark.line + 1 if mark is not None else None
    problem = getattr(err, "problem", None) or str(err).splitlines()[0]
    context = getattr(err, "context", None)
    msg = f"invalid YAML: {problem}"
    if context:
        msg += f" ({context})"
    return InputError(path, line, msg)


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
    loader = _Loader(text)
    index = 0
    try:
        while loader.check_node():
            node = loader.get_node()
            if node is None:  # pragma: no cover - check_node said there is one
                break
            _check_expansion(node, path)
            loader.duplicates = []
            try:
                data = loader.construct_document(node)
            except InputError as e:
                raise InputError(path, e.line, e.message, e.hint) from None
            except RecursionError:
                raise InputError(path, node.start_mark.line + 1, "nesting too deep") from None
            yield Document(path, index, node.start_mark.line + 1, data, list(loader.duplicates))
            index += 1
    except yaml.YAMLError as e:
        raise _syntax_error(path, e) from None
    except RecursionError:
        raise InputError(path, None, "nesting too deep") from None
    finally:
        loader.dispose()


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


def locate(data: Any, path: tuple | list) -> tuple[int, int] | None:
    """Best known (line, column) for a JSON-pointer-like path into constructed data (or a :class:`Document`).

    Walks as far as the path exists; returns the position of the deepest key/item reached
    (for a missing key, the position of its parent mapping).
    """
    if isinstance(data, Document):
        return data.locate(path)
    best: tuple[int, int] | None = None
    if isinstance(data, (LineDict, LineList)) and data.line:
        best = (data.line, data.col)
    node = data
    for step in path:
        if isinstance(node, LineDict) and step in node:
            best = node.key_pos.get(step, best)
            node = node[step]
        elif isinstance(node, LineList) and isinstance(step, int) and 0 <= step < len(node):
            if step < len(node.item_pos):
                best = node.item_pos[step]
            node = node[step]
        else:
            break
    return best


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
