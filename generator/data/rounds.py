"""Register a new round: validate its official file, store it, add it to ``data/rounds.toml``.

Nothing is written until everything is known to be good: the version is checked,
the file (local or downloaded) is parsed and validated as that round's results,
it agrees with any other file of the round already stored, and the new manifest
loads. Only then is the file stored, under its canonical name inside the results
folder, and the manifest replaced; a failure at any step leaves files and manifest
exactly as they were.

Replacing a registered round (``--replace``) keeps every field the command does not give
(citation, label, download URL, compatible rounds, waivers), and edits only the lines of its
``[[round]]`` table that change: comments, the other rounds and the waivers stay byte for byte.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import ipaddress
import os
import re
import shutil
import tempfile
import tomllib
import urllib.parse
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import tomli_w

from generator.data.fetch import MAX_BYTES, Download, check_url, sha256_of, sniff
from generator.data.manifest import Manifest, Round, load_rounds, normalize_version
from generator.data.results import LoadReport, check_agreement, read_results, round_files
from generator.errors import DataError, ManifestError
from generator.project import DEFAULTS_DIR, data_file

if TYPE_CHECKING:
    import pandas as pd

#: MAJOR.MINOR in ASCII digits, without leading zeros (``7.0``, ``0.5``; never ``07.0`` or ``٧.٠``)
VERSION = re.compile(r"(?:0|[1-9][0-9]*)\.(?:0|[1-9][0-9]*)", re.ASCII)
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
    try:
        host = (urllib.parse.urlsplit(citation).hostname or "").rstrip(".")
    except ValueError:
        host = ""
    why = _not_public(host)
    if why:
        raise ManifestError(f"--cite {citation!r}: footnotes cite a public http(s) URL; {why}")
    return citation


def _not_public(host: str) -> str:
    """Why *host* is not one readers can reach (loopback, private network, no domain), or ''."""
    if not host:
        return "it names no host"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        if host.lower() == "localhost" or host.lower().endswith(".localhost"):
            return f"{host} is this computer"
        if "." not in host or host.lower().endswith((".local", ".internal", ".lan", ".home.arpa")):
            return f"{host} is a local network name"
        return ""
    if ip.is_loopback:
        return f"{host} is this computer"
    if not ip.is_global:
        return f"{host} is a private or reserved address"
    return ""


def _compatible(
    manifest: Manifest, version: str, given: list[str] | None, rounds_toml: Path
) -> tuple[str, ...]:
    """The rounds given with --compatible-with: each registered, none the round itself."""
    out = []
    for c in given or []:
        cv = check_version(c)
        if cv == version:
            raise ManifestError(f"--compatible-with {c}: a round is not compared with itself")
        if cv not in manifest.rounds:
            known = ", ".join(sorted(manifest.rounds)) or "none"
            raise ManifestError(
                f"--compatible-with {c}: round {cv} is not registered in {rounds_toml} (known rounds: {known})"
            )
        out.append(cv)
    return tuple(out)


def _obtain(source: str, work: Path, *, allow_file: bool) -> tuple[Path, str]:
    """The source's bytes in *work*, named by the format its content has; (path, format)."""
    if re.match(r"[a-z][a-z0-9+.-]*://", source, re.I):
        check_url(source, allow_file=allow_file)
        part = work / "download.part"
        Download(source, part).run()
    else:
        part = Path(source)
        if not part.exists():
            raise ManifestError(f"{source}: file not found")
        if not part.is_file():
            raise ManifestError(f"{source}: not a regular file (a folder, a device or a pipe)")
        if part.stat().st_size > MAX_BYTES:
            raise ManifestError(f"{source}: over the {MAX_BYTES:,}-byte cap of a results file")
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
    """Validate *source* (a file or URL) as round *version*, then store and register it.

    Replacing a registered round keeps each field not given here (citation, label, download
    URL, compatible rounds, retrieval date, waivers)."""
    v = check_version(version)
    rounds_toml = manifest.data_dir / "rounds.toml"
    if manifest.data_dir == DEFAULTS_DIR:
        raise ManifestError(
            f"{rounds_toml}: the packaged defaults are never changed; run add-round inside a publication "
            "(one with mkdocs.yml; `gpu-insights init DIR` makes one) or pass --data-dir"
        )
    if not manifest.data_dir.is_dir():
        raise ManifestError(
            f"{manifest.data_dir}: no such folder (the data folder rounds.toml is written in)"
        )
    if v in manifest.rounds and not replace_existing:
        raise ManifestError(f"{rounds_toml}: round {v} is already registered; pass --replace to update it")
    old = manifest.rounds.get(v)
    got = _dates(published, retrieved or (old.retrieved if old else None), today or dt.date.today())
    cite = _citation(citation, v) if citation is not None or old is None else old.source
    compat = _compatible(manifest, v, compatible_with, rounds_toml)
    results_dir = Path(results_dir)
    with tempfile.TemporaryDirectory(prefix=".gpu-insights-add-") as tmp:
        staged, fmt = _obtain(source, Path(tmp), allow_file=allow_file)
        df, report = _validated(staged, source, manifest, v)
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
            source_label=source_label or _kept_label(old, name),
            download_url=source if "://" in source else (old.download_url if old else ""),
            file=name,
            sha256=sha256_of(staged),
            compatible_with=compat or (old.compatible_with if old else ()),
            waivers=old.waivers if old else (),
        )
        new_manifest = render_manifest(rounds_toml, rnd, replace_existing=replace_existing)
        _commit(staged, target, rounds_toml, new_manifest)
    return Added(rnd, target, replace(report, path=target), v in manifest.rounds)


def _validated(
    staged: Path, source: str, manifest: Manifest, version: str
) -> tuple[pd.DataFrame, LoadReport]:
    """The rows of the staged copy as round *version*; a DataError names *source*, not the copy."""
    try:
        return read_results(staged, manifest, version=version)
    except DataError as exc:
        raise DataError(exc.message.replace(str(staged), source)) from None


def _kept_label(old: Round | None, name: str) -> str:
    """The label a replaced round keeps: its own, unless it only named the file it had."""
    return old.source_label if old is not None and old.source_label != old.file else name


def _commit(staged: Path, target: Path, rounds_toml: Path, manifest_text: str) -> None:
    """Store the file and the manifest; undo everything (folders made too) if either fails."""
    made = [d for d in (target.parent, *target.parent.parents) if not d.exists()]
    backup = target.with_name(target.name + ".previous") if target.exists() else None
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    stored = False
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(staged, tmp)
        if backup is not None:
            os.replace(target, backup)
        os.replace(tmp, target)
        stored = True
        mtmp = rounds_toml.with_name(f".{rounds_toml.name}.{os.getpid()}.tmp")
        mtmp.write_text(manifest_text, encoding="utf-8")
        os.replace(mtmp, rounds_toml)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
            if backup is not None and backup.exists():
                os.replace(backup, target)
            elif stored:
                target.unlink(missing_ok=True)
        for d in made:  # innermost first
            with contextlib.suppress(OSError):
                d.rmdir()
        where = exc.filename or target
        raise ManifestError(
            f"cannot store round files: {exc.strerror or exc} ({where}); nothing was changed"
        ) from None
    if backup is not None:
        backup.unlink()


def round_fields(rnd: Round) -> dict[str, object]:
    """The fields of a ``[[round]]`` table, dates written as quoted text (as ``rounds.toml`` does)."""
    return {
        "version": rnd.version,
        "published": rnd.published.isoformat(),
        "retrieved": rnd.retrieved.isoformat(),
        "source": rnd.source,
        "source_label": rnd.source_label,
        "download_url": rnd.download_url,
        "file": rnd.file,
        "sha256": rnd.sha256 or "",
        "compatible_with": list(rnd.compatible_with),
    }


def round_block(rnd: Round) -> str:
    data = round_fields(rnd)
    body = tomli_w.dumps({k: v for k, v in data.items() if v != "" or k == "download_url"})
    waivers = "".join(
        "\n[[round.waiver]]\n" + tomli_w.dumps({"entry": w.entry, "field": w.field, "reason": w.reason})
        for w in rnd.waivers
    )
    return "[[round]]\n" + body + waivers


def _same_value(old: object, new: object) -> bool:
    if isinstance(old, dt.date):
        old = old.isoformat()
    if old is None:
        old = [] if isinstance(new, list) else ""
    if isinstance(old, list) and isinstance(new, list):
        return [normalize_version(str(x)) for x in old] == new
    return str(old) == str(new) if not isinstance(old, list) else False


def _key_span(lines: list[str], key: str, start: int, end: int) -> tuple[int, int] | None:
    """Lines ``[i, j)`` holding ``key = value`` (a value may span lines) in ``lines[start:end]``."""
    pattern = re.compile(rf"\s*{re.escape(key)}\s*=")
    for i in range(start, end):
        if pattern.match(lines[i]):
            for j in range(i + 1, end + 1):
                try:
                    tomllib.loads("".join(lines[i:j]))
                    return i, j
                except tomllib.TOMLDecodeError:
                    continue
            return i, i + 1
    return None


def edit_block(block: str, rnd: Round) -> str:
    """A registered round's ``[[round]]`` table with only the lines whose values change rewritten;
    comments, key order, other lines and its waivers kept byte for byte."""
    lines = block.splitlines(keepends=True)
    # the round's own keys end at the next table header ([[round.waiver]])
    end = next((i for i in range(1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
    current = tomllib.loads("".join(lines[1:end]))
    previous_key = 0
    for key, value in round_fields(rnd).items():
        span = _key_span(lines, key, 1, end)
        if _same_value(current.get(key), value):
            previous_key = span[1] if span else previous_key
            continue
        text = tomli_w.dumps({key: value})
        if span is None:  # a field the table did not have: after the one before it (or at its end)
            at = previous_key or next(i for i in range(end, 0, -1) if lines[i - 1].strip())
            lines.insert(at, text)
            end, previous_key = end + 1, at + 1
        else:
            lines[span[0] : span[1]] = [text]
            end -= span[1] - span[0] - 1
            previous_key = span[0] + 1
    return "".join(lines)


def render_manifest(path: Path, rnd: Round, *, replace_existing: bool) -> str:
    """``rounds.toml`` with one ``[[round]]`` block appended or edited in place (every other byte
    kept); checked to load before it is returned."""
    text = data_file(path.parent, path.name).read_text("utf-8")  # the packaged one until overridden
    parts = re.split(r"(?m)^(?=\[\[round\]\]\s*$)", text)
    head, blocks = parts[0], parts[1:]
    found = False
    for i, b in enumerate(blocks):
        m = re.search(r'(?m)^version\s*=\s*"([^"]+)"', b)
        if m and normalize_version(m.group(1)) == rnd.version:
            if not replace_existing:
                raise ManifestError(f"{path}: round {rnd.version} is already registered")
            blocks[i] = edit_block(b, rnd)
            found = True
    out = head + "".join(blocks)
    if not found:
        sep = "" if out.endswith("\n\n") or not out else "\n" if out.endswith("\n") else "\n\n"
        out += sep + round_block(rnd)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "rounds.toml"
        probe.write_text(out, encoding="utf-8")
        load_rounds(probe)  # never write a manifest that does not load
    return out
