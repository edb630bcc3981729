"""Open a ``gpupool report`` page in a real browser: Debian's chromium, headless, driven by Playwright for
Python, with the network cut off (every request that is not the file itself is aborted, and host names
resolve nowhere). Used by tests/htmlpage/test_browser.py and by ``python tests/report_browser.py`` (which
writes the README's screenshot, docs/report.png).
"""

from __future__ import annotations

import shutil
import struct
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND",
]

_COLLECT = """() => Array.from(document.querySelectorAll('article.pool')).map(a => ({
  pool: a.dataset.pool,
  state: Array.from(a.classList).filter(c => c !== 'pool')[0],
  stages: Array.from(a.querySelectorAll('svg.chain g.node')).map(g => g.dataset.stage),
  edges: Array.from(a.querySelectorAll('svg.chain g.edge')).map(g => [g.dataset.edge, g.dataset.state]),
  width: a.querySelector('svg.chain').getBoundingClientRect().width,
}))"""

_OVERFLOW = """() => {
  const out = [];
  document.querySelectorAll('svg.chain g.node').forEach(g => {
    const box = g.querySelector('rect.box').getBoundingClientRect();
    g.querySelectorAll('text').forEach(t => {
      const r = t.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.width === 0) {
        out.push({pool: g.closest('article').dataset.pool, stage: g.dataset.stage, text: t.textContent,
                  width: Math.round(r.width), box: Math.round(box.width)});
      }
    });
  });
  return out;
}"""
"""Each text of a chain diagram's box that is wider than the box (or drawn outside it): none, when the
page's measuring and wrapping (htmlpage/svg.py) holds for the browser's real fonts."""


def chromium() -> str | None:
    """The Debian chromium binary, or None where it is not installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def playwright_missing() -> str | None:
    """Why the browser test cannot run here (None when it can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    if chromium() is None:
        return "Debian's chromium is not installed (apt-get install -y chromium; .ci/run does it)"
    return None


@dataclass
class Visit:
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)  # requests for anything but the page itself
    resources: list[str] = field(default_factory=list)  # what the page loaded (resource timing: files too)
    images: int = 0
    handlers: int = 0  # elements with an on* attribute in the live DOM
    pools: list[dict[str, Any]] = field(default_factory=list)
    title: str = ""
    scripts_ran: bool = False
    png: bytes = b""
    pdf: bytes = b""  # the page printed (A4 landscape, print CSS), when asked
    print_hidden: list[str] = field(default_factory=list)  # selectors print CSS hides
    page_height: int = 0  # the whole page's height in CSS pixels at the viewport's width
    overflow: list[dict[str, Any]] = field(default_factory=list)  # box texts wider than their box
    opened_by_link: bool | None = None  # following a rule link opened that rule's collapsed doc


def visit(page_file: Path, screenshot: Path | None = None, width: int = 1400, height: int = 1000,
          clip_height: int | None = None, full_page: bool = False, pdf: bool = False) -> Visit:
    """Load ``page_file`` offline, collect what went wrong, the chain diagrams' nodes and a screenshot."""
    from playwright.sync_api import sync_playwright

    out = Visit()
    url = page_file.resolve().as_uri()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=FLAGS)
        try:
            ctx = browser.new_context(viewport={"width": width, "height": height}, offline=True)

            def route(r: Any) -> None:
                if r.request.url == url:
                    r.continue_()
                else:
                    out.blocked.append(r.request.url)
                    r.abort()

            ctx.route("**/*", route)
            page = ctx.new_page()
            page.on("console", lambda m: out.console_errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: out.page_errors.append(str(e)))

            def dialog(d: Any) -> None:
                out.dialogs.append(d.message)
                d.dismiss()

            page.on("dialog", dialog)
            page.goto(url, wait_until="load")
            page.wait_for_timeout(200)
            out.title = page.title()
            out.pools = page.evaluate(_COLLECT)
            out.resources = page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")
            out.images = page.evaluate("() => document.images.length")
            out.handlers = page.evaluate(
                "() => Array.from(document.querySelectorAll('*'))"
                ".filter(e => Array.from(e.attributes).some(a => a.name.startsWith('on'))).length"
            )
            # page.js un-hides the severity filter: proof that the page's own (hash-allowed) script ran
            out.scripts_ran = page.evaluate("() => !document.querySelector('.filters').hidden")
            out.page_height = page.evaluate("() => document.documentElement.scrollHeight")
            out.overflow = page.evaluate(_OVERFLOW)
            clip = {"x": 0, "y": 0, "width": width, "height": clip_height} if clip_height else None
            out.png = page.screenshot(full_page=full_page or bool(clip_height), clip=clip, type="png")
            if screenshot is not None:
                screenshot.write_bytes(out.png)
            links = page.locator("a.rule[href^='#rule-']:visible")
            if links.count():  # a rule's doc is collapsed: its link opens it (no script needed)
                link = links.first
                target = link.get_attribute("href")
                closed = page.evaluate(f"() => !document.querySelector('{target}').closest('details').open")
                link.click()
                page.wait_for_timeout(100)
                out.opened_by_link = closed and page.evaluate(
                    f"() => document.querySelector('{target}').closest('details').open")
            if pdf:
                page.emulate_media(media="print")
                out.print_hidden = page.evaluate(
                    "() => ['.toc', '.filters'].filter(s => getComputedStyle(document.querySelector(s))"
                    ".display === 'none')"
                )
                out.pdf = page.pdf(format="A4", landscape=True, print_background=True)
        finally:
            browser.close()
    return out


def png_rows(png: bytes) -> tuple[int, int, int]:
    """(width, height, distinct scanlines) of a PNG: a blank page has one or two distinct scanlines."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w, h, depth, ctype = 8, b"", 0, 0, 8, 6
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos : pos + 8])
        data = png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", data[:10])
        elif kind == b"IDAT":
            idat += data
        pos += 12 + length
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(ctype, 4)
    raw = zlib.decompress(idat)
    stride = 1 + w * channels * depth // 8
    rows = {raw[i + 1 : i + stride] for i in range(0, len(raw), stride)}
    return w, h, len(rows)


def main(argv: list[str]) -> int:
    """Write docs/report.png: the report for the bundled examples, as the browser test renders it."""
    import subprocess
    import tempfile

    repo = Path(__file__).resolve().parents[1]
    why = playwright_missing()
    if why:
        print(f"cannot take the screenshot: {why}", file=sys.stderr)
        return 2
    target = Path(argv[0]) if argv else repo / "docs" / "report.png"
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        done = subprocess.run([sys.executable, "-m", "gpupool", "report", *EXAMPLE_ARGS, "--out", str(page),
                               "--fail-on", "none"], cwd=repo)
        if done.returncode not in (0, 1):  # 1: mistakes.yaml's spec errors (the page is written)
            return done.returncode
        v = visit(page, target, width=1360, height=900, clip_height=1850)
    w, h, distinct = png_rows(v.png)
    print(f"wrote {target} ({w}x{h}, {len(v.png) // 1024} KiB, {distinct} distinct rows)")
    return 0


EXAMPLE_ARGS = [
    "examples/t4-driver-only.yaml",
    "examples/a100-mig-mixed.yaml",
    "examples/t4-time-sliced-spot.yaml",
    "examples/h100-gpu-operator.yaml",
    "examples/mistakes.yaml",
    "examples/workloads",
]
"""The bundled examples, as the README's report section runs them."""


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
