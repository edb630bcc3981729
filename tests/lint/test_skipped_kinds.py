"""GP208: custom resources without a schema are reported once per kind (apiVersion + kind) with the count, at
the first object, as kubeconform counts skipped resources; per-object results and the summary stay per object.
"""

from __future__ import annotations

import json
from pathlib import Path

from gpupool.lint import engine
from gpupool.lint.engine import LintOptions, lint_paths
from support import run_cli

WS = "apiVersion: kaito.sh/v1beta1\nkind: Workspace\nmetadata: {{name: w{i}{extra}}}\n"
RAY = "apiVersion: ray.io/v1\nkind: RayCluster\nmetadata: {{name: r{i}}}\nspec: {{}}\n"
KUSTOMIZE = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [a.yaml]\n"
IGNORED = ", annotations: {gpupool.io/ignore: GP208 CRD checked elsewhere}"


def _write(tmp_path: Path, first_ignored: bool = False) -> list[str]:
    a = tmp_path / "a.yaml"
    a.write_text(
        "---\n".join(
            [
                WS.format(i=0, extra=IGNORED if first_ignored else ""),
                RAY.format(i=0),
                WS.format(i=1, extra=""),
            ]
        )
    )
    b = tmp_path / "b.yaml"
    b.write_text("---\n".join([WS.format(i=2, extra=""), RAY.format(i=1)]))
    k = tmp_path / "kustomization.yaml"
    k.write_text(KUSTOMIZE)
    return [str(a), str(b), str(k)]


def test_one_notice_per_kind_with_the_count_at_the_first_object(tmp_path: Path) -> None:
    paths = _write(tmp_path)
    result = lint_paths(paths, options=LintOptions(jobs=1))
    got = [
        (f.rule, f.severity.value, f.path, f.line, f.object, f.extra.get("skipped")) for f in result.findings
    ]
    assert got == [
        ("GP208", "info", paths[0], 1, "Workspace w0", 3),
        ("GP208", "info", paths[0], 5, "RayCluster r0", 2),
        ("GP208", "info", paths[2], 1, "Kustomization <unnamed>", None),  # each build file keeps its own
    ]
    ws = result.findings[0]
    assert ws.message == (
        "no schema for Workspace kaito.sh/v1beta1 (a custom resource): 3 objects skipped, this is the first "
        "(pass its CRD with --crd)"
    )
    # Per object: each skipped object keeps its status and its own notice; the summary counts objects.
    per_object = [(r.name, r.status, [f.rule for f in r.findings]) for r in result.results]
    assert per_object == [
        ("w0", "skipped", ["GP208"]),
        ("r0", "skipped", ["GP208"]),
        ("w1", "skipped", ["GP208"]),
        ("w2", "skipped", ["GP208"]),
        ("r1", "skipped", ["GP208"]),
        ("", "skipped", ["GP208"]),
    ]
    assert result.summary["skipped"] == 6 and result.summary["findings"]["info"] == 3


def test_a_single_object_keeps_the_plain_notice(tmp_path: Path) -> None:
    f = tmp_path / "ws.yaml"
    f.write_text(WS.format(i=0, extra=""))
    [finding] = lint_paths([str(f)], options=LintOptions(jobs=1)).findings
    assert finding.message.endswith("(a custom resource): skipped (pass its CRD with --crd)")
    assert "skipped" not in finding.extra


def test_an_ignored_object_is_not_counted(tmp_path: Path) -> None:
    paths = _write(tmp_path, first_ignored=True)
    result = lint_paths(paths, options=LintOptions(jobs=1))
    ws = [f for f in result.findings if f.object and f.object.startswith("Workspace")]
    assert [(f.object, f.line, f.extra.get("skipped")) for f in ws] == [("Workspace w1", 10, 2)]
    assert result.summary["suppressed"] == 1


def test_require_schemas_keeps_an_error_per_object(tmp_path: Path) -> None:
    paths = _write(tmp_path)
    result = lint_paths(paths, options=LintOptions(jobs=1, reject_unknown=True))
    gp208 = [f for f in result.findings if f.rule == "GP208"]
    assert len(gp208) == 6 and all(f.severity.value == "error" for f in gp208)
    assert result.exit_code == 1


def test_cli_text_json_and_parallel_workers_agree(tmp_path: Path, monkeypatch) -> None:
    paths = _write(tmp_path)
    r = run_cli("lint", "--no-config", *paths)
    assert r.exit_code == 0
    assert r.stdout.count("info GP208") == 3 and "3 objects skipped, this is the first" in r.stdout
    assert "Skipped: 6" in r.stdout
    out = json.loads(run_cli("lint", "--no-config", "-o", "json", *paths).stdout)
    assert [f.get("skipped") for f in out["findings"]] == [3, 2, None]
    assert [o["status"] for o in out["objects"]] == ["skipped"] * 6
    # Workers (each file in its own process) report per object; the run collapses them the same way.
    monkeypatch.setattr(engine, "PARALLEL_MIN_BYTES", 0)
    parallel = lint_paths(paths, options=LintOptions(jobs=2))
    assert parallel.findings == lint_paths(paths, options=LintOptions(jobs=1)).findings


def test_junit_keeps_a_notice_per_skipped_object(tmp_path: Path) -> None:
    paths = _write(tmp_path)
    out = run_cli("lint", "--no-config", "-o", "junit", *paths).stdout
    # One test case per object, each skipped with its own reason.
    assert out.count("<skipped ") == 6
    assert out.count('message="no schema for Workspace kaito.sh/v1beta1 (a custom resource): skipped') == 3
