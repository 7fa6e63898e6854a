"""The MLPerf® mark (§10, §11): the ® sign, no altered forms, the full benchmark name after it,
the trademark attribution, and no suggestion that MLCommons endorses a company or product.
Read everywhere the mark appears: front matter, title, headings, prose, captions, table cells
and text printed by placeholders; never inside URLs, code, comments, generated blocks or the
legend itself."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

from generator.article.footnotes import TRADEMARK
from generator.check.context import Context
from generator.check.document import Block, mask
from generator.check.findings import Finding
from generator.check.fix import Edit, Source
from generator.check.registry import Issue, rule
from generator.check.rules.common import at, at_meta, has_legend, in_verbatim

#: the name, not as a hashtag ("#MLPerf", where no sign can stand)
MARK = re.compile(r"(?<!#)MLPerf")
ALTERED = re.compile(
    r"\bML[\s\-‐‑–]+Perf\b|\bMLPERF\b|\bMLperf\b|\bMlperf\b|\bmlperf\b|\bMLPerf®?['’]s\b|\bMLPerfs\b|"
    r"\bMLPerf(?:ed|ing)\b|"  # the name as a verb: "we MLPerfed our server"
    r"\bMLPerf®?-[A-Za-z]+\b",
)
BENCHMARK_NAMES = (
    "Inference", "Training", "Storage", "Client", "Mobile", "Tiny", "HPC", "Automotive", "Endpoints",
    "Power", "Results Messaging Guidelines", "Compatibility Table", "metrics", "metric", "result footnotes",
)  # fmt: skip
#: the name as it is usually written, and in any form, altered ones too ("ML Perf", "MLperf"): the
#: second only read where the first is not found (a plain search runs a thousand times faster)
NAME = re.compile(r"MLPerf|MLPERF|ML-Perf")
ANY_NAME = re.compile(r"(?<![A-Za-z])[Mm][Ll][\s\-‐‑–]*[Pp][Ee][Rr][Ff]")
#: the altered forms "MLPerf®" replaces with no judgement: its capitalisation, a space or a hyphen
#: inside it (a possessive, a plural or a compound needs rewording: no fix)
MISSPELT = re.compile(r"ML[\s\-‐‑–]+Perf|MLPERF|MLperf|Mlperf|mlperf")


#: common nouns a title capitalises ("... MLPerf® Results"): the adjective use §11.4 forbids in
#: letter, a warning as in running text
COMMON_NOUNS = frozenset(
    [
        "results",
        "result",
        "scores",
        "score",
        "benchmarks",
        "benchmark",
        "data",
        "numbers",
        "figures",
        "performance",
        "round",
        "rounds",
        "submissions",
        "submission",
        "metrics",
        "entries",
        "runs",
        "leaderboard",
        "rankings",
        "ranking",
    ]
)


#: words after which "MLPerf®" stands alone as a noun ("MLPerf® is where ...", "MLPerf® and
#: its rules"): the use §11.4 forbids outright, whatever the article named before
NOUN_USE = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "has",
        "have",
        "had",
        "does",
        "did",
        "do",
        "will",
        "would",
        "can",
        "could",
        "may",
        "might",
        "must",
        "should",
        "shall",
        "and",
        "or",
        "but",
        "nor",
        "so",
        "yet",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "with",
        "by",
        "from",
        "into",
        "than",
        "that",
        "which",
        "who",
        "whose",
        "where",
        "when",
        "while",
        "if",
        "because",
        "the",
        "a",
        "an",
        "this",
        "these",
        "those",
        "its",
        "it",
        "itself",
    ]
)


def names_benchmark(rest: str, allowed: tuple[str, ...] | list[str]) -> bool:
    """Whether the (masked) text *rest* after "MLPerf®" starts with a benchmark's name, a
    version or an MLCommons document: the mark's full name (§11.4). A line break inside the
    name ("MLPerf® Compatibility\nTable") is a space."""
    rest = re.sub(r"\s+", " ", rest[:80].lstrip())
    return bool(re.match(r"v?\d", rest)) or any(rest.startswith(w) for w in allowed if w != "v")


def _complete_after(source: Source, offset: int) -> bool:
    """Whether "MLPerf®" ending at *offset* of the source would stand in its full name: the
    fixes of MLP012 and MLP013 never make a finding of MLP014 ("the MLPerf results" needs words)."""
    line, _ = source.position(offset)
    end = source.offset(line, len(source.line_text(line)) + 1) or offset
    allowed = tuple(source.config.allowed_after) or BENCHMARK_NAMES
    return names_benchmark(mask(source.text[offset:end]), allowed)


def fix_sign(source: Source, f: Finding) -> Edit | None:
    """ "®" after "MLPerf", where the benchmark's name follows."""
    at_ = source.offset(f.line, f.col)
    if at_ is None or not source.text.startswith("MLPerf", at_):
        return None  # a placeholder printed it, or the text moved
    after = source.text[at_ + 6 : at_ + 8]
    if after.startswith(("®", "-", "'", "’")) or re.match(r"\w", after):
        return None
    return Edit.insert(f.line, f.col + 6, "®") if _complete_after(source, at_ + 6) else None


def fix_spelling(source: Source, f: Finding) -> Edit | None:
    """ "MLPerf®" for "MLperf", "MLPERF", "ML Perf", "ML-Perf" (its sign kept where it has one),
    where the benchmark's name follows."""
    at_ = source.offset(f.line, f.col)
    m = MISSPELT.match(source.text, at_) if at_ is not None else None
    if m is None:
        return None
    after = source.text[m.end() : m.end() + 2]
    if re.match(r"\w|[-'’]\w", after):
        return None  # "MLperf's", "ML-Perf-like": the words need changing
    sign = after.startswith("®")
    if not _complete_after(source, m.end() + (1 if sign else 0)):
        return None
    return Edit(f.line, f.col, *source.position(m.end()), "MLPerf" if sign else "MLPerf®")


def fix_legend(source: Source, f: Finding) -> Edit | None:
    """The trademark legend of §11.2 as the last paragraph of a hand-written article (a
    template's generated footnotes carry it)."""
    if source.template:
        return None
    line, col = source.end()
    return Edit.insert(line, col, source.newline * 2 + TRADEMARK)


def _texts(ctx: Context) -> Iterator[tuple[str, object, int]]:
    """(masked text, block or front-matter key, offset base) of every place the mark may appear,
    in the order of the file: front matter first."""
    for key in ("title", "description"):
        v = ctx.rendered.article.meta.get(key)
        if isinstance(v, str):
            yield str(v), key, 0
    for b in ctx.doc.blocks:
        if not b.generated:
            yield b.text, b, 0


def _issue(ctx: Context, where: object, index: int, message: str, help: str) -> Issue:
    if isinstance(where, str):  # a front-matter key: its line, and the column inside the value
        return at_meta(ctx, where, index, message, help)
    return at(where, index, message, help)  # type: ignore[arg-type]


def _from_data(ctx: Context, where: object, index: int) -> bool:
    """Text a placeholder printed from the results (a software stack "mlperf-inference 6.1"): the
    submitter's words, not the article's use of the mark."""
    return isinstance(where, Block) and ctx.printed(where, index)


def _printed_title(ctx: Context, block: object) -> bool:
    """A heading that prints the front-matter title: reported once, at the front matter."""
    title = str(ctx.rendered.article.meta.get("title", ""))
    return (
        bool(title) and getattr(block, "kind", "") == "heading" and title.strip() in getattr(block, "raw", "")
    )


@rule(
    "MLP012",
    "mark-without-registered-sign",
    family="mark",
    severity="error",
    guideline="§11.1 Notice Symbol",
    summary='"MLPerf" without the ® sign.',
    bad="Results from the MLPerf Inference v6.1 round.",
    good="Results from the MLPerf® Inference v6.1 round.",
    fix=fix_sign,
)
def mark_without_sign(ctx: Context) -> Iterator[Issue]:
    """Reports each use of the MLPerf name that is not followed by ®.

    The guidelines require the notice symbol next to *all* uses of the name, in titles,
    headings, captions and table cells alike. The trademark legend, which names the mark
    without the symbol by design, is exempt.

    A house style that marks only the first use per section (``[mark] registered =
    "first-per-section"`` in ``data/check.toml``) checks the first use after each heading."""
    first_only = ctx.config.registered == "first-per-section"
    section, marked = 0, set()
    for text, where, _ in _texts(ctx):
        if getattr(where, "kind", "") == "heading":
            section += 1
        if _printed_title(ctx, where):
            continue
        for m in MARK.finditer(text):
            if first_only and section in marked:
                break
            marked.add(section)
            after = text[m.end() : m.end() + 2]
            if after.startswith("®") or re.match(r"s\b|['’]", after) or text[m.end() : m.end() + 1] == "-":
                continue  # altered forms are MLP013's
            if in_verbatim(text, m.start()) or _from_data(ctx, where, m.start()):
                continue
            yield _issue(ctx, where, m.start(), '"MLPerf" without the ® sign', 'write "MLPerf®"')


@rule(
    "MLP013",
    "mark-altered",
    family="mark",
    severity="error",
    guideline="§11.3 Do not Alter",
    summary="An altered form of the mark: MLperf, MLPERF, ML-Perf, ML Perf, MLPerf's, MLPerfs, MLPerf-like.",
    bad="MLPerf's newest round; an MLPERF-style test.",
    good="The newest round of MLPerf® Inference; a test run like MLPerf® Inference.",
    fix=fix_spelling,
)
def mark_altered(ctx: Context) -> Iterator[Issue]:
    """Reports altered forms of the mark: other capitalisation, hyphens or spaces inside it,
    the possessive or plural, and compounds such as "MLPerf-like".

    The guidelines forbid varying the spelling, splitting the name, and using it as a noun,
    possessive or plural: the name identifies MLCommons' benchmarks and nothing else."""
    for text, where, _ in _texts(ctx):
        if _printed_title(ctx, where):
            continue
        for m in ALTERED.finditer(text):
            if in_verbatim(text, m.start()) or _from_data(ctx, where, m.start()):
                continue
            yield _issue(
                ctx,
                where,
                m.start(),
                f'altered mark "{m.group(0)}"',
                'write "MLPerf®" followed by the full benchmark name, e.g. "MLPerf® Inference v6.1"',
            )


@rule(
    "MLP014",
    "mark-without-benchmark-name",
    family="mark",
    severity="error",
    guideline="§11.4 Use with Full Benchmark Name",
    summary='"MLPerf®" not followed by the full benchmark name.',
    bad="The MLPerf® results show a clear leader.",
    good="The MLPerf® Inference v6.1 results show a clear leader.",
)
def mark_without_benchmark(ctx: Context) -> Iterator[Issue]:
    """Reports "MLPerf®" followed by anything but a benchmark name ("MLPerf® Inference",
    "MLPerf® Training", ...), a version ("MLPerf® v0.5 Inference") or an MLCommons document
    ("MLPerf® Results Messaging Guidelines").

    The name may never stand alone as a noun ("in MLPerf®", "MLPerf® is"): an error. Before a
    common noun ("the MLPerf® results", "MLPerf® measured power") once the article has named the
    benchmark in full ("MLPerf® Inference v6.1 ... those MLPerf® scores"), or in the paragraph
    that gives it ("not an MLPerf® result. It is derived from two MLPerf® Inference v6.1
    results"), or in a headline (title, description, heading) of an article that gives it
    below, it is the full name shortened, as the guidelines' own example does ("had a MLPerf®
    score of 1000fps"): not reported. Elsewhere before the full name, in an article that gives
    it later, it is a warning: common usage that the letter of the guideline forbids, for the
    editor to decide."""
    allowed = tuple(ctx.config.allowed_after) or BENCHMARK_NAMES
    full = re.compile(r"MLPerf®?\s+(?:Inference|Training)\b")
    named = any(full.search(text) for text, _, _ in _texts(ctx))
    seen = False  # the full name read before this use
    for text, where, _ in _texts(ctx):
        before = seen
        seen = seen or bool(full.search(text))
        if _printed_title(ctx, where):
            continue
        for m in re.finditer(r"MLPerf®?(?![\w'’-])", text):
            rest = text[m.end() :].lstrip()
            if (
                in_verbatim(text, m.start())
                or _from_data(ctx, where, m.start())
                or rest.startswith(("'", "’", "s "))
            ):
                continue
            if names_benchmark(rest, allowed):
                continue
            nxt = (rest.split()[0].strip(".,;:)") if rest.split() else "") or "(nothing)"
            if not m.group(0).endswith("®") and not (nxt[:1].isupper() and nxt.isalpha()):
                continue  # "MLPerf results" is MLP012's; "GraphBox MLPerf Edition" names a product too
            issue = _issue(
                ctx,
                where,
                m.start(),
                f'"{m.group(0)}" is followed by "{nxt}", not a benchmark name',
                'name the benchmark: "MLPerf® Inference v6.1", "MLPerf® Training", ...',
            )
            # an adjective before a common noun ("MLPerf® results", "MLPerf® measured power"), in
            # an article that names the benchmark elsewhere, is common usage the letter of §11.4
            # forbids: the editor decides (a warning); the name as a noun stays an error
            common = (nxt[0].islower() or nxt.lower() in COMMON_NOUNS) and nxt.lower() not in NOUN_USE
            headline = where in ("title", "description") or getattr(where, "kind", "") == "heading"
            if common and (before or full.search(text) or (headline and named)):
                continue  # the full name, shortened where the reader has it: read, in its paragraph, below its headline
            yield dataclasses.replace(issue, undecided=common and named)


@rule(
    "MLP028",
    "attribution-missing",
    family="mark",
    severity="error",
    guideline="§11.2 Attribution",
    summary="The mark is used but the trademark legend appears nowhere in the article.",
    bad="An article about MLPerf® Inference v6.1 with no trademark legend.",
    good="The same article ending with the legend: The MLPerf name and logo are registered ... See www.mlcommons.org for more information.",
    fix=fix_legend,
)
def attribution_missing(ctx: Context) -> Iterator[Issue]:
    """Reports an article that uses the MLPerf name without attributing the mark to MLCommons.

    Every use of the name requires the legend "The MLPerf name and logo are registered and
    unregistered trademarks of MLCommons Association ... See www.mlcommons.org for more
    information." The generated footnotes carry it; hand-written articles must too. An article
    with a results footnote is told where the legend goes by MLP003 ("footnote 1 lacks the
    trademark legend"), not here as well."""
    if has_legend(ctx) or any(n.cites_results and not n.generated for n in ctx.notes.notes):
        return
    for text, where, _ in _texts(ctx):
        m = NAME.search(text) or (ANY_NAME.search(text) if "erf" in text.lower() else None)
        if m:
            yield _issue(
                ctx,
                where,
                m.start(),
                "the MLPerf name is used, but the article never attributes the mark to MLCommons",
                "add the trademark legend of §11.2 to the footnotes",
            )
            return


#: wording that makes MLCommons (or the MLPerf name) vouch for a company or product: endorsed,
#: approved, certified, recommended or accredited by it, or an "MLPerf® ... certified" product
#: ("verified by MLCommons Association" is what a reviewed result is, and is not reported)
_BY = (
    r"(?:endorsed|approved|certified|recommended|accredited|sanctioned|backed)\s+by\s+(?:the\s+)?(?:MLCommons|MLPerf)|"
    # "Validated by MLCommons as an enterprise-ready platform": a product vouched for, not a result reviewed
    r"validated\s+by\s+(?:the\s+)?MLCommons(?:\s+Association)?\s+as\b"
)
_ENDORSES = (
    r"MLCommons(?:\s+Association)?(?:\s+(?:itself|officially|now|also|has|have|had|did|does|would|\w+ly|"
    r"in effect|in practice|de facto|as good as))*\s+"
    r"(?:endorse[sd]?|approve[sd]?|certif(?:ies|ied|y)|recommend(?:s|ed)?|accredit(?:s|ed)?|(?:hand)?picked|chose|crowned|"
    r"blessed|vouche[sd]\s+for|"
    # "MLCommons is in effect telling buyers that this is the machine to get"
    r"(?:is\s+|are\s+)?(?:\w+\s+){0,2}?(?:telling|tells|told|advis(?:es|ing|ed)|urg(?:es|ing|ed))\s+"
    r"(?:buyers|customers|users|you|everyone|the\s+market|the\s+industry)\s+(?:that|to)|"
    # "has effectively validated our cloud as a reference platform"; not "validated the results as compliant"
    r"validat(?:es|ed)\s+(?!(?:the\s+|our\s+|these\s+|its\s+|their\s+)?(?:results?|submissions?|scores?|numbers|runs?|measurements?)\b)(?:\S+\s+){1,4}?as)\b"
)
_ADJECTIVE = (
    r"(?:MLCommons|MLPerf)®?(?:\s+(?:Inference|Training|Storage|Client|Mobile|Tiny|HPC|Automotive))?"
    r"(?:\s+v?\d+(?:\.\d+)*)?[\s-]+(?:endorsed|approved|certified|accredited|recommended)\b|"
    # a product named as verified by the mark: "MLPerf® Verified Instance", "MLPerf Verified Platform"
    r"(?:MLCommons|MLPerf)®?[\s-]+(?-i:Verified)\s+(?-i:[A-Z])[a-z]+"
)
_CERTIFIED_ON = (
    r"certified\s+(?:on|for|in|under|with)\s+(?:the\s+)?MLPerf|"
    # "has obtained the MLPerf® certification of MLCommons", "MLCommons certification"
    r"(?:MLPerf®?|MLCommons)\s+(?:Inference\s+)?(?:v?\d+(?:\.\d+)*\s+)?certification|certification\s+(?:of|from|by)\s+MLCommons"
)
#: a review turned into a verdict on the product: "verified by MLCommons Association, confirming
#: the XA NB3I-E12 as the trusted platform of choice"
_VOUCHED = (
    r"(?:verified|reviewed|validated|published)\s+by\s+(?:the\s+)?MLCommons(?:\s+Association)?[,;]?\s+"
    r"(?:\w+\s+){0,2}?(?:confirming|proving|establishing|making|certifying|cementing)\s+(?:\S+\s+){1,8}?as\s+(?:the|a|an)\b"
)
ENDORSEMENT = re.compile(rf"\b(?:{_BY}|{_ENDORSES}|{_ADJECTIVE}|{_CERTIFIED_ON}|{_VOUCHED})", re.I)
_DENIED = re.compile(r"(?:\bnot|\bnever|\bno|n[\'’]t|\bnor|\bwithout)\s+(?:\w+\s+){0,2}$", re.I)


@rule(
    "MLP032",
    "endorsement-implied",
    family="mark",
    severity="error",
    guideline="§10 No misrepresentation: no implied MLCommons endorsement",
    summary="Wording that makes MLCommons endorse, approve or certify a company or product.",
    bad="The XD690 is MLPerf® Inference v6.1 certified and endorsed by MLCommons.",
    good="The XD690's MLPerf® Inference v6.1 results were verified by MLCommons Association.[1]",
)
def endorsement_implied(ctx: Context) -> Iterator[Issue]:
    """Reports "endorsed by MLCommons", "MLCommons approves", "MLPerf® Inference v6.1
    certified", "certified on MLPerf® ..." and the like, in the front matter, headings and text.

    The guidelines forbid using the MLPerf name in any way likely to suggest or imply that
    MLCommons endorses a company, its products or its services. MLCommons reviews and publishes
    results; "verified by MLCommons Association" says so and is not reported, nor is a denial
    ("not endorsed by MLCommons")."""
    for text, where, _ in _texts(ctx):
        if _printed_title(ctx, where):
            continue
        for m in ENDORSEMENT.finditer(text):
            if in_verbatim(text, m.start()) or _DENIED.search(text[max(0, m.start() - 40) : m.start()]):
                continue
            yield _issue(
                ctx,
                where,
                m.start(),
                f'"{m.group(0)}" suggests that MLCommons endorses or certifies the company or product',
                "state the result, its details and its footnote: MLCommons reviews and publishes results, "
                "it does not endorse or certify companies or products",
            )
