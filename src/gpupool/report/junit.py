"""Findings as JUnit XML (one test suite per file, one test case per object), for CI dashboards.

An object with error findings is a ``<failure>`` (one per error, ``type`` = rule ID); a skipped object
(no schema) is ``<skipped>``; warnings and notices go to the test case's ``<system-out>``. Files or documents
that could not be parsed are ``<error>``. Objects without findings are passing test cases, so the counts
match the text summary.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from gpupool.findings import Finding, Severity, sort_key

_BAD_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    return _BAD_XML.sub("?", text)


def _line(f: Finding) -> str:
    where = f.location()
    text = (
        f"{where}: {f.severity.value} {f.rule} {f.message}"
        if where
        else f"{f.severity.value} {f.rule} {f.message}"
    )
    if f.fix:
        text += f"\n    fix: {f.fix}"
    return _clean(text)


def _is_file_level(obj: str) -> bool:
    return obj == "file" or obj.startswith("document at line")


def to_junit(
    findings: Iterable[Finding], objects: Iterable[tuple[str, str, str]], name: str = "gpupool lint"
) -> str:
    """``objects``: (path, object, status) for every object seen (``LintResult.objects``)."""
    by_obj: dict[tuple[str, str], list[Finding]] = defaultdict(list)
    for f in sorted(findings, key=sort_key):
        by_obj[(f.path or "", f.object or "")].append(f)
    cases: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for path, obj, status in objects:
        cases[path].append((obj, status))
    known = {(path, "" if _is_file_level(obj) else obj) for path, objs in cases.items() for obj, _ in objs}
    for path, obj in list(by_obj):
        if (path, obj) not in known:  # findings on no recorded object (e.g. duplicates in a List wrapper)
            worst = "error" if any(f.severity is Severity.ERROR for f in by_obj[(path, obj)]) else "valid"
            cases[path].append((obj or "file", worst))

    root = ET.Element("testsuites", name=name)
    totals: dict[str, int] = defaultdict(int)
    for path in sorted(cases):
        suite = ET.SubElement(root, "testsuite", name=_clean(path))
        counts: dict[str, int] = defaultdict(int)
        for obj, status in cases[path]:
            case = ET.SubElement(suite, "testcase", name=_clean(obj), classname=_clean(path))
            found = by_obj.pop((path, "" if _is_file_level(obj) else obj), [])
            counts["tests"] += 1
            errors = [f for f in found if f.severity is Severity.ERROR]
            others = [f for f in found if f.severity is not Severity.ERROR]
            if status == "error":
                counts["errors"] += 1
                if not errors:
                    ET.SubElement(case, "error", message="could not be linted", type="error")
                for f in errors:
                    el = ET.SubElement(case, "error", message=_clean(f.message[:500]), type=f.rule)
                    el.text = _line(f)
            elif errors:
                counts["failures"] += 1
                for f in errors:
                    el = ET.SubElement(case, "failure", message=_clean(f.message[:500]), type=f.rule)
                    el.text = _line(f)
            elif status == "skipped":
                counts["skipped"] += 1
                note = others[0].message if others else "skipped"
                ET.SubElement(case, "skipped", message=_clean(note[:500]))
            if others:
                out = ET.SubElement(case, "system-out")
                out.text = "\n".join(_line(f) for f in others)
        for k in ("tests", "failures", "errors", "skipped"):
            suite.set(k, str(counts[k]))
            totals[k] += counts[k]
    for k in ("tests", "failures", "errors", "skipped"):
        root.set(k, str(totals[k]))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def dumps(findings: Iterable[Finding], objects: Iterable[tuple[str, str, str]], **kw: Any) -> str:
    return to_junit(findings, objects, **kw)
