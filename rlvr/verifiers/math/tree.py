"""Helpers over the expression trees that `latex.parse_latex` builds (nested tuples, see there)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

Node = tuple[Any, ...]


def expand_pm(node: Node) -> list[Node]:
    """All sign choices of the `±` in a tree (`1 ± √2` -> [1 + √2, 1 - √2]); a tree without ± -> [tree]."""
    if node[0] == "pm":
        lefts = expand_pm(node[1])
        rights = expand_pm(node[2])
        out: list[Node] = []
        for left in lefts:
            for right in rights:
                zero = left == ("num", Fraction(0), None, None)
                out.append(right if zero else ("add", (left, right)))
                out.append(("neg", right) if zero else ("add", (left, ("neg", right))))
        return out
    results: list[Node] = [node]
    for idx, child in enumerate(node):
        if isinstance(child, tuple) and child and isinstance(child[0], str) and has_pm(child):
            results = [(*r[:idx], variant, *r[idx + 1 :]) for r in results for variant in expand_pm(child)]
        elif isinstance(child, tuple) and child and isinstance(child[0], tuple):
            for j, grand in enumerate(child):
                if has_pm(grand):
                    results = [
                        (*r[:idx], (*r[idx][:j], variant, *r[idx][j + 1 :]), *r[idx + 1 :])
                        for r in results
                        for variant in expand_pm(grand)
                    ]
    return results


def has_pm(node: Any) -> bool:
    """Whether a tree contains a `±`."""
    if not isinstance(node, tuple) or not node:
        return False
    if node[0] == "pm":
        return True
    return any(has_pm(child) for child in node[1:] if isinstance(child, tuple))


def has_kind(node: Any, kinds: frozenset[str] | set[str]) -> bool:
    """Whether any node of the tree has one of the given kinds."""
    if not isinstance(node, tuple) or not node:
        return False
    if isinstance(node[0], str):
        if node[0] in kinds:
            return True
        children = node[1:]
    else:
        children = node
    return any(has_kind(child, kinds) for child in children if isinstance(child, tuple))


def free_symbols(node: Any, out: set[str] | None = None) -> set[str]:
    """Names of the variables in a tree (bound summation variables excluded)."""
    out = set() if out is None else out
    if not isinstance(node, tuple) or not node:
        return out
    if isinstance(node[0], str):
        if node[0] == "sym":
            out.add(node[1])
            return out
        if node[0] == "lim":
            out |= (free_symbols(node[1]) - {node[2]}) | free_symbols(node[3])
            return out
        if node[0] in ("sum", "prod"):
            inner = free_symbols(node[1]) - {node[2]}
            out |= inner | free_symbols(node[3]) | free_symbols(node[4])
            return out
        children = node[1:]
    else:
        children = node
    for child in children:
        if isinstance(child, tuple):
            free_symbols(child, out)
    return out


def int_text(n: int) -> str:
    """An integer's decimal digits, of any length (`str()` refuses more than 4300 digits; read in chunks)."""
    if n.bit_length() < 13000:
        return str(n)
    sign, n = ("-" if n < 0 else ""), abs(n)
    chunks = []
    while n:
        n, low = divmod(n, 10**4000)
        chunks.append(str(low).rjust(4000, "0"))
    return sign + "".join(reversed(chunks)).lstrip("0")


def to_text(node: Node) -> str:
    """A readable plain-text rendering of a tree (for `Verdict.details`)."""
    kind = node[0]
    if kind == "num":
        v = node[1]
        if node[2] is not None and (v * 10 ** node[2]).denominator == 1:  # a decimal: show it as written
            digits = int_text(abs(v * 10 ** node[2]).numerator).rjust(node[2] + 1, "0")
            text = digits[: len(digits) - node[2]] + (
                "." + digits[len(digits) - node[2] :] if node[2] else ""
            )
            return ("-" if v < 0 else "") + text
        num = int_text(v.numerator)
        return num if v.denominator == 1 else f"{num}/{int_text(v.denominator)}"
    if kind == "sym":
        return node[1]
    if kind == "const":
        return {"pi": "pi", "E": "E", "I": "I", "oo": "oo"}[node[1]]
    if kind == "add":
        out = to_text(node[1][0])
        for t in node[1][1:]:
            out += " - " + _wrap(t[1], ("add",)) if t[0] == "neg" else " + " + to_text(t)
        return out
    if kind == "neg":
        return "-" + _wrap(node[1], ("add",))
    if kind == "mul":
        return "*".join(_wrap(f, ("add", "div")) for f in node[1])
    if kind == "div":
        return (
            _wrap(node[1], ("add", "mul", "div", "pm")) + "/" + _wrap(node[2], ("add", "mul", "div", "neg"))
        )
    if kind == "pow":
        return (
            _wrap(node[1], ("add", "mul", "div", "neg", "pow"))
            + "^"
            + _wrap(node[2], ("add", "mul", "div", "neg", "pow"))
        )
    if kind in ("fact", "fact2"):
        return _wrap(node[1], ("add", "mul", "div", "neg", "pow")) + ("!" if kind == "fact" else "!!")
    if kind in ("func", "apply"):
        return f"{node[1]}({', '.join(to_text(a) for a in node[2])})"
    if kind == "deg":
        return _wrap(node[1], ("add", "mul", "div", "neg")) + "°"
    if kind == "pct":
        return _wrap(node[1], ("add", "mul", "div", "neg")) + "%"
    if kind == "pm":
        return f"{to_text(node[1])} ± {to_text(node[2])}"
    if kind in ("sum", "prod"):
        return f"{kind}({to_text(node[1])}, {node[2]}, {to_text(node[3])}, {to_text(node[4])})"
    if kind == "lim":
        return f"lim({to_text(node[1])}, {node[2]} -> {to_text(node[3])})"
    if kind == "ellipsis":
        return "..."
    return repr(node)


def _wrap(node: Node, kinds: tuple[str, ...]) -> str:
    text = to_text(node)
    if node[0] in kinds or (node[0] == "num" and (node[1] < 0 or node[1].denominator != 1)):
        return f"({text})"
    return text


def substitute(node: Node, name: str, value: Node) -> Node:
    """Replace the symbol `name` by `value` everywhere in a tree."""
    if node == ("sym", name):
        return value
    out = []
    for child in node:
        if isinstance(child, tuple) and child and isinstance(child[0], str):
            out.append(substitute(child, name, value))
        elif isinstance(child, tuple) and child and isinstance(child[0], tuple):
            out.append(tuple(substitute(c, name, value) for c in child))
        else:
            out.append(child)
    return tuple(out)


def constants(node: Node, out: set[Node] | None = None) -> set[Node]:
    """The `("const", ...)` nodes of a tree."""
    out = set() if out is None else out
    if node[0] == "const":
        out.add(node)
        return out
    for child in node[1:]:
        if isinstance(child, tuple) and child and isinstance(child[0], str):
            constants(child, out)
        elif isinstance(child, tuple) and child and isinstance(child[0], tuple):
            for c in child:
                constants(c, out)
    return out
