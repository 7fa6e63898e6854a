"""The statements every reader page must show, checked on the finished HTML.

The footnotes, the derived-metrics statement, the verification statement, the trademark
legend and the compliance paragraph are generated from what each article cites; Markdown
can still lose them on the way to the page (a paragraph run into the footnotes was dropped
with them: the compliance paragraph vanished from the reader's page while the build passed).
:func:`missing_statements` reads each published article's page as MkDocs wrote it and names
what is not there; the build fails on any of it, before the new site replaces the old one.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from generator.article.escape import md
from generator.article.footnotes import NOT_VERIFIED, TRADEMARK, VERIFIED, _derived_sentence, sort_keys
from generator.article.render import Rendered
from generator.errors import BuildError
from generator.site.reader import cited_entries

COMPLIANCE_START = "Comparisons in this article identify"
_TAG = re.compile(r"<[^>]*>")
_BACKREF = re.compile(r'<a class="footnote-backref"[^>]*>.*?</a>', re.S)


def page_text(fragment: str) -> str:
    """What a reader reads of an HTML fragment: tags left out, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(_TAG.sub(" ", _BACKREF.sub("", fragment))).split())


def _note(page: str, n: int) -> str | None:
    """The text of footnote *n* of a page (Python-Markdown's ``<li id="fn:n">``), if there."""
    m = re.search(rf'<li id="fn:{n}">(.*?)</li>', page, re.S)
    return page_text(m.group(1)) if m else None


def _plain_derived(kinds: list[str], publisher: str) -> str:
    return page_text(_derived_sentence(kinds, publisher).replace(md(publisher), publisher))


def missing_statements(r: Rendered, page: str, publisher: str) -> list[str]:
    """What the reader's page of *r* (its HTML, *page*) lacks of the statements it needs."""
    out: list[str] = []
    cited = cited_entries(r)
    for key in sort_keys(r.groups):
        g = r.groups[key]
        note = _note(page, g.number)
        label = f"footnote {g.number} (v{key[0]} {key[1].capitalize()} {key[2].capitalize()})"
        if note is None:
            out.append(f"{label} is missing")
            continue
        # (entry ID, how a row without one is named): only entry IDs are searched for
        ids = sorted({i for ids in cited.get(key, {}).values() for i, _ in ids if i})
        lost = [i for i in ids if not re.search(rf"(?<![\w.-]){re.escape(i)}(?![\w-])", note)]
        if lost:
            out.append(f"{label} does not name entr{'y' if len(lost) == 1 else 'ies'} {', '.join(lost)}")
        derived = _plain_derived(g.derived_kinds, publisher)
        if derived and derived not in note:
            out.append(f"{label} lacks the derived-metrics statement ({derived!r})")
        verification = NOT_VERIFIED if g.derived_kinds else VERIFIED
        if verification not in note:
            out.append(f"{label} lacks the verification statement ({verification!r})")
        if TRADEMARK not in note:
            out.append(f"{label} lacks the trademark legend")
    text = page_text(page)
    for para in _compliance_paragraphs(r.markdown):
        if para not in text:
            out.append(f"the compliance paragraph ({para[:60]!r}...) is missing")
    return out


def _compliance_paragraphs(markdown: str) -> list[str]:
    return [page_text(ln.strip()) for ln in markdown.split("\n") if ln.strip().startswith(COMPLIANCE_START)]


def article_html(site: Path, slug: str) -> Path | None:
    """The page MkDocs wrote for an article: ``slug.html``, or ``slug/index.html`` with directory URLs."""
    for p in (site / f"{slug}.html", site / slug / "index.html"):
        if p.is_file():
            return p
    return None


def required_text_problems(site: Path, rendered: list[Rendered], publisher: str) -> list[str]:
    """What each article of *rendered* (those the site publishes, built) lacks on its page in
    *site*, one line per statement, naming the article."""
    problems: list[str] = []
    for r in rendered:
        if r.missing:
            continue
        path = article_html(site, r.article.slug)
        if path is None:
            problems.append(f"{r.article.path}: the site has no page for it")
            continue
        page = path.read_text("utf-8", errors="replace")
        problems += [f"{r.article.path}: {why} on its page" for why in missing_statements(r, page, publisher)]
    return problems


def required_text_error(problems: list[str], after: str = "") -> BuildError:
    """The error a build fails with: *after* says what became of the site."""
    return BuildError(
        f"required text missing from reader pages{after}:\n" + "\n".join(f"  {p}" for p in problems)
    )
