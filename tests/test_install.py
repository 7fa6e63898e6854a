"""gpu-insights installed from a wheel into a fresh venv works outside its checkout.

The wheel is built from the checkout and installed (not editable) into a new venv; its
dependencies are taken from the test's own environment (a ``.pth`` line) so that the test
needs no download beyond the build backend. In a temporary folder: ``gpu-insights init``,
``gpu-insights build`` and plain ``mkdocs build`` with the plugin; both sites carry the
same articles and figures.
"""

from __future__ import annotations

import site
import subprocess
import sys
import sysconfig
from pathlib import Path

from .conftest import ROOT
from .test_publication import same_pages


def run(cmd: list[str], cwd: Path) -> str:
    res = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, f"{' '.join(cmd)}\n{res.stdout}\n{res.stderr}"
    return res.stdout


def fresh_venv(tmp_path: Path) -> Path:
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path)
    purelib = Path(
        run(
            [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            tmp_path,
        ).strip()
    )
    deps = [p for p in (*site.getsitepackages(), sysconfig.get_paths()["purelib"]) if Path(p).is_dir()]
    (purelib / "zz-test-dependencies.pth").write_text("\n".join(dict.fromkeys(deps)) + "\n", encoding="utf-8")
    return venv


def test_wheel_in_a_fresh_venv_inits_and_builds_with_both_commands(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(ROOT)], tmp_path)
    (wheel,) = dist.glob("gpu_insights-*.whl")
    venv = fresh_venv(tmp_path)
    python = str(venv / "bin" / "python")
    run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", str(wheel)], tmp_path)
    where = run([python, "-c", "import generator; print(generator.__file__)"], tmp_path).strip()
    assert where.startswith(str(venv)), where
    run([str(venv / "bin" / "gpu-insights"), "init", "pub"], tmp_path)
    pub = tmp_path / "pub"
    out = run([str(venv / "bin" / "gpu-insights"), "build"], pub)
    assert f"{venv}" in out and "/generator/defaults/sample/v6.1/summary_results.json" in out
    run([python, "-m", "mkdocs", "build", "-q", "-d", str(tmp_path / "plain")], pub)
    same_pages(pub / "site", tmp_path / "plain")
    assert (pub / "site" / "first-article.html").is_file()
    assert (tmp_path / "plain" / "assets" / "charts.js").is_file()
