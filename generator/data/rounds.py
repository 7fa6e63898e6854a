"""Register a new round: validate its official file, store it, add it to ``data/rounds.toml``.

Nothing is written until everything is known to be good: the version is checked,
the file (local or downloaded) is parsed and validated as that round's results,
it agrees with any other file of the round already stored, and the new manifest
loads. Only then is the file stored, under its canonical name inside the results
folder, and the manifest replaced; a failure at any step leaves files and manifest
exactly as they were.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import tomli_w

from generator.data.fetch import Download, check_url, sha256_of, sniff
from generator.data.manifest import Manifest, Round, load_rounds, normalize_version
from generator.data.results import LoadReport, check_agreement, read_results, round_files
from generator.errors import ManifestError
from generator.project import DEFAULTS_DIR, data_file

VERSION = re.compile(r"\d+\.\d+")
#: where the official results of round X.Y are published
OFFICIAL_SOURCE = "https://github.com/mlcommons/inference_results_v{version}"


@dataclass(frozen=True)
class Added:
    round: Round
    path: Path
    report: LoadReport
    replaced: bool


def check_version(version: str) -> str:
    v = normalize_version(version)
    if not VERSION.fullmatch(v):
        raise ManifestError(f"{version!r} is not a round version (expected MAJOR.MINOR, e.g. 7.0)")
    return v


def canonical_name(fmt: str, shape: str) -> str:
    """The name a round's file is stored under, by its format and columns."""
    if fmt == "xlsx":
        return "summary.xlsx"
    if fmt == "csv":
        return "summary.csv"
    return "summary_results.json" if shape == "summary_results" else "summary.json"


def _dates(published: dt.date, retrieved: dt.date | None, today: dt.date) -> dt.date:
    got = retrieved or today
    if got < published:
        raise ManifestError(
            f"retrieved {got.isoformat()} is before the publication date {published.isoformat()}"
        )
    if got > today:
        raise ManifestError(f"retrieved {got.isoformat()} is in the future (today is {today.isoformat()})")
    return got


def _citation(citation: str | None, version: str) -> str:
    if citation is None:
        return OFFICIAL_SOURCE.format(version=version)
    if not re.fullmatch(r"https?://\S+", citation):
        raise ManifestError(f"--cite {citation!r}: footnotes cite a public http(s) URL, not a local path")
    return citation


def _obtain(source: str, work: Path, *, allow_file: bool) -> tuple[Path, str]:
    """The source's bytes in *work*, named by the format its content has; (path, format)."""
    if re.match(r"[a-z][a-z0-9+.-]*://", source, re.I):
        check_url(source, allow_file=allow_file)
        part = work / "download.part"
        Download(source, part).run()
    else:
        part = Path(source)
        if not part.is_file():
            raise ManifestError(f"{source}: file not found")
    data = part.read_bytes()
    fmt = sniff(data[:512])
    if fmt in ("empty", "html"):
        raise ManifestError(f"{source}: {'empty' if fmt == 'empty' else 'an HTML page'}, not a results file")
    staged = work / f"staged.{fmt}"
    staged.write_bytes(data)
    return staged, fmt


def _inside(path: Path, folder: Path) -> Path:
    resolved = path.resolve()
    if folder.resolve() not in resolved.parents:
        raise ManifestError(f"{path}: outside the results folder {folder}; refusing to write it")
    return resolved


def add_round(
    manifest: Manifest,
    version: str,
    source: str,
    *,
    published: dt.date,
    retrieved: dt.date | None = None,
    results_dir: Path = Path("results"),
    citation: str | None = None,
    source_label: str | None = None,
    compatible_with: list[str] | None = None,
    replace_existing: bool = False,
    allow_file: bool = False,
    today: dt.date | None = None,
) -> Added:
    """Validate *source* (a file or URL) as round *version*, then store and register it."""
    v = check_version(version)
    rounds_toml = manifest.data_dir / "rounds.toml"
    if manifest.data_dir == DEFAULTS_DIR:
        raise ManifestError(
            f"{rounds_toml}: the packaged defaults are never changed; run add-round inside a publication "
            "(one with mkdocs.yml; `gpu-insights init DIR` makes one) or pass --data-dir"
        )
    if v in manifest.rounds and not replace_existing:
        raise ManifestError(f"{rounds_toml}: round {v} is already registered; pass --replace to update it")
    got = _dates(published, retrieved, today or dt.date.today())
    cite = _citation(citation, v)
    compat = tuple(check_version(c) for c in (compatible_with or []))
    results_dir = Path(results_dir)
    with tempfile.TemporaryDirectory(prefix=".gpu-insights-add-") as tmp:
        staged, fmt = _obtain(source, Path(tmp), allow_file=allow_file)
        df, report = read_results(staged, manifest, version=v)  # raises DataError on bad input
        name = canonical_name(fmt, "summary_results" if report.shape == "summary_results" else "checker")
        target = _inside(results_dir / f"v{v}" / name, results_dir)
        for other in round_files(results_dir, v):
            if other.name != name:
                check_agreement(df, read_results(other, manifest, version=v)[0], staged, other)
        rnd = Round(
            version=v,
            published=published,
            retrieved=got,
            source=cite,
            source_label=source_label or name,
            download_url=source if "://" in source else "",
            file=name,
            sha256=sha256_of(staged),
            compatible_with=compat,
        )
        new_manifest = render_manifest(rounds_toml, rnd, replace_existing=replace_existing)
        _commit(staged, target, rounds_toml, new_manifest)
    return Added(rnd, target, replace(report, path=target), v in manifest.rounds)


def _commit(staged: Path, target: Path, rounds_toml: Path, manifest_text: str) -> None:
    """Store the file and the manifest; undo the file if the manifest cannot be written."""
    target.parent.mkdir(parents=True, exist_ok=True)
    backup = target.with_name(target.name + ".previous") if target.exists() else None
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    shutil.copyfile(staged, tmp)
    if backup is not None:
        os.replace(target, backup)
    os.replace(tmp, target)
    try:
        mtmp = rounds_toml.with_name(f".{rounds_toml.name}.{os.getpid()}.tmp")
        mtmp.write_text(manifest_text, encoding="utf-8")
        os.replace(mtmp, rounds_toml)
    except OSError:
        if backup is not None:
            os.replace(backup, target)
        else:
            target.unlink(missing_ok=True)
        raise
    if backup is not None:
        backup.unlink()


def round_block(rnd: Round) -> str:
    data = {
        "version": rnd.version,
        "published": rnd.published,
        "retrieved": rnd.retrieved,
        "source": rnd.source,
        "source_label": rnd.source_label,
        "download_url": rnd.download_url,
        "file": rnd.file,
        "sha256": rnd.sha256 or "",
        "compatible_with": list(rnd.compatible_with),
    }
    body = tomli_w.dumps({k: v for k, v in data.items() if v != "" or k == "download_url"})
    waivers = "".join(
        "\n[[round.waiver]]\n" + tomli_w.dumps({"entry": w.entry, "field": w.field, "reason": w.reason})
        for w in rnd.waivers
    )
    return "[[round]]\n" + body + waivers


def render_manifest(path: Path, rnd: Round, *, replace_existing: bool) -> str:
    """``rounds.toml`` with one ``[[round]]`` block appended or replaced, comments and order kept;
    checked to load before it is returned."""
    text = data_file(path.parent, path.name).read_text("utf-8")  # the packaged one until overridden
    parts = re.split(r"(?m)^(?=\[\[round\]\]\s*$)", text)
    head, blocks = parts[0], parts[1:]
    new_block = round_block(rnd)
    found = False
    for i, b in enumerate(blocks):
        m = re.search(r'(?m)^version\s*=\s*"([^"]+)"', b)
        if m and normalize_version(m.group(1)) == rnd.version:
            if not replace_existing:
                raise ManifestError(f"{path}: round {rnd.version} is already registered")
            blocks[i] = new_block + "\n"
            found = True
    if not found:
        if blocks and not blocks[-1].endswith("\n\n"):
            blocks[-1] = blocks[-1].rstrip("\n") + "\n\n"
        blocks.append(new_block)
    out = head + "".join(blocks)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "rounds.toml"
        probe.write_text(out, encoding="utf-8")
        load_rounds(probe)  # never write a manifest that does not load
    return out
