"""gpupool lint against a real kube-apiserver's verdicts (tests/data/oracle/apiserver_validation, a v1.36
server under server-side dry run with strict field validation; its README says how they were recorded).

For every object: gpupool rejects it (an error finding) exactly when the server did. For every 422 Invalid
answer: the set of fields gpupool's errors name equals the set of the server's causes' fields.

One kind of answer depends on the cluster, not on the object, and is not judged offline: the Priority
admission plugin refuses a Pod whose priorityClassName names a PriorityClass the cluster lacks (403); the
recording's cluster had only the system classes.
"""

from __future__ import annotations

import collections
import json
from functools import cache
from pathlib import Path

import pytest

from gpupool.lint.engine import LintOptions, lint_paths

DATA = Path(__file__).parents[2] / "data" / "oracle" / "apiserver_validation"
VERDICTS = json.loads((DATA / "verdicts.json").read_text())
CLUSTER_STATE = {"priorityclassname-nonexistent-pod"}


@cache
def _errors() -> dict[str, list]:
    result = lint_paths([str(DATA / "objects")], options=LintOptions(kubernetes_version="1.36", jobs=1))
    out: dict[str, list] = collections.defaultdict(list)
    for f in result.findings:
        if f.severity.value == "error":
            out[Path(f.path).name].append(f)
    return out


def _field(f) -> str:
    if f.extra and "field" in f.extra:
        return f.extra["field"]
    return f.message.split(": ", 1)[0]  # GP203, GP301-GP303 begin with the server's field


def test_every_verdict_equals_the_servers() -> None:
    errors = _errors()
    wrong = []
    for v in VERDICTS:
        if v["mutation"] in CLUSTER_STATE:
            continue
        rejected = v["status"] != 201
        if rejected != bool(errors.get(Path(v["file"]).name)):
            wrong.append((v["file"], v["mutation"], v["status"]))
    assert not wrong, wrong
    assert sum(1 for v in VERDICTS if v["mutation"] not in CLUSTER_STATE) >= 490


def test_rejections_name_the_servers_fields() -> None:
    errors = _errors()
    wrong = []
    n = 0
    for v in VERDICTS:
        if v["status"] != 422:
            continue
        n += 1
        want = {c["field"] for c in v["causes"]}
        got = {_field(f) for f in errors.get(Path(v["file"]).name, [])}
        if want != got:
            wrong.append((v["file"], v["mutation"], sorted(want), sorted(got)))
    assert not wrong, wrong
    assert n == 331


@pytest.mark.parametrize(
    "v", [v for v in VERDICTS if v["mutation"] in CLUSTER_STATE], ids=lambda v: v["file"]
)
def test_cluster_state_answers_are_pods_naming_a_missing_class(v) -> None:
    text = (DATA / v["file"]).read_text()
    assert v["kind"] == "Pod" and v["status"] == 403 and "priorityClassName:" in text
    assert "no PriorityClass with name" in v["message"]
