"""A box that is one term of a larger written formula: `$\\boxed{3}\\sqrt{2}$`, `$5 + \\boxed{3}$`,
`$\\sqrt{\\boxed{3}}$`, `$n = 1\\boxed{3}$`, `$\\boxed{3}.5$`, `$-\\boxed{5}$`, `$\\boxed{8} - 5 = 3$`.

The reply wrote a formula and boxed only part of it: neither the boxed part (the formula says more) nor the
whole formula (the box says less) is an answer it committed to, so there is none. A box stands as the answer
when what surrounds it in its formula only leads up to it (`x = `, `A = B = `, `\\Rightarrow`, `\\equiv`, `\\in`)
or follows it without changing it (punctuation, a unit, `\\pmod{11}`, `= n`, `\\neq 5`, its own value again:
`= 6 - 1` in exact integer or decimal arithmetic, `\\approx 5.0`); a box set equal to
another number (`\\boxed{3} = 5`) contradicts itself and answers nothing. A formula left unclosed around the box
(`\\frac{\\frac{\\boxed{7}`) is no formula: the box stands.
"""

from __future__ import annotations

import ast
import re
from fractions import Fraction

from rlvr.verifiers.math.atoms import _MATH_SPAN_RE

# everything up to the last relation before the box leads up to it: `x = `, `A = B = `, `P \Rightarrow `
_LEAD_RE = re.compile(
    r"^.*(?:=|\\(?:equiv|Rightarrow|implies|approx|in|to|therefore|iff|Longrightarrow|cong|sim)(?![a-zA-Z]))\s*",
    re.S,
)
_INERT = (
    r"\s|[.,;:!]|\{\}|\\[,;! ]|\\q?quad(?![a-zA-Z])|\\(?:text|mathrm)\s*\{[^{}]*\}|\\[pb]?mod\s*\{[^{}]*\}"
    r"|\\(?:def|newcommand|renewcommand)\s*\\?\w+(?:\[\d\])?\s*\{[^{}]*\}"
)
_INERT_RE = re.compile(r"^(?:" + _INERT + r")*")
_INERT_END_RE = re.compile(r"(?:" + _INERT + r")*$")
# after the box, a relation that leaves it standing: to a name (`= n`) or a denial of another value (`\neq 5`)
_STANDING_AFTER_RE = re.compile(
    r"^(?:=\s*[A-Za-z](?:_\{?\w+\}?)?|\\(?:neq?|not\s*=)(?![a-zA-Z])[^=]*|\\(?:text|mathrm)\s*\{[^{}]*\}.*)\s*$",
    re.S,
)
_PLAIN_RE = re.compile(r"^\s*-?\d+(?:\.\d+)?\s*$")
# prose around a box on its line (`So \boxed{7}.`): the box is in a sentence, not in a formula
_WORD_RE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")
_FORMULA_CHAR_RE = re.compile(r"[0-9=+\-*/^_\\{}()\[\].]")


def _region(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Where the formula holding the box at text[start:end] lies: its math span, or its line when nothing
    but LaTeX stands beside the box there; None when the box stands in prose."""
    for m in _MATH_SPAN_RE.finditer(text):
        if m.start() < start and end < m.end():
            group = next(i for i in range(1, 5) if m.group(i) is not None)
            return m.start(group), m.end(group)
        if m.start() > end:
            break
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    outside = text[line_start:start] + " " + text[end:line_end]
    outside = re.sub(r"<!--|-->|(?<!\\)%", " ", outside)  # comment marks hide the box, they are no formula
    if _WORD_RE.search(outside) or "$" in outside or not _FORMULA_CHAR_RE.search(outside):
        return None  # prose, another span, or nothing of a formula (`% \boxed{7}`, control characters)
    if re.match(r"[ \t]+\w", text[end:line_end]) or re.search(r"\w[ \t]+$", text[line_start:start]):
        return None  # `\boxed{8} 7` outside math: a value beside the box, not glued into a formula with it
    return line_start, line_end


def _depth(s: str) -> int:
    """Opened minus closed brackets of any kind in `s` (escaped braces count as brackets too)."""
    return sum(s.count(c) for c in "{([") - sum(s.count(c) for c in "})]")


def box_term(text: str, start: int, end: int, content: str) -> bool:
    """Whether the box at text[start:end] (holding `content`) is a proper term of a larger formula, or is set
    equal to another number: then the reply committed to no answer (see the module docstring)."""
    region = _region(text, start, end)
    if region is None:
        return False
    if re.search(r"\\(?:boxed|fbox)", text[region[0] : start] + text[end : region[1]]):
        return False  # `\boxed{2}, \boxed{3}`: several boxes in one formula are read together elsewhere
    before = _LEAD_RE.sub("", text[region[0] : start])
    before = before[_INERT_RE.match(before).end() :]  # type: ignore[union-attr]
    after = text[end : region[1]]
    after = after[_INERT_RE.match(after).end() :]  # type: ignore[union-attr]
    after = after[: _INERT_END_RE.search(after).start()]  # type: ignore[union-attr]
    if before.strip() and _depth(before) > 0 and not re.search(r"[})\]]", after):
        return False  # `\frac{\frac{\boxed{7}`: the formula around it never closes, the box is all there is
    if before.strip():
        return True  # `5 + \boxed{3}`, `1\boxed{3}`, `\sqrt{\boxed{3}}`, `-\boxed{5}`
    if not after.strip() or _STANDING_AFTER_RE.match(after):
        return False
    # `\boxed{3} = 3`, `\boxed{5} = 6 - 1`, `\boxed{5} \approx 5.0` restate it; `\boxed{3}\sqrt{2}`, `\boxed{3}.5`,
    # `\boxed{8} - 5 = 3`, `\boxed{3} = 5`, `\boxed{5} \approx 4.9` do not
    restated = _RESTATED_RE.match(after)
    if restated is None or not _PLAIN_RE.match(content):
        return True
    value = _arithmetic(restated.group(1))
    return value is None or value != Fraction(content.strip())


# after the box, the same value again: `= 6 - 1` (integer arithmetic), `\approx 5.0` (a decimal)
_RESTATED_RE = re.compile(r"^(?:=|\\approx(?![a-zA-Z]))\s*([\d\s+\-*().]{1,200})$")


def _arithmetic(expr: str) -> Fraction | None:
    """The exact value of a short sum, difference or product of decimals (`6 - 1`, `2*(3+1)`), or None."""
    if re.search(r"\d*\.\d{15,}|\d{16,}\.", expr):
        return None  # a decimal with more digits than a float holds: not compared through one
    try:
        tree = ast.parse(expr.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None

    def value(node: ast.expr) -> Fraction | None:
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return Fraction(str(node.value))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = value(node.operand)
            return None if inner is None else -inner
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
            left, right = value(node.left), value(node.right)
            if left is None or right is None:
                return None
            ops = {ast.Add: left + right, ast.Sub: left - right, ast.Mult: left * right}
            return ops[type(node.op)]
        return None

    return value(tree)
