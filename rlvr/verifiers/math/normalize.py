"""String-level clean-up of an answer before parsing: LaTeX noise, units, currency, thousands separators.

Everything here is a pure string -> string rewrite that keeps the mathematical meaning: `\\left(` becomes `(`,
`\\dfrac` becomes `\\frac`, `1{,}000` becomes `1000`, `5\\text{ cm}` becomes `5` (with the unit reported
separately), `30^\\circ` becomes `30°`, `0.\\overline{3}` becomes `\\frac{1}{3}`. Rewrites that could change
meaning (a comma between digits is a thousands separator or a list separator?) are applied only where the
reading is unambiguous; everything else is left to the structure parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from rlvr.verifiers.math.notation import rewrite_notation
from rlvr.verifiers.math.repeating import rewrite_repeating
from rlvr.verifiers.math.unicode_math import rewrite_unicode_math, unicode_symbols
from rlvr.verifiers.math.vocab import (
    SCALE_FIRST_RE,
    SCALED_NUMBER_PATTERN,
    SCALES_PATTERN,
    scale_factor,
    scaled_decimal,
)

# `\mathrm{x}` and friends: drop the wrapper, keep the content.
_WRAPPERS = (
    "mathrm",
    "mathbf",
    "mathit",
    "mathsf",
    "mathtt",
    "boldsymbol",
    "bm",
    "textbf",
    "textit",
    "textrm",
    "textsf",
    "texttt",
    "textnormal",
    "emph",
    "mathnormal",
    "displaystyle",
    "hbox",
    "mbox",
    "text",
    "operatorname",
)
_WRAPPER_RE = re.compile(r"\\(?:" + "|".join(_WRAPPERS) + r")\s*\{")
_DELIM_SIZE_RE = re.compile(
    r"\\(?:left|right|bigl|bigr|Bigl|Bigr|biggl|biggr|Biggl|Biggr|big|Big|bigg|Bigg)(?![a-zA-Z])"
)
# `(?<!\\)`: in `\\ ` (a row break then a space, how MATH writes matrices) the `\ ` is not a space command;
# a one-character space (`\,`, `\ `) may stand before a letter (`,\ k \in \mathbb{Z}`), a named one may not
_SPACING_RE = re.compile(
    r"(?<!\\)\\(?:(?:quad|qquad|thinspace|medspace|thickspace|enspace|hfill)(?![a-zA-Z])|[,;:> ])|~"
)
_COMMAND_ALIASES = [
    (re.compile(r"\\[dtc]frac(?![a-zA-Z])"), r"\\frac"),
    (re.compile(r"\\[dt]binom(?![a-zA-Z])"), r"\\binom"),
    (re.compile(r"\\(?:leqslant|leq)(?![a-zA-Z])"), r"\\le"),
    (re.compile(r"\\(?:geqslant|geq)(?![a-zA-Z])"), r"\\ge"),
    (re.compile(r"\\neq(?![a-zA-Z])"), r"\\ne"),
    (re.compile(r"\\lt(?![a-zA-Z])"), "<"),
    (re.compile(r"<="), r"\\le "),
    (re.compile(r">="), r"\\ge "),
    (re.compile(r"!=|=/="), r"\\ne "),
    (re.compile(r"=="), "="),
    (re.compile(r"\\gt(?![a-zA-Z])"), ">"),
    (re.compile(r"\\(?:dots|cdots|ldots|dotsc|dotsb|dotso)(?![a-zA-Z])|\.\.\.+"), r"\\ldots "),
    (re.compile(r"\\(?:varnothing|emptyset)(?![a-zA-Z])|\\\{\s*\\\}"), r"\\emptyset "),
    (re.compile(r"\\mathbb\s*\{?\s*R\s*\}?"), r"\\R "),
    # a set difference as `\backslash` or `\smallsetminus`, or a minus sign after the reals (`\R - \{2\}`)
    (re.compile(r"\\(?:backslash|smallsetminus)(?![a-zA-Z])|(?<=\\R)\s*-\s*(?=\\\{|[\[(])"), r" \\setminus "),
    (re.compile(r"\\(?:lvert|rvert|vert|mid)(?![a-zA-Z])"), "|"),
    (re.compile(r"\\(?:colon)(?![a-zA-Z])"), ":"),
    (re.compile(r"\\(?:land|wedge)(?![a-zA-Z])"), r" \\text{and} "),
    (re.compile(r"\\(?:lor|vee)(?![a-zA-Z])"), r" \\text{or} "),
    (re.compile(r"\\imath(?![a-zA-Z])|\\mathrm\{i\}"), "i"),
    (re.compile(r"\\exponentialE(?![a-zA-Z])|\\mathrm\{e\}"), "e"),
    (re.compile(r"\\(?:lbrace)(?![a-zA-Z])"), r"\\{"),
    (re.compile(r"\\(?:rbrace)(?![a-zA-Z])"), r"\\}"),
    (re.compile(r"\\(?:lbrack)(?![a-zA-Z])"), "["),
    (re.compile(r"\\(?:rbrack)(?![a-zA-Z])"), "]"),
    (re.compile(r"\\ell(?![a-zA-Z])"), "l"),  # the integer parameter `\ell` of a general solution
    (re.compile(r"\\(?:langle)(?![a-zA-Z])"), r"\\langle "),
    (re.compile(r"\\(?:rangle)(?![a-zA-Z])"), r"\\rangle "),
    # `\\angle A = 4t = \\dfrac{720^\\circ}{7}`: an angle's name is the label `A` (`\\angle ABC` is `ABC`)
    (re.compile(r"\\(?:angle|measuredangle)\s*(?=[A-Z]{1,3}(?![A-Za-z]))"), ""),
    # a derivative's primes as TeX writes them (`f^{\\prime}(2)`, `f^{\\prime\\prime}`, `f^\\prime`) are `f'(2)`
    (re.compile(r"\^\s*\{\s*\\prime\s*\\prime\s*\}"), "''"),
    (re.compile(r"\^\s*(?:\{\s*\\prime\s*\}|\\prime(?![a-zA-Z]))"), "'"),
]
_DEGREE_RE = re.compile(
    r"\^\s*\{\s*\\circ\s*\}|\^\s*\\circ(?![a-zA-Z])|\\circ(?![a-zA-Z])|\\degree(?![a-zA-Z])|°|º"
)
_THOUSANDS_BRACE_RE = re.compile(r"(?<=\d)\s*\{\s*,\s*\}\s*(?=\d{3}(?!\d))")
# `11,\! 111`: a comma whose space is cancelled by `\!` before three digits groups thousands
_THOUSANDS_BANG_RE = re.compile(r"(?<=\d),\s*\\!\s*(?=\d{3}(?!\d))")
_THIN_SPACE_GROUP_RE = re.compile(r"(?<=\d)\\[,;: ](?=\d{3}(?!\d))")
# a first group never starts with 0: `0,111` is not thousands
_THOUSANDS_RE = re.compile(r"(?<![\d.,])-?(?:[1-9]\d{0,2})(?:,\d{3})+(?:\.\d+)?(?![\d,])")
# A general solution's declaration of its integer parameter (`, k \in \mathbb{Z}`, `\text{ where } n \text{ is an
# integer}`): it says what the parameter ranges over, not part of the value; see `compare._renamed_parameter`.
_PARAMETER_DECLARATION_RE = re.compile(
    r"[,;]?\s*\(?\s*(?:(?:for|where)(?:\s+(?:all|some|any))?\s+|\\forall\s*)?[A-Za-z]\s*"
    r"(?:\\in\s*(?:\\mathbb\s*\{?\s*Z\s*\}?|Z)|is\s+(?:an?\s+)?(?:arbitrary\s+|any\s+)?integer)\s*\)?\s*\.?\s*$"
)
_RELATION_RE = re.compile(r"[<>]|\\(?:le|ge|leq|geq|lt|gt)(?![a-zA-Z])")
_SPACE_THOUSANDS_RE = re.compile(r"^-?\d{1,3}(?: \d{3})+(?:\.\d+)?$")
# A scale word after a number multiplies it (`5 thousand`, `2.5 million`, `3 dozen`); `5\text{k}` writes the
# thousand as a text suffix. A bare `5k` is never a scale here: in math `k` is a variable (see `prose_scale`).
_SCALE_RE = re.compile(
    r"(?<![\w.,])(" + SCALED_NUMBER_PATTERN + r")\s*(" + SCALES_PATTERN + ")", re.IGNORECASE
)
_TEXT_SUFFIX_SCALE_RE = re.compile(r"(?<=\d)\s*\\text\s*\{\s*(k|K|M|bn)\s*\}")
_SUFFIX_WORDS = {"k": "thousand", "K": "thousand", "M": "million", "bn": "billion"}


def _scaled(m: re.Match[str]) -> str:
    """`2.5 million` -> `2500000`: the exact product, written as a plain number."""
    value = Decimal(scaled_decimal(m.group(1))) * scale_factor(m.group(2))
    return str(int(value)) if value == value.to_integral_value() else format(value.normalize(), "f")


# Unit words stripped after a number (lower-case; plural 's' handled separately).
_UNIT_WORDS = frozenset(
    [
        "mm",
        "cm",
        "dm",
        "m",
        "km",
        "in",
        "inch",
        "inches",
        "ft",
        "foot",
        "feet",
        "yd",
        "yard",
        "mi",
        "mile",
        "meter",
        "metre",
        "centimeter",
        "centimetre",
        "millimeter",
        "millimetre",
        "kilometer",
        "kilometre",
        "nm",
        "micrometer",
        "g",
        "mg",
        "kg",
        "gram",
        "kilogram",
        "lb",
        "lbs",
        "pound",
        "oz",
        "ounce",
        "ton",
        "tonne",
        "s",
        "sec",
        "second",
        "ms",
        "min",
        "minute",
        "h",
        "hr",
        "hrs",
        "hour",
        "day",
        "week",
        "month",
        "year",
        "yr",
        "decade",
        "century",
        "l",
        "ml",
        "liter",
        "litre",
        "milliliter",
        "gallon",
        "gal",
        "quart",
        "pint",
        "cup",
        "tablespoon",
        "teaspoon",
        "dollar",
        "cent",
        "usd",
        "eur",
        "euro",
        "pound",
        "yen",
        "rupee",
        "rs",
        "unit",
        "sq",
        "square",
        "cubic",
        "cu",
        "mph",
        "kph",
        "km/h",
        "m/s",
        "ft/s",
        "degree",
        "deg",
        "radian",
        "rad",
        "gradian",
        "grad",
        "percent",
        "people",
        "person",
        "student",
        "child",
        "adult",
        "apple",
        "marble",
        "ball",
        "book",
        "coin",
        "item",
        "time",
        "way",
    ]
)
_UNIT_EXPONENT_RE = re.compile(r"\^\s*\{?\s*[23]\s*\}?")
# (the signs of the world's currencies before an amount: naira, peso, won, dong, lira, hryvnia, rouble, shekel, baht,
# colón, guaraní, cedi, kip, tögrög, tenge, rupiah `Rp`, real `R$`)
_CURRENCY_SIGNS = "£€¥₹₦₱₩₫₺₴₽₪฿₡₲₵₭₮₸"
_CURRENCY_PREFIX_RE = re.compile(
    r"^(?:\\\$|\$|usd|us\$|r\$|rp\.?|rs\.?|रु\.?|रू\.?|[" + _CURRENCY_SIGNS + r"])\s*", re.IGNORECASE
)
_DOTTED_THOUSANDS_RE = re.compile(r"-?\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?")
_CURRENCY_SUFFIX_RE = re.compile(
    r"^(-?\d[\d.,\s]*?)\s*(?:[" + _CURRENCY_SIGNS + r"]|zł|kr|kč)$", re.IGNORECASE
)
_NUMBERISH_RE = re.compile(r"^[\d\s.,+\-*/^(){}\\%°]*$")
# a closed form with fractions, roots and pi (`\\frac{\\pi}{3} rad`, `3\\sqrt{2} cm`): its unit must be a word of two
# letters or more, since a single letter after it is a variable (`\\frac{\\pi}{2} + \\pi m`), not metres
_CLOSED_FORM_RE = re.compile(r"^(?:[\d\s.,+\-*/^(){}\\%°]|\\(?:[dt]?frac|sqrt|pi)(?![a-zA-Z]))*$")


_PLAIN_MIXED_RE = re.compile(r"^(-?)(\d+)\s+(\d+)\s*/\s*(\d+)$")


def _plain_mixed(m: re.Match[str]) -> str:
    """`2 2/3` (a whole answer) is the mixed number 2 + 2/3 when the fraction is proper."""
    sign, whole, num, den = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
    if 0 < num < den:
        return f"{sign}({whole}+\\frac{{{num}}}{{{den}}})"
    return m.group(0)


@dataclass(frozen=True)
class Normalized:
    """A cleaned answer string, plus the unit that was stripped from it (canonical singular form) if any."""

    text: str
    unit: str | None = None


def _unwrap_braced(s: str, pattern: re.Pattern[str], keep_command: bool = False) -> str:
    """Replace `\\cmd{content}` by `content` for every match of `pattern` (which ends at the opening brace)."""
    out: list[str] = []
    pos = 0
    while True:
        m = pattern.search(s, pos)
        if not m:
            out.append(s[pos:])
            return "".join(out)
        depth, i = 1, m.end()
        while i < len(s) and depth:
            if s[i] == "{" and s[i - 1] != "\\":
                depth += 1
            elif s[i] == "}" and s[i - 1] != "\\":
                depth -= 1
            i += 1
        if depth:  # unbalanced: leave the rest untouched
            out.append(s[pos:])
            return "".join(out)
        content = s[m.end() : i - 1]
        name = m.group(0)[1:].split("{")[0].strip()
        if name == "operatorname":
            content = "\\" + content.strip() + " "
        elif name in ("text", "mbox", "textrm", "textnormal", "hbox"):
            content = " " + content + " "
        out.append(s[pos : m.start()])
        out.append(content)
        pos = i


def _singular(word: str) -> str:
    w = word.lower().rstrip(".")
    if w in _UNIT_WORDS:
        return w
    if w.endswith("es") and w[:-2] in _UNIT_WORDS:
        return w[:-2]
    if w.endswith("s") and w[:-1] in _UNIT_WORDS:
        return w[:-1]
    return ""


def strip_units(s: str) -> tuple[str, str | None]:
    """Remove trailing unit words (and a leading currency sign) from a numeric answer; return (rest, unit)."""
    s = s.strip()
    unit: str | None = None
    cur = _CURRENCY_PREFIX_RE.match(s)
    if cur and cur.end() < len(s) and (s[cur.end()].isdigit() or s[cur.end()] in ".-"):
        s = s[cur.end() :].strip()
        unit = "dollar"
    if s.startswith("-\\$") or s.startswith("-$"):
        s = "-" + s.lstrip("-\\$").strip()
        unit = "dollar"
    suffix = _CURRENCY_SUFFIX_RE.match(s)
    if suffix is not None:  # `42 €`, `3,50 €`: the sign after the amount, as written in much of Europe
        s, unit = suffix.group(1), "dollar"
    if unit == "dollar" and _DOTTED_THOUSANDS_RE.fullmatch(s.strip()):
        # `12.500 €`: money has cents, not three decimals: the dots group thousands (and a comma is the decimal)
        s = s.strip().replace(".", "").replace(",", ".")
    words: list[str] = []
    # `5\\text{ m}/\\text{s}^2` leaves `5 m / s ^2`: a unit's slash and exponent are written without spaces
    rest = re.sub(r"(?<=[A-Za-z])\s*/\s*(?=[A-Za-z])", "/", re.sub(r"(?<=[A-Za-z])\s+\^", "^", s))
    while True:
        m = re.search(
            r"(?:\s|^|(?<=\d))([A-Za-z]+(?:/[A-Za-z]+)?\.?)\s*(" + _UNIT_EXPONENT_RE.pattern + r")?\s*$", rest
        )
        if not m:
            break
        canon = _singular(m.group(1))
        if not canon:
            break
        words.append(canon + ("^" + re.sub(r"\D", "", m.group(2)) if m.group(2) else ""))
        rest = rest[: m.start()].rstrip()
    numberish = _NUMBERISH_RE.match(rest) or (
        _CLOSED_FORM_RE.match(rest) and all(len(w.split("^")[0]) >= 2 for w in words)
    )
    if words and rest and numberish and any(ch.isdigit() for ch in rest):
        words.reverse()
        phrase = " ".join(words)
        if phrase in ("degree", "deg"):
            return rest + "°", None
        if phrase == "percent":
            return rest + "%", None
        return rest, phrase
    return s, unit


def _thousands(s: str) -> str:
    """Drop thousands separators where the reading is unambiguous (`12,345` alone, `1{,}000`, `1\\,000`)."""
    s = _THOUSANDS_BRACE_RE.sub("", s)
    s = _THIN_SPACE_GROUP_RE.sub("", s)
    matches = list(_THOUSANDS_RE.finditer(s))
    if matches and not re.search(r"[(\[]|\\\{", s):
        grouped_commas = sum(m.group(0).count(",") for m in matches)
        if grouped_commas == s.count(","):  # no other comma: the commas cannot be list separators
            s = _THOUSANDS_RE.sub(lambda m: m.group(0).replace(",", ""), s)
    if _SPACE_THOUSANDS_RE.match(s.strip()):
        s = s.replace(" ", "")
    return s


def strip_math_delimiters(s: str) -> str:
    """Remove surrounding `$...$`, `$$...$$`, `\\(...\\)`, `\\[...\\]` and a trailing sentence period."""
    s = s.strip()
    for _ in range(3):
        before = s
        s = s.strip().rstrip(".;").strip()
        if s.startswith("$$") and s.endswith("$$") and len(s) >= 4:
            s = s[2:-2]
        elif s.startswith("$") and s.endswith("$") and len(s) >= 2 and not s.startswith("$", 1):
            s = s[1:-1]
        elif (s.startswith("\\(") and s.endswith("\\)")) or (s.startswith("\\[") and s.endswith("\\]")):
            s = s[2:-2]
        if s == before:
            break
    return s.strip()


def collapse_groups(s: str) -> str:
    """`((x))` -> `(x)`, `{{x}}` -> `{x}`: a group whose whole content is one group of the same kind says
    nothing more, and dropping it keeps deeply nested answers within the parser's depth (one linear pass)."""
    if "((" not in s and "{{" not in s:
        return s
    pairs: dict[int, int] = {}
    stacks: dict[str, list[int]] = {"(": [], "{": []}
    closers = {")": "(", "}": "{"}
    for i, ch in enumerate(s):
        if i and s[i - 1] == "\\":
            continue
        if ch in stacks:
            stacks[ch].append(i)
        elif ch in closers and stacks[closers[ch]]:
            pairs[stacks[closers[ch]].pop()] = i
    drop: set[int] = set()
    for o, c in pairs.items():
        inner = pairs.get(o + 1)
        if inner == c - 1 and s[o] == s[o + 1]:
            drop.update((o, c))
    return "".join(ch for i, ch in enumerate(s) if i not in drop) if drop else s


def currency_unit(s: str) -> str | None:
    """`dollar` if the answer states a dollar sign before a number (`\\$5`, `-\\$5`), as `5 cents` states cents."""
    return "dollar" if re.search(r"\\\$\s*-?\.?\d", s) else None


def normalize_answer(s: str, *, units: bool = True) -> Normalized:
    """Clean an extracted answer for parsing; see the module docstring for what is rewritten."""
    s = rewrite_unicode_math(strip_math_delimiters(s))  # `√15` takes all of 15 before `√` is `\sqrt`
    s = unicode_symbols(s)
    s = rewrite_notation(s)
    s = _THOUSANDS_BANG_RE.sub(",", s)
    s = s.replace("\n", " ").replace("\\!", "")
    s = re.sub(r"\\(q?quad)(?=[a-zA-Z])", r"\\\1 ", s)  # `,\quadx_2` (spaces lost in the source)
    s = re.sub(r"(?<=[)\]\d])\s*or\s*(?=[(\[A-Z])", " or ", s)  # `(11,7)or(7,11)`, `=1orW(x)`: spaces lost
    s = re.sub(r"\\\$\s*", "", s)  # currency signs inside an answer
    s = re.sub(r"(?<!\\)\$", " ", s)  # stray math delimiters (`12 $ and $ 13`)
    for pattern, repl in _COMMAND_ALIASES:
        s = pattern.sub(repl, s)
    s = _DEGREE_RE.sub("°", s)
    s = s.replace("\\%", "%")
    s = rewrite_repeating(s)
    s = _DELIM_SIZE_RE.sub("", s)
    s = re.sub(r"(?<![a-zA-Z\\])\.(?=\s*[|)\]])", "", s)  # `\left.` / `\right.` leave a bare dot
    s = _THIN_SPACE_GROUP_RE.sub("", s)
    s = _SPACING_RE.sub(" ", s)
    # a bold, hatted or arrowed i/j/k is a unit vector, never the imaginary unit (see `matrix_ops`)
    s = re.sub(
        r"\\(?:mathbf|vec|hat|boldsymbol)\s*(?:\{\s*([ijk])\s*\}|([ijk])(?![a-zA-Z]))", r"\\unitvec{\1\2}", s
    )
    s = _TEXT_SUFFIX_SCALE_RE.sub(lambda m: " " + _SUFFIX_WORDS[m.group(1)], s)
    s = _unwrap_braced(s, _WRAPPER_RE)
    s = re.sub(r"\\(?:mathrm|mathbf|text)\s*(?=[A-Za-z0-9])", "", s)  # brace-less `\mathrm e`
    s = s.replace("\\displaystyle", "")
    s = re.sub(r"^\s*\\(?:therefore|implies|Rightarrow)\s*", "", s)
    s = re.sub(r"^[A-Za-z](?:_\{?\w+\}?)?\s*\\in\s*", "", s)  # `x \in [0, 1]` -> `[0, 1]`
    s = re.sub(r"\s+", " ", s).strip()
    declared = _PARAMETER_DECLARATION_RE.search(s) if "integer" in s or "Z" in s else None
    # a declared parameter ranges over the integers; after an inequality (`x > 1, x \in \mathbb{Z}`) the
    # declaration restricts the set to integers, so it stays (and the answer is no interval)
    if declared is not None and not _RELATION_RE.search(s[: declared.start()]):
        s = s[: declared.start()]
    s = _SCALE_RE.sub(_scaled, SCALE_FIRST_RE.sub(r"\2 \1", s))  # (Swahili `elfu 5` is `5 elfu`)
    s = re.sub(r"(?<=[\w)}])\s*\*\*\s*(?=[\w({])", "^", s)  # `7 ** 2`: a power written as in code
    s = strip_math_delimiters(s)
    unit = None
    if units:
        s, unit = strip_units(s)
    s = _thousands(s)
    s = _PLAIN_MIXED_RE.sub(_plain_mixed, s)
    if s.endswith("\\%"):
        s = s[:-2] + "%"
    return Normalized(collapse_groups(s.strip()), unit)


def canonical_text(s: str) -> str:
    """A loose key for comparing text answers: lower case, no LaTeX wrappers, punctuation or spacing."""
    s = normalize_answer(s, units=False).text.lower()
    s = re.sub(r"\\[a-z]+", " ", s)
    s = re.sub(r"[^0-9a-z]+", " ", s)
    s = re.sub(r"\b(?:the|a|an)\b", " ", s)
    return " ".join(s.split())
