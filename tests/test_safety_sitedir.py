"""The site folder is ours or untouched: tried on a real temporary repository with .git
and uncommitted work, as a careless user would."""

from __future__ import annotations

import errno
import fcntl
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import BuildError, GpuInsightsError
from generator.project import Project
from generator.site import build as build_mod
from generator.site.build import build
from generator.site.sitedir import FAILPOINT_ENV, MARKER, MARKER_TEXT, NO_EXCHANGE_ENV

from .conftest import ROOT, TINY_ROWS, write_results
from .test_build import GOLDEN, quiet
from .test_workers import gone


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """A publication under git: one commit, plus an uncommitted file and an untracked one."""
    root = tmp_path / "repo"
    Project(ROOT).clone(root, content=GOLDEN / "content")
    write_results(root / "results", TINY_ROWS)
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org"}
    env |= {"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]):
        subprocess.run(["git", *cmd], cwd=root, check=True, env=env)
    (root / "content" / "tiny.md").write_text((root / "content" / "tiny.md").read_text() + "\nEdited.\n")
    (root / "notes.txt").write_text("uncommitted work\n")
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def run_build(repo: Path, site: str | Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    monkeypatch.chdir(repo)
    res = CliRunner().invoke(main, ["build", "--results", "results", "--site-dir", str(site)])
    return res.exit_code, res.output


@pytest.mark.parametrize(
    ("site", "why"),
    [
        (".", "it is the project folder"),
        ("content", "it is the project's content folder"),
        ("data/sub", "it is inside the project's data folder ({repo}/data)"),
        ("templates", "it is the project's templates folder"),
        (".git", "it is the project's git repository"),
        ("..", "it holds the project folder ({repo})"),
        ("results", "it is the results folder"),
    ],
)
def test_site_dir_never_replaces_the_project_or_its_sources(
    repo: Path, site: str, why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = snapshot(repo)
    code, out = run_build(repo, site, monkeypatch)
    assert code == 1
    assert out == (
        f"Error: refusing to write the site into {site}: {why.format(repo=repo)}; nothing was changed\n"
    )
    assert snapshot(repo) == before
    status = subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True)
    assert status.stdout == " M content/tiny.md\n?? notes.txt\n"


def test_site_dir_refuses_a_folder_of_the_users_own_files(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = tmp_path / "my-files"
    mine.mkdir()
    (mine / "thesis.tex").write_text("years of work\n")
    code, out = run_build(repo, mine, monkeypatch)
    assert code == 1
    assert out == (
        f"Error: refusing to write the site into {mine}: it is not empty and was not written by "
        f"gpu-insights (it has no {MARKER} file); choose a new or empty folder, or empty this one "
        "yourself; nothing was changed\n"
    )
    assert (mine / "thesis.tex").read_text() == "years of work\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my-files", "repo"]


def test_site_dir_refuses_a_file(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "site.txt").write_text("x")
    with pytest.raises(BuildError) as err:
        build(project=Project(repo), results=repo / "results", site_dir=tmp_path / "site.txt", log=quiet)
    assert err.value.message.endswith("site.txt: it is a file, not a folder; nothing was changed")
    assert (tmp_path / "site.txt").read_text() == "x"


def test_an_empty_folder_becomes_a_marked_site_and_is_replaced_next_time(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    for _ in range(2):
        code, out = run_build(repo, empty, monkeypatch)
        assert code == 0, out
        assert (empty / MARKER).is_file() and (empty / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty", "repo"]


def test_no_temporary_folder_is_left_and_the_lock_is_git_ignored(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = run_build(repo, "site", monkeypatch)
    assert code == 0, out
    (repo / "content" / "broken.md").write_text("---\ntitle: x\n---\n{{ nope }}\n")
    code, out = run_build(repo, "site", monkeypatch)
    assert code == 1 and "broken.md:4: 'nope' is undefined" in out
    ours = sorted(p.name for p in repo.iterdir() if p.name.startswith(".gpu-insights"))
    assert ours == []  # neither temporary folders nor the lock file outlive the failed build
    ignored = subprocess.run(
        ["git", "check-ignore", ".gpu-insights-site.lock", ".gpu-insights-site.tmp-abc", "site"],
        cwd=repo,
        capture_output=True,
        text=True,
    )
    assert ignored.stdout.split() == [".gpu-insights-site.lock", ".gpu-insights-site.tmp-abc", "site"]


def test_a_symlinked_site_dir_builds_and_rebuilds(repo: Path, tmp_path: Path) -> None:
    real = tmp_path / "www"
    link = tmp_path / "site-link"
    link.symlink_to(real, target_is_directory=True)
    project = Project(repo)
    for _ in range(3):
        res = build(project=project, results=repo / "results", site_dir=link, log=quiet)
        assert res.site_dir == real
        assert link.is_symlink() and (link / "index.html").is_file()


def test_a_second_concurrent_build_is_refused_with_a_clear_message(repo: Path) -> None:
    lock = repo / ".gpu-insights-site.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, b"4242\n")
        with pytest.raises(BuildError) as err:
            build(project=Project(repo), results=repo / "results", site_dir=repo / "site", log=quiet)
    finally:
        os.close(fd)
    assert err.value.message == (
        f"another gpu-insights build is writing {repo}/site (process 4242 holds {lock}); wait for it to finish"
    )


def test_read_only_files_in_the_old_site_do_not_stop_a_rebuild(repo: Path) -> None:
    project, site = Project(repo), repo / "site"
    build(project=project, results=repo / "results", site_dir=site, log=quiet)
    (site / "index.html").chmod(0o444)
    (site / "charts").chmod(0o555)
    build(project=project, results=repo / "results", site_dir=site, log=quiet)
    assert (site / "index.html").is_file()
    assert not [p for p in repo.iterdir() if ".tmp-" in p.name]


def test_a_full_disk_is_an_error_and_the_previous_site_stays(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, site = Project(repo), repo / "site"
    build(project=project, results=repo / "results", site_dir=site, log=quiet)
    before = snapshot(site)

    def full(*args: object, **kw: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(site / "x.html"))

    monkeypatch.setattr(build_mod, "run_mkdocs", full)
    with pytest.raises(BuildError) as err:
        build(project=project, results=repo / "results", site_dir=site, log=quiet)
    assert err.value.message == (
        f"could not write the site: No space left on device ({site}/x.html); {site} is unchanged"
    )
    assert snapshot(site) == before
    assert not [p for p in repo.iterdir() if ".tmp-" in p.name]


def test_a_swap_interrupted_between_its_two_renames_is_completed_by_the_next_build(
    repo: Path,
) -> None:
    """The state a kill leaves between the renames of the portable swap: no site/, the new
    site staged beside it, the old one renamed beside it."""
    project, site = Project(repo), repo / "site"
    build(project=project, results=repo / "results", site_dir=site, log=quiet)
    staged = repo / ".gpu-insights-site.tmp-killed-new"
    site.rename(staged.with_name(staged.name + "-old"))
    build(project=project, results=repo / "results", site_dir=repo / "elsewhere", log=quiet)
    (repo / "elsewhere").rename(staged)
    logs: list[str] = []
    build(project=project, results=repo / "results", site_dir=site, log=logs.append)
    assert f"restored {site} left by an interrupted build" in logs
    assert (site / "index.html").is_file()
    assert sorted(p.name for p in repo.iterdir() if p.name.startswith(".gpu-insights")) == []


def _cli() -> str:
    return str(Path(sys.executable).parent / "gpu-insights")


def _complete(site: Path) -> dict[str, bytes]:
    assert (site / MARKER).is_file() and (site / "index.html").is_file() and (site / "figures.json").is_file()
    return {k: v for k, v in snapshot(site).items() if not k.startswith("sources/")}


def descendants(pid: int) -> set[int]:
    """The processes under *pid* (from /proc), however deep."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    out: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        kids = {c for c, pp in parents.items() if pp == p} - out
        out |= kids
        todo.extend(kids)
    return out


def test_a_build_killed_at_any_point_leaves_a_complete_site_and_the_next_build_succeeds(
    repo: Path,
) -> None:
    """Killed with SIGKILL at timed points and at each step of both swaps (the atomic exchange
    and the portable two renames): the site is always the previous one or the new one, and the
    next build succeeds."""
    site, article = repo / "site", repo / "content" / "tiny.md"
    cmd = [_cli(), "build", "--results", "results", "--site-dir", "site", "--no-cache"]
    t0 = time.monotonic()
    subprocess.run(cmd, cwd=repo, check=True, capture_output=True)
    duration = time.monotonic() - t0
    kills: list[tuple[dict[str, str], float]] = [({}, duration * f) for f in (0.2, 0.5, 0.8, 0.95)]
    for point in ("staged", "between-renames", "swapped"):
        kills += [({FAILPOINT_ENV: point, NO_EXCHANGE_ENV: "1"}, 60.0), ({FAILPOINT_ENV: point}, 60.0)]
    for n, (env, delay) in enumerate(kills):
        before = _complete(site)
        article.write_text(article.read_text() + f"\nEdit {chr(97 + n)}.\n")
        proc = subprocess.Popen(
            cmd, cwd=repo, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            workers = descendants(proc.pid)
            proc.kill()
            proc.wait()
            # its workers (render, MkDocs, SVG drawing) end with it: none keeps the lock
            assert gone(workers) == set(), (env, delay)
        portable_gap = env == {FAILPOINT_ENV: "between-renames", NO_EXCHANGE_ENV: "1"}
        # only the portable swap (no renameat2) has a moment without site/; the next build restores it
        after_kill = None if portable_gap and not site.exists() else _complete(site)
        subprocess.run(cmd, cwd=repo, check=True, capture_output=True)
        rebuilt = _complete(site)
        assert rebuilt != before
        assert after_kill in ((None,) if portable_gap else ()) + (before, rebuilt), (env, delay)
        assert [p.name for p in repo.iterdir() if ".tmp-" in p.name] == [], (env, delay)


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


PHASES = {
    "rendering": lambda kids: any(b"gpu-insights" in _cmdline(k) for k in kids),
    "drawing SVGs": lambda kids: any(b"svgdraw" in _cmdline(k) for k in kids),
    "MkDocs in workers": lambda kids: sum(b"gpu-insights" in _cmdline(k) for k in kids) >= 2,
}


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("phase", list(PHASES))
def test_a_killed_builds_workers_end_with_it_and_the_next_build_runs(repo: Path, phase: str) -> None:
    """Killed while its workers run, a build leaves none behind (one blocked on its pipe kept
    the lock, and every later build was refused as concurrent)."""
    if phase == "MkDocs in workers":  # pages enough to be worth MkDocs' workers (jobs_worth)
        tiny = repo / "content" / "tiny.md"
        for i in range(30):
            (repo / "content" / f"tiny-{i}.md").write_text(tiny.read_text())
    cmd = [_cli(), "build", "--results", "results", "--site-dir", "site", "--no-cache", "--jobs", "2"]
    with subprocess.Popen(cmd, cwd=repo, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as proc:
        kids: set[int] = set()
        while proc.poll() is None and not PHASES[phase](kids):
            time.sleep(0.01)
            kids = descendants(proc.pid)
        assert proc.poll() is None, f"the build ended before {phase}"
        proc.kill()
    assert gone(kids) == set()
    out = subprocess.run(cmd, cwd=repo, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize("name", ["index", "changes"])
def test_an_article_may_not_take_the_name_of_a_generated_page(repo: Path, name: str) -> None:
    (repo / "content" / f"{name}.md").write_text("---\ntitle: Mine\n---\nText.\n")
    with pytest.raises(BuildError) as err:
        build(project=Project(repo), results=repo / "results", site_dir=repo / "site", log=quiet)
    what = {"index": "the home page", "changes": "the changes page"}[name]
    assert err.value.message == (
        f"{repo}/content/{name}.md: the name {name!r} is used by {what}, which the build generates; "
        "rename the article"
    )


@pytest.mark.parametrize(
    ("ledger", "problem"),
    [
        ('{"a": 1}', "expected a list of figures"),
        ("[1]", "figure 0: expected an object, got int (is this a gpu-insights figures.json?)"),
        ('[{"article": "a"}]', "figure 0: missing 'file' (is this a gpu-insights figures.json?)"),
        (
            '[{"article": "a", "file": "f", "line": "7", "text": "1", "value": 1, "entries": []}]',
            "figure 0: 'line' is str, not int (is this a gpu-insights figures.json?)",
        ),
        (
            '[{"article": "a", "file": "f", "line": 7, "text": "1", "value": 1, "entries": [{"id": 1}]}]',
            "figure 0: an entry lacks round, id, benchmark or scenario (is this a gpu-insights figures.json?)",
        ),
        ("[", "line 1 column 2: invalid JSON: Expecting value"),
    ],
)
def test_a_malformed_ledger_is_an_error_for_diff_and_baseline(
    repo: Path, tmp_path: Path, ledger: str, problem: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = tmp_path / "old"
    bad.mkdir()
    (bad / "figures.json").write_text(ledger)
    res = CliRunner().invoke(main, ["diff", str(bad), str(bad)])
    assert (res.exit_code, res.output) == (1, f"Error: {bad}/figures.json: {problem}\n")
    monkeypatch.chdir(repo)
    res = CliRunner().invoke(main, ["build", "--results", "results", "--baseline", str(bad)])
    assert (res.exit_code, res.output.splitlines()[-1]) == (1, f"Error: {bad}/figures.json: {problem}")
    assert not (repo / "site").exists()


def _set_site_dir(repo: Path, value: str) -> None:
    yml = repo / "mkdocs.yml"
    yml.write_text(re.sub(r"(?m)^site_dir: .*$", f"site_dir: {value}", yml.read_text("utf-8")), "utf-8")


def _mkdocs_build(repo: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"], cwd=repo, capture_output=True, text=True, timeout=600
    )


@pytest.mark.parametrize(
    ("site", "why"),
    [
        ("data", "it is the project's data folder"),
        (".git", "it is the project's git repository"),
        ("templates/partials", "it is inside the project's templates folder ({repo}/templates)"),
        (
            "../userfiles",
            f"it is not empty and was not written by gpu-insights (it has no {MARKER} file); choose a new "
            "or empty folder, or empty this one yourself",
        ),
    ],
)
def test_mkdocs_build_with_the_plugin_refuses_every_site_folder_gpu_insights_build_refuses(
    repo: Path, tmp_path: Path, site: str, why: str
) -> None:
    mine = tmp_path / "userfiles"
    mine.mkdir()
    (mine / "thesis.tex").write_text("years of work\n")
    _set_site_dir(repo, site)
    before, theirs = snapshot(repo), snapshot(mine)
    res = _mkdocs_build(repo)
    assert res.returncode == 1, res.stderr
    target = (repo / site).resolve()
    assert (
        f"ERROR   -  gpu-insights: refusing to write the site into {target}: {why.format(repo=repo)}; "
        "nothing was changed"
    ) in res.stderr.splitlines()
    assert snapshot(repo) == before and snapshot(mine) == theirs


def test_mkdocs_build_marks_its_site_so_the_next_build_may_replace_it(repo: Path) -> None:
    yml = repo / "mkdocs.yml"
    yml.write_text(
        yml.read_text("utf-8").replace("  - gpu-insights\n", "  - gpu-insights:\n      results: results\n"),
        "utf-8",
    )
    for _ in range(2):
        res = _mkdocs_build(repo)
        assert res.returncode == 0, res.stderr
        assert (repo / "site" / MARKER).is_file() and (repo / "site" / "tiny.html").is_file()


def test_gpu_insights_build_writes_the_site_dir_of_mkdocs_yml_unless_site_dir_is_given(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _set_site_dir(repo, "public")
    monkeypatch.chdir(repo)
    res = CliRunner().invoke(main, ["build", "--results", "results"])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1].startswith(f"site written to {repo}/public in ")
    assert (repo / "public" / "tiny.html").is_file() and not (repo / "site").exists()
    code, out = run_build(repo, "elsewhere", monkeypatch)
    assert code == 0, out
    assert (repo / "elsewhere" / "tiny.html").is_file() and not (repo / "site").exists()
    _set_site_dir(repo, "data")
    res = CliRunner().invoke(main, ["build", "--results", "results"])
    assert (res.exit_code, res.output.splitlines()[-1]) == (
        1,
        f"Error: refusing to write the site into {repo}/data: it is the project's data folder; nothing was changed",
    )


def test_a_failed_build_leaves_no_lock_file_beside_the_site(repo: Path, tmp_path: Path) -> None:
    (repo / "content" / "broken.md").write_text("---\ntitle: x\n---\n{{ nope }}\n")
    with pytest.raises(GpuInsightsError):
        build(project=Project(repo), results=repo / "results", site_dir=tmp_path / "out" / "site", log=quiet)
    assert list((tmp_path / "out").iterdir()) == []


def test_a_full_disk_error_names_the_file_that_could_not_be_written(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed copy's error names its source first (a theme file in the venv): the message names
    the destination, the file that could not be written."""
    project, site = Project(repo), repo / "site"

    def full(*args: object, **kw: object) -> None:
        raise OSError(
            errno.ENOSPC, os.strerror(errno.ENOSPC), "/venv/material/logo.svg", None, str(site / "logo.svg")
        )

    monkeypatch.setattr(build_mod, "run_mkdocs", full)
    with pytest.raises(BuildError) as err:
        build(project=project, results=repo / "results", site_dir=site, log=quiet)
    assert err.value.message == (
        f"could not write the site: No space left on device ({site}/logo.svg); {site} is unchanged"
    )


def test_an_undeletable_file_in_the_old_site_is_a_warning_and_later_builds_still_work(
    repo: Path,
) -> None:
    project, site = Project(repo), repo / "site"
    build(project=project, results=repo / "results", site_dir=site, log=quiet)
    stuck = site / "figures.json"  # one the build wrote: the next build replaces the folder
    if subprocess.run(["chattr", "+i", str(stuck)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here (needs root on a file system with attributes)")
    try:
        for n in range(2):
            logs: list[str] = []
            (repo / "content" / "tiny.md").write_text(
                (repo / "content" / "tiny.md").read_text() + f"\nEdit {n}.\n"
            )
            build(project=project, results=repo / "results", site_dir=site, log=logs.append)
            left = [p for p in repo.iterdir() if ".tmp-" in p.name]
            assert len(left) == 1
            assert (
                f"warning: could not remove {left[0]}: Operation not permitted ({left[0]}/figures.json); the site "
                "is fine, remove that folder yourself (a file marked immutable needs `chattr -i FILE` first)"
            ) in logs
            assert f"Edit {n}." in (site / "sources" / "tiny.md").read_text()
    finally:
        for p in repo.glob(".gpu-insights-site.tmp-*/figures.json"):
            subprocess.run(["chattr", "-i", str(p)], check=True)


def test_a_site_folder_whose_parent_cannot_be_made_is_a_clean_error(repo: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where a folder should be")
    with pytest.raises(BuildError) as err:
        build(project=Project(repo), results=repo / "results", site_dir=blocker / "site", log=quiet)
    assert err.value.message == (
        f"could not write the site: File exists ({blocker}); {blocker}/site is unchanged"
    )


def test_a_site_folder_that_now_holds_what_the_build_did_not_write_is_refused_not_emptied(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deployed branch's checkout, notes, a stylesheet of one's own in the build's assets: a
    rebuild would replace the folder whole and delete them; it refuses, and names them."""
    site = tmp_path / "site"
    code, out = run_build(repo, site, monkeypatch)
    assert code == 0, out
    (site / ".git" / "refs").mkdir(parents=True)
    (site / ".git" / "HEAD").write_text("ref: refs/heads/gh-pages\n")
    (site / "DEPLOY-NOTES.md").write_text("notes\n")
    (site / "assets" / "mine.css").write_text("body {}\n")
    (site / "empty").mkdir()
    before = snapshot(site)
    code, out = run_build(repo, site, monkeypatch)
    assert code == 1
    assert out == (
        f"Error: refusing to write the site into {site}: it holds what gpu-insights did not write "
        "there (.git, DEPLOY-NOTES.md, assets/mine.css, empty), which replacing it would delete; move "
        "that out of it, or choose another site folder; nothing was changed\n"
    )
    assert snapshot(site) == before and (site / ".git" / "refs").is_dir()
    for extra in (".git", "DEPLOY-NOTES.md", "assets/mine.css", "empty"):
        path = site / extra
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    (site / "index.html").unlink()  # what the build wrote may go: the next build writes it again
    code, out = run_build(repo, site, monkeypatch)
    assert code == 0, out
    assert (site / "index.html").is_file()


def test_a_site_marked_before_markers_listed_their_files_is_refused_only_with_a_git_repository(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    old = "This folder was written by gpu-insights; every build replaces it whole.\n"
    (site / MARKER).write_text(old)
    (site / "index.html").write_text("an old build's page\n")
    (site / ".git").mkdir()
    code, out = run_build(repo, site, monkeypatch)
    assert code == 1
    assert "it holds what gpu-insights did not write there (.git), which" in out
    (site / ".git").rmdir()
    code, out = run_build(repo, site, monkeypatch)
    assert code == 0, out
    assert (site / MARKER).read_text().startswith(MARKER_TEXT + '"')
