"""Notations rewritten to the plain form the parser reads, before any other clean-up of an answer.

Each rewrite keeps what a reader sees and the value it denotes:

- decorations: `\\color{red}{7}`, `{\\color{red}7}`, `\\textcolor{red}{7}`, `\\colorbox{yellow}{7}` show 7;
  `\\phantom{0}`, `\\hphantom{..}`, `\\vphantom{..}` take space but show nothing, so their content is dropped;
  `\\underline{7}`, `\\overbrace{7}`, `\\num{7}`, `\\smash{7}`, `\\operatorname{7}`, `\\bf 7`, `\\large 7` show 7; struck-out
  content (`\\cancel{8} 7`) and a tag (`\\tag{8} 7`) are not stated, so they are dropped; `\\cancelto{7}{8}` states 7;
  an empty exponent or subscript (`7^{}`) is nothing;
- `x \\not\\le 0` and `x \\nleq 0` are `x > 0` (a negated order on the reals; `\\lneq` is `<`), `x := 2` is
  `x = 2`, `\\sqrt[]{9}` is `\\sqrt{9}`, `3{:}2` is `3:2`;
- `\\cr` and `\\\\[4pt]` end a matrix row as `\\\\` does; `\\text{Re}`, `\\mathrm{Im}` are `\\Re`, `\\Im`;
- a matrix written as nested lists (`[[1,2],[3,4]]`, at least two rows of one length) is that matrix;
- a transposed literal matrix (`M^T`, `M^{T}`, `M^\\top`, `{M}^{\\top}`) is the transposed matrix, so a row
  vector transposed is a column vector;
- a function's rule declared for all real arguments (`f(x) = x \\text{ for all } x \\in \\mathbb{R}`) is the rule;
- a braced comma between digits (`0{,}5`) is a decimal comma unless it groups thousands (`1{,}000`);
- a numeral with a base subscript (`12_3`, `1011_2`, `(101)_2`, `5_{(6)}`, `101_{\\text{two}}`, `1A_{16}`) is
  its value. Only digits valid in that base are read (`7_2` stays as written, and so is wrong), letters only
  in base 16 (`C_7`, `F_{20}` are names), and never after a letter, `\\`, `^` or `_` (`x_3`, `10^2_3`).
"""

from __future__ import annotations

import re

from rlvr.verifiers.math.boxes import braced_group

_PHANTOM_RE = re.compile(r"\\[hv]?phantom\s*(?=\{)")
# struck-out content (`\\cancel{8} 7`) and an equation's tag (`\\tag{8}`) are not what the answer states
_STRUCK_RE = re.compile(r"\\(?:[bx]?cancel|sout|tag\*?)\s*(?=\{)")
# marks that show their argument as it is (`\\underline{7}`, `\\overbrace{7}`, `\\num{7}` of siunitx)
_SHOWN_RE = re.compile(
    r"\\(?:underline|overbrace|ensuremath|num|boxed|fbox|framebox|smash(?:\s*\[[tb]\])?)\s*(?=\{)"
)
# `\\cancelto{12}{18}`: 18 struck with an arrow to 12, the value it states
_CANCELTO_RE = re.compile(r"\\cancelto\s*(?=\{)")
_BMOD_RE = re.compile(r"^\s*(\d+)\s*\\bmod\s*\{?\s*([1-9]\d*)\s*\}?\s*$")
_PMOD_RE = re.compile(r"^\s*(-?\d+)\s*\\pmod\s*\{\s*[1-9]\d*\s*\}\s*$")
# `7^{\\text{th}}`, `7\\text{th}`, `\\text{7th}`: an ordinal suffix on a number names the number
_ORDINAL_RE = re.compile(
    r"(?<![\d.])(\d+)\s*(?:\^\s*\{\s*\\text(?:rm)?\s*\{\s*(?:st|nd|rd|th)\s*\}\s*\}|\^\s*\{\s*(?:st|nd|rd|th)\s*\}"
    r"|\\text(?:rm)?\s*\{\s*(?:st|nd|rd|th)\s*\}|(?:st|nd|rd|th)\b)"
)
# switches of font, size or spacing that show nothing themselves (`\\bf 7`, `\\large 7`, `\\mathstrut 7`)
_SWITCH_RE = re.compile(
    r"\\(?:bf|it|rm|sf|tt|tiny|scriptsize|footnotesize|small|normalsize|large|Large|LARGE|huge|Huge|mathstrut|strut|relax)"
    r"(?![a-zA-Z])\s*"
)
# a negated order on the reals is the opposite order (`x \\not\\le 0` is `x > 0`); `:=` defines, so it equates;
# `\\sqrt[]{9}` has an empty index (a square root); `3{:}2` is a colon set without spacing
_NOT_ORDER = {"\\le": ">", "\\leq": ">", "\\ge": "<", "\\geq": "<", "<": "\\ge ", ">": "\\le ", "=": "\\ne "}
_NOT_ORDER_RE = re.compile(r"\\not\s*(\\leq?(?![a-zA-Z])|\\geq?(?![a-zA-Z])|<|>|=)")
# the negated and strict order commands of amssymb say the same on the reals: `\\nleq` is `>`, `\\nless` is `\\ge`,
# `\\lneq` (less, not equal) is `<`; their slanted forms too
_ORDER_COMMANDS = {
    "nleq": ">", "nleqslant": ">", "nleqq": ">", "ngeq": "<", "ngeqslant": "<", "ngeqq": "<",
    "nless": "\\ge ", "ngtr": "\\le ", "lneq": "<", "lneqq": "<", "gneq": ">", "gneqq": ">",
}  # fmt: skip
_ORDER_COMMAND_RE = re.compile(r"\\(" + "|".join(_ORDER_COMMANDS) + r")(?![a-zA-Z])")
_PLAIN_FORMS = (
    (re.compile(r":="), "="),
    # pseudo-code's assignment after one name (`x \\leftarrow 7`, `x \\gets 7`) assigns as `:=` does
    (re.compile(r"^(\s*[A-Za-z]\s*)\\(?:leftarrow|gets)(?![a-zA-Z])"), r"\1="),
    (re.compile(r"\\sqrt\s*\[\s*\]"), "\\\\sqrt"),
    (re.compile(r"\{:\}"), ":"),
)
_DIGITS_NAME_RE = re.compile(r"\\operatorname\s*\{\s*(\d+)\s*\}")  # `\\operatorname{7}` names no operator
_COLOR_ARG_RE = re.compile(r"\\(?:textcolor|colorbox|color)\s*(?=\{)")
_EMPTY_SCRIPT_RE = re.compile(r"(?<!\\)[\^_]\s*\{\s*\}|\\math(?:bin|rel|ord|op|punct|inner)\s*\{\s*\}")
# plain TeX matrices (`\\pmatrix{1&2\\cr 3&4}`) as the LaTeX environment
_PLAIN_MATRIX_RE = re.compile(r"\\[pb]?matrix\s*(?=\{)")
# a tuple transposed (`(1,2,3)^T`) is a column vector
_TUPLE_T_RE = re.compile(
    r"^\s*[(\[]\s*([^()\[\]]+,[^()\[\]]+?)\s*[)\]]\s*\^\s*(?:\{\s*(?:T|\\top)\s*\}|T|\\top)\s*$"
)
# siunitx: `\\SI{7}{\\kilo\\meter}` is the number with its unit in words (not `\\per` units, not `\\percent`: 7% is no 7)
_SI_RE = re.compile(r"\\(?:SI|qty)\s*\{([^{}]*)\}\s*\{((?:\s*\\(?!per\b|percent\b)[a-zA-Z]+)+)\s*\}")
_CR_RE = re.compile(r"\\cr(?![a-zA-Z])")
# `\\[4pt]`: a row break with extra vertical space is a row break
_ROW_SKIP_RE = re.compile(r"(?<!\\)\\\\\s*\[\s*-?\d*\.?\d+\s*(?:pt|em|ex|mm|cm|in|mu)\s*\]")
_PART_NAME_RE = re.compile(r"\\(?:text|mathrm|operatorname)\s*\{\s*(Re|Im)\s*\}")
_NESTED_LIST_RE = re.compile(r"^\s*\[\s*(\[[^\[\]]*\](?:\s*,\s*\[[^\[\]]*\])+)\s*\]\s*$")
_MATRIX_T_RE = re.compile(
    r"(\{\s*)?\\begin\{([pbB]?matrix)\}((?:(?!\\end\{).)*)\\end\{\2\}(?(1)\s*\})"
    r"\s*\^\s*(?:\{\s*(?:T|\\top|\\intercal|\\mathsf\s*\{T\}|\\mathrm\s*\{T\})\s*\}|T|\\top|\\intercal)"
    r"(?![A-Za-z])",
    re.S,
)
# `0{,}5`, `3{,}14`: the braced comma is how LaTeX writes a decimal comma (no space after it); it groups thousands
# only before exactly three digits after a first group that is not 0 (`1{,}000`, read in `normalize`)
_DECIMAL_COMMA_RE = re.compile(r"(?<![\d.,}])(0|\d+(?=\{,\}(?!\d{3}(?![\d{]))))\{,\}(\d+)(?![\d{])")
# `f(x) = x \\text{ for all } x \\in \\mathbb{R}`: a function's rule declared for all its arguments, or all reals, is the
# rule (the domain a functional equation is solved on); any other domain (`x > 0`, `\\mathbb{Q}`) stays and so differs
_ALL_REALS_DOMAIN_RE = re.compile(
    r"^\s*([A-Za-z])\s*\(\s*([a-z])\s*\)\s*=(?P<rule>.+?)[,;]?\s*\(?\s*(?:\\text\s*\{\s*)?"
    r"(?:for\s+(?:all|every|any)|\\forall)(?P<real>\s+real)?(?:\s*\})?\s*\2\s*"
    r"(?P<in>\\in\s*(?:\\mathbb\s*\{?\s*R\s*\}?|\\R(?![a-zA-Z])))?(?:\s*\})?\s*\)?\s*\.?\s*$"
)
_BASE_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "twelve": 12, "sixteen": 16,
}  # fmt: skip
_NUMERAL_RE = re.compile(
    r"(?<![\w\\^_.}])(\(\s*)?([0-9A-F]+)(?(1)\s*\))_(?:\{\s*\(?\s*(\d{1,2})\s*\)?\s*\}|(\d)(?![\d.])"
    r"|\{\s*\\(?:text|mathrm)\s*\{\s*(" + "|".join(_BASE_WORDS) + r")\s*\}\s*\})"
)


def _drop_command(
    s: str, pattern: re.Pattern[str], args: int, keep_last: bool, keep_first: bool = False
) -> str:
    """Remove every `\\cmd{a}..{z}` (`args` groups) matched by `pattern`, keeping the last (or first) group if asked."""
    out, pos = [], 0
    while (m := pattern.search(s, pos)) is not None:
        end, groups = m.end(), []
        for _ in range(args):
            group = braced_group(s, end)
            if group is None:
                break
            groups.append(group[0])
            end = group[1]
        if len(groups) < args:  # `\\color{red} 7`: a colour switch, no argument to keep
            if args == 2 and len(groups) == 1 and m.group().startswith("\\color"):
                out.append(s[pos : m.start()])
                pos = end
                continue
            out.append(s[pos : m.end()])
            pos = m.end()
            continue
        kept = groups[0] if keep_first else groups[-1] if keep_last else None
        out.append(s[pos : m.start()] + ("" if kept is None else "{" + kept + "}"))
        pos = end
    return "".join(out) + s[pos:]


def _rows(body: str) -> list[list[str]]:
    return [[c.strip() for c in r.split("&")] for r in re.split(r"\\\\", body) if r.strip()]


def _plain_matrices(s: str) -> str:
    """`\\pmatrix{1&2\\cr 3&4}` (or `\\matrix`, `\\bmatrix`) as `\\begin{pmatrix}1&2\\cr 3&4\\end{pmatrix}`."""
    out, pos = [], 0
    while (m := _PLAIN_MATRIX_RE.search(s, pos)) is not None:
        group = braced_group(s, m.end())
        if group is None:
            break
        # (the brackets do not change the value, so every plain matrix becomes a pmatrix)
        out.append(s[pos : m.start()] + f"\\begin{{pmatrix}}{group[0]}\\end{{pmatrix}}")
        pos = group[1]
    return "".join(out) + s[pos:]


def _transposed(m: re.Match[str]) -> str:
    rows = _rows(m.group(3))
    if not rows or any(len(r) != len(rows[0]) for r in rows):
        return m.group()
    cols = [[r[j] for r in rows] for j in range(len(rows[0]))]
    return "\\begin{pmatrix}" + "\\\\".join("&".join(c) for c in cols) + "\\end{pmatrix}"


def _nested_list(s: str) -> str:
    m = _NESTED_LIST_RE.match(s)
    if m is None:
        return s
    rows = [[c.strip() for c in r.split(",")] for r in re.findall(r"\[([^\[\]]*)\]", m.group(1))]
    if any(len(r) != len(rows[0]) or not all(rows[0]) or not all(r) for r in rows):
        return s
    return "\\begin{pmatrix}" + "\\\\".join("&".join(r) for r in rows) + "\\end{pmatrix}"


def numeral_base(digits: str, base: int) -> int | None:
    """The value of `digits` read in `base`, or None when they are no numeral of it (a name like `C_7`)."""
    if not 2 <= base <= 36 or (base != 16 and not digits.isdigit()):
        return None
    try:
        return int(digits, base)
    except ValueError:
        return None


def _numeral(m: re.Match[str]) -> str:
    base = int(m.group(3) or m.group(4) or _BASE_WORDS.get(m.group(5) or "", 0))
    value = numeral_base(m.group(2), base)
    return m.group() if value is None else str(value)


def bases_written(s: str) -> set[int]:
    """The bases of the numerals written with a base subscript in `s` (`12_3` -> {3})."""
    found = set()
    for m in _NUMERAL_RE.finditer(s):
        base = int(m.group(3) or m.group(4) or _BASE_WORDS.get(m.group(5) or "", 0))
        if numeral_base(m.group(2), base) is not None:
            found.add(base)
    return found


def rewrite_notation(s: str) -> str:
    """`s` with decorations, `\\cr`, nested-list matrices, transposes and base numerals rewritten (see above)."""
    if "phantom" in s:
        s = _drop_command(s, _PHANTOM_RE, 1, keep_last=False)
    if "\\" in s:
        if "cancelto" in s:
            s = _drop_command(s, _CANCELTO_RE, 2, keep_last=False, keep_first=True)
        s = _drop_command(_drop_command(s, _STRUCK_RE, 1, keep_last=False), _SHOWN_RE, 1, keep_last=True)
        s = _DIGITS_NAME_RE.sub(r"\1", _SWITCH_RE.sub("", s))
        s = _NOT_ORDER_RE.sub(lambda m: _NOT_ORDER[m.group(1)], s)
        s = _ORDER_COMMAND_RE.sub(lambda m: _ORDER_COMMANDS[m.group(1)], s)
    for pattern, plain in _PLAIN_FORMS:
        s = pattern.sub(plain, s)
    if "mod" in s:  # `17 \\bmod 10` is 7; `7 \\pmod{10}` is 7 named with its modulus
        s = _BMOD_RE.sub(lambda m: str(int(m[1]) % int(m[2])), _PMOD_RE.sub(r"\1", s))
    if re.search(r"\d\s*(?:\^\s*\{\s*)?(?:\\text(?:rm)?\s*\{\s*)?(?:st|nd|rd|th)\b", s):
        s = _ORDINAL_RE.sub(r"\1", s)
    if "color" in s:
        s = _drop_command(s, _COLOR_ARG_RE, 2, keep_last=True)
    s = _EMPTY_SCRIPT_RE.sub("", s)
    if "matrix" in s and "\\begin" not in s:
        s = _plain_matrices(s)
    s = _CR_RE.sub(r"\\\\", s)
    s = _ROW_SKIP_RE.sub(r"\\\\", s)
    s = _PART_NAME_RE.sub(r"\\\1 ", s)
    s = _nested_list(s)
    if "for" in s and (domain := _ALL_REALS_DOMAIN_RE.match(s)):
        s = s[: domain.start("rule")] + domain["rule"]
    if "{,}" in s:
        s = _DECIMAL_COMMA_RE.sub(r"\1.\2", s)
    if "matrix" in s:
        s = _MATRIX_T_RE.sub(_transposed, s)
    if "T" in s or "top" in s:
        s = _TUPLE_T_RE.sub(lambda m: "\\begin{pmatrix}" + "\\\\".join(m[1].split(",")) + "\\end{pmatrix}", s)
    if "SI" in s or "qty" in s:
        s = _SI_RE.sub(lambda m: m[1] + "\\text{ " + m[2].replace("\\", "").replace(" ", "") + "}", s)
    if "_" in s:
        s = _NUMERAL_RE.sub(_numeral, s)
    return s
