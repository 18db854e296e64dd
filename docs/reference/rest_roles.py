"""Griffe extension for the documentation site: reST markup in docstrings, as Markdown.

ttr-core's docstrings are plain reST-ish prose, read mostly in editors and
``help()``: they cross-reference with Sphinx roles (:func:`apply`,
:class:`~ttr_core.GameState`) and end a paragraph with ``::`` before a literal
block, and lay out a table as a reST simple table. mkdocstrings renders
docstrings as Markdown, where a role would show as ``:func:`` in front of the
code and a simple table as one paragraph. This extension rewrites each role as a
cross-reference to the object it names, resolved the way Python would from
the documented object (its members, then its module's names), and marks the
reference optional: an object the site does not render (a private helper)
stays plain code instead of a broken link. ``text::`` becomes ``text:``, as
reST renders it, and a simple table with a header a Markdown table.

mkdocs.yml loads it from this file (``extensions:`` of the python handler).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import griffe

#: A Sphinx role: ``:func:`target```, ``:py:class:`~pkg.Name```, ...
ROLE = re.compile(r":(?:py:)?(?:func|class|meth|attr|data|mod|exc|obj|const):`(?P<target>[^`]+)`")
#: The border of a reST simple table: columns of ``=`` separated by spaces.
TABLE_BORDER = re.compile(r"^[ \t]*=+(?: +=+)+[ \t]*$")
#: The default griffe-fieldz shows for a field made by a factory: ``<class 'dict'>``.
FACTORY_DEFAULT = re.compile(r"<class '(?:[\w.]+\.)?(?P<name>\w+)'>")
#: A paragraph ending with reST's literal-block marker: ``Example::``.
LITERAL_MARKER = re.compile(r"(?<=\S)::$", re.MULTILINE)
#: A line holding only the marker (`` ::``): reST drops it.
BARE_MARKER = re.compile(r"^[ \t]*::[ \t]*$", re.MULTILINE)


def _resolve(obj: griffe.Object, target: str) -> str | None:
    """The full path of ``target`` as seen from ``obj``, or ``None`` if it names nothing."""
    head, _, rest = target.partition(".")
    try:
        path = obj.resolve(head)
    except griffe.NameResolutionError:
        if head != obj.package.name:
            return None
        path = head
    return f"{path}.{rest}" if rest else path


def rewrite(text: str, obj: griffe.Object) -> str:
    """``text`` (a docstring) in Markdown: roles as optional cross-references, simple
    tables as Markdown tables, ``::`` markers as reST renders them."""

    def link(match: re.Match[str]) -> str:
        target = match["target"].strip()
        short = target.startswith("~")
        target = target.lstrip("~").removesuffix("()")
        shown = target.rsplit(".", 1)[-1] if short else target
        code = f"<code>{html.escape(shown)}</code>"
        path = _resolve(obj, target)
        if path is None:
            return code
        return f'<autoref optional identifier="{html.escape(path)}">{code}</autoref>'

    text = ROLE.sub(link, text)
    text = _simple_tables(text)
    text = BARE_MARKER.sub("", text)
    return LITERAL_MARKER.sub(":", text)


def _simple_tables(text: str) -> str:
    """reST simple tables with a header (three ``===  ===`` borders) as Markdown tables.

    A line whose first column is blank continues the row above it, as in reST.
    """
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        borders = [i] if TABLE_BORDER.match(lines[i]) else []
        j = i + 1
        while borders and len(borders) < 3 and j < len(lines) and lines[j].strip():
            if TABLE_BORDER.match(lines[j]):
                borders.append(j)
            j += 1
        if len(borders) < 3:
            out.append(lines[i])
            i += 1
            continue
        starts = [m.start() for m in re.finditer(r"=+", lines[i])]
        indent = lines[i][: starts[0]]
        header = _table_rows(lines[borders[0] + 1 : borders[1]], starts)
        body = _table_rows(lines[borders[1] + 1 : borders[2]], starts)
        for row in [*header[:1], ["---"] * len(starts), *body]:
            cells = [cell.replace("|", "\\|") for cell in row]
            out.append(f"{indent}| {' | '.join(cells)} |")
        i = borders[2] + 1
    return "\n".join(out)


def _table_rows(lines: list[str], starts: list[int]) -> list[list[str]]:
    """The rows of a simple table's lines, cut at the columns' ``starts``."""
    rows: list[list[str]] = []
    for line in lines:
        # A cell that runs into the next column (docutils would refuse it) ends
        # at the first gap of two spaces instead: its author meant that.
        cuts = [0]
        for start in starts[1:]:
            gap = line.find("  ", max(start - 1, cuts[-1]))
            fits = start > len(line) or line[start - 1] == " "
            cuts.append(start if fits or gap < 0 else gap)
        ends = [*cuts[1:], len(line)]
        cells = [line[a:b].strip() for a, b in zip(cuts, ends, strict=True)]
        if rows and not cells[0]:
            rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], cells, strict=True)]
        else:
            rows.append(cells)
    return rows


def _walk(obj: griffe.Object) -> Iterator[griffe.Object]:
    """``obj`` and every object defined in it (not the names it imports)."""
    yield obj
    for member in obj.members.values():
        if isinstance(member, griffe.Object):
            yield from _walk(member)


class RestRoles(griffe.Extension):
    """Rewrite the reST roles and literal-block markers of a package's docstrings."""

    def __init__(self) -> None:
        #: The ``#:`` comment of each class field, by path, kept before
        #: griffe-fieldz (listed after this extension) moves fields into a table.
        self.field_docs: dict[str, str] = {}

    def on_class_members(self, *, cls: griffe.Class, **kwargs: Any) -> None:
        """Keep the fields' comments (see :attr:`field_docs`)."""
        for name, member in cls.attributes.items():
            if member.docstring is not None:
                self.field_docs[f"{cls.path}.{name}"] = member.docstring.value

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Once the whole package is loaded, so that every name resolves."""
        for obj in _walk(pkg):
            docstring = obj.docstring
            if docstring is None:
                continue
            docstring.value = rewrite(docstring.value, obj)
            # ``parsed`` is computed once and cached: griffe-fieldz parsed the
            # docstrings of attrs classes to add their fields; rewrite that copy.
            if "parsed" in vars(docstring):
                self._rewrite_parsed(docstring.parsed, obj)

    def _rewrite_parsed(self, sections: list[griffe.DocstringSection], obj: griffe.Object) -> None:
        for section in sections:
            if isinstance(section.value, str):
                section.value = rewrite(section.value, obj)
            elif isinstance(section.value, list):
                for item in section.value:
                    if isinstance(item, griffe.DocstringNamedElement):
                        self._fix_factory_default(item, obj)
                    if isinstance(item, griffe.DocstringElement):
                        item.description = rewrite(item.description, obj)

    def _fix_factory_default(self, item: griffe.DocstringNamedElement, obj: griffe.Object) -> None:
        """A field made by a factory (``attrs.Factory(dict)``): griffe-fieldz describes
        it with the factory's own docstring (``dict``'s) and shows the class as its
        default; show the field's comment, if any, and ``dict()``."""
        factory = FACTORY_DEFAULT.fullmatch(str(item.value))
        if factory is not None:
            item.value = f"{factory['name']}()"
            item.description = self.field_docs.get(f"{obj.path}.{item.name}", "")
