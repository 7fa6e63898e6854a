"""The editor's compliance checker: MLPerf(R) Results Messaging Guidelines, rule by rule.

It reads an article's template source and its rendered Markdown (parsed with
markdown-it-py) and reports :class:`Finding` objects with file, line and column,
like a compiler. Every rule has a stable code, a one-line description and a
default severity that ``data/check.toml`` can change; ``docs/compliance-rules.md``
is generated from :data:`RULES`.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt

from .errors import GpuInsightsError
from .figures import Figure
from .footnotes import NOT_VERIFIED, TRADEMARK
from .manifest import Manifest
from .render import Article, Rendered, Renderer, load_article
from .results import version_key
from .table import Row

SEVERITIES = ("error", "warning", "info", "ignore")


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    description: str
    severity: str
    guideline: str


RULES: dict[str, Rule] = {
    r.code: r
    for r in [
        Rule(
            "MLP000",
            "template-error",
            "The article template does not render (unknown entry, syntax error, undefined name).",
            "error",
            "§2 Required Information",
        ),
        Rule(
            "MLP001",
            "cited-without-footnote",
            "A result cited in the text (printed by a placeholder or typed as an entry ID) that no footnote lists.",
            "error",
            "§2 Required Footnote",
        ),
        Rule(
            "MLP002",
            "figure-without-marker",
            "A paragraph prints results but carries no footnote marker.",
            "warning",
            "§2 Required Footnote",
        ),
        Rule(
            "MLP003",
            "footnote-incomplete",
            "A footnote lacks suite/version/division, benchmark and scenario, retrieval date and source, entry ID, or the trademark legend.",
            "error",
            "§2 Required Footnote, §11.2 Attribution",
        ),
        Rule(
            "MLP004",
            "marker-without-note",
            "A footnote marker points to no note.",
            "error",
            "§2 Required Footnote",
        ),
        Rule(
            "MLP005",
            "note-never-referenced",
            "A footnote that no marker references.",
            "warning",
            "§2 Required Footnote",
        ),
        Rule(
            "MLP006",
            "derived-without-disclaimer",
            'Derived or unverified values without "Result not verified by MLCommons Association." and a statement that derived metrics are not official.',
            "error",
            "§1, §9 Derived metrics",
        ),
        Rule(
            "MLP007",
            "comparison-difference-undisclosed",
            "A comparison whose sides differ in version, division, category, scenario or chip count, with the difference not stated in a section that prints it (all but one of the differing values named; the older versions named).",
            "error",
            "§5 Identify submission differences",
        ),
        Rule(
            "MLP008",
            "open-closed-comparison",
            "An Open-division result compared with a Closed one without saying how it would not qualify as Closed.",
            "error",
            "§5 Identify submission differences",
        ),
        Rule(
            "MLP009",
            "incompatible-rounds",
            "A comparison across rounds that the Compatibility Table (data/benchmarks.toml) marks incompatible.",
            "error",
            "§4 Compatible results",
        ),
        Rule(
            "MLP010",
            "compatibility-unknown",
            "A comparison across rounds for a benchmark whose compatibility is not recorded.",
            "warning",
            "§4 Compatible results",
        ),
        Rule(
            "MLP011",
            "power-without-measurement",
            "A power-normalized claim (per watt, TDP) on results without measured MLPerf power.",
            "error",
            "§6 Official power metrics",
        ),
        Rule(
            "MLP012",
            "mark-without-registered-sign",
            '"MLPerf" without the ® sign.',
            "error",
            "§11.1 Notice Symbol",
        ),
        Rule(
            "MLP013",
            "mark-altered",
            "An altered form of the mark: MLPerfs, MLPerf's, ML-Perf, MLPERF, ML Perf.",
            "error",
            "§11.3 Do not Alter",
        ),
        Rule(
            "MLP014",
            "mark-without-benchmark-name",
            '"MLPerf®" not followed by the full benchmark name.',
            "error",
            "§11.4 Use with Full Benchmark Name",
        ),
        Rule(
            "MLP015",
            "published-too-early",
            "The article's date is earlier than two weeks after the round's official publication.",
            "error",
            "§7 Timing for Results Disclosures",
        ),
        Rule(
            "MLP016",
            "inferred-result",
            "A cited result is marked inferred in the official file.",
            "warning",
            "§10 Statements must be clear and correct",
        ),
        Rule(
            "MLP017",
            "unknown-entry",
            "An entry ID in the text that the loaded results do not contain.",
            "error",
            "§2 Required Footnote",
        ),
        Rule(
            "MLP018",
            "entry-typed-by-hand",
            "An entry ID typed in prose instead of printed with a placeholder, so nothing guarantees that it is cited.",
            "warning",
            "§2 Required Footnote",
        ),
        Rule(
            "MLP019",
            "hand-typed-number",
            "A number typed by hand in prose that no placeholder produced.",
            "error",
            "project rule: every number comes from the data",
        ),
        Rule(
            "MLP020",
            "missing-date",
            "The article's front matter has no publication date, so the timing rule cannot be checked.",
            "warning",
            "§7 Timing for Results Disclosures",
        ),
    ]
}


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    col: int
    rule: str
    severity: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col} {self.rule} {self.severity}: {self.message}"

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "rule": self.rule,
            "name": RULES[self.rule].name,
            "severity": self.severity,
            "message": self.message,
        }


@dataclass
class CheckConfig:
    severities: dict[str, str] = field(default_factory=dict)
    registered: str = "each"
    allowed_after: list[str] = field(default_factory=list)
    number_patterns: list[re.Pattern[str]] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path) -> CheckConfig:
        if not path.exists():
            return cls()
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        sev = {str(k): str(v) for k, v in data.get("severity", {}).items()}
        for code, level in sev.items():
            if code not in RULES:
                raise GpuInsightsError(f"{path}: severity: unknown rule {code!r}")
            if level not in SEVERITIES:
                raise GpuInsightsError(
                    f"{path}: severity: {code} = {level!r}, expected one of {', '.join(SEVERITIES)}"
                )
        mark = data.get("mark", {})
        numbers = data.get("numbers", {})
        return cls(
            severities=sev,
            registered=str(mark.get("registered", "each")),
            allowed_after=list(mark.get("allowed_after", [])),
            number_patterns=[re.compile(p, re.M) for p in numbers.get("allowed_patterns", [])],
        )

    def severity(self, code: str) -> str:
        return self.severities.get(code, RULES[code].severity)


# ---------------------------------------------------------------------------- helpers

JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
MARKER_LINK = re.compile(r"\[\^?\\\[(\d+)\\\]\]\(#mlperf-fn-(\d+)\)")
TYPED_MARKER = re.compile(r"\^\[(\d+)\]")
ENTRY = re.compile(r"(?<![\w.])\d+\.\d+-\d{4}(?!\d)")
NOTE_ANCHOR = re.compile(r'<a id="mlperf-fn-(\d+)"></a>')
ALTERED = re.compile(r"\bMLPerfs\b|\bMLPerf['’]s\b|\bML[- ]Perf\b|\bMLPERF\b|\bMlperf\b|\bmlperf\b")
PER_WATT = re.compile(r"per[ -]watt|/\s?W\b|perf/W|\bTDP\b|tokens/W|inferences/W", re.I)
COMPARISONS = {"ratio", "pct", "scaling", "break_even"}


def mask_jinja(text: str) -> str:
    """Blank out Jinja constructs (keeping newlines) so that only typed prose remains."""
    return JINJA.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def paragraphs(markdown: str) -> list[tuple[int, int, str]]:
    """(first line, last line, text) of each block of the rendered Markdown, via markdown-it."""
    md = MarkdownIt("commonmark").enable("table")
    out = []
    for tok in md.parse(markdown):
        if tok.map and tok.level == 0 and tok.nesting in (1, 0) and tok.type != "hr":
            a, b = tok.map
            out.append((a + 1, b, "\n".join(markdown.splitlines()[a:b])))
    return out


def sections(markdown: str) -> list[tuple[int, int, str]]:
    """(first line, last line, text) of each heading-delimited section."""
    lines = markdown.splitlines()
    starts = [i for i, ln in enumerate(lines) if re.match(r"#{1,6} ", ln)]
    bounds = [0, *starts, len(lines)]
    out = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        if b > a:
            out.append((a + 1, b, "\n".join(lines[a:b])))
    return out


def _block_after(blocks: list[tuple[int, int, str]], line: int) -> str:
    for i, (a, b, _) in enumerate(blocks):
        if a <= line <= b:
            return blocks[i + 1][2] if i + 1 < len(blocks) else ""
    return ""


def _block_of(blocks: list[tuple[int, int, str]], line: int) -> str:
    for a, b, text in blocks:
        if a <= line <= b:
            return text
    return ""


@dataclass
class Note:
    number: int
    line: int  # rendered line
    text: str


HAND_NOTE = re.compile(
    r"^\s*(?:(\d+)\.|\[(\d+)\])\s+(?=.*MLPerf)(?=.*(?:Retrieved|entr(?:y|ies)|trademark|MLCommons))"
)


def notes_of(markdown: str) -> list[Note]:
    """Footnotes: generated ones (with an ``mlperf-fn-N`` anchor) and hand-written ones."""
    notes = []
    for i, ln in enumerate(markdown.splitlines(), start=1):
        m = NOTE_ANCHOR.search(ln)
        if m:
            notes.append(Note(int(m.group(1)), i, ln))
            continue
        h = HAND_NOTE.match(ln)
        if h:
            notes.append(Note(int(h.group(1) or h.group(2)), i, ln))
    return notes


# ---------------------------------------------------------------------------- the checker


class Checker:
    """Checks rendered articles against the guidelines."""

    def __init__(
        self,
        manifest: Manifest,
        config: CheckConfig,
        known_entries: set[str],
        known_benchmarks: Iterable[str] = (),
    ) -> None:
        self.manifest = manifest
        self.config = config
        self.known_entries = known_entries
        rules = manifest.rules
        self.benchmark_names = sorted(
            {
                *known_benchmarks,
                *rules.benchmarks,
                *(rules.display_name(b) for b in known_benchmarks),
                *(b.name for b in rules.benchmarks.values()),
            },
            key=len,
            reverse=True,
        )

    def check(self, rendered: Rendered) -> list[Finding]:
        art = rendered.article
        path = str(art.path)
        out: list[Finding] = []

        def add(code: str, line: int, col: int, message: str) -> None:
            sev = self.config.severity(code)
            if sev != "ignore":
                out.append(Finding(path, line, col, code, sev, message))

        source = art.body
        prose = mask_jinja(source)
        self._marks(prose, add)
        self._typed_numbers(prose, add)
        self._timing(rendered, add)
        if rendered.missing:
            return sorted(out)
        md = rendered.markdown
        blocks = paragraphs(md)
        notes = notes_of(md)
        self._footnotes(rendered, notes, blocks, add)
        self._comparisons(rendered, blocks, add)
        self._power(rendered, blocks, add)
        self._entries(rendered, prose, notes, add)
        for u in rendered.uses:
            for r in u.figure.entries:
                if r.inferred:
                    add(
                        "MLP016",
                        u.line,
                        1,
                        f"entry {r.result_id} {r.benchmark} {r.scenario} is marked inferred in the official file",
                    )
        return sorted(set(out))

    # ------------------------------------------------------------------ the mark
    def _marks(self, prose: str, add) -> None:  # type: ignore[no-untyped-def]
        section_seen = False
        for m in re.finditer(r"^#+ |MLPerf", prose, re.M):
            if m.group(0).startswith("#"):
                section_seen = False
                continue
            line, col = _line_col(prose, m.start())
            after = prose[m.end() : m.end() + 80]
            legend = prose[max(0, m.start() - 4) : m.start() + 40]
            if "The MLPerf name and logo" in legend:
                continue
            if re.match(r"s\b|['’]s\b", after):
                continue  # an altered form, reported by MLP013
            if not after.startswith("®"):
                if self.config.registered == "each" or not section_seen:
                    add("MLP012", line, col, '"MLPerf" without the ® sign')
            elif not any(after[1:].lstrip().startswith(w) for w in self.config.allowed_after):
                nxt = after[1:].strip().split(" ")[0] if after[1:].strip() else "(nothing)"
                add(
                    "MLP014",
                    line,
                    col,
                    f'"MLPerf®" is followed by "{nxt}", not a full benchmark name such as "MLPerf® Inference v6.1"',
                )
            section_seen = True
        for m in ALTERED.finditer(prose):
            line, col = _line_col(prose, m.start())
            add(
                "MLP013",
                line,
                col,
                f'altered mark "{m.group(0)}": write "MLPerf®" followed by the benchmark name',
            )

    # ------------------------------------------------------------------ typed numbers
    def _typed_numbers(self, prose: str, add) -> None:  # type: ignore[no-untyped-def]
        masked = TYPED_MARKER.sub(lambda m: " " * len(m.group(0)), prose)
        for pat in self.config.number_patterns:
            masked = pat.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), masked)
        in_code = False
        for i, ln in enumerate(masked.splitlines(), start=1):
            if ln.strip().startswith("```"):
                in_code = not in_code
            if in_code or ln.lstrip().startswith("<"):
                continue
            for m in re.finditer(r"\S+", ln):
                tok = m.group(0).strip("()[]{}.,;:!?\"'“”‘’*_")
                if not re.search(r"\d", tok) or re.search(r"[^\W\d_]", tok.replace("×", "")):
                    continue  # no digit, or an identifier such as B300, 8-GPU, NVL72
                add(
                    "MLP019", i, m.start() + 1, f'number "{tok}" typed by hand: produce it with a placeholder'
                )

    # ------------------------------------------------------------------ timing
    def _timing(self, rendered: Rendered, add) -> None:  # type: ignore[no-untyped-def]
        rounds = {r.round for u in rendered.uses for r in u.figure.entries} or set(rendered.article.rounds)
        if not rounds:
            return
        date = rendered.article.meta.get("date")
        if date is None:
            add("MLP020", 1, 1, "front matter has no date: add the publication date (date: YYYY-MM-DD)")
            return
        if not isinstance(date, dt.date):
            try:
                date = dt.date.fromisoformat(str(date))
            except ValueError:
                add("MLP020", 1, 1, f"front matter date {date!r} is not YYYY-MM-DD")
                return
        for v in sorted(rounds, key=version_key):
            rnd = self.manifest.rounds.get(v)
            if rnd is None:
                continue
            earliest = rnd.published + dt.timedelta(days=14)
            if date < earliest:
                add(
                    "MLP015",
                    1,
                    1,
                    f"published {date.isoformat()}, before {earliest.isoformat()}: non-submitters may publish v{v} results only two weeks after their {rnd.published.isoformat()} publication",
                )

    # ------------------------------------------------------------------ footnotes
    def _footnotes(self, rendered: Rendered, notes: list[Note], blocks, add) -> None:  # type: ignore[no-untyped-def]
        md = rendered.markdown
        note_line = rendered.footnotes_line or rendered.article.body.count("\n") + 1
        numbers = {n.number for n in notes}
        listed = {e for n in notes for e in ENTRY.findall(n.text)}
        for u in rendered.uses:
            for r in u.figure.entries:
                if r.result_id not in listed:
                    add("MLP001", u.line, 1, f"entry {r.result_id} is cited but no footnote lists it")
        derived = any(u.figure.derived_kinds for u in rendered.uses)
        for n in notes:
            t = n.text
            if not re.search(
                r"MLPerf® (Inference|Training|Storage|Tiny|HPC|Client|Mobile|Automotive)\b.*?\bv?\d+\.\d+\b.*?\b(Closed|Open)\b",
                t,
            ):
                add(
                    "MLP003",
                    note_line,
                    1,
                    f'footnote {n.number} does not give the suite, version and division (e.g. "MLPerf® Inference v6.1 Closed Datacenter")',
                )
            if not any(b in t for b in self.benchmark_names) or not re.search(
                r"\b(Server|Offline|Interactive|SingleStream|MultiStream)\b", t
            ):
                add("MLP003", note_line, 1, f"footnote {n.number} does not name the benchmark and scenario")
            if not re.search(r"Retrieved from \S+", t) or not re.search(
                r"\b\d{1,2} [A-Z][a-z]+ \d{4}\b|\b[A-Z][a-z]+ \d{1,2}, \d{4}\b|\d{4}-\d{2}-\d{2}", t
            ):
                add(
                    "MLP003", note_line, 1, f"footnote {n.number} does not give the source and retrieval date"
                )
            if not ENTRY.search(t):
                add("MLP003", note_line, 1, f"footnote {n.number} lists no entry ID")
            if TRADEMARK not in t:
                add("MLP003", note_line, 1, f"footnote {n.number} lacks the trademark legend")
            if derived and (NOT_VERIFIED not in t or not re.search(r"not official MLPerf® metrics", t)):
                add(
                    "MLP006",
                    note_line,
                    1,
                    f'footnote {n.number} lacks "{NOT_VERIFIED}" or the statement that derived metrics are not official MLPerf® metrics',
                )
        # markers: generated links and hand-typed ^[N]
        referenced: set[int] = set()
        cite_lines = rendered.cite_lines
        for i, ln in enumerate(md.splitlines(), start=1):
            for m in MARKER_LINK.finditer(ln):
                referenced.add(int(m.group(2)))
                if int(m.group(2)) not in numbers:
                    add(
                        "MLP004",
                        cite_lines[0] if cite_lines else i,
                        1,
                        f"marker [{m.group(1)}] points to no footnote",
                    )
            plain = MARKER_LINK.sub("", ln)
            for m in TYPED_MARKER.finditer(plain):
                referenced.add(int(m.group(1)))
                if int(m.group(1)) not in numbers:
                    src_line = _find_line(rendered.article.body, m.group(0)) or i
                    add("MLP004", src_line, 1, f"marker ^[{m.group(1)}] points to no footnote")
        for n in notes:
            if n.number not in referenced:
                add("MLP005", note_line, 1, f"footnote {n.number} is never referenced by a marker")
        # paragraphs that print results without a marker: one finding per paragraph
        unmarked: dict[str, list] = {}
        for u in rendered.uses:
            if not u.figure.entries or u.out_line == 0:
                continue
            block = _block_of(blocks, u.out_line)
            nxt = _block_after(blocks, u.out_line) if block.startswith(("|", "<div")) else ""
            if block and not any(
                MARKER_LINK.search(b) or TYPED_MARKER.search(b) or NOTE_ANCHOR.search(b) for b in (block, nxt)
            ):
                unmarked.setdefault(block, []).append(u)
        for uses in unmarked.values():
            shown = ", ".join(dict.fromkeys(u.text for u in uses))
            add(
                "MLP002",
                uses[0].line,
                1,
                f"paragraph prints results ({shown}) without a footnote marker: add {{{{ cite() }}}}",
            )

    # ------------------------------------------------------------------ comparisons
    def _comparisons(self, rendered: Rendered, blocks, add) -> None:  # type: ignore[no-untyped-def]
        secs = sections(rendered.markdown)
        by_key: dict[tuple, list] = {}
        for u in rendered.uses:
            f = u.figure
            if f.kind not in COMPARISONS or len({r.key for r in f.entries}) < 2:
                continue
            if any(k in COMPARISONS for k in f.basis):
                continue  # a comparison of comparisons: its parts carry the disclosures
            by_key.setdefault((f.kind, tuple(sorted(r.key for r in f.entries))), []).append(u)
        for uses in by_key.values():
            rows = list(uses[0].figure.entries)
            texts = list(dict.fromkeys(_plain(_block_of(secs, u.out_line)) for u in uses))
            problems = [self._undisclosed(rows, t) for t in texts]
            best = min(problems, key=len)
            first = uses[0]
            if best:
                add(
                    "MLP007",
                    first.line,
                    1,
                    f"{first.text} compares rows that differ in {'; '.join(best)}, and no section printing it says so",
                )
            divisions = {r.division for r in rows}
            if len(divisions) > 1 and not any(
                re.search(r"not qualify|would not be (eligible|valid) (in|as) (the )?Closed", t, re.I)
                for t in texts
            ):
                add(
                    "MLP008",
                    first.line,
                    1,
                    f"{first.text} compares Open and Closed results without saying how the Open result would not qualify as Closed",
                )
            self._compat(rows, first, add)

    def _undisclosed(self, rows: list[Row], text: str) -> list[str]:
        missing = []
        rounds = sorted({r.round for r in rows}, key=version_key)
        if len(rounds) > 1:
            older = [v for v in rounds[:-1] if not re.search(rf"\bv{re.escape(v)}\b", text)]
            if older:
                missing.append(
                    f"version ({', '.join('v' + v for v in rounds)}; name {', '.join('v' + v for v in older)})"
                )
        # With k different values, naming k - 1 of them identifies the difference
        # ("72 accelerators, Preview" against an unqualified row).
        for attr, label, fmt in (
            ("division", "division", str.capitalize),
            ("category", "category", _cat),
            ("scenario", "scenario", str),
        ):
            vals = sorted({getattr(r, attr) for r in rows})
            if len(vals) > 1:
                absent = [fmt(v) for v in vals if not re.search(rf"\b{re.escape(fmt(v))}\b", text, re.I)]
                if len(absent) > 1:
                    missing.append(f"{label} ({', '.join(fmt(v) for v in vals)}; state {', '.join(absent)})")
        counts = sorted({r.gpus for r in rows})
        if len(counts) > 1:
            absent_n = [
                str(n)
                for n in counts
                if not re.search(rf"(?<![\d.,]){n:,}(?![\d]|[.,]\d)|(?<![\d.,]){n}(?![\d]|[.,]\d)", text)
            ]
            if len(absent_n) > 1:
                missing.append(f"chip count ({', '.join(map(str, counts))}; state {', '.join(absent_n)})")
        return missing

    def _compat(self, rows: list[Row], use, add) -> None:  # type: ignore[no-untyped-def]
        rounds = sorted({r.round for r in rows}, key=version_key)
        if len(rounds) < 2:
            return
        for bench in sorted({r.benchmark for r in rows}):
            rule = self.manifest.rules.benchmarks.get(bench)
            since = getattr(rule, "compatible_since", "") if rule else ""
            if not since:
                add(
                    "MLP010",
                    use.line,
                    1,
                    f"{use.text} compares {bench} across {', '.join('v' + v for v in rounds)}, and data/benchmarks.toml records no compatibility for it",
                )
            elif version_key(rounds[0]) < version_key(since):
                add(
                    "MLP009",
                    use.line,
                    1,
                    f"{use.text} compares {bench} across {', '.join('v' + v for v in rounds)}; the Compatibility Table makes {bench} comparable only from v{since} on",
                )

    # ------------------------------------------------------------------ power
    def _power(self, rendered: Rendered, blocks, add) -> None:  # type: ignore[no-untyped-def]
        for u in rendered.uses:
            block = _block_of(blocks, u.out_line)
            m = PER_WATT.search(_plain(block))
            if not m or not u.figure.entries:
                continue
            if re.search(r"\bTDP\b", _plain(block)):
                add(
                    "MLP011",
                    u.line,
                    1,
                    f"{u.text} sits beside a TDP figure: TDP is not an MLPerf® power metric; use only measured MLPerf® system power",
                )
            unmeasured = sorted({r.result_id for r in u.figure.entries if not r.has_power})
            if unmeasured:
                add(
                    "MLP011",
                    u.line,
                    1,
                    f"power-normalized claim ({m.group(0)}) on results without measured MLPerf® power: {', '.join(unmeasured)}",
                )

    # ------------------------------------------------------------------ entries
    def _entries(self, rendered: Rendered, prose: str, notes: list[Note], add) -> None:  # type: ignore[no-untyped-def]
        listed = {e for n in notes for e in ENTRY.findall(n.text)}
        lines = prose.splitlines()
        for m in ENTRY.finditer(prose):
            line, col = _line_col(prose, m.start())
            if HAND_NOTE.match(lines[line - 1]):
                continue  # a hand-written footnote lists entries by hand by nature
            e = m.group(0)
            if e not in self.known_entries:
                add("MLP017", line, col, f"entry {e} is not in the loaded results")
                continue
            if e not in listed:
                add("MLP001", line, col, f"entry {e} is cited but no footnote lists it")
            add(
                "MLP018",
                line,
                col,
                f"entry {e} is typed by hand: print it with {{{{ entry(...) }}}} so that it is cited",
            )


def _cat(v: str) -> str:
    return {"available": "Available", "preview": "Preview", "rdi": "RDI"}.get(v, v)


def _plain(block: str) -> str:
    return MARKER_LINK.sub("", block).replace("\\", "")


def _find_line(text: str, needle: str) -> int:
    pos = text.find(needle)
    return text.count("\n", 0, pos) + 1 if pos >= 0 else 0


# ---------------------------------------------------------------------------- driving it


def check_rendered(
    renderer: Renderer, checker: Checker, paths: Iterable[Path]
) -> tuple[list[Finding], list[Rendered]]:
    """Render and check each article; a template that fails to render is an MLP000 finding."""
    findings: list[Finding] = []
    rendered: list[Rendered] = []
    for p in paths:
        try:
            art: Article = load_article(p)
            r = renderer.render(art)
        except GpuInsightsError as exc:
            m = re.match(r"(.*?):(\d+): (.*)", exc.message, re.S)
            line, msg = (int(m.group(2)), m.group(3)) if m else (1, exc.message)
            findings.append(Finding(str(p), line, 1, "MLP000", checker.config.severity("MLP000"), msg))
            continue
        rendered.append(r)
        findings.extend(checker.check(r))
    return findings, rendered


def failed(findings: Iterable[Finding], *, strict: bool) -> bool:
    levels = {"error", "warning"} if strict else {"error"}
    return any(f.severity in levels for f in findings)


def rules_markdown() -> str:
    """The rules reference page, generated from :data:`RULES`."""
    lines = [
        "# Compliance rules",
        "",
        "`gpu-insights check` reports these rules, each with a stable code. Change a rule's",
        "severity (`error`, `warning`, `info`, `ignore`) in `data/check.toml` under `[severity]`.",
        "This page is generated from `generator/check.py` (`gpu-insights check --rules-doc`).",
        "",
        "| Code | Name | Default | Guideline | What it reports |",
        "|---|---|---|---|---|",
    ]
    for r in RULES.values():
        lines.append(f"| {r.code} | `{r.name}` | {r.severity} | {r.guideline} | {r.description} |")
    return "\n".join(lines) + "\n"


def report_markdown(title: str, findings: list[Finding]) -> str:
    lines = [f"# Compliance report: {title}", ""]
    if not findings:
        return "\n".join(lines + ["No findings: the article follows every checked rule.", ""])
    counts = {s: sum(1 for f in findings if f.severity == s) for s in ("error", "warning", "info")}
    lines += [
        f"{counts['error']} errors, {counts['warning']} warnings, {counts['info']} notes.",
        "",
        "| Line | Rule | Severity | Finding |",
        "|--:|---|---|---|",
    ]
    for f in findings:
        msg = f.message.replace("|", "\\|")
        lines.append(f"| {f.line}:{f.col} | {f.rule} `{RULES[f.rule].name}` | {f.severity} | {msg} |")
    return "\n".join(lines) + "\n"


__all__ = [
    "RULES",
    "Checker",
    "CheckConfig",
    "Finding",
    "Figure",
    "check_rendered",
    "failed",
    "rules_markdown",
]
