"""Article sources, as a careless or hostile user leaves them in content/: a named pipe, a link
to a device or to a file outside the project, a huge file, an article in a sub-folder or
ending in '.MD'. Each is a clean error naming the file; nothing hangs, nothing is published."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.article.frontmatter import load_article
from generator.cli import main
from generator.errors import BuildError, TemplateError
from generator.project import MAX_ARTICLE_BYTES, Project
from generator.site.build import article_paths, build

from .test_build import quiet, tiny_project


@pytest.fixture()
def project(tmp_path: Path) -> Project:
    return tiny_project(tmp_path)


def build_error(project: Project, tmp_path: Path) -> str:
    t0 = time.monotonic()
    with pytest.raises(BuildError) as err:
        build(project=project, site_dir=tmp_path / "site", log=quiet)
    assert time.monotonic() - t0 < 60
    assert not (tmp_path / "site").exists()
    return err.value.message


def test_sources_a_named_pipe_in_content_is_refused_instead_of_hanging_the_build(
    project: Project, tmp_path: Path
) -> None:
    fifo = project.content_dir / "f.md"
    os.mkfifo(fifo)
    assert build_error(project, tmp_path) == (
        f"{fifo}: not a regular file (a named pipe); an article is a Markdown file"
    )


@pytest.mark.parametrize("target", ["/etc/passwd", "/dev/zero"])
def test_sources_a_link_to_a_file_outside_the_project_is_never_published(
    project: Project, tmp_path: Path, target: str
) -> None:
    link = project.content_dir / "passwd.md"
    link.symlink_to(target)
    assert build_error(project, tmp_path) == (
        f"{link}: a link to {target}, outside the project; an article must be a file of the "
        "publication (copy it into the project instead)"
    )


def test_sources_a_link_inside_the_project_is_an_article(project: Project, tmp_path: Path) -> None:
    drafts = project.root / "drafts"
    drafts.mkdir()
    (project.content_dir / "tiny.md").rename(drafts / "tiny.md")
    (project.content_dir / "tiny.md").symlink_to(drafts / "tiny.md")
    res = build(project=project, site_dir=tmp_path / "site", log=quiet)
    assert [r.article.slug for r in res.rendered] == ["tiny"]


def test_sources_an_article_over_the_size_limit_is_refused_before_it_is_read(
    project: Project, tmp_path: Path
) -> None:
    big = project.content_dir / "big.md"
    with big.open("wb") as fh:
        fh.truncate(MAX_ARTICLE_BYTES + 1)  # sparse: no disk used
    assert build_error(project, tmp_path) == (
        f"{big}: 5,000,001 bytes, over the 5,000,000-byte limit of an article"
    )


def test_sources_reading_an_article_never_blocks_on_a_pipe_or_reads_past_the_limit(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    with pytest.raises(TemplateError) as err:
        load_article(fifo)
    assert err.value.message == f"{fifo}:1: not a regular file (a named pipe); an article is a Markdown file"
    with pytest.raises(TemplateError) as err:
        load_article(Path("/dev/zero"))
    assert (
        err.value.message
        == "/dev/zero:1: not a regular file (a character device); an article is a Markdown file"
    )


def test_sources_check_refuses_a_device_as_a_usage_error(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project.root)
    res = CliRunner().invoke(main, ["check", "/dev/zero"])
    assert res.exit_code == 2
    assert res.output.splitlines()[-1] == (
        "Error: /dev/zero: not a regular file (a character device); an article is a Markdown file"
    )


def test_sources_check_of_a_folder_refuses_a_pipe_inside_it(project: Project, tmp_path: Path) -> None:
    folder = tmp_path / "press"
    folder.mkdir()
    (folder / "a.md").write_text("Text.\n")
    os.mkfifo(folder / "b.md")
    with pytest.raises(BuildError) as err:
        article_paths(project, [folder])
    assert (
        err.value.message
        == f"{folder}/b.md: not a regular file (a named pipe); an article is a Markdown file"
    )


def test_sources_an_article_in_a_sub_folder_is_not_silently_left_out(
    project: Project, tmp_path: Path
) -> None:
    (project.content_dir / "sub").mkdir()
    (project.content_dir / "sub" / "x.md").write_text("---\ntitle: X\n---\nText.\n")
    (project.content_dir / ".drafts").mkdir()  # hidden folders are the author's own
    (project.content_dir / ".drafts" / "y.md").write_text("Draft.\n")
    content = project.content_dir
    assert build_error(project, tmp_path) == (
        f"{content}/sub/x.md: articles in sub-folders of {content} are not built; move it into {content} "
        "(or out of it)"
    )


def test_sources_an_article_ending_in_upper_case_md_is_not_silently_left_out(
    project: Project, tmp_path: Path
) -> None:
    odd = project.content_dir / "news.MD"
    odd.write_text("---\ntitle: X\n---\nText.\n")
    assert build_error(project, tmp_path) == (
        f"{odd}: article files end in '.md' (lower case); rename it to news.md"
    )


def test_sources_a_huge_file_in_content_is_never_read_whole_even_to_hash_the_inputs(
    project: Project, tmp_path: Path
) -> None:
    """The build hashes its inputs before it looks at the articles: a 3 GiB (sparse) file is
    hashed by its size and date, and then refused, without the memory to hold it."""
    huge = project.content_dir / "huge.md"
    with huge.open("wb") as fh:
        fh.truncate(3 << 30)
    cli = str(Path(sys.executable).parent / "gpu-insights")
    code = (
        "import resource, subprocess, sys\n"
        f"r = subprocess.run([{cli!r}, 'build', '--site-dir', {str(tmp_path / 'site')!r}], capture_output=True, text=True)\n"
        "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)\n"
        "print(r.stderr.strip().splitlines()[-1])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=project.root, capture_output=True, text=True, timeout=300
    )
    status, rss_mb = out.stdout.splitlines()[0].split()
    assert status == "1" and int(rss_mb) < 1024, out.stdout
    assert out.stdout.splitlines()[1] == (
        f"Error: {huge}: 3,221,225,472 bytes, over the 5,000,000-byte limit of an article"
    )
