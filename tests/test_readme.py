"""The README's template examples build and pass the checker: what a new analyst copies works."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.project import Project
from generator.site.build import run_checks

from .conftest import ROOT

HEAD = '---\ntitle: "README example {n}"\ndate: 2026-10-06\nrounds: ["6.1"]\n---\n'


def examples() -> list[str]:
    text = (ROOT / "README.md").read_text("utf-8")
    return [b for b in re.findall(r"```jinja\n(.*?)```", text, flags=re.S) if "{%" in b or "{{" in b]


@pytest.mark.parametrize("n", range(len(examples())))
def test_readme_examples_build_and_pass_the_checker_in_strict_mode(
    n: int, tmp_path: Path, shared_dir: Path
) -> None:
    project = Project(ROOT).clone(tmp_path / "p", content=ROOT / "tests" / "golden" / "content")
    for p in project.content_dir.glob("*.md"):
        p.unlink()
    body = examples()[n]
    if "footnotes()" not in body:
        body += "\n{{ footnotes() }}\n\n{{ compliance() }}\n"
    article = project.content_dir / f"example-{n}.md"
    article.write_text(HEAD.format(n=n) + body, "utf-8")
    findings = run_checks(project, [article], shared_dir)
    assert [str(f) for f in findings if f.severity in ("error", "warning")] == []
