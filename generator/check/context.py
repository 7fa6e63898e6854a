"""Everything a rule reads about one article, computed once: the parsed document, its
notes and markers, its claims (printed by placeholders or typed by hand and matched
against the data), and what each sentence names."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from generator.article.render import Rendered
from generator.article.sourcemap import EXPR
from generator.check.claims import (
    NUMBER,
    PER_GPU_LEAD,
    THROUGHPUT_UNIT,
    TOTAL_BEFORE,
    Claim,
    entry_claims,
    figure_claims,
    parse_number,
    typed_numbers,
    unit_of,
)
from generator.check.config import CheckConfig
from generator.check.document import Block, Document, Sentence, mask, parse, split_sentences
from generator.check.matching import Match, Matcher, one_keystroke, relation_values
from generator.check.notes import Note, Notes, find_notes
from generator.check.scope import own_run, previous
from generator.check.vocabulary import PER_ACCELERATOR, Mentions, Vocabulary, variant_of
from generator.data.manifest import Manifest
from generator.data.row import Row

JINJA = re.compile(r"\{\{|\{%")
#: the accuracy targets of benchmark variants ("-99", "-99.9"), as a share of the reference's score
ACCURACY_TARGETS = {"95", "99", "99.0", "99.9"}
ACCURACY_WORDS = re.compile(r"\baccuracy\b|\btargets?\b|\breference model", re.I)
PER_GPU_HEADER = re.compile(PER_ACCELERATOR + r"|\bper\s?GPU", re.I)
#: a percentage from outside the results: an expectation, a rule of thumb, a source's figure
EXPECTED = re.compile(
    r"\b(?:expect\w*|literature|rule of thumb|predict\w*|forecast\w*|guidance|headroom|derat\w*|"
    r"plan(?:ning)?\s+(?:at|for|on|around)|assum\w+|"
    # a business metric: "net revenue retention above 120%", "churn", "uptime"
    r"retention|revenue|churn|uptime|occupancy|market share|bookings|EBITDA|ARR|headcount|"
    r"(?:gross|operating|net|adjusted)\s(?:\w+\s)?margin)\b",
    re.I,
)
#: what follows an amount that separates two results: "73 tokens per second apart", "1,200 more"
DIFFERENCE_AFTER = re.compile(
    r"\s?(?:[\w/]{1,12}\s){0,3}?(?:apart|more than|less than|fewer than|ahead of|behind|short of|"
    r"(?:of\s)?(?:difference|gap|separat\w*))\b",
    re.I,
)
#: the first number of a range, before its second: "10 to 15 percent", "2–3×"
RANGE_LOW = re.compile(r"(?<![\d.,])(\d{1,3}(?:\.\d+)?)\s?(?:%|percent)?\s*(?:[-–—]|to)\s*$")
UNVERIFIED_NEAR = re.compile(r"\bunverified\b[^.;:,]*$", re.I)
QUOTED = re.compile(r"“[^”]*”|\"[^\"\n]*\"")
#: a column of per-accelerator values: "Per GPU", "Tokens/s per GPU (derived)", "Per card"
PER_GPU_HEADER = re.compile(
    r"\bper[-\s]+(?:GPU|accelerator|chip|card|device)s?\b|/\s*(?:GPU|accelerator)\b", re.I
)
#: a quotation's attribution: "— Jane Doe", "said Jane", "according to", "wrote"
ATTRIBUTION = re.compile(
    r"(?:^|\n|\s)[—–-]{1,2}\s*[A-Z]|\b(?:said|says|told|wrote|writes|according to|quoted|asked)\b|[“”\"]|"
    # a reader's question quoted under its label: "**Q (u/tokens_per_dollar):** ..."
    r"^\W*(?:Q|Question|Reader|Caller|Listener)\b[^:\n]{0,60}:"
)
COMPARE_CUE = re.compile(
    r"\b(?:than|versus|vs\.?|against|compared|ahead|behind|outperform\w*|beat\w*|faster|slower|"
    r"higher|lower|above|below|more|less|fewer|over|ratio|gain|improve\w*|increase\w*|times|"
    # a change between two results: "fell from ... to ...", "a drop of", "grew", "doubled"
    r"fell|falls?|falling|rose|rises?|rising|drop\w*|declin\w*|grew|grows?|growing|climb\w*|"
    r"jump\w*|doubl\w*|halv\w*|went from|"
    # a ratio in words: "about one-fiftieth of", "twice", "a third of"
    r"twice|one-\w{2,12}ieth|one-(?:third|quarter|fifth|tenth|hundredth|thousandth)|a (?:third|quarter|fifth|tenth) of)\b|×",
    re.I,
)


@dataclass
class Context:
    """One article, parsed, with its claims; shared by every rule."""

    rendered: Rendered
    manifest: Manifest
    config: CheckConfig
    vocab: Vocabulary
    matcher: Matcher | None
    doc: Document = field(init=False)
    notes: Notes = field(init=False)

    def __post_init__(self) -> None:
        self.doc = parse(self.rendered)
        self.notes = find_notes(self.doc)
        self._mentions: dict[tuple[int, int, int], Mentions] = {}
        self._quotes: dict[int, list[tuple[int, int]]] = {}
        #: what a rule family computes once per article and its rules share (comparisons, ...)
        self.memo: dict[str, Any] = {}

    # ------------------------------------------------------------------ the article
    @property
    def path(self) -> str:
        return str(self.rendered.article.path)

    @cached_property
    def template(self) -> bool:
        """Whether the article has placeholders (a template) or is typed by hand."""
        return bool(JINJA.search(self.rendered.article.body))

    @cached_property
    def note_blocks(self) -> set[int]:
        return self.notes.note_blocks()

    def prose(self) -> list[Block]:
        """Blocks the author wrote: not generated, not footnotes."""
        return [b for b in self.doc.blocks if not b.generated and id(b) not in self.note_blocks]

    # ------------------------------------------------------------------ what text names
    def mentions(self, block: Block, s: Sentence | None = None) -> Mentions:
        key = (id(block), s.start if s else -1, s.end if s else -1)
        if key not in self._mentions:
            self._mentions[key] = self.vocab.read(block.words(s))
        return self._mentions[key]

    def printed(self, block: Block, index: int) -> bool:
        """Whether a position is in text a placeholder printed from the data (a system name, a
        software stack): words there ("0W", "Fastest") are the data's, not the author's claim."""
        smap = self.rendered.sourcemap
        return bool(smap.segments) and smap.kind(block.offset(index)) == EXPR

    def quoted(self, block: Block, index: int) -> bool:
        """Whether a position is inside a quotation (a statement by someone else)."""
        if block.kind == "quote" and self._attributed(block):
            return True
        spans = self._quotes.get(id(block))
        if spans is None:
            spans = self._quotes[id(block)] = [(m.start(), m.end()) for m in QUOTED.finditer(block.text)]
        return any(a < index < z for a, z in spans)

    def echoes_quote(self, c: Claim) -> bool:
        """Whether a typed number repeats one quoted earlier in its paragraph (a correction: "we
        wrote 'about 2% faster' ... not 2%"): the quotation's figure named again, no new claim."""
        self.quoted(c.block, c.index)  # the paragraph's quotations, found once
        text = c.block.text
        return any(
            z <= c.index and any(n.group(0).strip() == c.text for n in NUMBER.finditer(text, a, z))
            for a, z in self._quotes[id(c.block)]
        )

    def _per_gpu_column(self, b: Block) -> bool:
        """Whether the header of a table cell's column says its values are per accelerator."""
        header = self.doc.header_of(b)
        return header is not None and bool(PER_GPU_HEADER.search(header.text))

    def _attributed(self, block: Block) -> bool:
        """Whether a block quote quotes someone ("... ," said the CEO; "— Jane Doe"; a text in
        quotation marks), rather than setting the author's own words apart (a callout, a "Fact:"
        box, a pull quote of the article itself)."""
        key = f"attributed {id(block)}"
        if key not in self.memo:
            text = block.text.strip()
            self.memo[key] = bool(ATTRIBUTION.search(text) or (text[:1] in "“\"‘'" and text[-1:] in "”\"’'"))
        return bool(self.memo[key])

    def claims_in(self, block: Block, s: Sentence | None = None) -> list[Claim]:
        """The claims printed in *block* (in its sentence *s*), in order."""
        here = self._claims_by_block.get(id(block), [])
        return here if s is None else [c for c in here if s.start <= c.index < s.end]

    @cached_property
    def _claims_by_block(self) -> dict[int, list[Claim]]:
        out: dict[int, list[Claim]] = {}
        for c in self.claims:
            out.setdefault(id(c.block), []).append(c)
        return out

    # ------------------------------------------------------------------ claims
    @cached_property
    def headline_claims(self) -> list[tuple[Claim, int, int]]:
        """Numbers typed in the front matter's title and description (a page, a listing and the
        feed print them; no placeholder can), matched against the results when a matcher is
        loaded: each with the source line and column it was typed at."""
        article = self.rendered.article
        out: list[tuple[Claim, int, int]] = []
        if self.matcher is None:
            return out
        lines = article.path.read_text("utf-8").splitlines() if article.path.exists() else []
        for key in ("title", "description"):
            text = str(article.meta.get(key) or "")
            line = article.meta_lines.get(key, 1)
            if not text or not 0 < line <= len(lines):
                continue
            b = Block(key, text, mask(text), [0], [0], line, sentences=split_sentences(text))
            start = lines[line - 1].find(text[:20])
            for m in NUMBER.finditer(b.text):
                if self._not_a_claim(b, m):
                    continue
                c = self._typed(b, m)
                if c.kind in ("result", "per_gpu", "number") and (c.unit or abs(c.value) >= 1000):
                    self._match_value(c)
                    out.append((c, line, start + m.start() + 1 if start >= 0 else 1))
        return out

    @cached_property
    def claims(self) -> list[Claim]:
        out = figure_claims(self.doc)
        rows_by_id = self.matcher.by_id if self.matcher else {}
        printed = {(id(c.block), c.index) for c in out}
        for b in self.prose():
            out.extend(entry_claims(self.doc, b, rows_by_id))
            typed = []
            names = sorted(self.vocab.name_spans(b.text))
            starts = [a for a, _ in names]
            for m, start in typed_numbers(self.doc, b):
                k = bisect.bisect_right(starts, start) - 1
                in_name = k >= 0 and any(a <= start < z for a, z in names[max(0, k - 8) : k + 1])
                # "Llama 2 70B (99.9%)": the benchmark's accuracy target, right after its name
                in_name = in_name or (
                    k >= 0
                    and b.text[names[k][1] : start].strip() == "("
                    and (m.group("suffix") or "").strip() == "%"
                    and m.group("num") in ACCURACY_TARGETS
                )
                if (id(b), start) in printed or self._not_a_claim(b, m) or in_name:
                    continue
                typed.append(self._typed(b, m))
            _inherit_units(typed, self._column_unit(b))
            out.extend(typed)
        if self.matcher is not None:
            self._match(out, values=not self.template)
        for c in out:  # a score of the author's own run that no entry gives is unverified, called so or not
            if not c.rows and own_score(c) and own_run(self, c):
                c.unverified = True
        for c in out:  # "3.2% below the official result": a relation of an unverified score is unverified
            if c.kind in ("ratio", "pct") and any(x.unverified for x in c.sides):
                c.unverified = True
        return out

    def _column_unit(self, b: Block) -> str:
        """For a table cell, the unit its column header names ("Tokens/s per GPU")."""
        if b.table < 0 or b.row == 0:
            return ""
        header = self.doc.header_of(b)
        if header is None:
            return ""
        text = header.text
        if re.search(r"(?:\bper|/)\s*(?:[kM]?W|watts?|joules?|J|kWh)\b", text, re.I):
            return ""  # "Tokens/s per watt": an efficiency, neither a result nor per GPU
        if PER_GPU_HEADER.search(text):
            return "per_gpu"
        if re.search(r"tokens?|samples?|queries|QPS|/s\b|per second", text, re.I):
            return "throughput"
        return ""

    def _not_a_claim(self, b: Block, m: re.Match[str]) -> bool:
        before, after = b.text[max(0, m.start() - 12) : m.start()], b.text[m.end() : m.end() + 12]
        if re.search(r"\[\^?$", before) and after.startswith("]"):
            return True  # a footnote marker
        if re.search(r"(?:Table|Figure|Section|Step|Chapter|Appendix|Q[1-4]|FY|No\.|#)\s*$", before):
            return True
        if b.kind == "heading" and not b.text[: m.start()].strip() and not m.group("suffix"):
            return True  # "### 3.2 Per-accelerator performance": the section's number
        num = m.group("num")
        if (m.group("suffix") or "").strip() in ("x", "×") and re.match(r"\s*[A-Z0-9]", after):
            return True  # "8x MI355X": a count in a product description
        if re.fullmatch(r"(?:19|20)\d\d", num) and not m.group("suffix"):
            return True  # a year
        pct = (m.group("suffix") or "").strip() in ("%", "percent")
        if pct and num in ACCURACY_TARGETS and ACCURACY_WORDS.search(b.words(b.sentence_at(m.start()))):
            return True  # "Llama2-70b-99.9 (the 99.9% accuracy target)": a benchmark's target
        return bool(re.match(r"^(?:st|nd|rd|th)\b", after))

    def _typed(self, b: Block, m: re.Match[str]) -> Claim:
        value, tol, suffix = parse_number(m)
        unit = unit_of(b, m, suffix)
        if unit in ("throughput", "") and b.table >= 0 and b.row > 0 and self._per_gpu_column(b):
            unit = "per_gpu"  # "| Per GPU |" over "| 8,271.5 tokens/s |": the header says what it is
        if unit == "ratio" and not suffix:
            suffix = "times"  # "a factor of 48"
        kinds = {
            "throughput": "result",
            "per_gpu": "per_gpu",
            "ratio": "ratio",
            "pct": "pct",
            "money": "money",
        }
        text = m.group(0).strip()
        low = RANGE_LOW.search(b.text[max(0, m.start() - 16) : m.start()]) if suffix else None
        if low is not None and 0 <= float(low.group(1).replace(",", "")) < value:
            # "10 to 15 percent": the range's middle, as wide as the range
            a = float(low.group(1).replace(",", ""))
            value, tol = (a + value) / 2, (value - a) / 2 + tol
        c = Claim(
            text,
            value,
            kinds.get(unit, "number"),
            (),
            b,
            m.start(),
            typed=True,
            unit=unit,
            tol=tol,
            suffix=suffix,
        )
        c.unverified = bool(UNVERIFIED_NEAR.search(b.text[max(0, m.start() - 40) : m.start()]))
        return c

    def _match(self, claims: list[Claim], *, values: bool = True) -> None:
        """Give typed numbers the rows they match (values first, then relations between them).
        In a template (*values* false) only ratios and percentages typed beside printed figures
        are matched: a typed value is MLP019's, but "30 times" of two printed rows is still a
        comparison of them that the comparison rules read."""
        assert self.matcher is not None
        own = _attached_entries(claims)
        later: list[Claim] = []
        for c in claims if values else ():
            if not c.typed or c.kind in ("entry", "money") or self.quoted(c.block, c.index):
                continue
            if c.kind in ("result", "per_gpu", "number"):
                if c.unit == "" and abs(c.value) < 1000 or c.unit == "power":
                    continue  # a bare small number is a count or a label; "9,438 W" is no throughput
                if _difference_words(c):
                    later.append(c)  # read once the values it separates have their rows
                    continue
                self._match_value(c)
                self._check_own_entry(c, own.get(id(c)))
        for c in later:
            if not self._match_difference(c, claims):
                self._match_value(c)
        self._spread_wrong_ids(claims)
        for c in claims:
            if (
                c.typed
                and c.kind in ("ratio", "pct")
                and not self.quoted(c.block, c.index)
                and not self.echoes_quote(c)
                # "the 20–30% the literature led us to expect": no result's
                and not EXPECTED.search(
                    c.block.text[max(c.sentence.start, c.index - 30) : c.index + len(c.text) + 50]
                )
            ):
                self._match_relation(c, claims)

    def _match_value(self, c: Claim) -> None:
        """The rows whose system result or per-accelerator value a typed number prints: among the
        rows of the rounds and benchmark its text names and of the entries its footnotes cite
        (else any footnote of the article), those that fit best what the sentence, paragraph and
        footnotes name."""
        assert self.matcher is not None
        rounds = self.article_rounds
        m = self._context_mentions(c)
        cited = self._note_entries(c.block)
        pool = self.matcher.candidates(m, rounds)
        if not m.entries:  # the entries its footnotes cite, whatever round the text names
            pool = list({r.key: r for r in (*pool, *self._cited_rows(cited, m))}.values())
        named = self.mentions(c.block, c.sentence).rounds
        # a block with no marker of its own (a headline restating the lead's figure): the entries
        # every note lists are the ones its reader is pointed to
        listed = cited or self.notes.entries()
        matches = self._prefer(self.matcher.values(pool, c.value, c.tol, c.unit), m, listed, named)
        if not matches and not m.entries:  # an entry the footnote of another paragraph cites
            others = self.notes.entries() - cited
            found = self.matcher.values(self._cited_rows(others, m), c.value, c.tol, c.unit)
            matches = self._prefer(found, m, others, named)
        said = m.entries | cited  # the entries its sentence and its footnotes cite
        unknown = {e for e in said if e not in self.matcher.by_id}
        if not matches and m.entries:  # the sentence cites an entry the value is not from
            wider = Mentions(rounds=m.rounds, benchmarks=m.benchmarks, variants=m.variants)
            found = self.matcher.values(self.matcher.candidates(wider, rounds), c.value, c.tol, c.unit)
            matches = self._prefer(found, m, None, named)
            if matches:
                c.misattributed = tuple(sorted(m.entries))
        elif matches and unknown and not {r.result_id for mt in matches for r in mt.rows} & said:
            c.misattributed = tuple(sorted(unknown))  # "(entry 6.1-0168)": a typo of the real entry
        elif matches and len(said) == 1 and not {r.result_id for mt in matches for r in mt.rows} & said:
            # its note cites one entry, a keystroke from the value's own, which does not give it:
            # the ID is mistyped ("6.1-0068" for 6.1-0069); another entry is an uncited value's
            real = {r.result_id for mt in matches for r in mt.rows}
            c.misattributed = tuple(
                sorted(e for e in said - unknown if any(_one_keystroke(e, x) for x in real))
            )
        if matches:
            c.rows = tuple(dict.fromkeys(r for mt in matches for r in mt.rows))
            c.kind = matches[0].kind if len({mt.kind for mt in matches}) == 1 else c.kind
            c.basis = ("per_gpu",) if c.kind == "per_gpu" else ()
        elif c.unit in ("throughput", "per_gpu"):
            rows = _of_unit(
                _named(pool, self.mentions(c.block, c.sentence)), c.block.text[c.index : c.index + 60]
            )
            text, c.nearest = self.matcher.nearest(rows, c.value, c.unit)
            c.candidates = [text]
            c.cited = tuple(sorted(cited))

    def _match_difference(self, c: Claim, claims: list[Claim]) -> bool:
        """A typed amount between two values its paragraph prints ("they finished 73 tokens per
        second apart: ... 127,984 ... and ... 127,911"): their difference, which becomes the
        claim's rows and sides."""
        near = self._units_before(c.block, 1)
        values = [
            x
            for x in claims
            if id(x.block) in near and x is not c and x.kind in ("result", "per_gpu", "number")
        ]
        for a in values:
            for b in values:
                if (
                    a is not b
                    and a.value > b.value
                    and abs(a.value - b.value - c.value) <= c.tol + a.tol + b.tol
                ):
                    c.kind, c.sides = "difference", (a, b)
                    c.rows = tuple(dict.fromkeys((*a.rows, *b.rows)))
                    return True
        return False

    def _spread_wrong_ids(self, claims: list[Claim]) -> None:
        """A value of the entry another value of the article was miscited as, under the same wrong
        ID, its real entry cited nowhere ("944,902 (entry 6.1-0023)" where 6.1-0025 gives it, then
        its per-GPU 13,124): the same wrong ID, not a second, uncited entry."""
        wrong: dict[str, set[str]] = {}
        for c in claims:
            for e in c.misattributed if c.rows else ():
                wrong.setdefault(e, set()).update(r.result_id for r in c.rows)
        for c in claims:
            if not wrong or not c.typed or not c.rows or c.misattributed or c.kind == "entry":
                continue
            ids = {r.result_id for r in c.rows}
            if not ids & (self.notes.entries() | self.mentions(c.block, c.sentence).entries):
                c.misattributed = tuple(sorted(e for e, real in wrong.items() if ids & real))

    def _check_own_entry(self, c: Claim, own: str | None) -> None:
        """A value whose own entry ID (the one printed next to it, in a sentence that cites
        several) does not give it, while another entry of the sentence does: the IDs are
        swapped or mistyped ("B300 (entry 6.1-0045) at 111,247 and ... (entry 6.1-0052) ...")."""
        assert self.matcher is not None
        if own is None or not c.rows or c.misattributed or own not in self.matcher.by_id:
            return
        if own not in {r.result_id for r in c.rows}:
            c.misattributed = (own,)

    def _cited_rows(self, cited: set[str], m: Mentions) -> list[Row]:
        """Rows of the entries a block's footnotes cite, of the benchmarks its text names."""
        assert self.matcher is not None
        rows = [r for e in sorted(cited) for r in self.matcher.by_id.get(e, [])]
        return [r for r in rows if not m.benchmarks or r.benchmark in m.benchmarks]

    def _typed_relation(self, c: Claim, claims: list[Claim]) -> bool:
        """Whether the ratio or percentage relates two numbers the text itself prints (composites,
        the article's own runs); their rows, if any, become the claim's."""
        own = [x for x in claims if x.block is c.block and x.index < c.index and x.typed]
        if any(x is not c and _restates(c, x) for x in own):
            return True  # "... score: 1.08. So, about 8%": the composite restated, no rows related
        near = self._units_before(c.block, 2)
        values = [
            x
            for x in claims
            if id(x.block) in near
            and x is not c
            and x.kind not in ("entry", "ratio", "pct")
            and x.value == x.value
        ]
        far, named = self._distance(c), self._named_by(c)
        rank = {id(x): (named(x), far(x)) for x in values}  # each value's, read once (not once per pair)

        def order(p: tuple[Claim, Claim]) -> tuple[int, int, int]:
            (na, fa), (nb, fb) = rank[id(p[0])], rank[id(p[1])]
            return -(na + nb), max(fa, fb), fa + fb

        # the sides its sentence names first ("above the TTA result"), then the nearest pair
        pairs = sorted(
            ((a, b) for a in values for b in values if a is not b and a.value and b.value), key=order
        )
        for a, b in pairs:
            for _, v in relation_values(a.value, b.value, c.suffix):
                if abs(v - c.value) <= c.tol * (1 + 1e-9):
                    c.rows = tuple(dict.fromkeys((*a.rows, *b.rows)))
                    c.sides = (a, b)
                    return True
        return False

    def submitter_words(self, text: str) -> set[str]:
        """The submitters *text* names, as the vocabulary reads them against the loaded rows'."""
        assert self.matcher is not None
        return self.vocab.submitter_words(text, self.matcher.table.values("submitter"))

    def _named_by(self, c: Claim) -> Callable[[Claim], int]:
        """Whether a claim's row is of a submitter *c*'s sentence names (1) or not (0)."""
        named = self.submitter_words(c.block.words(c.sentence))
        if not named:
            return lambda x: 0
        return lambda x: int(any(self.submitter_words(r.submitter.replace("_", " ")) & named for r in x.rows))

    def _distance(self, c: Claim) -> Callable[[Claim], int]:
        """How far a claim stands before *c*: in blocks, then in characters."""
        at = self.doc.index(c.block)
        return lambda x: (at - self.doc.index(x.block)) * 1_000_000 + abs(c.index - x.index)

    def _units_before(self, b: Block, n: int) -> set[int]:
        """*b* and the *n* blocks before it, a table counting as one (all its cells): what a reader
        has just read when a sentence relates figures ("the two above")."""
        i = self.doc.index(b)
        out: set[int] = {id(b)}
        units: set[tuple[str, int]] = set()
        for x in reversed(self.doc.blocks[:i]):
            unit = ("table", x.table) if x.table >= 0 else ("block", id(x))
            if unit not in units and len(units) == n:
                break
            units.add(unit)
            out.add(id(x))
        return out

    def _match_relation(self, c: Claim, claims: list[Claim]) -> None:
        assert self.matcher is not None
        if self._typed_relation(c, claims):
            return
        same = [
            x
            for x in claims
            if x.block is c.block and x is not c and x.rows and x.kind in ("result", "per_gpu", "entry")
        ]
        if len({r.key for x in same for r in x.rows}) < 2:  # "That puts Nebius 4.1% ahead of Oracle"
            same = self._sides_named_before(c, claims, same) or same
        near: list[Row] = list(dict.fromkeys(r for x in same for r in x.rows))
        m = self._context_mentions(c)
        pools: list[tuple[list[Row], bool]] = [(near, False)] if len(near) >= 2 else []
        if m.benchmarks and m.scenarios and len(near) < 2:
            wide = [r for r in self.matcher.candidates(m, self.article_rounds) if r.scenario in m.scenarios]
            pools.append((wide, True))
        for pool, strict in pools:
            found = self.matcher.relations(pool, c.value, c.tol, c.suffix, same_scenario=strict)
            if strict:  # from a wide search, keep pairs with a side the paragraph or its notes cite
                cited = {r.key for r in near} | {e for e in m.entries}
                found = [f for f in found if any(r.key in cited or r.result_id in cited for r in f.rows)]
            if found:
                c.rows = tuple(dict.fromkeys(r for f in found[:1] for r in f.rows))
                c.basis = ("per_gpu",) if found[0].basis == "per_gpu" else ("result",)
                return
        if len(near) >= 2:
            values = [r for x in same if x.kind != "entry" for r in x.rows]
            gives = self.matcher.closest_relation(values if len(values) >= 2 else near, c)
            c.candidates = [
                f"the rows it compares ({', '.join(sorted({r.result_id for r in near}))}) give "
                + (f"{gives}, not {c.text}" if gives else f"no {c.text}")
            ]

    def _sides_named_before(self, c: Claim, claims: list[Claim], own: list[Claim]) -> list[Claim]:
        """For a ratio or percentage whose paragraph prints fewer than two rows (*own*): the
        single-row results of the paragraph before whose submitters its sentence names, with its
        paragraph's own ("... H200 at 46,258 per GPU ... 30 times as many as AMD's newest part"),
        two or more of them, which become its sides."""
        before = previous(self, c.block)
        if before is None:
            return []
        named = self.submitter_words(c.block.words(c.sentence))
        sides = [
            x
            for x in claims
            if x.block is before
            and len(x.rows) == 1
            and x.kind in ("result", "per_gpu")
            and self.submitter_words(x.rows[0].submitter.replace("_", " ")) & named
        ]
        sides += [x for x in own if len(x.rows) == 1 and x.kind in ("result", "per_gpu")]
        if len({x.rows[0].key for x in sides}) < 2:
            return []
        c.sides = tuple(sides)
        return sides

    def _context_mentions(self, c: Claim) -> Mentions:
        """What the claim's sentence names, completed by its paragraph and the article's title."""
        s = self.mentions(c.block, c.sentence)
        p = self.mentions(c.block)
        t = self.vocab.read(self.rendered.article.title)
        cell = self._table_context(c)
        variants = s.variants | p.variants | cell.variants
        if not variants:  # "Llama2-70b-99.9, Server" in the footnote the sentence points at
            variants = {v for n in self._notes_of(c.block) for v in self.vocab.read(n.text).variants}
        return Mentions(
            rounds=s.rounds or cell.rounds or set(self.article_rounds) or t.rounds,
            benchmarks=s.benchmarks or cell.benchmarks or p.benchmarks or t.benchmarks,
            variants=variants,
            scenarios=s.scenarios or cell.scenarios or p.scenarios,
            categories=s.categories,
            divisions=s.divisions,
            chips=s.chips,
            entries=s.entries or cell.entries,
        )

    def _table_context(self, c: Claim) -> Mentions:
        """For a table cell: what its row, the header and the table's caption name."""
        b = c.block
        if b.table < 0:
            return Mentions()
        blocks = self.doc.blocks
        related = [x for x in blocks if x.table == b.table and (x.row in (0, b.row))]
        i = self.doc.index(self.doc.cells(b.table)[0])
        if i > 0 and blocks[i - 1].table < 0:
            related.append(blocks[i - 1])
        return self.vocab.read("\n".join(x.text for x in related))

    def _notes_of(self, block: Block) -> list[Note]:
        """The notes a block's markers point at; for a table cell, the markers of its table and
        of the paragraph or caption right around it."""
        blocks = [block]
        if block.table >= 0:
            blocks = self.doc.cells(block.table) + self.doc.beside(block.table)
        ids = {id(x) for x in blocks}
        labels = {m.label for m in self.notes.markers if id(m.block) in ids}
        return [n for n in self.notes.notes if n.label in labels]

    def _note_entries(self, block: Block) -> set[str]:
        """Entries of the notes this block's markers point at."""
        return {e for n in self._notes_of(block) for e in n.entries}

    @staticmethod
    def _prefer(
        matches: list[Match], m: Mentions, cited: set[str] | None = None, rounds: set[str] | None = None
    ) -> list[Match]:
        """The matches that fit best what the text names: its entries, scenario, accuracy target
        and round, and the entries its footnotes list (an entry that reports one value for
        two accuracy targets is the one of the target the text names)."""
        if len(matches) <= 1:
            return matches
        listed = cited or set()
        named = rounds or set()

        def score(mt: Match) -> int:
            return sum(
                2 * (r.result_id in m.entries)
                + (r.scenario in m.scenarios)
                + (r.result_id in listed)
                + (variant_of(r.benchmark) in m.variants)
                + (r.round in named)
                for r in mt.rows
            )

        top = max(score(mt) for mt in matches)
        return [mt for mt in matches if score(mt) == top]

    # ------------------------------------------------------------------ rounds
    @cached_property
    def article_rounds(self) -> list[str]:
        """Rounds the article names: front matter, else its text."""
        rounds = list(self.rendered.article.rounds)
        if rounds:
            return rounds
        named: set[str] = set(self.vocab.read(self.rendered.article.title).rounds)
        for b in self.prose():
            named |= self.mentions(b).rounds
        return sorted(named)

    @cached_property
    def cited_rounds(self) -> set[str]:
        """Rounds whose results the article prints or cites."""
        out = {r.round for c in self.claims for r in c.rows}
        out |= {e.split("-")[0] for c in self.claims if c.kind == "entry" for e in [c.text]}
        return out | set(self.rendered.article.rounds)


CONNECTOR = re.compile(r"\b(?:against|versus|vs\.?|compared (?:with|to)|than|and|or)\s+(?:the\s+)?$", re.I)
#: not "or": "596,944, or 8,291 per GPU" restates; "against", "versus": "9,629 against 8,553 per GPU"
LIST_GAP = re.compile(r"^[\s,]*(?:and|to|against|versus|vs\.?|–|—|-)?[\s,]*$")


def _lists(claims: list[Claim]) -> list[list[Claim]]:
    """Runs of numbers written as a list ("16,022, 8,447 and 15,989 tokens per second")."""
    runs: list[list[Claim]] = []
    for c in claims:
        prev = runs[-1][-1] if runs else None
        gap = c.block.text[prev.index + len(prev.text) : c.index] if prev and prev.block is c.block else None
        if prev is not None and gap is not None and LIST_GAP.match(gap):
            runs[-1].append(c)
        else:
            runs.append([c])
    return runs


def own_score(c: Claim) -> bool:
    """A number typed with a results unit, or a ``constant()`` printed before one: how a score
    of the author's own run is written ("{{ ours }} tokens/s per GPU")."""
    if c.typed:
        return c.unit in ("throughput", "per_gpu")
    after = c.block.text[c.index + len(c.text) : c.index + len(c.text) + 40]
    return c.kind == "constant" and bool(THROUGHPUT_UNIT.match(after))


def _inherit_units(claims: list[Claim], column: str) -> None:
    """The numbers of a list share a unit (per GPU if any of them is), a number with no unit
    takes the unit of the one before it in its sentence ("14,211 tokens/s per GPU, against
    12,523 for ..."), and a table cell takes its column's."""
    for run in _lists([c for c in claims if c.unit in ("", "throughput", "per_gpu") and c.kind != "entry"]):
        units = {c.unit for c in run}
        lead = run[0].block.text[run[0].sentence.start : run[0].index]
        if "throughput" in units and PER_GPU_LEAD.search(lead) and not TOTAL_BEFORE.search(lead[-40:]):
            units.add("per_gpu")  # "Per GPU, ... that is 921 and 944 samples per second"
        shared = "per_gpu" if "per_gpu" in units else "throughput" if "throughput" in units else ""
        for c in run:
            c.unit = shared or c.unit
    prev: Claim | None = None
    for c in claims:
        if c.unit == "" and c.kind == "number":
            gap = (
                c.block.text[max(0, c.index - 14) : c.index]
                if prev is not None and prev.sentence is c.sentence
                else ""
            )
            follows = bool(gap) and bool(CONNECTOR.search(gap))
            unit = column or (prev.unit if follows and prev is not None else "")
            c.unit = unit if unit in ("throughput", "per_gpu") else ""
        if c.kind in ("number", "result", "per_gpu") and c.unit in ("throughput", "per_gpu"):
            c.kind = "result" if c.unit == "throughput" else "per_gpu"
        if c.unit:
            prev = c


def _one_keystroke(a: str, b: str) -> bool:
    """Whether two entry IDs of one round differ by one digit or two swapped neighbours."""
    return a.split("-")[0] == b.split("-")[0] and one_keystroke(a, b)


def _difference_words(c: Claim) -> bool:
    """Whether an amount is said to separate two results ("73 tokens per second apart")."""
    return bool(DIFFERENCE_AFTER.match(c.block.text[c.index + len(c.text) : c.index + len(c.text) + 40]))


def _restates(c: Claim, x: Claim) -> bool:
    """Whether percentage *c* restates ratio *x* typed before it in its paragraph ("1.08. So,
    about 8%")."""
    if c.suffix.strip() not in ("%", "percent") or x.kind in ("entry", "pct") or not 0 < x.value < 10:
        return False
    return abs((x.value - 1) * 100 - c.value) <= c.tol or abs((1 - x.value) * 100 - c.value) <= c.tol


def _attached_entries(claims: list[Claim]) -> dict[int, str]:
    """In a sentence that types two or more entry IDs and as many results, each ID belongs to the
    result of its rank (the first ID to the first value); with more of one than the other, to
    the result nearest to it, or inside a parenthesis to the result right before it ("X tokens/s
    (Dell, entry A) to Y tokens/s (entry B)": A is X's); in a table row with one entry ID, the
    ID belongs to the row's values: ``{id(claim): entry}``."""
    out: dict[int, str] = {}
    by_sentence: dict[tuple[int, int], list[Claim]] = {}
    for c in claims:
        if (c.typed and c.kind == "entry") or c.typed_value:
            by_sentence.setdefault((id(c.block), c.sentence.start), []).append(c)
    for group in by_sentence.values():
        ids = [c for c in group if c.kind == "entry"]
        values = [c for c in group if c.kind != "entry"]
        if len(ids) < 2 or len(values) < 2:
            continue
        if len(ids) == len(values):  # "X (entry A, ...) and Y in v6.1 (entry B)": in order, one each
            for e, v in zip(
                sorted(ids, key=lambda x: x.index), sorted(values, key=lambda x: x.index), strict=True
            ):
                out.setdefault(id(v), e.text)
            continue
        for e in ids:
            near = _value_before_parenthesis(e, values) or min(values, key=lambda v: abs(v.index - e.index))
            out.setdefault(id(near), e.text)
    by_row: dict[tuple[int, int], list[Claim]] = {}  # a table row with one entry cell: its values'
    for c in claims:
        if c.block.table >= 0 and c.block.row > 0 and ((c.typed and c.kind == "entry") or c.typed_value):
            by_row.setdefault((c.block.table, c.block.row), []).append(c)
    for row in by_row.values():
        cited = {c.text for c in row if c.kind == "entry"}
        if len(cited) == 1:
            for v in row:
                if v.kind != "entry":
                    out.setdefault(id(v), next(iter(cited)))
    return out


def _value_before_parenthesis(e: Claim, values: list[Claim]) -> Claim | None:
    """The value a parenthesis holding entry ID *e* annotates: "35,316.7 tokens per second (Dell,
    entry 5.1-0026)"; not the one before a system's name ("... 113,685 tokens per second on
    gpt-oss-120b and CoreWeave's B300 (entry 6.1-0052) delivered 111,247": the ID is the system's)."""
    text = e.block.text
    opened = text.rfind("(", e.sentence.start, e.index)
    if opened < 0 or text.rfind(")", opened, e.index) >= 0:
        return None
    before = [v for v in values if v.index < opened]
    if not before:
        return None
    v = max(before, key=lambda x: x.index)
    gap = text[v.index + len(v.text) : opened]
    return v if len(gap) <= 30 and UNIT_GAP.fullmatch(gap) else None


#: what may stand between a value and the parenthesis that annotates it: its unit
UNIT_GAP = re.compile(r"\s*(?:[\w/.%-]+\s*){0,4}")


#: the unit a typed number is written with, as the official files name it
_UNIT_WORDS = {
    "Tokens/s": re.compile(r"\btok(?:en)?s?\b", re.I),
    "Samples/s": re.compile(r"\bsamples?\b", re.I),
    "Queries/s": re.compile(r"\bquer(?:y|ies)\b|\bQPS\b", re.I),
}


def _of_unit(rows: list[Row], after: str) -> list[Row]:
    """*rows* of the unit the number is written with ("tokens per second": Tokens/s rows), as
    far as any remain: a samples/s result is no nearest value for a tokens/s claim."""
    for units, pat in _UNIT_WORDS.items():
        if pat.search(after[:30]):
            return [r for r in rows if r.units == units] or rows
    return rows


def _named(rows: list[Row], m: Mentions) -> list[Row]:
    """*rows* narrowed to the benchmarks, then the scenarios, their sentence names, as far as any
    remain: the nearest value a finding suggests is one of what the sentence is about (an
    entry's gpt-oss-120b Offline result, not its llama2-70b one that happens to be closer)."""
    for names, attr in ((m.benchmarks, "benchmark"), (m.scenarios, "scenario")):
        if names:
            rows = [r for r in rows if getattr(r, attr) in names] or rows
    return rows
