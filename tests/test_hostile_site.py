"""Hostile inputs, second pass (issue 34): the site, its feed, the plugin, `init`, `serve` and the
messages, each against an input a hostile or careless user gives."""

from __future__ import annotations

import json
from pathlib import Path

import markdown

from generator.site.diff import diff_builds, format_markdown

#: what a page of the site converts Markdown with (see generator/site/plugin.py)
EXTENSIONS = ["tables", "admonition", "md_in_html", "attr_list", "footnotes"]

POISON = '<script>alert(1)</script><img src=x onerror=alert(2)>'


def _ledger(root: Path, rows: list[dict[str, object]], source: str = "") -> Path:
    (root / "sources").mkdir(parents=True)
    (root / "figures.json").write_text(json.dumps(rows), "utf-8")
    (root / "sources" / "a.md").write_text(source, "utf-8")
    return root


def _fig(article: str, text: str, entry: str) -> dict[str, object]:
    return {
        "article": article,
        "file": "content/a.md",
        "line": 3,
        "text": text,
        "value": 1.0,
        "kind": "per_gpu",
        "formula": "",
        "table": "",
        "entries": [{"round": "6.1", "id": entry, "benchmark": "b", "scenario": "Server"}],
    }


def test_a_tampered_baseline_puts_no_markup_into_the_changes_page(tmp_path: Path) -> None:
    """Item 13: every field of a baseline's figures.json and sources is text on changes.html."""
    table = f"*{POISON}*\n\n| Family | x |\n|---|--:|\n| {POISON} | 1 |\n"
    old = _ledger(
        tmp_path / "old",
        [_fig("a", POISON, POISON), _fig(POISON, "2", "6.1-0001")],
        table,
    )
    new = _ledger(tmp_path / "new", [_fig("a", "1", "6.1-0001")], "")
    page = markdown.markdown(format_markdown(diff_builds(old, new)), extensions=EXTENSIONS)
    assert "<script" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
