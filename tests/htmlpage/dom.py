"""A small element tree from the stdlib HTML parser, enough to check the report page's structure."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"meta", "br", "input", "link", "img", "hr", "wbr", "source", "col", "area", "base", "embed"}


@dataclass
class El:
    tag: str
    attrs: dict[str, str]
    children: list[El | str] = field(default_factory=list)
    parent: El | None = None

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def iter(self) -> Iterator[El]:
        yield self
        for c in self.children:
            if isinstance(c, El):
                yield from c.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[El]:
        out = []
        for e in self.iter():
            if tag is not None and e.tag != tag:
                continue
            if cls is not None and not set(cls.split()) <= e.classes:
                continue
            if any(e.attrs.get(k.replace("_", "-")) != v for k, v in attrs.items()):
                continue
            out.append(e)
        return out

    def find(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> El:
        found = self.find_all(tag, cls, **attrs)
        assert found, f"no <{tag} class={cls} {attrs}>"
        return found[0]

    @property
    def text(self) -> str:
        parts: list[str] = []
        for c in self.children:
            parts.append(c if isinstance(c, str) else c.text)
        return "".join(parts)


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = El("#root", {})
        self.cur = self.root
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = El(tag, {k: v or "" for k, v in attrs}, parent=self.cur)
        self.cur.children.append(el)
        if tag not in VOID:
            self.cur = el

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.cur.children.append(El(tag, {k: v or "" for k, v in attrs}, parent=self.cur))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if self.cur.tag != tag:
            self.errors.append(f"</{tag}> closes <{self.cur.tag}>")
            node = self.cur
            while node is not None and node.tag != tag:
                node = node.parent
            if node is None:
                return
            self.cur = node
        self.cur = self.cur.parent or self.root

    def handle_data(self, data: str) -> None:
        self.cur.children.append(data)


def parse(html: str) -> tuple[El, list[str]]:
    """The tree and the nesting errors (a well-formed page has none)."""
    b = _Builder()
    b.feed(html)
    b.close()
    return b.root, b.errors
