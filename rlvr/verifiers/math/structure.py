"""The shape of an answer: a scalar, an equation, a tuple or set, an interval (union), a matrix, a letter, text.

`parse_answer` splits a normalised answer at its top level (outside brackets) into these shapes (`shapes.py`)
and parses each scalar with `latex.parse_latex`. The shapes decide how two answers compare: tuples in order,
sets and bare lists of solutions in any order, intervals by their endpoints and open/closed ends, equations up
to a constant factor, `x = 5` against `5`, `±` as the set of both signs, and so on (see `compare.py`).
"""

from __future__ import annotations

import contextlib
import itertools
import re

from rlvr.verifiers.math import evaluate as ev
from rlvr.verifiers.math.chains import approximates, constants_differ, false_link
from rlvr.verifiers.math.inequalities import (
    abs_band,
    abs_chain,
    abs_outside,
    linear_between,
    linear_bound,
    quadratic_set,
)
from rlvr.verifiers.math.latex import LatexParseError, parse_latex
from rlvr.verifiers.math.matrix_ops import matrix_expression, matrix_function, unit_vector_form
from rlvr.verifiers.math.normalize import canonical_text
from rlvr.verifiers.math.number_words import number_from_words
from rlvr.verifiers.math.numerals import locale_number
from rlvr.verifiers.math.set_ops import (
    intersection,
    interval_without,
    merged_union,
    set_builder_condition,
    set_minus,
    signed_reals,
)
from rlvr.verifiers.math.shapes import (
    Answer,
    AnswerParseError,
    Choice,
    Equation,
    Interval,
    Matrix,
    Relation,
    Scalar,
    Seq,
    Text,
    Union,
)
from rlvr.verifiers.math.tree import expand_pm, free_symbols, has_pm, to_text
from rlvr.verifiers.math.vocab import ALL_REALS, MATH_WORDS, NO_SOLUTION

_OPEN = "([{"
_CLOSE = ")]}"
_MATRIX_RE = re.compile(r"^\\begin\{([pbvBV]?matrix|array)\}(?:\{[^}]*\})?(.*)\\end\{\1\}$", re.S)
_CHOICE_RE = re.compile(r"^\(?\s*([A-J])\s*(?:[).:]|$)")
_WORD_RE = re.compile(r"[A-Za-z]{3,}")
_MORE_CHOICES_RE = re.compile(r"\(\s*[A-J]\s*\)|^\s*(?:,|;|&|\band\b|\bor\b)\s*\(?\s*[A-J]\b")
_RELATIONS = (
    ("\\le", "le"),
    ("\\ge", "ge"),
    ("<=", "le"),
    (">=", "ge"),
    ("<", "lt"),
    (">", "gt"),
    ("\\ne", "ne"),
)


def split_top(s: str, seps: tuple[str, ...]) -> list[str]:
    """Split at separators that are outside every bracket (`(`, `[`, `{` close with any closer)."""
    if not any(sep in s for sep in seps):  # the common case, found by a C-level search: nothing to split
        return [s]
    parts: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s) and s[i + 1] in "{}":
            depth += 1 if s[i + 1] == "{" else -1
            i += 2
            continue
        if s.startswith("\\begin{", i) or s.startswith("\\langle", i):
            depth += 1
        elif s.startswith("\\end{", i) or s.startswith("\\rangle", i):
            depth -= 1
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
        elif depth == 0:
            for sep in seps:
                if s.startswith(sep, i) and not (
                    sep[-1].isalpha() and s[i + len(sep) : i + len(sep) + 1].isalpha()
                ):
                    parts.append(s[start:i])
                    i += len(sep)
                    start = i
                    break
            else:
                i += 1
                continue
            continue
        i += 1
    parts.append(s[start:])
    return parts


def _enclosed(s: str) -> tuple[str, str, str] | None:
    """If `s` is one bracketed group `(...)`, `[...)`, `\\{...\\}`, `\\langle...\\rangle`: (left, inner, right)."""
    for left, right in (("\\{", "\\}"), ("\\langle", "\\rangle")):
        if s.startswith(left) and s.endswith(right):
            inner = s[len(left) : -len(right)]
            if _balanced(inner) and (left != "\\langle" or "\\rangle" not in inner):
                return left, inner, right
    if len(s) >= 2 and s[0] in "([" and s[-1] in ")]":
        depth = 0
        for i, ch in enumerate(s):
            if ch in _OPEN:
                depth += 1
            elif ch in _CLOSE:
                depth -= 1
                if depth == 0 and i != len(s) - 1:
                    return None
        return s[0], s[1:-1], s[-1]
    return None


def _balanced(s: str) -> bool:
    """Whether brackets in `s` never close more than they opened and end balanced."""
    depth = 0
    i = 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s) and s[i + 1] in "{}":
            depth += 1 if s[i + 1] == "{" else -1
            i += 2
            continue
        if s[i] in _OPEN:
            depth += 1
        elif s[i] in _CLOSE:
            depth -= 1
        if depth < 0:
            return False
        i += 1
    return depth == 0


def is_text(s: str) -> bool:
    """Whether an answer is prose rather than math (it contains a word that is not a math name)."""
    stripped = re.sub(r"\\[a-zA-Z]+|_\{[^{}]*\}", " ", s)  # subscripts name things: `S_{MBCN}`
    if re.fullmatch(r"\W*no\W*", stripped, re.IGNORECASE):  # the answer `no` (`No.`), never the product n*o
        return True
    words = _WORD_RE.findall(stripped)
    return any(w.lower() not in MATH_WORDS for w in words)


# an option letter named as one: `(B)`, `B)`, `B.`, `B,`, `B/`, `B` at the end, or after `option`, `or`, `and`,
# `;`, `/` (not a variable `E = mc^2`, the article `A` or the pronoun `I` before a word)
_OPTION_TOKEN_RE = re.compile(
    r"(?<![\w'\\])(?:\(\s*([A-J])\s*\)|([A-J])(?=\)|\.(?!\d)|\s*[,;/]|\s*$))"
    r"|(?:\b(?:option|choice|or|and)\s+|[;/,]\s*)\(?([A-J])\b(?![\w'])(?!\s*=)",
    re.IGNORECASE,
)


def other_options(text: str) -> list[str]:
    """The option letters named in `text` (`A. B. C. D.` names four; `A cat` and `I think` name none)."""
    found = [next(g for g in m.groups() if g) for m in _OPTION_TOKEN_RE.finditer(text)]
    return [g for g in found if g.isupper()]


def false_equality(s: str) -> bool:
    """Whether `s` is a chain of equalities with a false link between constants (`3 = 4`, `x = 5 = 3`,
    `\\frac36 = 0.6 = \\frac12`): a false statement answers nothing, whatever its last member."""
    eq = split_top(s, ("=",))
    if len(eq) < 2 or any(not p.strip() for p in eq):
        return False
    eq[-1] = split_top(eq[-1], ("\\approx",))[
        0
    ]  # `x = 5+5+1 = 1/3 \\approx 11`: the links before it still count
    try:
        members = [scalar(p) for p in eq]
    except AnswerParseError:
        return False
    return false_link(members)


def parse_choice(s: str) -> Choice | None:
    """A multiple-choice letter (`B`, `(B)`, `B) 12`, `\\text{(B)}`), or None."""
    s = s.strip().replace("\\text", "").replace("{", "").replace("}", "").strip()
    m = _CHOICE_RE.match(s)
    if m is None:
        m = re.match(r"^(?:option|choice|answer)\s*:?\s*\(?([A-J])\)?\b", s, re.I)
    if m is not None and (
        _MORE_CHOICES_RE.search(s[m.end() :]) or set(other_options(s[m.end() :])) - {m.group(1).upper()}
    ):
        return None  # `(B) and (D)`, `A. B. C. D.`, `A is wrong; B` name two options: none is the answer
    return Choice(m.group(1).upper()) if m else None


def scalar(s: str) -> Scalar:
    """Parse one expression into a `Scalar`."""
    try:
        return Scalar(parse_latex(s), s)
    except LatexParseError as exc:
        raise AnswerParseError(str(exc)) from exc
    except RecursionError as exc:
        raise AnswerParseError("expression nested too deeply") from exc


def _reals() -> Interval:
    """The real line, (-oo, oo)."""
    return Interval(scalar("-\\infty"), scalar("\\infty"), True, True)


def _from_scalar(s: str) -> Answer:
    sc = scalar(s)
    if has_pm(sc.node):
        signs = expand_pm(sc.node)
        with contextlib.suppress(ev.NotExact, ev.TooBig, ArithmeticError, ValueError):
            if len({ev.exact_value(n) for n in signs}) == 1:  # `3 \\pm 0` is 3
                return Scalar(signs[0], s)
        return Seq([Scalar(n, s) for n in signs], ordered=False)
    return sc


def parse_answer(s: str) -> Answer:
    """Parse a normalised answer into its shape; raises `AnswerParseError` if no shape fits."""
    s = s.strip()
    if not s:
        raise AnswerParseError("empty answer")
    if (numeral := locale_number(s)) is not None:  # `四十二`, `sieben`, `3万円`, `1,00,000` (`numerals.py`)
        return scalar(numeral)
    if is_text(s):
        key = canonical_text(s)
        worded = number_from_words(s, key)
        if worded is not None:  # "three", "one half", "forty-two", "one million" (not `-seven`)
            return scalar(worded)
        if key in ALL_REALS:
            return _reals()
        if key in NO_SOLUTION:
            return Seq([], ordered=False, left="\\{", right="\\}")
        return Text(key)
    return _parse(s, 0)


def _false_approximation(parts: list[str]) -> bool:
    """Whether the number after the last `\\approx` is neither the rounding nor the truncation of the number or
    constant before it (`7 \\approx 8`, `3\\sqrt{2} \\approx 4.25`); sides that do not parse are not judged."""
    exact_text = parts[-2].rsplit("=", 1)[-1]
    try:
        exact, approx = scalar(exact_text), scalar(parts[-1])
    except AnswerParseError:
        return False
    return not approximates(exact, approx)


def _parse(s: str, depth: int) -> Answer:
    if depth > 200:
        raise AnswerParseError("answer nested too deeply")
    s = s.strip().rstrip(".").strip()
    if not s:
        raise AnswerParseError("empty part")
    # "x = 1 or x = 2", "19, 46 and 82": lists of alternatives / solutions
    for seps in ((" or ", "\\text{or}", " and ", "\\text{and}", ";"),):
        parts = [p for p in split_top(s, seps) if p.strip()]
        if len(parts) > 1:
            flat: list[Answer] = []
            for p in parts:
                p = p.strip().strip(",").strip()
                sub = _parse(p, depth + 1)
                group = isinstance(sub, Seq) and not sub.ordered and not sub.left
                if group and sub.items and all(isinstance(i, Equation) for i in sub.items):  # type: ignore[union-attr]
                    group = False  # `p=5, q=2; p=7, q=2`: each assignment group is one solution
                flat.extend(sub.items if group else [sub])  # type: ignore[union-attr]
            if all(isinstance(i, Interval | Union) for i in flat):  # `x < -1 or x > 1`
                return Union(flat)
            return Seq(flat, ordered=False)
    if s in ("\\emptyset", "\\{\\}"):
        return Seq([], ordered=False, left="\\{", right="\\}")
    if s == "\\R":
        return _reals()
    if (half := signed_reals(s)) is not None:  # `\\R^+`, `\\R_{\\ge 0}`
        return half
    minus = split_top(s, ("\\setminus",))
    if len(minus) == 2 and minus[0].strip() == "\\R":
        return interval_without(_reals(), _parse(minus[1], depth + 1))
    if len(minus) == 2:  # `\\{2, 3, 4\\} \\setminus \\{4\\}`, `(0, 2) \\setminus \\{1\\}` (set_ops.py)
        with contextlib.suppress(AnswerParseError):
            if (rest := set_minus(_parse(minus[0], depth + 1), _parse(minus[1], depth + 1))) is not None:
                return rest
    union = split_top(s, ("\\cup",))
    if len(union) > 1:
        joined = [_parse(p, depth + 1) for p in union]
        # `A \\cup \\emptyset` is A: the empty set adds nothing to a union
        kept = [a for a in joined if not (isinstance(a, Seq) and not a.items and a.left == "\\{")]
        if len(kept) <= 1:
            return (kept or joined)[0]
        return merged_union(kept)
    meet = split_top(s, ("\\cap",))
    if len(meet) == 2:  # `[1, 3] \\cap \\mathbb{Z}`, `[0, 2] \\cap [1, 3]` (set_ops.py)
        sets = [None if p.strip() in ("\\Z", "\\mathbb{Z}") else _parse(p, depth + 1) for p in meet]
        found = (
            intersection(sets[0], sets[1]) if sets[0] else intersection(sets[1], None) if sets[1] else None
        )
        if found is None:
            raise AnswerParseError("an intersection of sets that are not literal intervals")
        return found
    approx = split_top(s, ("\\approx",))
    if len(approx) > 1:  # `x = 1/3 \approx 0.33` is 1/3; `x \approx 11` is 11
        if _false_approximation(approx):
            raise AnswerParseError("a false approximation (`7 \\approx 8`)")
        exact = _parse(approx[0], depth + 1)
        if isinstance(exact, Scalar) and exact.node[0] == "sym":
            return Equation(exact, _parse(approx[-1], depth + 1))
        return exact
    commas = split_top(s, (",",))
    if len(commas) > 1 and sum(len(split_top(p, ("=",))) > 1 for p in commas) > 1:  # x = 1, y = 2
        return Seq([_parse(p, depth + 1) for p in commas if p.strip()], ordered=False)
    eq = split_top(s, ("=",))
    if len(eq) > 1:
        if any(not p.strip() for p in eq):
            raise AnswerParseError("empty side of an equation")
        for member in eq[1:-1]:  # `x =\= 7`: a relation this grammar does not know is no `=`
            if not re.search(r"[A-Za-z0-9]", member):  # no name or digit: an operator's piece, not a value
                _parse(member, depth + 1)
        lhs = _parse(eq[0], depth + 1)
        rhs = _denial_link(_parse(eq[-1], depth + 1))
        if isinstance(lhs, Scalar) and isinstance(rhs, Scalar) and not free_symbols(lhs.node):
            if not free_symbols(rhs.node):
                return rhs  # `3 \cdot 4 = 12`: a computation whose result is the answer
        elif len(eq) > 2 and isinstance(lhs, Scalar) and lhs.node[0] != "sym":
            return rhs  # `2x = 4 = ...`: a chain of steps; its last member is the answer
        return Equation(lhs, rhs)
    rel = _relation(s, depth)
    if rel is not None:
        return rel
    if len(commas) > 1:
        items = [_parse(p, depth + 1) for p in commas if p.strip()]
        ordered = any(isinstance(i, Scalar) and i.node == ("ellipsis",) for i in items)
        return Seq(items if ordered else _flatten(items), ordered=ordered)
    colon = split_top(s, (":",))
    if len(colon) > 1 and all(p.strip() for p in colon):  # ratios and clock times: 1:2:3, 12:00
        return Seq([_parse(p, depth + 1) for p in colon], ordered=True, left=":", right=":")
    if s.startswith("{") and s.endswith("}") and _balanced(s[1:-1]) and len(split_top(s[1:-1], (",",))) > 1:
        # a TeX group holding a list: `{1,3}`
        return _parse(s[1:-1], depth + 1)
    # `2\begin{pmatrix}..\end{pmatrix}`, sums, products and powers of matrices, `2\mathbf{i} - \mathbf{j}`
    if (rows := matrix_expression(s) or unit_vector_form(s)) is not None:
        return Matrix([[Scalar(("num", v, None, None), str(v)) for v in row] for row in rows])
    if (value := matrix_function(s)) is not None:  # `\det`, trace or rank of a literal matrix
        return Scalar(("num", value, None, None), str(value))
    m = _MATRIX_RE.match(s)
    if m:
        lines = [
            r for r in re.split(r"\\\\", m.group(2)) if r.strip() and not r.strip().startswith("\\hline")
        ]
        return Matrix([[scalar(c.strip()) for c in split_top(r, ("&",))] for r in lines])
    enclosed = _enclosed(s)
    if enclosed is not None:
        left, inner, right = enclosed
        parts = split_top(inner, (",",))
        if len(parts) == 1 and left in ("(", "[") and len(split_top(inner, (";",))) > 1:
            parts = split_top(inner, (";",))  # `(0;-2;6)`, `[0;1]`: semicolons separate coordinates, ends
        condition = set_builder_condition(inner) if left == "\\{" else None
        if condition is not None:  # `\\{x \\mid x < 2 \\text{ or } x > 3\\}`: the set its condition denotes
            with contextlib.suppress(AnswerParseError):
                if isinstance(shape := _parse(condition, depth + 1), Interval | Union):
                    return shape
        if left == "\\{":
            members = _flatten([_parse(p, depth + 1) for p in parts if p.strip()])
            return Seq(members, ordered=False, left=left, right=right)
        if left == "\\langle":
            return Seq([_parse(p, depth + 1) for p in parts], ordered=True, left="(", right=")")
        if len(parts) > 1:
            return Seq([_parse(p, depth + 1) for p in parts], ordered=True, left=left, right=right)
        inner_shape = _parse(inner, depth + 1)
        if not isinstance(inner_shape, Scalar):
            return inner_shape
    return _from_scalar(s)


def _flatten(items: list[Answer]) -> list[Answer]:
    """Members of an unordered collection, with `±` pairs (bracketless unordered Seqs) spliced in."""
    out: list[Answer] = []
    for item in items:
        if isinstance(item, Seq) and not item.ordered and not item.left:
            out.extend(item.items)
        else:
            out.append(item)
    return out


def _denial_link(rhs: Answer) -> Answer:
    """The last side of an equation with its denial links between constants checked: `x = 5 \\ne 6` is `x = 5`
    (a true denial adds nothing); `x = 5 \\ne 5` states nothing. A denial alone (`3 \\ne 5`) answers nothing."""
    if (
        not isinstance(rhs, Relation)
        or set(rhs.ops) != {"ne"}
        or any(free_symbols(m.node) for m in rhs.parts)
    ):
        return rhs
    if all(constants_differ(a.node, b.node) for a, b in itertools.pairwise(rhs.parts)):
        return rhs.parts[0]
    raise AnswerParseError("a denial not proved true (`x = 5 \\ne 5`) states nothing")


def _relation(s: str, depth: int) -> Answer | None:
    """Inequality chains: a single variable between bounds becomes an interval (`1 < x \\le 3` -> (1, 3])."""
    pieces: list[str] = []
    ops: list[str] = []
    rest = s
    while True:
        best: tuple[int, str, str] | None = None
        for token, name in _RELATIONS:
            parts = split_top(rest, (token,))
            if len(parts) > 1:
                idx = len(parts[0])
                if best is None or idx < best[0]:
                    best = (idx, token, name)
        if best is None:
            break
        idx, token, name = best
        pieces.append(rest[:idx])
        ops.append(name)
        rest = rest[idx + len(token) :]
    if not ops:
        return None
    pieces.append(rest)
    scalars = [scalar(p.strip()) for p in pieces]
    # the variable of an interval: `x`, or a function value `f(x)` (`0 < f(x) < 1` is the range (0, 1))
    syms = [i for i, sc in enumerate(scalars) if sc.node[0] in ("sym", "apply")]
    inf = scalar("\\infty")
    ninf = Scalar(("neg", inf.node), "-\\infty")
    if ops == ["ne"] and len(syms) == 1 and not free_symbols(scalars[1 - syms[0]].node):  # `x \ne 0`
        return interval_without(_reals(), scalars[1 - syms[0]])
    if len(ops) == 2 and not syms:
        band = abs_band([sc.node for sc in scalars], ops)
        if band is not None:  # `1 \le |z| \le 3/2` -> `[-3/2, -1] \cup [1, 3/2]`
            return _parse(band, depth + 1)
    if len(ops) == 1 and ops[0] in ("lt", "le", "gt", "ge"):
        left, right = scalars[0].node, scalars[1].node
        chained = None if syms else abs_chain(left, right, ops[0])
        if chained is not None:  # `|x| < 3` -> `-3 < x < 3`
            return _relation(chained, depth + 1)
        # `|x| > 3`, `x^2 < 4`, `x^2 < x`: the set they denote
        outside = (None if syms else abs_outside(left, right, ops[0])) or quadratic_set(left, right, ops[0])
        if outside is not None:
            return _parse(outside, depth + 1)
    if len(ops) == 1 and ops[0] != "ne" and not syms:  # `-x > -1`, `2x + 1 \le 5`
        solved = linear_bound(scalars[0].node, scalars[1].node, ops[0])
        if solved is not None:
            name, bound, op = solved
            scalars = [Scalar(("sym", name), name), Scalar(bound, to_text(bound))]
            ops = [op]
            syms = [0]
    if len(ops) == 2 and "ne" not in ops and not syms:  # `-2 < x - 1 < 2`: both links solved for x
        between = linear_between([sc.node for sc in scalars], ops)
        if between is not None:
            return _parse(between, depth + 1)
    bounds = [sc for j, sc in enumerate(scalars) if j not in syms]
    if (  # a single variable between bounds free of it (`x^2 < x` bounds x by itself: no interval)
        "ne" not in ops
        and len(syms) == 1
        and len(ops) <= 2
        and not any(free_symbols(scalars[syms[0]].node) & free_symbols(b.node) for b in bounds)
    ):
        i = syms[0]
        lo, hi, lo_open, hi_open = ninf, inf, True, True
        for j, op in enumerate(ops):
            other = scalars[j] if j + 1 == i else scalars[j + 1]
            var_on_left = j == i
            upper = (op in ("lt", "le")) == var_on_left
            strict = op in ("lt", "gt")
            if upper:
                hi, hi_open = other, strict
            else:
                lo, lo_open = other, strict
        return Interval(lo, hi, lo_open, hi_open)
    return Relation(scalars, ops)
