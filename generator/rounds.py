"""Register a new round: validate its official file and add it to ``data/rounds.toml``."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import tomli_w

from .errors import ManifestError
from .fetch import fetch_round, sha256_of
from .manifest import Manifest, Round, load_rounds, normalize_version
from .results import LoadReport, read_results


@dataclass(frozen=True)
class Added:
    round: Round
    path: Path
    report: LoadReport
    replaced: bool


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
    replace: bool = False,
) -> Added:
    """Copy or download *source* into ``results_dir/v<version>/``, validate it, register it."""
    v = normalize_version(version)
    rounds_toml = manifest.data_dir / "rounds.toml"
    if v in manifest.rounds and not replace:
        raise ManifestError(f"{rounds_toml}: round {v} is already registered; pass --replace to update it")
    is_url = bool(re.match(r"https?://", source))
    name = Path(source.split("?")[0]).name if is_url else Path(source).name
    if not name.lower().endswith((".json", ".csv", ".xlsx")):
        raise ManifestError(f"{source}: expected an official results file (.json, .csv or .xlsx)")
    rnd = Round(
        version=v,
        published=published,
        retrieved=retrieved or dt.date.today(),
        source=citation or (source if is_url else str(Path(source).resolve())),
        source_label=source_label or name,
        download_url=source if is_url else "",
        file=name,
        compatible_with=tuple(normalize_version(c) for c in (compatible_with or [])),
    )
    target = Path(results_dir) / rnd.label / name
    if is_url:
        target = fetch_round(rnd, results_dir).path
    else:
        src = Path(source)
        if not src.is_file():
            raise ManifestError(f"{src}: file not found")
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.resolve() != target.resolve():
            shutil.copyfile(src, target)
    _, report = read_results(target, manifest, version=v)  # raises DataError on bad input
    rnd = Round(**{**rnd.__dict__, "sha256": sha256_of(target)})
    write_round(rounds_toml, rnd, replace=replace)
    return Added(rnd, target, report, v in manifest.rounds)


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


def write_round(path: Path, rnd: Round, *, replace: bool) -> None:
    """Append (or replace) one ``[[round]]`` block, keeping the file's comments and order."""
    text = path.read_text("utf-8")
    parts = re.split(r"(?m)^(?=\[\[round\]\]\s*$)", text)
    head, blocks = parts[0], parts[1:]
    new_block = round_block(rnd)
    found = False
    for i, b in enumerate(blocks):
        m = re.search(r'(?m)^version\s*=\s*"([^"]+)"', b)
        if m and normalize_version(m.group(1)) == rnd.version:
            if not replace:
                raise ManifestError(f"{path}: round {rnd.version} is already registered")
            blocks[i] = new_block + "\n"
            found = True
    if not found:
        if blocks and not blocks[-1].endswith("\n\n"):
            blocks[-1] = blocks[-1].rstrip("\n") + "\n\n"
        blocks.append(new_block)
    out = head + "".join(blocks)
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(out, encoding="utf-8")
    load_rounds(tmp)  # never write a manifest that does not load
    tmp.replace(path)
