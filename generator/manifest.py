"""The project's own data files: round manifest, accelerator families, benchmark rules.

``data/rounds.toml``, ``data/accelerators.toml`` and ``data/benchmarks.toml`` are
written by the project (not copied from MLCommons). They load into the small,
immutable objects below, which the rest of the pipeline receives explicitly.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ManifestError

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


@dataclass(frozen=True)
class Waiver:
    """A known defect in an official file, accepted on purpose and reported on load."""

    entry: str
    field: str
    reason: str


@dataclass(frozen=True)
class Round:
    """One MLPerf(R) Inference round as the manifest describes it."""

    version: str
    published: dt.date
    retrieved: dt.date
    source: str
    source_label: str
    download_url: str
    file: str
    sha256: str | None = None
    compatible_with: tuple[str, ...] = ()
    waivers: tuple[Waiver, ...] = ()

    @property
    def label(self) -> str:
        return f"v{self.version}"


@dataclass(frozen=True)
class Family:
    name: str
    vendor: str
    patterns: tuple[re.Pattern[str], ...]


@dataclass(frozen=True)
class FamilyMap:
    """Maps official accelerator strings to families (B300, MI355X, ...)."""

    families: tuple[Family, ...]
    cpu_only: frozenset[str]

    def classify(self, accelerator: str) -> tuple[str, bool]:
        """Return ``(family, heterogeneous)`` for an official accelerator string.

        >>> fm.classify("NVIDIA B300-SXM-270GB")
        ('B300', False)
        >>> fm.classify("NVIDIA H200-SXM-141GB + AMD Instinct MI350X 288GB HBM3e")
        ('H200+MI350X', True)

        CPU-only rows give ``("", False)``; strings no family matches give ``("", False)``
        too, and :meth:`is_unmapped` tells them apart.
        """
        text = accelerator.strip()
        if text in self.cpu_only:
            return "", False
        found = [f.name for f in self.families if any(p.search(text) for p in f.patterns)]
        if not found:
            return "", False
        return "+".join(found), len(found) > 1

    def is_cpu_only(self, accelerator: str) -> bool:
        return accelerator.strip() in self.cpu_only

    def vendor(self, family: str) -> str:
        for f in self.families:
            if f.name == family:
                return f.vendor
        return ""


@dataclass(frozen=True)
class BenchmarkRule:
    key: str
    name: str
    kind: str = ""
    aliases: tuple[str, ...] = ()
    latency: dict[str, dict[str, float]] = field(default_factory=dict)
    compatible_since: str = ""  # rounds from this one on are mutually comparable


@dataclass(frozen=True)
class BenchmarkRules:
    """Benchmark names, aliases, latency bounds, accepted units and scenarios."""

    benchmarks: dict[str, BenchmarkRule]
    units: dict[str, str]
    scenarios: tuple[str, ...]

    def canonical_benchmark(self, raw: str) -> str:
        name = raw.strip()
        for rule in self.benchmarks.values():
            if name in rule.aliases:
                return rule.key
        return name

    def canonical_scenario(self, raw: str) -> str | None:
        lowered = raw.strip().lower()
        for s in self.scenarios:
            if s.lower() == lowered:
                return s
        return None

    def display_name(self, benchmark: str) -> str:
        rule = self.benchmarks.get(benchmark)
        return rule.name if rule else benchmark

    def is_latency(self, units: str) -> bool:
        return self.units.get(units) == "latency"


@dataclass(frozen=True)
class Manifest:
    """Everything under ``data/`` the project wrote itself."""

    rounds: dict[str, Round]
    families: FamilyMap
    rules: BenchmarkRules
    data_dir: Path

    def round(self, version: str) -> Round:
        v = normalize_version(version)
        try:
            return self.rounds[v]
        except KeyError:
            known = ", ".join(sorted(self.rounds)) or "none"
            raise ManifestError(
                f"{self.data_dir / 'rounds.toml'}: round {v} is not in the manifest "
                f"(known rounds: {known}); register it with `gpu-insights add-round {v} FILE`"
            ) from None


def normalize_version(version: str) -> str:
    """``"v6.1"`` and ``"6.1"`` both name round ``"6.1"``."""
    return version.strip().lower().removeprefix("v")


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ManifestError(f"{path}: file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{path}: invalid TOML: {exc}") from None


def _date(path: Path, where: str, value: Any) -> dt.date:
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise ManifestError(f"{path}: {where}: not a date (YYYY-MM-DD): {value!r}") from None


def load_rounds(path: Path) -> dict[str, Round]:
    data = _read_toml(path)
    rounds: dict[str, Round] = {}
    for i, item in enumerate(data.get("round", []), start=1):
        where = f"round #{i}"
        missing = [
            k
            for k in ("version", "published", "retrieved", "source", "download_url", "file")
            if k not in item
        ]
        if missing:
            raise ManifestError(f"{path}: {where}: missing field(s): {', '.join(missing)}")
        version = normalize_version(str(item["version"]))
        where = f"round {version}"
        if version in rounds:
            raise ManifestError(f"{path}: {where}: listed twice")
        waivers = tuple(
            Waiver(str(w["entry"]), str(w["field"]), str(w.get("reason", ""))) for w in item.get("waiver", [])
        )
        rounds[version] = Round(
            version=version,
            published=_date(path, f"{where}: published", item["published"]),
            retrieved=_date(path, f"{where}: retrieved", item["retrieved"]),
            source=str(item["source"]),
            source_label=str(item.get("source_label", item["file"])),
            download_url=str(item["download_url"]),
            file=str(item["file"]),
            sha256=item.get("sha256"),
            compatible_with=tuple(normalize_version(v) for v in item.get("compatible_with", [])),
            waivers=waivers,
        )
    return rounds


def load_families(path: Path) -> FamilyMap:
    data = _read_toml(path)
    families = []
    for item in data.get("family", []):
        try:
            pats = tuple(re.compile(p, re.IGNORECASE) for p in item["patterns"])
        except re.error as exc:
            raise ManifestError(f"{path}: family {item.get('name')!r}: bad pattern: {exc}") from None
        families.append(Family(str(item["name"]), str(item.get("vendor", "")), pats))
    return FamilyMap(tuple(families), frozenset(data.get("cpu_only", ["", "N/A"])))


def load_rules(path: Path) -> BenchmarkRules:
    data = _read_toml(path)
    benches = {}
    for key, item in data.get("bench", {}).items():
        benches[key] = BenchmarkRule(
            key=key,
            name=str(item.get("name", key)),
            kind=str(item.get("kind", "")),
            aliases=tuple(item.get("aliases", [])),
            latency={s: dict(v) for s, v in item.get("latency", {}).items()},
            compatible_since=normalize_version(str(item.get("compatible_since", ""))),
        )
    units = {str(k): str(v) for k, v in data.get("units", {}).items()}
    for unit, kind in units.items():
        if kind not in ("throughput", "latency"):
            raise ManifestError(f"{path}: units: {unit!r} must be 'throughput' or 'latency'")
    scenarios = tuple(data.get("scenarios", {}).get("canonical", []))
    return BenchmarkRules(benches, units, scenarios)


def load_manifest(data_dir: Path | None = None) -> Manifest:
    """Load ``rounds.toml``, ``accelerators.toml`` and ``benchmarks.toml`` from *data_dir*."""
    d = Path(data_dir) if data_dir else DATA_DIR
    return Manifest(
        rounds=load_rounds(d / "rounds.toml"),
        families=load_families(d / "accelerators.toml"),
        rules=load_rules(d / "benchmarks.toml"),
        data_dir=d,
    )
