"""What commands import at start-up: charts' libraries only when a chart is drawn."""

from __future__ import annotations

import subprocess
import sys

LOADED = (
    "import sys\n"
    "{imports}\n"
    "print(sorted(m for m in ('altair', 'vl_convert') if m in sys.modules\n"
    "             and type(sys.modules[m]).__name__ != '_LazyModule'))  # a lazy module not yet run\n"
)


def loaded(imports: str) -> str:
    code = LOADED.format(imports=imports)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_checking_and_building_import_no_chart_library_until_a_chart_is_drawn() -> None:
    assert (
        loaded("import generator.cli, generator.check, generator.site.build, generator.article.charts")
        == "[]"
    )
    assert loaded("import generator.article.charts as c; c.alt.Chart") == "['altair']"
