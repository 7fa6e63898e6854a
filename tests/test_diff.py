"""`gpu-insights diff`: figures and table rows that changed between two builds."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main
from generator.site.diff import diff_builds, format_markdown, format_text, tables_of

TABLE = """*Table 1: best rows.*

| Family | gpt-oss-120b Server |
|---|--:|
| B200 | 7,500 (8 GPUs, 6.1-0002) |
| B300 | {b300} |
"""


def fig(line: int, text: str, value: float, entry: str) -> dict[str, object]:
    return {
        "article": "a",
        "file": "content/a.md",
        "line": line,
        "text": text,
        "value": value,
        "kind": "per_gpu",
        "formula": "",
        "table": "",
        "entries": [{"round": "6.1", "id": entry, "benchmark": "gpt-oss-120b", "scenario": "Server"}],
    }


def site(root: Path, figures: list[dict[str, object]], b300: str) -> Path:
    (root / "sources").mkdir(parents=True)
    (root / "figures.json").write_text(json.dumps(figures), "utf-8")
    (root / "sources" / "a.md").write_text(TABLE.format(b300=b300), "utf-8")
    return root


def test_changed_added_removed_figures_and_table_rows(tmp_path: Path) -> None:
    old = site(
        tmp_path / "old",
        [
            fig(3, "10,000", 10000.0, "6.1-0001"),
            fig(4, "7,500", 7500.0, "6.1-0002"),
            fig(5, "9,000", 9000.0, "6.1-0003"),
        ],
        "10,000 (8 GPUs, 6.1-0001)",
    )
    new = site(
        tmp_path / "new",
        [
            fig(3, "10,500", 10500.0, "6.1-0001"),
            fig(4, "7,500", 7500.0, "6.1-0009"),
            fig(6, "1.40×", 1.4, "6.1-0001"),
        ],
        "10,500 (8 GPUs, 6.1-0001)",
    )
    d = diff_builds(old, new)
    a = d.articles["a"]
    assert [(o["text"], n["text"]) for o, n in a.changed] == [("10,000", "10,500"), ("7,500", "7,500")]
    assert [r["text"] for r in a.added] == ["1.40×"] and [r["text"] for r in a.removed] == ["9,000"]
    assert a.table_rows == [
        (
            "Table 1: best rows.",
            "B300",
            "| B300 | 10,000 (8 GPUs, 6.1-0001) |",
            "| B300 | 10,500 (8 GPUs, 6.1-0001) |",
        )
    ]
    assert format_text(d).splitlines() == [
        "a: 2 changed, 1 added, 1 removed, 1 table rows changed",
        "  ~ content/a.md:3: 10,000 -> 10,500 (value; entries 6.1-0001 -> 6.1-0001)",
        "  ~ content/a.md:4: 7,500 -> 7,500 (entries; entries 6.1-0002 -> 6.1-0009)",
        "  + content/a.md:6: 1.40× (entries 6.1-0001)",
        "  - content/a.md:5: 9,000 (entries 6.1-0003)",
        "  table 'Table 1: best rows.' row 'B300':",
        "    - | B300 | 10,000 (8 GPUs, 6.1-0001) |",
        "    + | B300 | 10,500 (8 GPUs, 6.1-0001) |",
    ]
    page = format_markdown(d)
    assert "| 3 | 10,000 | 10,500 | 6.1-0001 | 6.1-0001 |" in page
    assert "- Table *Table 1: best rows.*, row **B300** changed" in page


def test_identical_builds_and_the_cli(tmp_path: Path) -> None:
    old = site(tmp_path / "old", [fig(3, "10,000", 10000.0, "6.1-0001")], "x")
    new = site(tmp_path / "new", [fig(3, "10,000", 10000.0, "6.1-0001")], "x")
    res = CliRunner().invoke(
        main, ["diff", str(old), str(new / "figures.json"), "--markdown", str(tmp_path / "c.md")]
    )
    assert res.exit_code == 0 and res.output == "no figures changed\n"
    assert (tmp_path / "c.md").read_text(
        "utf-8"
    ) == "# Changes since the baseline build\n\nNo published figure changed.\n"


def test_tables_of_skips_the_provenance_table() -> None:
    md = (
        TABLE.format(b300="x")
        + "\n| Line | Figure | Formula | Entries |\n|--:|--:|---|---|\n| 3 | 1 | f | e |\n"
    )
    assert list(tables_of(md)) == ["Table 1: best rows."]


def test_a_bad_ledger_is_named(tmp_path: Path) -> None:
    (tmp_path / "figures.json").write_text("{oops", "utf-8")
    res = CliRunner().invoke(main, ["diff", str(tmp_path), str(tmp_path)])
    assert res.exit_code == 1
    assert f"Error: {tmp_path / 'figures.json'}: line 1 column 2: invalid JSON:" in res.output


def test_data_command_prints_one_summary_line_per_round(shared_dir: Path) -> None:
    res = CliRunner().invoke(main, ["data", "--results", str(shared_dir)])
    assert res.exit_code == 0
    assert [ln.split(":")[0] for ln in res.output.splitlines()] == ["v5.1", "v6.0", "v6.1"]
