"""Escaping text from results files and front matter for the place it lands in.

Text from the data (a system name, a submitter, a software stack, a benchmark name)
and from front matter is never markup. :func:`md` makes any string print as itself
in Markdown inline text, a Markdown table cell, HTML text and an HTML attribute, as
both Python-Markdown (the site) and markdown-it (the checker) read them.
"""

from __future__ import annotations

import html
import re
import unicodedata

#: C0 and C1 control characters (tab, line feed and carriage return become spaces)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
#: characters that start Markdown or attribute-list markup, escaped with a backslash
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]|])")
_HTML = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})


class DataText(str):
    """A string that came from a results file or front matter: printed escaped, never as markup."""

    __slots__ = ()


class Trusted(str):
    """Markup the generator itself made (markers, footnotes, tables): printed as is."""

    __slots__ = ()


def clean(text: str) -> str:
    """Text without control characters; tabs and line breaks become spaces.

    >>> clean("8x B300\\n\\x00(rev 2)")
    '8x B300 (rev 2)'
    """
    if text.isascii() and text.isprintable():  # the common case: nothing to do
        return text
    text = _CONTROL.sub(lambda m: " " if m.group(0) in "\t\n\r" else "", text)
    return unicodedata.normalize("NFC", text)


def md(text: str) -> str:
    """Inline-safe text for Markdown and HTML: no element, attribute or link can come from it.

    >>> md('<script>alert(1)</script>')
    '&lt;script&gt;alert(1)&lt;/script&gt;'
    >>> md('[x](javascript:alert(1)) | 8x_B300')
    '\\\\[x\\\\](javascript:alert(1)) \\\\| 8x\\\\_B300'
    """
    text = clean(str(text)).translate(_HTML)
    return _MD_SPECIAL.sub(r"\\\1", text)


#: what makes a line the start of a block, not text: a heading (#), a list item (-, +, 1. or
#: 1)), a thematic break (---), an admonition (!!!), a fenced code block (~~~): its first
#: character (the number's "." or ")") is written as a character reference, which no block
#: parser reads and the browser prints as the character
_BLOCK_START = re.compile(r"[#\-+!~]|\d{1,9}(?=[.)])")


def md_block(text: str) -> str:
    """:func:`md` for text that is a paragraph of its own (a line to itself): it cannot start a
    heading, a list, a rule, an admonition or a code block either.

    >>> md_block('# 1. Heading')
    '&#35; 1. Heading'
    >>> md_block('    1. item')
    '1&#46; item'
    """
    text = md(text).lstrip(" ")  # four spaces would start a code block
    m = _BLOCK_START.match(text)
    if m is not None:
        end = m.end() + 1 if text[: m.end()].isdigit() else m.end()
        text = text[: end - 1] + f"&#{ord(text[end - 1])};" + text[end:]
    return _kept_edges(text)


def _kept_edges(text: str) -> str:
    """*text* with the whitespace at either end that is not a space (a no-break space, say),
    which Markdown strips from a paragraph, written as character references."""
    lead = len(text) - len(text.lstrip())
    end = max(lead, len(text.rstrip()))

    def refs(edge: str) -> str:
        return "".join(c if c == " " else f"&#{ord(c)};" for c in edge)

    return refs(text[:lead]) + text[lead:end] + refs(text[end:])


def attr(text: str) -> str:
    """Text for an HTML attribute value written between double quotes (in HTML, not Markdown)."""
    return html.escape(clean(str(text)), quote=True)


#: what Markdown reads inside a raw HTML tag before it sets the tag aside: links and images
#: ([..](..), [..][..]), code spans, backslash escapes; and what splits a table row or opens an
#: attribute list. Emphasis runs after raw tags are set aside, so * and _ stay as they are.
_MD_IN_ATTR = str.maketrans({c: f"&#{ord(c)};" for c in "\\`[]()!|{}"})


def md_attr(text: str) -> str:
    """Text for an HTML attribute of a tag written *inside Markdown*: besides quotes and angle
    brackets, every character Markdown could read as a link, code span or table cell becomes a
    character reference, which the browser reads back as the character.

    >>> md_attr('deepseek-r1[a](y/onmouseover=alert(2)//)')
    'deepseek-r1&#91;a&#93;&#40;y/onmouseover=alert&#40;2&#41;//&#41;'
    """
    return attr(text).translate(_MD_IN_ATTR)


def safe_url(url: str) -> str | None:
    """The URL when it is an http(s) link without spaces or quotes, else None."""
    u = clean(str(url)).strip()
    if re.fullmatch(r"https?://[^\s\"'<>\\`]+", u, flags=re.I):
        return u
    return None
