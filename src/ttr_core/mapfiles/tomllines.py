"""Where things are in a TOML text: line numbers for map problems and warnings.

``tomllib`` gives values, not positions. :class:`Locator` scans the text
(strings of every kind, escapes, comments, nesting, quoted and dotted keys)
for the line of each table header, key and array entry, and keeps only what
agrees with the parsed data: a line it gives is right, or it gives none.
It runs only when there is something to report.

:func:`nesting_problem` is the cheap scan that runs on *every* text before
``tomllib`` does: it refuses nesting that would make ``tomllib`` recurse
too deeply, and dotted keys that would make it build huge key paths.
"""

from __future__ import annotations

import bisect
import re
import tomllib
from collections.abc import Iterable, Mapping
from typing import Any

#: A place in the parsed data: table keys and, for array entries, the index.
Where = tuple[str | int, ...]
_MISSING = object()
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_BRACKETED = re.compile(r"[\"'#\[\]{},]")  # what matters inside [...] and {...}
_BASIC_STRING = re.compile(r'["\\]')
_END_OF_SCALAR = re.compile(r"[#\n]")
_TOML_LINE = re.compile(r"\(at line (\d+), column \d+\)\s*$")
# The nesting scan: what it stops at outside strings and comments, and the
# rest of each kind of string (possessive, so that no backtracking can blow up).
_NESTING = re.compile(r"[\"'#\[\]{}.]")
_REST_OF = {
    '"': re.compile(r'(?:[^"\\\n]++|\\.)*+"'),
    "'": re.compile(r"[^'\n]*+'"),
    '"""': re.compile(r'(?:[^"\\]++|\\[\s\S]|"(?!""))*+"""'),
    "'''": re.compile(r"(?:[^']++|'(?!''))*+'''"),
}
# The rest of a dotted key (or a float) from its first dot: each ``.part``.
_DOT_PART = re.compile(
    r"""[ \t]*+\.[ \t]*+(?:[A-Za-z0-9_+-]++|"(?!"")(?:[^"\\\n]++|\\.)*+"|'(?!'')[^'\n]*+')"""
)
_DOTTED = re.compile(f"(?:{_DOT_PART.pattern})++")
# The quick look: every string and comment (an unterminated string takes the
# rest of the text, where tomllib stops), brackets, and one part of a dotted key
# once strings are blanked out.
_STRINGS_AND_COMMENTS = re.compile(
    "|".join(
        [
            '"""' + _REST_OF['"""'].pattern + '"{0,2}+',  # up to two quotes of content end it
            "'''" + _REST_OF["'''"].pattern + "'{0,2}+",
            '"' + _REST_OF['"'].pattern,
            "'" + _REST_OF["'"].pattern,
            r"#[^\n]*+",
            r"[\"'][\s\S]*+",
        ]
    )
)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]++")
_INNERMOST = re.compile(r"[\[{][\]}]")


class _Unsure(Exception):
    """The scanner cannot follow the text: it gives no line at all."""


def _lookup(data: Any, where: Where) -> Any:
    value = data
    for part in where:
        if isinstance(part, int):
            if not isinstance(value, list) or part >= len(value):
                return _MISSING
        elif not isinstance(value, Mapping) or part not in value:
            return _MISSING
        value = value[part]
    return value


class Locator:
    """The lines of a TOML text's table headers, keys and array entries.

    A small scanner that reads no values, only where statements, keys and
    array entries start; strings, comments and nesting are skipped as TOML
    defines them. It runs only on text that ``tomllib`` parsed, and every
    place it found is checked against the parsed data (an array must have as
    many entries as the scanner counted, entry by entry a table where it saw
    ``{``): when it cannot tell, a place has no line rather than a wrong one.
    Built only when a problem or warning is reported, so valid maps pay
    nothing for it.
    """

    def __init__(self, text: str, data: Mapping[str, Any]) -> None:
        self._text = text
        self._newlines = [m.start() for m in re.finditer("\n", text)]
        self._starts: dict[Where, int] = {}  # statement starts (headers, keys)
        self._arrays: dict[Where, list[int]] = {}  # entry starts of `key = [...]`
        self._table_arrays: dict[Where, list[int]] = {}  # `[[key]]` headers
        try:
            self._scan()
        except (_Unsure, ValueError, IndexError):
            self._starts.clear()
            self._arrays.clear()
            self._table_arrays.clear()
        self._places = self._verified(data)

    def line(self, candidates: Iterable[Where]) -> int | None:
        """The line of the first of ``candidates`` found, else ``None``."""
        for where in candidates:
            pos = self._places.get(where)
            if pos is not None:
                return bisect.bisect_left(self._newlines, pos) + 1
        return None

    def _verified(self, data: Mapping[str, Any]) -> dict[Where, int]:
        places: dict[Where, int] = {}
        for where, pos in self._starts.items():
            if _lookup(data, where) is not _MISSING:
                places[where] = pos
        for where, starts in self._table_arrays.items():
            value = _lookup(data, where)
            if isinstance(value, list) and len(value) == len(starts):
                places.update(((*where, i), pos) for i, pos in enumerate(starts))
        text = self._text
        for where, starts in self._arrays.items():
            value = _lookup(data, where)
            if (
                isinstance(value, list)
                and len(value) == len(starts)
                and all(
                    isinstance(item, Mapping) == (text[pos] == "{")
                    for item, pos in zip(value, starts, strict=True)
                )
            ):
                places.update(((*where, i), pos) for i, pos in enumerate(starts))
        return places

    # The scanner proper --------------------------------------------------

    def _scan(self) -> None:
        text = self._text
        end = len(text)
        table: Where = ()
        i = self._skip_blank(0)
        while i < end:
            start = i
            if text[i] == "[":
                array = text.startswith("[[", i)
                path, i = self._key(i + (2 if array else 1))
                close = "]]" if array else "]"
                if not text.startswith(close, i):
                    raise _Unsure
                i += len(close)
                table = path
                if array:
                    self._table_arrays.setdefault(path, []).append(start)
                self._starts.setdefault(path, start)
            else:
                path, i = self._key(i)
                if text[i] != "=":
                    raise _Unsure
                full = (*table, *path)
                self._starts.setdefault(full, start)
                i = self._skip_space(i + 1)
                if text[i] in "[{":
                    i = self._bracketed(i, full)
                elif text[i] in "\"'":
                    i = self._string(i)
                else:
                    match = _END_OF_SCALAR.search(text, i)
                    i = end if match is None else match.start()
            # The rest of the line: blanks and a comment at most.
            i = self._skip_space(i)
            if i < end and text[i] == "#":
                i = self._to_line_end(i)
            if i < end and text[i] not in "\r\n":
                raise _Unsure
            i = self._skip_blank(i)

    def _skip_space(self, i: int) -> int:
        text = self._text
        while i < len(text) and text[i] in " \t":
            i += 1
        return i

    def _to_line_end(self, i: int) -> int:
        newline = self._text.find("\n", i)
        return len(self._text) if newline < 0 else newline

    def _skip_blank(self, i: int) -> int:
        """Past spaces, line breaks and comments."""
        text = self._text
        while i < len(text):
            if text[i] in " \t\r\n":
                i += 1
            elif text[i] == "#":
                i = self._to_line_end(i)
            else:
                break
        return i

    def _key(self, i: int) -> tuple[tuple[str, ...], int]:
        """A dotted key starting at ``i`` (after blanks), and where it ends."""
        text = self._text
        parts: list[str] = []
        while True:
            i = self._skip_space(i)
            if text[i] in "\"'":
                end = self._string(i)
                raw = text[i:end]
                if raw.startswith(('"""', "'''")):
                    raise _Unsure  # not a key
                if raw[0] == '"' and "\\" in raw:
                    parts.append(tomllib.loads(f"k = {raw}")["k"])
                else:
                    parts.append(raw[1:-1])
            else:
                match = _BARE_KEY.match(text, i)
                if match is None:
                    raise _Unsure
                parts.append(match.group())
                end = match.end()
            i = self._skip_space(end)
            if text[i] != ".":
                return tuple(parts), i
            i += 1

    def _string(self, i: int) -> int:
        """Where the string starting at ``i`` ends (just past its closing quote)."""
        text = self._text
        quote = text[i]
        if text.startswith(quote * 3, i):
            j = i + 3
            while True:
                if quote == "'":
                    k = text.index("'''", j)
                else:
                    match = _BASIC_STRING.search(text, j)
                    if match is None:
                        raise _Unsure
                    k = match.start()
                    if text[k] == "\\":
                        j = k + 2
                        continue
                    if not text.startswith('"""', k):
                        j = k + 1
                        continue
                # A closing delimiter may follow up to two quotes of the content.
                end = k + 3
                while end < len(text) and end < k + 5 and text[end] == quote:
                    end += 1
                return end
        if quote == "'":
            return text.index("'", i + 1) + 1
        j = i + 1
        while True:
            match = _BASIC_STRING.search(text, j)
            if match is None:
                raise _Unsure
            if match.group() == '"':
                return match.end()
            j = match.end() + 1

    def _bracketed(self, i: int, path: Where) -> int:
        """Where the array or inline table starting at ``i`` ends; for an
        array, records where each of its entries starts."""
        text = self._text
        starts: list[int] | None = [] if text[i] == "[" else None
        depth = 0
        expect_entry = False
        j = i
        while True:
            if expect_entry:
                j = self._skip_blank(j)
                if text[j] not in "],":
                    assert starts is not None
                    starts.append(j)
                expect_entry = False
            match = _BRACKETED.search(text, j)
            if match is None:
                raise _Unsure
            k = match.start()
            char = text[k]
            if char in "\"'":
                j = self._string(k)
            elif char == "#":
                j = self._to_line_end(k)
            elif char in "[{":
                depth += 1
                j = k + 1
                expect_entry = depth == 1 and starts is not None
            elif char in "]}":
                depth -= 1
                j = k + 1
                if depth == 0:
                    if starts is not None:
                        self._arrays[path] = starts
                    return j
            else:  # a comma
                j = k + 1
                expect_entry = depth == 1 and starts is not None


def nesting_problem(text: str, max_depth: int, max_key_parts: int) -> tuple[str, int] | None:
    """What is nested too deeply in the TOML ``text``, and its line; ``None`` if nothing.

    Counts the arrays and inline tables open at each point (table headers
    count too: ``[[a]]`` is two deep, so the count is never below the real
    depth) and the parts of each dotted key, skipping strings and comments
    as TOML reads them. Malformed text ends the scan quietly: ``tomllib``
    reports it, and stops there, so nothing past it is ever parsed.
    It runs before ``tomllib``, whose parser recurses once per level and
    builds every prefix of a dotted key, so that deep nesting crashes it and
    long keys exhaust memory.
    """
    # A quick look first, all in regular expressions: strings and comments
    # blanked out, then the brackets alone, from which each round takes the
    # innermost pairs (a pair with n levels inside goes in round n + 1), and
    # a search for a long dotted key. It flags everything the exact scan
    # would (and unbalanced brackets too); the exact scan, which also gives
    # the line, runs only on what it flags.
    bare = _STRINGS_AND_COMMENTS.sub("s", text)
    brackets = _NOT_BRACKETS.sub("", bare)
    for _ in range(max_depth):
        if not brackets:
            break
        brackets = _INNERMOST.sub("", brackets)
    dotted = re.compile(r"\.(?:[ \t]*+[A-Za-z0-9_+-]++[ \t]*+\.)" + f"{{{max_key_parts - 1}}}")
    if not brackets and dotted.search(bare) is None:
        return None
    return _exact_nesting_problem(text, max_depth, max_key_parts)


def _exact_nesting_problem(text: str, max_depth: int, max_key_parts: int) -> tuple[str, int] | None:
    """:func:`nesting_problem`, by one pass of regular-expression jumps."""
    depth = 0
    i = 0
    search = _NESTING.search
    while True:
        match = search(text, i)
        if match is None:
            return None
        k = match.start()
        char = text[k]
        if char in "[{":
            depth += 1
            if depth > max_depth:
                line = text.count("\n", 0, k) + 1
                return f"arrays and inline tables nested more than {max_depth} deep", line
            i = k + 1
        elif char in "]}":
            depth = depth - 1 if depth else 0
            i = k + 1
        elif char == "#":
            newline = text.find("\n", k)
            if newline < 0:
                return None
            i = newline
        elif char == ".":
            dotted = _DOTTED.match(text, k)
            if dotted is None:
                i = k + 1
                continue
            parts = len(_DOT_PART.findall(dotted.group())) + 1
            if parts > max_key_parts:
                line = text.count("\n", 0, k) + 1
                return f"a dotted key of more than {max_key_parts} parts", line
            i = dotted.end()
        else:  # a quote: skip the string
            quote = char * 3 if text.startswith(char * 3, k) else char
            rest = _REST_OF[quote].match(text, k + len(quote))
            if rest is None:
                return None  # an unterminated string: tomllib stops at it
            i = rest.end()
            if len(quote) == 3:  # a closing delimiter may follow up to two quotes of content
                for _ in range(2):
                    if text.startswith(char, i):
                        i += 1


def toml_error_line(exc: tomllib.TOMLDecodeError) -> int | None:
    lineno = getattr(exc, "lineno", None)  # Python 3.14 and later
    if isinstance(lineno, int):
        return lineno
    match = _TOML_LINE.search(str(exc))
    return int(match.group(1)) if match else None
