"""Output formats: versioned JSON, SARIF 2.1.0 (validated against the OASIS schema), JUnit XML, text."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from support import DATA, EXAMPLES, run_cli, sarif_schema

NOTES = DATA / "lint" / "design-notes"
FILES = [str(NOTES / n) for n in ("nvidia-device-plugin-ds.yaml", "gpu-test.yaml", "gpu-test-bad.yaml")]
POOL = str(EXAMPLES / "t4-driver-only.yaml")


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> list[str]:
    """Errors, warnings, notices, a syntax error, a binary file and stdin-like names."""
    d = tmp_path_factory.mktemp("mixed")
    (d / "broken.yaml").write_text("a: [\n")
    (d / "bin.yaml").write_bytes(b"\x00\x01")
    (d / "ws.yaml").write_text("apiVersion: kaito.sh/v1beta1\nkind: Workspace\nmetadata: {name: w}\n")
    (d / "dir with space").mkdir()
    (d / "dir with space" / "p.yaml").write_text(Path(FILES[2]).read_text())
    return [*FILES, str(d)]


def test_json(mixed) -> None:
    r = run_cli("lint", "--no-config", "--pool", POOL, *mixed, "-o", "json")
    assert r.exit_code == 2  # a file that does not parse is unusable input (reported, and exit 2)
    out = json.loads(r.stdout)
    assert out["version"] == 1 and set(out) == {"version", "findings", "objects", "summary"}
    objs = out["objects"]
    keys = {"path", "line", "kind", "name", "namespace", "status", "findings"}
    assert objs and all(set(o) == keys for o in objs)
    assert {o["status"] for o in objs} <= {"valid", "invalid", "skipped", "error"}
    assert sum(len(o["findings"]) for o in objs) == len(out["findings"])
    f = out["findings"][0]
    assert set(f) >= {"rule", "severity", "message", "path", "line", "column", "object", "fix"}
    s = out["summary"]
    assert s["resources"] == s["valid"] + s["invalid"] + s["errors"] + s["skipped"]
    assert s["findings"]["error"] == sum(1 for f in out["findings"] if f["severity"] == "error")


def test_sarif_is_valid_sarif_2_1_0(mixed) -> None:
    r = run_cli("lint", "--no-config", "--pool", POOL, *mixed, "-o", "sarif")
    assert r.exit_code == 2  # a file that does not parse is unusable input (reported, and exit 2)
    doc = json.loads(r.stdout)
    schema = sarif_schema()
    jsonschema.validators.validator_for(schema)(schema).validate(doc)
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [x["id"] for x in rules] == sorted(x["id"] for x in rules)
    results = run["results"]
    assert results and all(rules[x["ruleIndex"]]["id"] == x["ruleId"] for x in results)
    typo = next(
        x
        for x in results
        if x["ruleId"] == "GP201"
        and x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("gpu-test-bad.yaml")
    )
    loc = typo["locations"][0]["physicalLocation"]
    assert loc["region"] == {"startLine": 18, "startColumn": 5}
    assert loc["artifactLocation"]["uri"].startswith("file:///")
    assert typo["locations"][0]["logicalLocations"] == [
        {"fullyQualifiedName": "Pod gpu-test-bad", "kind": "resource"}
    ]
    assert {x["level"] for x in results} == {"error", "warning", "note"}
    # No empty region objects anywhere (kube-score's bug that breaks GitHub and GitLab).
    for x in results:
        for loc in x.get("locations", []):
            assert loc["physicalLocation"].get("region", {"startLine": 1}) != {}
    spaced = [x for x in results if "dir%20with%20space" in json.dumps(x)]
    assert spaced


def test_sarif_schema_rejects_broken_sarif() -> None:
    # The shared schema is the real one: it refuses what it must.
    schema = sarif_schema()
    bad = {
        "version": "2.1.0",
        "runs": [
            {"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}
        ],
    }
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validators.validator_for(schema)(schema).validate(bad)


def test_junit(mixed) -> None:
    r = run_cli("lint", "--no-config", "--pool", POOL, *mixed, "-o", "junit")
    assert r.exit_code == 2  # a file that does not parse is unusable input (reported, and exit 2)
    root = ET.fromstring(r.stdout)
    assert root.tag == "testsuites"
    js = json.loads(run_cli("lint", "--no-config", "--pool", POOL, *mixed, "-o", "json").stdout)["summary"]
    assert int(root.get("tests")) == js["resources"]
    assert int(root.get("failures")) == js["invalid"]
    assert int(root.get("errors")) == js["errors"]
    assert int(root.get("skipped")) == js["skipped"]
    failure = root.find(".//testcase[@name='Pod gpu-test-bad']/failure")
    assert failure is not None and failure.get("type") == "GP201"


def test_text_plain_when_piped(mixed) -> None:
    r = run_cli("lint", "--no-config", "--pool", POOL, *mixed)
    assert "\x1b[" not in r.stdout
    lines = r.stdout.splitlines()
    assert lines[-1].startswith("Summary: ")
    assert any(ln.startswith("    fix: ") for ln in lines)
    # Grouped per file: a blank line between files.
    assert "" in lines
