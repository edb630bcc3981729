"""A rule's documentation (the text ``gpupool explain`` prints) as blocks the report page sets as prose,
and as Markdown (``docs/rules/GPxxx.md``, SARIF ``help.markdown``).

The docstrings are plain text that reads as Markdown: paragraphs split by blank lines, a section name either
alone on a line with the text indented under it (``Why`` / ``  The API server ...``) or leading its
paragraph (``Why: ...``), ``Label:`` alone on a line before an indented example, ``* `` lists and
`` `code` `` inline (single backticks). Nothing else is interpreted; every block keeps its words, and the
template escapes them.
"""

from __future__ import annotations

import re
from typing import Any

_LEAD = re.compile(r"^([A-Z][A-Za-z ,/()-]{1,30}):\s+(\S.*)$", re.S)


def parts(text: str) -> list[tuple[bool, str]]:
    """Text split into (is_code, piece) at `` `code` `` spans."""
    pieces = text.split("`")
    if len(pieces) % 2 == 0:  # an odd number of markers: leave the text as it is
        return [(False, text)]
    return [(i % 2 == 1, p) for i, p in enumerate(pieces) if p]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def blocks(body: str) -> list[dict[str, Any]]:
    """``body`` (the doc after its title line) as blocks: meta, heading, paragraph (with an optional bold lead
    label) or pre (examples and indented listings, kept verbatim)."""
    out: list[dict[str, Any]] = []
    chunks = re.split(r"\n[ \t]*\n", body.strip("\n"))
    for n, chunk in enumerate(chunks):
        lines = chunk.split("\n")
        if n == 0 and lines[0].startswith("Severity:"):
            out.append({"kind": "meta", "text": " ".join(chunk.split())})
            continue
        if all(_indent(x) >= 4 or not x.strip() for x in lines):
            base = min(_indent(x) for x in lines if x.strip())
            out.append({"kind": "pre", "text": "\n".join(x[base:] for x in lines)})
            continue
        head = lines[0]
        if head.rstrip().endswith(":") and len(lines) == 1 and _indent(head) == 0:  # "Failing example:"
            text = head.strip().rstrip(":") + ":"
            out.append({"kind": "h", "text": text.replace("`", ""), "parts": parts(text)})
            continue
        indented_under = len(lines) > 1 and all(_indent(x) >= 2 for x in lines[1:] if x.strip())
        if _indent(head) == 0 and indented_under and len(head) <= 40 and not head.rstrip().endswith("."):
            out.append({"kind": "h", "text": head.strip().replace("`", ""), "parts": parts(head.strip())})
            lines = lines[1:]
        if lines and all(x.lstrip().startswith(("* ", "- ")) or _indent(x) > _indent(lines[0])
                         for x in lines if x.strip()) and lines[0].lstrip().startswith(("* ", "- ")):
            items: list[list[str]] = []
            for x in lines:
                if x.lstrip().startswith(("* ", "- ")):
                    items.append([x.lstrip()[2:]])
                elif x.strip():
                    items[-1].append(x.strip())
            out.append({"kind": "ul", "items": [parts(" ".join(" ".join(i).split())) for i in items]})
            continue
        text = " ".join(" ".join(lines).split())
        lead = None
        m = _LEAD.match(text)
        if m and len(m.group(1)) <= 30 and not (out and out[-1]["kind"] == "h"):  # under a heading: prose
            lead, text = m.group(1), m.group(2)
        out.append({"kind": "p", "lead": lead, "parts": parts(text)})
    return out


def plain(blocks_: list[dict[str, Any]]) -> str:
    """The words of the blocks (tests compare them with ``explain``'s)."""
    words: list[str] = []
    for b in blocks_:
        if b["kind"] == "p":
            if b["lead"]:
                words.append(b["lead"] + ":")
            words.append("".join(t for _, t in b["parts"]))
        elif b["kind"] == "ul":
            words += ["* " + "".join(t for _, t in item) for item in b["items"]]
        else:
            words.append(b["text"])
    return " ".join(" ".join(words).replace("`", "").split())


def md_text(items: list[tuple[bool, str]]) -> str:
    """Parts back as Markdown: code in backticks, ``<`` outside code escaped (GitHub would read a tag)."""
    out = []
    for code, t in items:
        if code:
            out.append(f"`{t}`")
        else:
            out.append(t.replace("&", "&amp;").replace("<", "&lt;"))
    return "".join(out)


def markdown(blocks_: list[dict[str, Any]]) -> str:
    """The blocks as Markdown (GitHub flavour): sections as ``###`` headings, examples fenced, a
    paragraph per line (a wrapped line could start a list or a heading by accident)."""
    out: list[str] = []
    for b in blocks_:
        kind = b["kind"]
        if kind == "meta":
            out.append(b["text"])
        elif kind == "h":
            out.append("### " + md_text(b["parts"]).rstrip(":"))
        elif kind == "pre":
            fence = "~~~" if "```" in b["text"] else "```"
            out.append(f"{fence}\n{b['text'].rstrip()}\n{fence}")
        elif kind == "ul":
            out.append("\n".join("- " + md_text(item) for item in b["items"]))
        else:
            lead = f"**{b['lead']}:** " if b["lead"] else ""
            out.append(lead + md_text(b["parts"]))
    return "\n\n".join(out) + "\n"
