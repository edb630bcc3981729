"""yamlio's general path and the data every YAML read gives back.

Reading: libyaml's parser (C where PyYAML has it) and Python construction, every mapping a
:class:`LineDict` and every sequence a :class:`LineList` with its position and its keys'/items'
positions; duplicate keys recorded; alias bombs and absurd nesting refused before construction
(:data:`MAX_EXPANDED_NODES`, :data:`MAX_DEPTH`). The data: :class:`Document`, :func:`locate`.

:mod:`gpupool.yamlio` is the front (files, limits on bytes, the choice of path); :mod:`gpupool._yamlfast`
(the fast path) builds the same :class:`Document` objects and falls back on :func:`general_documents`.
Neither of them is imported here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from gpupool.errors import InputError

try:  # libyaml's C parser is ~10x faster; fall back to pure Python where it is not built.
    _BaseLoader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _BaseLoader = yaml.SafeLoader

MAX_EXPANDED_NODES = 1_000_000
"""Per document: the node count after expanding every alias. Bounds billion-laughs style bombs."""
MAX_DEPTH = 200
"""Nesting deeper than this is refused (Kubernetes objects nest < 30 levels)."""


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


def _syntax_error(path: str, err: yaml.YAMLError) -> InputError:
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    line = mark.line + 1 if mark is not None else None
    problem = getattr(err, "problem", None) or str(err).splitlines()[0]
    context = getattr(err, "context", None)
    msg = f"invalid YAML: {problem}"
    if context:
        msg += f" ({context})"
    return InputError(path, line, msg)


def general_documents(text: str, path: str) -> Iterator[Document]:
    """Each document of ``text`` read by the general path, with positions everywhere; documents before a
    syntax error are yielded first, then InputError (with line)."""
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
