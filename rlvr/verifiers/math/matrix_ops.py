"""Matrix answers written as expressions, evaluated exactly into one matrix.

`2\\begin{pmatrix}1 & 2\\\\ 3 & 4\\end{pmatrix}` (a scalar times a matrix), sums and differences of matrices,
products of matrices, and vectors in unit-vector form (`2\\mathbf{i} - \\mathbf{j}`, `\\hat{i}`, `\\vec{k}`)
all become the one `Matrix` they denote. Only exact rational entries and coefficients are combined (so the
result is the value, never an approximation); anything else is "not a matrix expression" (None), and the
caller parses the answer as it would have without this module.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from fractions import Fraction

from rlvr.verifiers.math import evaluate as ev
from rlvr.verifiers.math.latex import LatexParseError, parse_latex

_MATRIX_SPAN_RE = re.compile(r"\\begin\{([pbvBV]?matrix)\}(.*?)\\end\{\1\}", re.S)
#: The placeholder `normalize` writes for a bold / hatted / arrowed unit vector i, j or k.
UNIT_VECTOR_RE = re.compile(r"\\unitvec\{([ijk])\}")
_PRODUCT_GAP_RE = re.compile(r"^(?:\s|\\cdot|\\times)*$")

Rows = list[list[Fraction]]


def _value(text: str) -> Fraction | None:
    """The exact real value of a LaTeX expression without variables, or None."""
    try:
        value = ev.exact_value(parse_latex(text), {})
    except (LatexParseError, ev.NotExact, ev.TooBig, ArithmeticError, RecursionError, ValueError):
        return None
    return value[0] if value[1] == 0 else None


def _rows(body: str) -> Rows | None:
    cells = [
        [c.strip() for c in row.split("&")] for row in re.split(r"\\\\(?:\[[^\]]*\])?", body) if row.strip()
    ]
    out: Rows = []
    for row in cells:
        values = [_value(c) for c in row]
        if any(v is None for v in values):
            return None
        out.append(values)  # type: ignore[arg-type]
    if not out or any(len(r) != len(out[0]) for r in out):
        return None
    return out


def _product(a: Rows, b: Rows) -> Rows | None:
    if len(a[0]) != len(b):
        return None
    return [
        [sum((a[i][k] * b[k][j] for k in range(len(b))), Fraction(0)) for j in range(len(b[0]))]
        for i in range(len(a))
    ]


def _terms(s: str) -> list[tuple[int, str]]:
    """Split at `+`/`-` outside braces and matrix environments: [(sign, term)]."""
    terms: list[tuple[int, str]] = []
    depth, start, sign = 0, 0, 1
    i = 0
    while i < len(s):
        if s.startswith("\\begin{", i):
            depth += 1
        elif s.startswith("\\end{", i):
            depth -= 1
        ch = s[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch in "+-" and depth == 0:
            if s[start:i].strip():
                terms.append((sign, s[start:i]))
            elif ch == "-":
                sign = -sign
                start = i + 1
                i += 1
                continue
            sign, start = (1 if ch == "+" else -1), i + 1
        i += 1
    terms.append((sign, s[start:]))
    return terms


def _term(sign: int, term: str) -> Rows | None:
    spans = list(_MATRIX_SPAN_RE.finditer(term))
    if not spans or term[spans[-1].end() :].strip():
        return None
    if any(not _PRODUCT_GAP_RE.match(term[a.end() : b.start()]) for a, b in itertools.pairwise(spans)):
        return None
    lead = term[: spans[0].start()].strip()
    lead = re.sub(r"(?:\\cdot|\\times)\s*$", "", lead).strip()
    coef = Fraction(1) if not lead else _value(lead)
    if coef is None:
        return None
    result = _rows(spans[0].group(2))
    for span in spans[1:]:
        right = _rows(span.group(2))
        if result is None or right is None:
            return None
        result = _product(result, right)
    if result is None:
        return None
    return [[sign * coef * x for x in row] for row in result]


def matrix_expression(s: str) -> Rows | None:
    """The exact matrix a sum of (scaled) matrix products denotes, or None if `s` is not one."""
    if "\\begin{" not in s:
        return None
    if s.count("\\begin{") == 1 and s.strip().startswith("\\begin{"):
        return matrix_power(s)  # `M^2`, `M^0`; a single plain matrix is the structure parser's business
    total: Rows | None = None
    for sign, term in _terms(s):
        rows = _term(sign, term)
        if rows is None:
            return None
        if total is None:
            total = rows
        elif len(total) != len(rows) or len(total[0]) != len(rows[0]):
            return None
        else:
            total = [[a + b for a, b in zip(ra, rb)] for ra, rb in zip(total, rows)]
    return total


def unit_vector_form(s: str) -> Rows | None:
    """`2\\unitvec{i} - \\unitvec{j}` -> the column (2, -1) (with k: three rows); None unless linear in i, j, k
    with exact coefficients and nothing else."""
    names = sorted(set(UNIT_VECTOR_RE.findall(s)))
    if not names:
        return None
    text = UNIT_VECTOR_RE.sub(lambda m: f" u_{{{m.group(1)}}} ", s)
    try:
        node = parse_latex(text)
    except (LatexParseError, RecursionError):
        return None
    axes = ["i", "j", "k"] if "k" in names else ["i", "j"]

    def at(point: dict[str, Fraction]) -> Fraction | None:
        try:
            value = ev.exact_value(node, {f"u_{n}": point.get(n, Fraction(0)) for n in axes})
        except (ev.NotExact, ev.TooBig, ArithmeticError, ValueError):
            return None
        return value[0] if value[1] == 0 else None

    return _linear_coefficients(at, axes)


def _linear_coefficients(
    at: Callable[[dict[str, Fraction]], Fraction | None], axes: list[str]
) -> Rows | None:
    """Coefficients of a linear form without constant term, checked at an off-axis point."""
    if at({}) != 0:
        return None
    found = [at({a: Fraction(1)}) for a in axes]
    coefs = [c for c in found if c is not None]
    if len(coefs) < len(found):
        return None
    probe = {a: Fraction(3 + 2 * n, 7 + n) for n, a in enumerate(axes)}
    if at(probe) != sum((c * probe[a] for c, a in zip(coefs, axes)), Fraction(0)):
        return None
    return [[c] for c in coefs]


_MATRIX_FUNCTION_RE = re.compile(
    r"^\s*\\(det|tr|rank|operatorname\s*\{\s*(?:tr|rank)\s*\})\s*\(?\s*\\begin\{([pbB]?matrix)\}(.*?)\\end\{\2\}\s*\)?\s*$",
    re.S,
)
_MATRIX_POWER_RE = re.compile(
    r"^\s*\\begin\{([pbB]?matrix)\}(.*?)\\end\{\1\}\s*\^\s*\{?\s*(\d{1,7})\s*\}?\s*$", re.S
)


def _eliminated(rows: Rows) -> tuple[Fraction, int]:
    """(determinant, read only for a square matrix; rank) of a matrix, by exact Gaussian elimination."""
    m = [row[:] for row in rows]
    det, rank, col = Fraction(1), 0, 0
    while rank < len(m) and col < len(m[0]):
        pivot = next((r for r in range(rank, len(m)) if m[r][col] != 0), None)
        if pivot is None:
            det, col = Fraction(0), col + 1
            continue
        if pivot != rank:
            m[rank], m[pivot], det = m[pivot], m[rank], -det
        det *= m[rank][col]
        for r in range(rank + 1, len(m)):
            factor = m[r][col] / m[rank][col]
            m[r] = [a - factor * b for a, b in zip(m[r], m[rank])]
        rank, col = rank + 1, col + 1
    return det, rank  # (a column without a pivot set det to 0: a singular matrix)


def matrix_function(s: str) -> Fraction | None:
    """The value of `\\det`, `\\operatorname{tr}` or `\\operatorname{rank}` of a literal matrix, or None."""
    m = _MATRIX_FUNCTION_RE.match(s)
    rows = _rows(m.group(3)) if m else None
    if m is None or rows is None:
        return None
    name = re.sub(r"operatorname|[\s{}]", "", m.group(1))
    square = len(rows) == len(rows[0])
    if name == "rank":
        return Fraction(_eliminated(rows)[1])
    if not square:
        return None  # a determinant or trace needs a square matrix
    return _eliminated(rows)[0] if name == "det" else sum((rows[i][i] for i in range(len(rows))), Fraction(0))


_MAX_ENTRY_BITS = (
    4096  # a power's entries stay below 2^4096 (`\begin{pmatrix}2\end{pmatrix}^{5000}` is no answer)
)


def matrix_power(s: str) -> Rows | None:
    """A literal square matrix to a whole power (`M^0` is the identity), or None."""
    m = _MATRIX_POWER_RE.match(s)
    rows = _rows(m.group(2)) if m else None
    if m is None or rows is None or len(rows) != len(rows[0]) or len(rows) > 6:
        return None  # (bounded: a power of a large matrix is no answer anyone writes)
    result: Rows | None = [[Fraction(int(i == j)) for j in range(len(rows))] for i in range(len(rows))]
    power: Rows | None = rows
    e = int(m.group(3))
    # by squaring (`I^{100}`, a shear to the 1000th), entries bounded in size so no power runs long
    while e and result is not None and power is not None:
        if e & 1:
            result = _product(result, power)
        e >>= 1
        power = _product(power, power) if e else power
        if any(
            max(q.numerator.bit_length(), q.denominator.bit_length()) > _MAX_ENTRY_BITS
            for row in (result or []) + (power or [])
            for q in row
        ):
            return None  # entries too large to be an answer anyone checks by hand
    return result
