"""Names a person can tell apart: a confusable skeleton and a mixed-script check.

Two names people cannot tell apart on a board or in a message (``Soho`` and
``Sоho`` with a Cyrillic ``о``, ``Coco`` and an all-Cyrillic ``Сосо``,
``Gray`` and ``gray``) must not name two different things. :func:`skeleton`
maps a name to a form in which such look-alikes are equal, and
:func:`mixed_scripts` finds a name that mixes Latin letters with Cyrillic or
Greek ones (a name no real map needs, and the usual disguise).

This is a small, dependency-free subset of Unicode's confusable detection
(UTS #39, "Unicode Security Mechanisms"): compatibility decomposition (NFKD:
fullwidth and other compatibility forms), accents dropped, the Cyrillic and
Greek letters that look like Latin letters mapped to those letters, and case
folded. It is meant for refusing look-alike names in map files, where a false
match only asks the author to choose another name.
"""

from __future__ import annotations

import unicodedata

__all__ = ["LOOK_ALIKES", "mixed_scripts", "skeleton", "unusual_characters"]

#: Cyrillic and Greek letters that look like Latin letters, and those letters.
#: The table follows Unicode's confusables.txt (UTS #39, the data file of
#: "Unicode Security Mechanisms", https://www.unicode.org/Public/security/latest/
#: confusables.txt) for these letters: each entry's Latin letter is the
#: prototype that file gives (with "I" and "l" both kept as the letter they
#: are, since the skeleton folds case afterwards). Both cases are listed
#: because the mapping is made before case folding: Cyrillic "Н" looks like
#: "H", but its small letter "н" looks like no Latin letter.
LOOK_ALIKES: dict[str, str] = {
    # Cyrillic capitals
    "\u0405": "S",  # Ѕ DZE
    "\u0406": "I",  # І BYELORUSSIAN-UKRAINIAN I
    "\u0408": "J",  # Ј JE
    "\u0410": "A",  # А
    "\u0412": "B",  # В VE
    "\u0415": "E",  # Е IE
    "\u041a": "K",  # К KA
    "\u041c": "M",  # М EM
    "\u041d": "H",  # Н EN
    "\u041e": "O",  # О
    "\u0420": "P",  # Р ER
    "\u0421": "C",  # С ES
    "\u0422": "T",  # Т TE
    "\u0423": "Y",  # У U
    "\u0425": "X",  # Х HA
    "\u04ae": "Y",  # Ү STRAIGHT U
    "\u04c0": "l",  # Ӏ PALOCHKA
    "\u051a": "Q",  # Ԛ QA
    "\u051c": "W",  # Ԝ WE
    # Cyrillic small letters
    "\u0430": "a",  # а
    "\u0435": "e",  # е
    "\u043e": "o",  # о
    "\u0440": "p",  # р
    "\u0441": "c",  # с
    "\u0443": "y",  # у
    "\u0445": "x",  # х
    "\u0455": "s",  # ѕ
    "\u0456": "i",  # і
    "\u0458": "j",  # ј
    "\u04bb": "h",  # һ SHHA
    "\u04af": "y",  # ү STRAIGHT U
    "\u04cf": "l",  # ӏ PALOCHKA
    "\u0501": "d",  # ԁ KOMI DE
    "\u051b": "q",  # ԛ QA
    "\u051d": "w",  # ԝ WE
    # Greek capitals
    "\u037f": "J",  # Ϳ YOT
    "\u0391": "A",  # Α ALPHA
    "\u0392": "B",  # Β BETA
    "\u0395": "E",  # Ε EPSILON
    "\u0396": "Z",  # Ζ ZETA
    "\u0397": "H",  # Η ETA
    "\u0399": "I",  # Ι IOTA
    "\u039a": "K",  # Κ KAPPA
    "\u039c": "M",  # Μ MU
    "\u039d": "N",  # Ν NU
    "\u039f": "O",  # Ο OMICRON
    "\u03a1": "P",  # Ρ RHO
    "\u03a4": "T",  # Τ TAU
    "\u03a5": "Y",  # Υ UPSILON
    "\u03a7": "X",  # Χ CHI
    "\u03f9": "C",  # Ϲ LUNATE SIGMA
    # Greek small letters
    "\u03b1": "a",  # α ALPHA
    "\u03b3": "y",  # γ GAMMA
    "\u03b9": "i",  # ι IOTA
    "\u03bd": "v",  # ν NU
    "\u03bf": "o",  # ο OMICRON
    "\u03c1": "p",  # ρ RHO
    "\u03c5": "u",  # υ UPSILON
    "\u03f2": "c",  # ϲ LUNATE SIGMA
    "\u03f3": "j",  # ϳ YOT
    # Latin letters that look like other Latin letters
    "\u0131": "i",  # ı DOTLESS I
    "\u0237": "j",  # ȷ DOTLESS J
}
_TABLE = str.maketrans(LOOK_ALIKES)
#: The scripts whose letters are told apart (the first word of a letter's name).
_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


def skeleton(name: str) -> str:
    """The form in which names that look alike are equal: NFKD, accents
    (combining marks) dropped, look-alike letters mapped to Latin ones
    (:data:`LOOK_ALIKES`), case folded, runs of white space made one space.

    ``skeleton("Sоho") == skeleton("SOHO") == skeleton("Ｓｏｈｏ")``.
    """
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.translate(_TABLE).casefold().split())


def _script(char: str) -> str | None:
    if not char.isalpha():
        return None
    word = unicodedata.name(char, "").split(" ", 1)[0]
    return word if word in _SCRIPTS else None


def mixed_scripts(name: str) -> tuple[str, str] | None:
    """The first two of Latin, Cyrillic and Greek whose letters ``name``
    mixes (in the order met), or ``None`` if it writes its letters in one of
    them at most. ``mixed_scripts("Sоho") == ("Latin", "Cyrillic")``."""
    first: str | None = None
    for char in unicodedata.normalize("NFKD", name):
        script = _script(char)
        if script is None:
            continue
        if first is None:
            first = script
        elif script != first:
            return first.title(), script.title()
    return None


def unusual_characters(name: str, most: int = 3) -> str:
    """The first ``most`` characters of ``name`` outside ASCII, each as
    ``U+0430 CYRILLIC SMALL LETTER A`` (joined by ", "; ``""`` if none): what
    tells two look-alike names apart in a message."""
    found: list[str] = []
    for char in dict.fromkeys(name):
        if not char.isascii():
            found.append(f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed')}")
            if len(found) == most:
                break
    return ", ".join(found)
