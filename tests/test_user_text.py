"""What users read cites only what they can open (issue 21, item 5): no internal notes or design documents,
no Sphinx markup; rule docs are Markdown, docs/rules is current, SARIF rules carry the whole help text.

"User-facing text" here: rule docstrings and SUMMARYs, every string literal in src/gpupool that is not a
docstring (messages, fixes, help texts, notes), the strings of the data files (sources, reasons, notes), the
page templates, README.md, docs/rules, every command's --help and the explain topics.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
import yaml

from gpupool.rules import all_rules
from support import EXAMPLES, REPO, run_cli

SRC = REPO / "src" / "gpupool"
DOCS = REPO / "docs" / "rules"

# Internal references: the knowledge base's file names and words, the design notes, section signs.
INTERNAL = re.compile(
    r"aks-gpu-facts|scheduling-and-diagnosis|validators-landscape|design[ -]notes?\b|design doc|§"
    r"|knowledge[ -]base|our notes|\.\./shared|shared/knowledge|shared/design"
    r"|(?<![\w/#-])[Ii]ssue \d+\b",  # our own issue tracker (a public one is owner/repo#N)
    re.I,
)
SPHINX = re.compile(r":(?:func|class|mod|meth|attr|data|obj|ref|doc|exc|const|py:\w+):`")


def _problems(text: str, *, markup: bool = True) -> list[str]:
    found = [m.group(0) for m in INTERNAL.finditer(text)] + [m.group(0) for m in SPHINX.finditer(text)]
    if markup and "``" in text:
        found.append("``")
    return found


def _docstring_nodes(tree: ast.AST) -> set[int]:
    """Docstrings and bare string statements (attribute docs): developer text, not shown to users."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            ids.add(id(node.value))
    return ids


def _is_rule_module(path: Path) -> bool:
    return path.parent.name == "rules" and path.name.startswith("gp")


def test_rule_docs_and_summaries_cite_only_public_sources():
    bad = {}
    for r in all_rules().values():
        found = _problems(r.doc) + _problems(r.summary)
        if found:
            bad[r.id] = found
    assert not bad, bad


def test_messages_fixes_and_help_texts_cite_only_public_sources():
    """Every string literal of the package that is not a docstring: the messages, fixes and notes findings
    carry, option and command help, error hints."""
    bad = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstring_nodes(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                for p in _problems(node.value, markup=False):
                    bad.append(f"{path.relative_to(REPO)}:{node.lineno}: {p}")
    assert not bad, bad


def _strings(value: object):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_data_files_cite_only_public_sources():
    """The data files' strings (sources, reasons, notes: diff prints a field's source, catalog its rows')."""
    files = sorted(SRC.rglob("data/*.yaml")) + sorted(SRC.rglob("data/*.json"))
    assert len(files) > 10
    bad = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
        for s in _strings(data):
            for p in _problems(s, markup=False):
                bad.append(f"{path.relative_to(REPO)}: {p}: {s[:80]!r}")
    assert not bad, bad


def test_readme_templates_and_rule_docs_cite_only_public_sources():
    templates = sorted((SRC / "htmlpage" / "templates").iterdir())
    files = [REPO / "README.md", *sorted(DOCS.glob("*.md")), *templates]
    bad = [f"{p.relative_to(REPO)}: {x}" for p in files
           for x in _problems(p.read_text(encoding="utf-8"), markup=False)]
    assert not bad, bad


def _commands() -> list[str]:
    out = run_cli("--help").stdout
    section = out.split("Commands:", 1)[1]
    return [line.split()[0] for line in section.splitlines() if line.startswith("  ") and line.split()]


def test_help_texts_and_explain_topics_cite_only_public_sources():
    commands = _commands()
    assert {"check", "lint", "doctor", "explain", "rules", "preflight"} <= set(commands)
    texts = {"--help": run_cli("--help").stdout}
    for c in commands:
        texts[f"{c} --help"] = run_cli(c, "--help").stdout
    for topic in ("severity", "kubernetes-version"):
        texts[f"explain {topic}"] = run_cli("explain", topic).stdout
    bad = {k: _problems(v) for k, v in texts.items() if _problems(v)}
    assert not bad, bad


@pytest.mark.parametrize("rid", sorted(all_rules()))
def test_explain_prints_markdown_and_names_the_family(rid):
    """No Sphinx roles or double backticks; the family by its name and ID range (not a Python package)."""
    out = run_cli("explain", rid).stdout
    assert not _problems(out), _problems(out)
    family = re.search(r"Family: (\S+) \((GP\dxx)\)", out)
    assert family, out.splitlines()[:2]
    assert family.group(1) in {"design", "lint", "diff", "simulate", "doctor", "preflight", "nodepool"}
    assert family.group(2) == rid[:3] + "xx"
    assert "gpupool." not in out.splitlines()[1]


def test_explain_gp680_reads_as_markdown():
    out = run_cli("explain", "GP680").stdout
    assert "`gpupool.design.node.advertised`" in out and ":func:" not in out
    assert "Family: doctor (GP6xx)" in out


def test_docs_rules_are_current():
    """docs/rules is generated from the docstrings (`gpupool rules --write-docs docs/rules`); this fails when
    a docstring changed and the docs were not regenerated (run that command and commit the result)."""
    from gpupool.ruledocs import docs_files

    want = docs_files()
    assert len(want) == len(all_rules()) + 1
    have = {p.name: p.read_text(encoding="utf-8") for p in DOCS.glob("*.md")}
    stale = sorted(n for n in want if have.get(n) != want[n])
    extra = sorted(set(have) - set(want))
    assert not stale and not extra, (
        f"docs/rules is not current (stale: {stale[:10]}, not a rule: {extra}); "
        "run: gpupool rules --write-docs docs/rules"
    )


def test_write_docs_writes_every_rule_and_removes_stale_pages(tmp_path):
    (tmp_path / "GP999.md").write_text("gone\n")
    r = run_cli("rules", "--write-docs", str(tmp_path))
    assert r.exit_code == 0, r.stderr
    assert not (tmp_path / "GP999.md").exists()
    assert sorted(p.stem for p in tmp_path.glob("GP*.md")) == sorted(all_rules())
    index = (tmp_path / "README.md").read_text()
    assert all(f"[{rid}]({rid}.md)" in index for rid in all_rules())
    page = (tmp_path / "GP305.md").read_text()
    assert page.startswith("<!-- generated by") and "\n# GP305 gpu-taint-not-tolerated:" in page
    assert "### Failing example" in page and "\n```\n" in page  # examples fenced
    again = run_cli("rules", "--write-docs", str(tmp_path))
    assert "0 written or changed, 0 removed" in again.stdout


def test_sarif_rules_carry_the_full_help_text():
    r = run_cli("check", str(EXAMPLES / "mistakes.yaml"), "-o", "sarif")
    if r.exit_code == 2 and "sarif" in r.stderr:  # a command without SARIF yet: lint has it
        r = run_cli("lint", "--no-config", "--pool", str(EXAMPLES / "mistakes.yaml"),
                    str(EXAMPLES / "workloads"), "-o", "sarif")
    sarif = json.loads(r.stdout)
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert rules
    for d in rules:
        explain = run_cli("explain", d["id"]).stdout
        assert d["help"]["text"] == explain
        md = d["help"]["markdown"]
        assert md.startswith(f"**{d['id']} ") and "| Severity | Family |" in md
        assert not _problems(md, markup=False) and ":func:" not in md, d["id"]


def test_no_message_counts_with_s_in_parentheses() -> None:
    """Counts agree with their nouns ("1 node", "2 nodes", findings.plural), never "node(s)" — except where
    gpupool quotes kube-scheduler's own words in backticks ("`1 node(s) had untolerated taint(s)`")."""
    import io
    import re
    import tokenize

    offenders = []
    for path in sorted((REPO / "src" / "gpupool").rglob("*.py")):
        for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
            if tok.type != tokenize.STRING:
                continue
            text = re.sub(r"`[^`]*`", "", tok.string)
            if tok.string.startswith('"""'):  # a docstring's indented examples quote real output
                text = re.sub(r"(?m)^ {4,}.*$", "", text)
            for m in re.finditer(r"[a-z]\(s\)", text):
                if "never" not in text[max(0, m.start() - 40) : m.end() + 40]:
                    where = f"{path.relative_to(REPO)}:{tok.start[0]}"
                    offenders.append(f"{where}: {text[max(0, m.start() - 30) : m.end()]}")
    assert not offenders, "\n".join(offenders)


def test_source_files_and_data_comments_cite_only_public_sources():
    """Every line of the package — comments, docstrings and data files included — cites only what a user or
    contributor can open."""
    bad = []
    for path in sorted(SRC.rglob("*")):
        if path.suffix not in (".py", ".yaml", ".j2", ".css", ".c"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            bad += [f"{path.relative_to(REPO)}:{n}: {m.group(0)}" for m in INTERNAL.finditer(line)]
    assert not bad, bad

