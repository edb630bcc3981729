"""The page's model → one HTML file (Jinja2, autoescape on, strict undefined).

CSS and JavaScript are package files inlined into the page; the page's Content-Security-Policy allows
exactly those two blocks (by their SHA-256) and nothing else: no other script, no network, no external
font, image or frame. A string from a user file that escaped escaping still could not run.
"""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from importlib import resources
from typing import Any

TEMPLATES = "templates"


@cache
def environment():  # type: ignore[no-untyped-def]
    from jinja2 import Environment, PackageLoader, StrictUndefined

    from gpupool.htmlpage.words import plural

    env = Environment(
        loader=PackageLoader("gpupool.htmlpage", TEMPLATES),
        autoescape=True,  # every template, whatever its name
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["plural"] = plural  # {{ n|plural("pod") }}: "1 pod", "9 pods"
    return env


@cache
def asset(name: str) -> str:
    return resources.files("gpupool.htmlpage").joinpath(TEMPLATES, name).read_text(encoding="utf-8")


def sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def policy(css: str, js: str) -> str:
    """The Content-Security-Policy: only the page's own style and script blocks."""
    return (
        f"default-src 'none'; style-src '{sha256(css)}'; script-src '{sha256(js)}'; "
        "base-uri 'none'; form-action 'none'"
    )


def render(page: dict[str, Any]) -> str:
    from markupsafe import Markup

    css, js = asset("page.css"), asset("page.js")
    template = environment().get_template("page.html.j2")
    return template.render(page=page, css=Markup(css), js=Markup(js), csp=policy(css, js))
