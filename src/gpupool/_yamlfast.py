"""The fast path of :mod:`gpupool.yamlio` for the common case (~2x faster than its general loader).

libyaml composes the node tree in C (with a cached scalar resolver) and one tight function builds the same
``LineDict``/``LineList`` values. Anything unusual (anchors or aliases anywhere in the text, merge keys,
explicit tags, non-scalar keys, deep nesting, very large files, a syntax error) returns None, and yamlio
reads the whole text with its general loader, so results, limits and messages are exactly yamlio's
(a property test checks the two agree).

``lazy=True`` (lint's reader) goes one step further: plain dicts and lists, and the node tree kept so
that :func:`locate_node` finds a position only for the few paths a finding points at (a third of the
building time is the positions).
"""

from __future__ import annotations

import operator
from typing import Any

import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from gpupool import _yamlgeneral as general
from gpupool.errors import InputError

_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_FAST_MAX_CHARS = 2_000_000  # below this a document cannot reach yamlio.MAX_EXPANDED_NODES without aliases
_RESOLVED: dict[str, str] = {}
_RESOLVED_MAX = 100_000


class _Fallback(Exception):
    """Something the fast path does not handle: let yamlio read the file."""


_CBase: Any = getattr(yaml, "CSafeLoader", None)


if _CBase is not None:
    # The implicit resolvers of PyYAML's Resolver (first character -> [(tag, regexp)]); no path resolvers.
    _IMPLICIT: dict = _CBase.yaml_implicit_resolvers
    _WILDCARD: list = list(_IMPLICIT.get(None, []))

    class _FastLoader(_CBase):  # type: ignore[misc,valid-type]
        """libyaml's composer with PyYAML's tag resolution inlined and memoised (the loader uses no path
        resolvers, so the result depends on the scalar alone)."""

        def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
            if kind is ScalarNode:
                if not implicit[0]:
                    return _STR
                return _RESOLVED.get(value) or _plain_tag(value)
            return _SEQ if kind is SequenceNode else _MAP

        # Path resolvers are never used: make the two calls libyaml's composer makes for every node C-level
        # no-ops (a builtin is not bound as a method: ``operator.is_(parent, index)``, ``int()``).
        descend_resolver = operator.is_
        ascend_resolver = int


def _plain_tag(value: str) -> str:
    """PyYAML's implicit tag of a plain scalar (memoised: the result depends on the text alone)."""
    tag = _STR
    for t, regexp in _IMPLICIT.get(value[0] if value else "", []) + _WILDCARD:
        if regexp.match(value):
            tag = t
            break
    if len(_RESOLVED) < _RESOLVED_MAX and len(value) < 128:
        _RESOLVED[value] = tag
    return tag


_K = yaml.constructor.SafeConstructor()
_BOOL = _K.bool_values


def _int(node: Any) -> int | str:
    v = node.value
    if v.isdigit() and (v[0] != "0" or v == "0"):
        return int(v)
    return general.construct_number(_K.construct_yaml_int, node)


_SCALARS = {
    "tag:yaml.org,2002:int": _int,
    "tag:yaml.org,2002:bool": lambda n: _BOOL[n.value.lower()],
    "tag:yaml.org,2002:null": lambda n: None,
    "tag:yaml.org,2002:float": lambda n: general.construct_number(_K.construct_yaml_float, n),
    # Kubernetes keeps timestamps as strings; "=" is a plain string too (as yamlio does).
    "tag:yaml.org,2002:timestamp": lambda n: n.value,
    "tag:yaml.org,2002:value": lambda n: n.value,
}
_new_dict = dict.__new__
_new_list = list.__new__
_LineDict = general.LineDict
_LineList = general.LineList
_Dup = general.DuplicateKey


def _tagged(node: Any) -> Any:
    """The value of a scalar node whose tag is not str (int, bool, null, float...); _Fallback for the tags
    only yamlio's general loader handles (merge, binary, custom)."""
    conv = _SCALARS.get(node.tag)
    if conv is None:
        raise _Fallback
    return conv(node)


def _build(node: Any, dups: list, depth: int) -> Any:
    cls = node.__class__
    if cls is MappingNode:
        if node.tag != _MAP or depth >= general.MAX_DEPTH:
            raise _Fallback
        d = _new_dict(_LineDict)
        m = node.start_mark
        d.line = m.line + 1
        d.col = m.column + 1
        kp = d.key_pos = {}
        firsts: dict | None = None  # first line of keys seen more than once (yamlio reports the first one)
        for k, v in node.value:
            if k.__class__ is not ScalarNode:
                raise _Fallback
            key = k.value if k.tag == _STR else _tagged(k)
            km = k.start_mark
            if key in d:
                if firsts is None:
                    firsts = {}
                first = firsts.setdefault(key, kp[key][0])
                dups.append(_Dup(str(key), km.line + 1, km.column + 1, first))
            if v.__class__ is ScalarNode and v.tag == _STR:
                d[key] = v.value
            else:
                d[key] = _build(v, dups, depth + 1)
            kp[key] = (km.line + 1, km.column + 1)
        return d
    if cls is SequenceNode:
        if node.tag != _SEQ or depth >= general.MAX_DEPTH:
            raise _Fallback
        out = _new_list(_LineList)
        m = node.start_mark
        out.line = m.line + 1
        out.col = m.column + 1
        ip = out.item_pos = []
        for item in node.value:
            if item.__class__ is ScalarNode and item.tag == _STR:
                out.append(item.value)
            else:
                out.append(_build(item, dups, depth + 1))
            im = item.start_mark
            ip.append((im.line + 1, im.column + 1))
        return out
    if cls is ScalarNode:
        return _scalar(node)
    raise _Fallback


class _Duplicate(Exception):
    """A duplicate key in a lazily built document: build it again with positions (yamlio reports those)."""


def _build_plain(node: Any, depth: int) -> Any:
    """:func:`_build` without positions: plain dicts and lists (for ``positions="lazy"``)."""
    cls = node.__class__
    if cls is MappingNode:
        if node.tag != _MAP or depth >= general.MAX_DEPTH:
            raise _Fallback
        d: dict = {}
        for k, v in node.value:
            if k.__class__ is not ScalarNode:
                raise _Fallback
            key = k.value if k.tag == _STR else _tagged(k)
            if key in d:
                raise _Duplicate
            if v.__class__ is ScalarNode and v.tag == _STR:
                d[key] = v.value
            else:
                d[key] = _build_plain(v, depth + 1)
        return d
    if cls is SequenceNode:
        if node.tag != _SEQ or depth >= general.MAX_DEPTH:
            raise _Fallback
        return [
            item.value
            if item.__class__ is ScalarNode and item.tag == _STR
            else _build_plain(item, depth + 1)
            for item in node.value
        ]
    if cls is ScalarNode:
        return _scalar(node)
    raise _Fallback


def _scalar(node: Any) -> Any:
    return node.value if node.tag == _STR else _tagged(node)


def locate_node(root: Any, path: tuple | list) -> tuple[int, int] | None:
    """What :func:`gpupool.yamlio.locate` answers for the data built from ``root`` (a node of a document this
    module built lazily): the position of the deepest key or item of ``path`` that exists."""
    best: tuple[int, int] | None = None
    node = root
    if node.__class__ is not ScalarNode:
        best = (node.start_mark.line + 1, node.start_mark.column + 1)
    for step in path:
        if node.__class__ is MappingNode:
            hit = None
            for k, v in node.value:  # the last of equal keys wins, as in the dict
                if _scalar(k) == step:
                    hit = (k, v)
            if hit is None:
                break
            key_node, node = hit
            best = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
        elif node.__class__ is SequenceNode and isinstance(step, int) and 0 <= step < len(node.value):
            node = node.value[step]
            best = (node.start_mark.line + 1, node.start_mark.column + 1)
        else:
            break
    return best


class _NodePositions:
    """Positions of a lazily built document, from its libyaml node tree."""

    __slots__ = ("node",)

    def __init__(self, node: Any) -> None:
        self.node = node

    def locate(self, path: tuple | list) -> tuple[int, int] | None:
        return locate_node(self.node, path)

    def positioned(self) -> Any:
        return _build(self.node, [], 0)


# ---- the C reader (gpupool._cyaml): libyaml events straight into dicts and lists --------------------------

try:
    from gpupool import _cyaml
except ImportError:  # not built (no compiler or no libyaml headers at install): the Python path does it all
    _cyaml = None

_UNSUPPORTED = object()
_c_locate = getattr(_cyaml, "locate", None)  # None: not built, or built before it had locate
_PLAIN: dict[str, Any] = {}  # plain scalar text -> its value (the C reader's memo)


def _plain_value(value: str) -> Any:
    """The value of a plain scalar, as yamlio constructs it (the C reader's callback on a memo miss)."""
    tag = _RESOLVED.get(value) or _plain_tag(value)
    if tag == _STR:
        return value
    conv = _SCALARS.get(tag)
    if conv is None:  # a merge key
        return _UNSUPPORTED
    return conv(ScalarNode(tag, value))


class _Lines:
    """A file's lines, split once, when a first position is asked for."""

    __slots__ = ("_lines", "path", "text")

    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.path = path
        self._lines: list[str] | None = None

    def chunk(self, first: int, last: int) -> str:
        """Lines ``first``..``last`` (0-based) after ``first`` empty lines: positions stay the file's."""
        if self._lines is None:
            self._lines = self.text.split("\n")
        end = "\n" if last + 1 < len(self._lines) else ""  # a last line without its newline stays so
        return "\n" * first + "\n".join(self._lines[first : last + 1]) + end


class _LinePositions:
    """Positions of a document the C reader built: its lines are read again by yamlio when first asked
    (the whole file, should the lines alone not read back as the document, e.g. cut inside a flow
    collection that starts on the next document's ``---`` line)."""

    __slots__ = ("data", "first", "index", "last", "lines")

    def __init__(self, lines: _Lines, index: int, first: int, last: int) -> None:
        self.lines = lines
        self.index = index
        self.first = first
        self.last = last
        self.data: Any = _UNSUPPORTED

    def _read(self) -> Any:
        try:
            docs = _with_positions(self.lines.chunk(self.first, self.last), self.lines.path)
            if docs:
                return docs[0].data
        except InputError:
            pass
        try:
            return _with_positions(self.lines.text, self.lines.path)[self.index].data
        except (InputError, IndexError):  # pragma: no cover - the C reader took only what yamlio reads
            return None

    def locate(self, path: tuple | list) -> tuple[int, int] | None:
        if self.data is _UNSUPPORTED and _c_locate is not None:
            # The lines' libyaml events walked in C, nothing built (a tenth of a re-read); what it declines
            # is read by yamlio.
            chunk = self.lines.chunk(self.first, self.last)
            got = _c_locate(chunk, tuple(path), _plain_value, _PLAIN, _UNSUPPORTED, _RESOLVED_MAX)
            if got is not _UNSUPPORTED:
                return got
        return general.locate(self.positioned(), path)

    def positioned(self) -> Any:
        if self.data is _UNSUPPORTED:
            self.data = self._read()
        return self.data


def _with_positions(text: str, path: str) -> list[general.Document]:
    """``text`` read again with every position, as ``yamlio.load_documents`` reads it: this path's eager
    build, else the general path."""
    docs = fast_documents(text, path)
    return docs if docs is not None else list(general.general_documents(text, path))


def _c_documents(text: str, path: str) -> list[general.Document] | None:
    try:
        limits = (general.MAX_DEPTH, _RESOLVED_MAX, general.MAX_EXPANDED_NODES)
        loaded = _cyaml.load(text, _plain_value, _PLAIN, _UNSUPPORTED, *limits)
    except Exception:  # e.g. text that is not valid UTF-8 (lone surrogates): the Python path reports it
        return None
    if loaded is None:
        return None
    lines = _Lines(text, path)
    return [
        general.Document(path, i, line, data, [], _LinePositions(lines, i, first, last))
        for i, (data, line, first, last) in enumerate(loaded)
    ]


def fast_documents(
    text: str, path: str, lazy: bool = False, native: bool = True
) -> list[general.Document] | None:
    """The documents of ``text`` as yamlio would load them, or None when the fast path does not apply.

    ``lazy``: the data as plain dicts and lists, positions found on demand
    (:meth:`gpupool.yamlio.Document.locate`): by the C reader where it is built and the text is plain
    (``native=False`` skips it), else from the kept node tree; a document with a duplicate key is built with
    positions.
    """
    if lazy and native and _cyaml is not None:
        # Any size (it counts nodes as yamlio's limit does), and "&&" in a script is fine: it declines
        # anchors and aliases itself.
        docs = _c_documents(text, path)
        if docs is not None:
            return docs
    if _CBase is None or "&" in text:
        return None
    loader = _FastLoader(text)
    docs: list[general.Document] = []
    try:
        index = 0
        while loader.check_node():
            node = loader.get_node()
            if node.end_mark.index - node.start_mark.index > _FAST_MAX_CHARS:
                raise _Fallback  # a document this long could pass yamlio's node limit: yamlio counts
            dups: list = []
            keep = None
            if lazy:
                try:
                    data = _build_plain(node, 0)
                    keep = _NodePositions(node)
                except _Duplicate:
                    data = _build(node, dups, 0)
            else:
                data = _build(node, dups, 0)
            docs.append(general.Document(path, index, node.start_mark.line + 1, data, dups, keep))
            index += 1
    except (_Fallback, yaml.YAMLError, RecursionError):
        return None
    finally:
        loader.dispose()
    return docs
