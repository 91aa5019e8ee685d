"""Building HTML (and inline SVG) in plain Python, escaped by construction.

``h(tag, *children, **attributes)`` returns ``Safe`` markup: every child that is not
already ``Safe`` is escaped, and so is every attribute value, so text from players
(display names, league names) can never become markup. Attribute names take ``_`` for
``-`` (``stroke_width``) and a trailing ``_`` is dropped (``class_``).
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from html import escape

from bot.render.markup import RED_CARD, Text, spans
from bot.web import language, paths
from i18n import _


class Safe(str):
    """Markup that is already escaped."""

    __slots__ = ()


Child = Safe | str | int | float | None | Iterable["Child"]

_VOID = frozenset({"meta", "link", "br", "img", "input", "hr"})


def _children(items: Iterable[Child]) -> Iterable[str]:
    for item in items:
        if item is None or item is False:
            continue
        if isinstance(item, Safe):
            yield item
        elif isinstance(item, str | int | float):
            yield escape(str(item), quote=False)
        else:
            yield from _children(item)


def _attribute(name: str, value: object) -> str:
    key = name.rstrip("_").replace("_", "-")
    return key if value is True else f'{key}="{escape(str(value), quote=True)}"'


def h(tag: str, *children: Child, **attributes: object) -> Safe:
    """``<tag attributes>children</tag>`` (attributes None or False are left out)."""
    attrs = "".join(
        " " + _attribute(k, v) for k, v in attributes.items() if v is not None and v is not False
    )
    if tag in _VOID:
        return Safe(f"<{tag}{attrs}>")
    return Safe(f"<{tag}{attrs}>{''.join(_children(children))}</{tag}>")


def join(items: Iterable[Child], sep: str = "") -> Safe:
    """Children one after the other, escaped as ``h`` does, with ``sep`` (plain text)."""
    return Safe(escape(sep, quote=False).join("".join(_children([i])) for i in items))


def rich(text: Text) -> Safe:
    """A renderer's line as HTML: strong spans in ``<strong>``, red cards in red, every
    word escaped."""
    out: list[Child] = []
    for span in spans(text):
        pieces: list[Child] = []
        at = 0
        for m in RED_CARD.finditer(span.text):
            pieces += [span.text[at:m.start()], h("span", m.group(0), class_="red")]
            at = m.end()
        pieces.append(span.text[at:])
        out.append(h("strong", pieces) if span.strong else join(pieces))
    return join(out)


def link(href: str, *children: Child) -> Safe:
    """A link (of the site: in the language the page was asked for, ``language.href``)."""
    return h("a", *children, href=language.href(href))


def filled(template: str, **params: Child) -> Safe:
    """A (translated) template with markup put in its ``{placeholders}``: the template's
    words are escaped like any text, the parameters as ``h`` escapes children."""
    return Safe(escape(template, quote=False).format(
        **{k: "".join(_children([v])) for k, v in params.items()}
    ))


def grid(
    head: Iterable[Child], rows: Iterable[Child], numeric: Container[int] = (),
    **attributes: object,
) -> Safe:
    """A table: one header row of ``head`` cells, then ``rows`` (``tr`` elements); the
    headers of the ``numeric`` columns (by index) are aligned as their numbers."""
    cells = [h("th", t, class_="num" if i in numeric else None) for i, t in enumerate(head)]
    return h("table", h("thead", h("tr", cells)), h("tbody", rows), **attributes)


def document(title: str, crumbs: Iterable[tuple[str, str | None]], *body: Child) -> Safe:
    """A whole page: ``title``, a trail of ``(text, href)`` crumbs (the last one unlinked)
    and the body. No script anywhere; the style sheet is a file (see the CSP)."""
    trail = [link(href, text) if href else h("span", text) for text, href in crumbs]
    return Safe("<!DOCTYPE html>" + h(
        "html",
        h("head",
          h("meta", charset="utf-8"),
          h("meta", name="viewport", content="width=device-width, initial-scale=1"),
          h("title", _("{title} · Deckhand", title=title)),
          h("link", rel="stylesheet", href=paths.STYLE),
          h("link", rel="icon", href=paths.ICON, type="image/svg+xml")),
        h("body",
          h("header", h("a", "Deckhand", href=language.href("/"), class_="brand"),
            h("nav", join(trail, " › "), aria_label=_("Where you are")) if trail else None),
          h("main", h("h1", title), *body),
          h("footer",
            _("Deckhand standings · read-only · names as players chose them on Discord"),
            _switch())),
        lang=language.tag(),
    ))


def _switch() -> Safe | None:
    """The links to this page in every other language (``language.switch``)."""
    links = [h("strong", name) if here else h("a", name, href=url)
             for name, url, here in language.switch()]
    if not links:
        return None
    return h("nav", join(links, " · "), class_="languages", aria_label=_("Languages"))
