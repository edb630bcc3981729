"""``gpupool report``: one self-contained HTML page — the GPU chain per pool, capacity and cost, findings,
Pending pods and (with the current state) the changes and their runbook.

Not to be confused with :mod:`gpupool.report`, which holds the machine and terminal *output formats*
(text, json, sarif, junit) every command shares. This package makes a page for people::

    from gpupool.htmlpage.gather import gather
    from gpupool.htmlpage.model import build
    from gpupool.htmlpage.render import render
    html = render(build(gather(["pools.yaml", "workloads.yaml"])))

Modules: :mod:`.gather` (run check, lint, simulate, diff on the inputs), :mod:`.model` (results → plain
data), :mod:`.chain` (a pool's chain stages, which rule concerns which stage, the diagram), :mod:`.svg`
(shape primitives as data), :mod:`.facts` (data/page.yaml), :mod:`.render` (Jinja2 templates in
``templates/``, autoescape on, Content-Security-Policy). Jinja2 is imported only here.
"""

from __future__ import annotations
