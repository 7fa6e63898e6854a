"""Where a publication's editors and CI meet the checker: the pre-commit hook of
``.pre-commit-hooks.yaml``, run as a publication's commit would run it (``pre-commit try-repo`` of
this checkout on a publication made by ``gpu-insights init``), and the CI workflow ``init`` writes.

``language: python``: pre-commit installs the checkout into a virtualenv of its own with its
dependencies (``pip install``). From the package registry that takes about three minutes, and
try-repo does it on every run (a new temporary store each time), so the test installs from a
wheelhouse downloaded from the registry once per set of pins (:func:`wheelhouse`).
"""

from __future__ import annotations

import hashlib
import os
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml
from click.testing import CliRunner

from generator import __version__
from generator.cli import main
from generator.data.manifest import load_manifest

from .conftest import ROOT
from .test_layout import copy_of_the_checkout

GIT = ["git", "-c", "user.name=test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false"]


def git(*args: str, cwd: Path) -> None:
    subprocess.run([*GIT, *args], cwd=cwd, check=True, capture_output=True)


def wheelhouse() -> Path:
    """The package's dependencies and build backend as wheels, downloaded from the package registry
    once per set of pins (in the checkout's ignored ``.cache/``): try-repo installs into a new
    temporary store on every run, three minutes each from the registry, seconds from these."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    pins = sorted([*project["project"]["dependencies"], *project["build-system"]["requires"]])
    key = hashlib.sha256("\n".join([sys.version, *pins]).encode()).hexdigest()[:16]
    where = ROOT / ".cache" / "test-wheelhouse" / key
    if not (where / "COMPLETE").exists():
        pip = [sys.executable, "-m", "pip", "download", "-q", "--only-binary", ":all:", "-d", str(where)]
        subprocess.run([*pip, *pins], check=True, capture_output=True, timeout=1200)
        (where / "COMPLETE").write_text("\n".join(pins) + "\n", "utf-8")
    return where


def try_repo(repo: Path, pub: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """``pre-commit try-repo REPO gpu-insights-check`` in *pub*: the hook on its staged files,
    installed (``pip install REPO``, as ``language: python`` does) from :func:`wheelhouse`."""
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    env |= {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheelhouse())}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(repo), "gpu-insights-check"],
        cwd=pub,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )


def test_the_hook_manifest_checks_markdown_under_content() -> None:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert hook == {
        "id": "gpu-insights-check",
        "name": "gpu-insights check",
        "description": "Check the changed articles against the MLPerf® Results Messaging Guidelines.",
        "entry": "gpu-insights check",
        "language": "python",
        "files": r"^content/.*\.md$",
        "require_serial": True,
    }


def test_pre_commit_try_repo_fails_a_bad_article_and_passes_it_fixed(tmp_path: Path) -> None:
    pub = tmp_path / "pub"
    assert CliRunner().invoke(main, ["init", str(pub)]).exit_code == 0
    git("init", "-q", cwd=pub)
    git("add", "-A", cwd=pub)
    git("commit", "-qm", "a new publication", cwd=pub)
    good = (pub / "content" / "first-article.md").read_text("utf-8")
    bad = good.replace('in MLPerf® Inference v6.1"', 'in MLPerf Inference v6.1"', 1)
    assert bad != good
    (pub / "content" / "second.md").write_text(bad, "utf-8")
    # Markdown outside content/ is not an article: the hook leaves it alone
    (pub / "notes.md").write_text("MLPerf Inference v6.1 is out.\n", "utf-8")
    git("add", "-A", cwd=pub)
    # the checkout as it is now, committed in a repository of its own: one environment for both runs
    # (try-repo of a checkout with changes commits them afresh, and installs anew, on every run)
    repo = copy_of_the_checkout(tmp_path / "checkout")
    home = tmp_path / "pre-commit-home"
    res = try_repo(repo, pub, home)
    assert res.returncode == 1, res.stdout + res.stderr
    assert "- hook id: gpu-insights-check\n- exit code: 1\n" in res.stdout
    assert (
        'content/second.md:2:48 MLP012 error: "MLPerf" without the ® sign\n    help: write "MLPerf®"\n'
        "1 error(s), 0 warning(s)\n"
    ) in res.stdout
    (pub / "content" / "second.md").write_text(good, "utf-8")
    git("add", "-A", cwd=pub)
    res = try_repo(repo, pub, home)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "gpu-insights check" in res.stdout and "Passed" in res.stdout


# ---------------------------------------------------------------- the CI workflow init writes
WORKFLOW = Path(".github/workflows/gpu-insights.yml")
#: the actions the workflow may use: GitHub's own, published
PUBLISHED_ACTIONS = {"actions/checkout@v6", "actions/setup-python@v6", "github/codeql-action/upload-sarif@v4"}


def gpu_insights_commands(run: str) -> list[list[str]]:
    """The ``gpu-insights`` command lines of a step's *run* script, each up to its shell operator
    (a redirection, ``||``, ``&&``)."""
    out = []
    for line in run.splitlines():
        words = shlex.split(line)
        if words[:1] != ["gpu-insights"]:
            continue
        cut = next((i for i, w in enumerate(words) if w in {">", ">>", "||", "&&", "|", ";"}), len(words))
        out.append(words[1:cut])
    return out


def test_init_writes_a_ci_workflow_of_published_actions_and_the_packages_own_commands(tmp_path: Path) -> None:
    pub = tmp_path / "pub"
    assert CliRunner().invoke(main, ["init", str(pub)]).exit_code == 0
    workflow = yaml.safe_load((pub / WORKFLOW).read_text("utf-8"))
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as true; GitHub reads it as `on`
    assert set(triggers) == {"push", "pull_request", "workflow_dispatch"}
    assert workflow["permissions"] == {"contents": "read", "security-events": "write", "actions": "read"}
    (job,) = workflow["jobs"].values()
    steps = job["steps"]
    assert {s["uses"] for s in steps if "uses" in s} == PUBLISHED_ACTIONS
    upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif"))
    assert upload["with"]["sarif_file"] == "gpu-insights.sarif"
    # the findings are uploaded when the check fails, but not from a fork's pull request (no write token)
    assert upload["if"].startswith("${{ !cancelled() && (github.event_name != 'pull_request' || ")
    runs = [s["run"] for s in steps if "run" in s]
    assert runs[0] == f'python -m pip install "gpu-insights=={__version__}"'
    commands = [c for run in runs[1:] for c in gpu_insights_commands(run)]
    assert len(commands) == sum(len(run.splitlines()) for run in runs[1:])  # nothing else runs
    fetched = [c[1] for c in commands if c[0] == "fetch"]
    assert fetched == sorted(load_manifest().rounds, key=lambda v: tuple(map(int, v.split("."))))
    assert [c[0] for c in commands if c[0] != "fetch"] == ["check", "check", "build"]
    assert "--format sarif > gpu-insights.sarif" in runs[2]
    for words in commands:
        name = words[0]
        res = CliRunner().invoke(main, [name, "--help"])
        assert res.exit_code == 0, res.output
        # the options parse as the command reads them (nothing runs: click only parses)
        with main.commands[name].make_context(name, words[1:]) as ctx:
            assert ctx.params
