"""The project's own data files: round manifest, accelerator families, benchmark rules.

``data/rounds.toml``, ``data/accelerators.toml`` and ``data/benchmarks.toml`` are
written by the project (not copied from MLCommons). They load into the small,
immutable objects below, which the rest of the pipeline receives explicitly.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import json
import re
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.data.compat import Compatibility, Verdict, load_compatibility
from generator.errors import GpuInsightsError, ManifestError
from generator.project import DEFAULTS_DIR, data_file

#: the packaged defaults (never the checkout the package happens to be installed from)
DATA_DIR = DEFAULTS_DIR


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

    def source_of(self, suite: str = "datacenter") -> str:
        """Where readers find the round's *suite* results: ``source`` with ``{suite}`` filled in
        ("https://mlcommons.org/benchmarks/inference-{suite}/" is one page per suite)."""
        return self.source.replace("{suite}", suite)


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
        return _classify(self, accelerator.strip())

    def __hash__(self) -> int:  # by identity: a map is read once per load, and memoized by it
        return id(self)

    def is_cpu_only(self, accelerator: str) -> bool:
        return accelerator.strip() in self.cpu_only

    def vendor(self, family: str) -> str:
        for f in self.families:
            if f.name == family:
                return f.vendor
        return ""


@functools.lru_cache(maxsize=4096)
def _classify(fm: FamilyMap, text: str) -> tuple[str, bool]:
    """:meth:`FamilyMap.classify` of a stripped string (a round repeats a few hundred of them)."""
    if text in fm.cpu_only:
        return "", False
    found = [f.name for f in fm.families if any(p.search(text) for p in f.patterns)]
    if not found:
        return "", False
    return "+".join(found), len(found) > 1


@dataclass(frozen=True)
class BenchmarkRule:
    key: str
    name: str
    kind: str = ""
    aliases: tuple[str, ...] = ()
    latency: dict[str, dict[str, float]] = field(default_factory=dict)


@dataclass(frozen=True)
class BenchmarkRules:
    """Benchmark names, aliases, latency bounds, accepted units and scenarios."""

    benchmarks: dict[str, BenchmarkRule]
    units: dict[str, str]
    scenarios: tuple[str, ...]
    maxima: dict[str, float] = field(default_factory=dict)  # largest plausible system result per unit
    minima: dict[str, float] = field(default_factory=dict)  # smallest plausible system result per unit
    per_accelerator_maxima: dict[str, float] = field(default_factory=dict)

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

    def plausible_max(self, units: str) -> float | None:
        return self.maxima.get(units)

    def plausible_min(self, units: str) -> float | None:
        return self.minima.get(units)

    def plausible_max_per_accelerator(self, units: str) -> float | None:
        return self.per_accelerator_maxima.get(units)


#: submitter kinds of ``data/submitters.toml``
SUBMITTER_KINDS = {
    "cloud": "cloud provider",
    "neocloud": "neocloud (GPU cloud)",
    "oem": "OEM/ODM system builder",
    "chip": "chip vendor",
    "software": "software or other",
}

#: the kind of an organisation ``data/submitters.toml`` does not classify: counted as such
#: (a round overview's table of organisations by kind has a line of them), never dropped
UNCLASSIFIED = "unclassified"


@dataclass(frozen=True)
class Submitter:
    """One submitter name of the official files, classified by the project."""

    name: str
    kind: str = ""  # a key of SUBMITTER_KINDS; "" for joint submissions (their members have kinds)
    members: tuple[str, ...] = ()  # organisations of a joint submission
    organisation: str = ""  # the organisation this name spells (``ORACLE`` -> ``Oracle``)
    source: str = ""  # where the classification comes from


@dataclass(frozen=True)
class Submitters:
    """``data/submitters.toml``: submitter kinds and joint submissions' members."""

    entries: dict[str, Submitter]

    def organisations(self, name: str) -> tuple[str, ...]:
        """The organisations behind a submitter name: ``Dell_AMD`` -> ``("Dell", "AMD")``."""
        s = self.entries.get(name)
        if s is None:
            return (name,)
        if s.members:
            return tuple(o for m in s.members for o in self.organisations(m))
        return (s.organisation or name,)

    def kinds(self, name: str) -> tuple[str, ...]:
        """Kinds of a submitter (a joint submission has its members' kinds)."""
        out: list[str] = []
        for org in self.organisations(name):
            s = self.entries.get(org)
            if s is not None and s.kind and s.kind not in out:
                out.append(s.kind)
        return tuple(out)

    def kind_of(self, organisation: str) -> str:
        """An organisation's kind (one of :meth:`organisations`): :data:`UNCLASSIFIED` when
        ``data/submitters.toml`` gives none."""
        s = self.entries.get(organisation)
        return s.kind if s is not None and s.kind else UNCLASSIFIED

    def kind(self, name: str) -> str:
        """``|cloud|`` style text of the kinds of a submitter's organisations, ``|unclassified|``
        for one the file does not classify (for matching in a column)."""
        return "|" + "|".join(dict.fromkeys(self.kind_of(o) for o in self.organisations(name))) + "|"

    def members_text(self, name: str) -> str:
        return "|" + "|".join(self.organisations(name)) + "|"


def load_submitters(path: Path) -> Submitters:
    """Read ``data/submitters.toml`` (absent: nothing classified)."""
    if not path.exists():
        return Submitters({})
    entries: dict[str, Submitter] = {}
    data = read_toml(path)
    _check_shape(path, data, "submitters")
    for name, item in data.get("submitter", {}).items():
        kind = str(item.get("kind", ""))
        members = tuple(str(m) for m in item.get("members", []))
        if kind and kind not in SUBMITTER_KINDS:
            raise ManifestError(
                f"{path}: submitter {name!r}: kind {kind!r} is not one of {', '.join(SUBMITTER_KINDS)}"
            )
        if not kind and not members and not item.get("organisation"):
            raise ManifestError(f"{path}: submitter {name!r} needs a kind, members or organisation")
        if not item.get("source"):
            raise ManifestError(f"{path}: submitter {name!r} needs a source for its classification")
        entries[str(name)] = Submitter(
            str(name), kind, members, str(item.get("organisation", "")), str(item["source"])
        )
    for s in entries.values():
        missing = [m for m in (*s.members, s.organisation) if m and m not in entries]
        if missing:
            raise ManifestError(
                f"{path}: submitter {s.name!r} names {', '.join(missing)}, which has no entry"
            )
    return Submitters(entries)


@dataclass(frozen=True)
class Manifest:
    """Everything under ``data/`` the project wrote itself."""

    rounds: dict[str, Round]
    families: FamilyMap
    rules: BenchmarkRules
    data_dir: Path
    submitters: Submitters = field(default_factory=lambda: Submitters({}))
    compat: Compatibility = field(default_factory=lambda: Compatibility(("",), (), ()))

    def comparable(self, benchmark: str, suite: str, old: str, new: str, scenario: str = "") -> Verdict:
        """The Compatibility Table's verdict on comparing *benchmark*'s results of rounds *old*
        and *new* in *suite*, with ``compatible_with`` deciding for rounds newer than the table."""
        return self.compat.verdict(
            self.rules.canonical_benchmark(benchmark),
            suite,
            normalize_version(old),
            normalize_version(new),
            scenario=scenario,
            compatible_with={v: r.compatible_with for v, r in self.rounds.items()},
        )

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


def read_toml(path: Path) -> dict[str, Any]:
    """A project data file (``data/*.toml``); every way it can be unreadable (not UTF-8, invalid
    or too deeply nested TOML, a folder) is a :class:`ManifestError` naming it."""
    with _unreadable(path, ManifestError, "TOML", "arrays or tables"):
        try:
            with path.open("rb") as fh:
                return tomllib.load(fh)
        except FileNotFoundError:
            raise ManifestError(f"{path}: file not found") from None
        except tomllib.TOMLDecodeError as exc:
            raise ManifestError(f"{path}: invalid TOML: {exc}") from None


def read_json(
    path: Path,
    error: type[GpuInsightsError] = ManifestError,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
    seen: Callable[[str], None] | None = None,
) -> Any:
    """A JSON file; every way it can be unreadable (not UTF-8, invalid or too deeply nested JSON,
    an integer of more digits than Python converts, a folder) is an *error* naming it. A UTF-8
    byte order mark before it is read as the CSV reader reads one: as nothing. *seen* is given
    the file's text before it is parsed."""
    with _unreadable(path, error, "JSON", "arrays or objects"):
        try:
            text = path.read_bytes().decode("utf-8-sig")
            if seen is not None:
                seen(text)
            return json.loads(text, object_pairs_hook=object_pairs_hook)
        except json.JSONDecodeError as exc:
            raise error(f"{path}: line {exc.lineno} column {exc.colno}: invalid JSON: {exc.msg}") from None


@contextlib.contextmanager
def _unreadable(path: Path, error: type[GpuInsightsError], fmt: str, nested: str) -> Iterator[None]:
    """What :func:`read_toml` and :func:`read_json` share: a file that is not UTF-8, nested too
    deeply, holds a number of more digits than Python converts, or cannot be read is an *error*
    naming it (each reader reports its own format's syntax errors first)."""
    try:
        yield
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    except RecursionError:
        raise error(f"{path}: invalid {fmt}: {nested} nested too deeply") from None
    except ValueError as exc:  # a number of more digits than Python converts
        raise error(f"{path}: invalid {fmt}: {exc}") from None
    except OSError as exc:
        raise error(f"{path}: cannot read it: {exc.strerror or exc}") from None


def _expect(path: Path, where: str, value: Any, kind: type | tuple[type, ...], what: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, kind):
        raise ManifestError(f"{path}: {where}: expected {what}, got {type(value).__name__} {value!r:.60}")
    return value


def _tables(path: Path, where: str, value: Any) -> list[dict[str, Any]]:
    """An array of tables (``[[round]]``), each checked to be a table."""
    items = _expect(path, where, value, list, f"tables ([[{where}]])")
    for i, item in enumerate(items, start=1):
        _expect(path, f"{where} #{i}", item, dict, "a table")
    return list(items)


def _named(path: Path, where: str, value: Any) -> dict[str, dict[str, Any]]:
    """A table of tables (``[bench.NAME]``), each checked to be a table."""
    items = _expect(path, where, value, dict, f"tables ([{where}.NAME])")
    for name, item in items.items():
        _expect(path, f"{where}.{name}", item, dict, "a table")
    return dict(items)


def _texts(path: Path, where: str, value: Any) -> None:
    """A list of text values (``["a", "b"]``)."""
    for v in _expect(path, where, value, list, 'a list of text ["..."]'):
        _expect(path, where, v, str, 'a list of text ["..."]')


def _check_shape(path: Path, data: dict[str, Any], kind: str) -> None:
    """Refuse a data file whose tables and lists are not the shape its loader reads, naming the
    file and the key (instead of a TypeError deep in the loader)."""
    if kind == "rounds":
        for i, item in enumerate(_tables(path, "round", data.get("round", [])), start=1):
            for w in _tables(path, f"round #{i}: waiver", item.get("waiver", [])):
                for key in ("entry", "field"):
                    _expect(path, f"round #{i}: waiver: {key}", w.get(key), str, "text")
            _texts(path, f"round #{i}: compatible_with", item.get("compatible_with", []))
    elif kind == "families":
        for i, item in enumerate(_tables(path, "family", data.get("family", [])), start=1):
            _expect(path, f"family #{i}: name", item.get("name"), str, "text")
            _texts(path, f"family {item['name']!r}: patterns", item.get("patterns"))
        _texts(path, "cpu_only", data.get("cpu_only", []))
    elif kind == "rules":
        for key, item in _named(path, "bench", data.get("bench", {})).items():
            if "compatible_since" in item:
                raise ManifestError(
                    f"{path}: bench.{key}: compatible_since is no longer read: which rounds may be "
                    "compared is recorded per suite in compatibility.toml (the MLPerf® Compatibility Table)"
                )
            _texts(path, f"bench.{key}: aliases", item.get("aliases", []))
            _named(path, f"bench.{key}.latency", item.get("latency", {}))
        _expect(path, "units", data.get("units", {}), dict, "a table ([units])")
        scenarios = _expect(path, "scenarios", data.get("scenarios", {}), dict, "a table ([scenarios])")
        _texts(path, "scenarios: canonical", scenarios.get("canonical", []))
    elif kind == "submitters":
        for name, item in _named(path, "submitter", data.get("submitter", {})).items():
            _texts(path, f"submitter {name!r}: members", item.get("members", []))


def load_prices(path: Path) -> tuple[dict[str, float], dict[str, float]]:
    """``data/prices.toml``: ``[price]`` and ``[assumption]`` tables of numbers (absent: none).

    Every problem is a :class:`ManifestError` naming the file and the key."""
    if not path.exists():
        return {}, {}
    data = read_toml(path)
    out: list[dict[str, float]] = []
    for table in ("price", "assumption"):
        items = data.get(table, {})
        if not isinstance(items, dict):
            raise ManifestError(f"{path}: [{table}] must be a table of numbers (name = 5.00)")
        numbers: dict[str, float] = {}
        for k, v in items.items():
            if isinstance(v, bool) or not isinstance(v, int | float) or v != v or abs(v) == float("inf"):
                raise ManifestError(f"{path}: {table}.{k}: {v!r} is not a number (write {k} = 5.00)")
            numbers[str(k)] = float(v)
        out.append(numbers)
    return out[0], out[1]


def _date(path: Path, where: str, value: Any) -> dt.date:
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise ManifestError(f"{path}: {where}: not a date (YYYY-MM-DD): {value!r}") from None


def load_rounds(path: Path) -> dict[str, Round]:
    data = read_toml(path)
    _check_shape(path, data, "rounds")
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
        if not re.fullmatch(r"[0-9]+\.[0-9]+", version, re.ASCII):  # it names folders: v<version>/
            raise ManifestError(f"{path}: {where}: version {item['version']!r} is not MAJOR.MINOR (e.g. 6.1)")
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
    data = read_toml(path)
    _check_shape(path, data, "families")
    families = []
    for item in data.get("family", []):
        try:
            pats = tuple(re.compile(p, re.IGNORECASE) for p in item["patterns"])
        except re.error as exc:
            raise ManifestError(f"{path}: family {item.get('name')!r}: bad pattern: {exc}") from None
        families.append(Family(str(item["name"]), str(item.get("vendor", "")), pats))
    return FamilyMap(tuple(families), frozenset(data.get("cpu_only", ["", "N/A"])))


def load_rules(path: Path) -> BenchmarkRules:
    data = read_toml(path)
    _check_shape(path, data, "rules")
    benches = {}
    for key, item in data.get("bench", {}).items():
        benches[key] = BenchmarkRule(
            key=key,
            name=str(item.get("name", key)),
            kind=str(item.get("kind", "")),
            aliases=tuple(item.get("aliases", [])),
            latency={s: dict(v) for s, v in item.get("latency", {}).items()},
        )
    units: dict[str, str] = {}
    bounds: dict[str, dict[str, float]] = {}
    for unit, spec in data.get("units", {}).items():
        kind = spec.get("kind") if isinstance(spec, dict) else spec
        if kind not in ("throughput", "latency"):
            raise ManifestError(f"{path}: units: {unit!r}: kind must be 'throughput' or 'latency'")
        units[str(unit)] = str(kind)
        for key in UNIT_BOUNDS:
            if isinstance(spec, dict) and key in spec:
                try:
                    bounds.setdefault(key, {})[str(unit)] = float(spec[key])
                except (TypeError, ValueError):
                    raise ManifestError(f"{path}: units: {unit!r}: {key} must be a number") from None
    scenarios = tuple(data.get("scenarios", {}).get("canonical", []))
    return BenchmarkRules(
        benches,
        units,
        scenarios,
        bounds.get("max", {}),
        bounds.get("min", {}),
        bounds.get("max_per_accelerator", {}),
    )


#: plausibility bounds a unit may set: the system result's range, and the per-accelerator maximum
UNIT_BOUNDS = ("max", "min", "max_per_accelerator")


def load_manifest(data_dir: Path | None = None) -> Manifest:
    """Load ``rounds.toml``, ``accelerators.toml``, ``benchmarks.toml``, ``submitters.toml`` and
    ``compatibility.toml`` from *data_dir*; a file the publication does not have is the packaged
    default."""
    d = Path(data_dir) if data_dir else DATA_DIR
    return Manifest(
        rounds=load_rounds(data_file(d, "rounds.toml")),
        families=load_families(data_file(d, "accelerators.toml")),
        rules=load_rules(data_file(d, "benchmarks.toml")),
        data_dir=d,
        submitters=load_submitters(data_file(d, "submitters.toml")),
        compat=load_compat(data_file(d, "compatibility.toml")),
    )


def load_compat(path: Path) -> Compatibility:
    return load_compatibility(path, read_toml(path))
