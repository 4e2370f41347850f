"""A small, safe parser from LaTeX / plain-text math to an expression tree (nested tuples), never `eval`.

Why not sympy's own LaTeX parser: `sympy.parsing.latex.parse_latex` has two backends. The ANTLR one needs
`antlr4-python3-runtime` 4.11, but Math-Verify (our comparison peer, a dev dependency) pins 4.13, so it
cannot load here. The Lark one is marked experimental: it knows no `\\pi`, `\\mathrm{e}`, `i` or tuples,
takes 15-45 ms per expression (an Earley parser with explicit ambiguity) and evaluates while parsing, so
`10^{10^{10}}` hangs inside it. `sympy.parse_expr` runs `eval` on its input, which model output must never
reach. So answers are parsed here into a tree of tuples, and sympy is used for what it is good at, the
mathematics (`symbolic.py`). Constructs this grammar declines (`\\int`) make the answer unparsable
(`wrong`; a gold with them fails `validate_reference`): final answers are values, not integrals. A limit
(`\\lim_{x \\to a}`) is read, and only sympy evaluates it. The tokenizer is `latex_tokens.py`.

Tree nodes (all tuples, hashable, picklable):
``("num", Fraction, decimals, sig)`` a literal (``decimals``/``sig``: digits after the point and significant
digits when written as a decimal, else None), ``("sym", name)``, ``("const", "pi"|"E"|"I"|"oo")``,
``("add", terms)``, ``("neg", x)``, ``("mul", factors)``, ``("div", a, b)``, ``("pow", a, b)``,
``("fact", x)``, ``("fact2", x)``, ``("func", name, args)``, ``("apply", name, args)``, ``("deg", x)``,
``("pct", x)``, ``("pm", a, b)`` (a ± b), ``("sum"|"prod", body, var, lo, hi)``, ``("lim", body, var, point)``,
``("ellipsis",)``.
"""

from __future__ import annotations

from fractions import Fraction

from rlvr.verifiers.math.deadline import check as check_deadline
from rlvr.verifiers.math.latex_tokens import LatexParseError, number_node, tokenize
from rlvr.verifiers.math.tree import Node
from rlvr.verifiers.math.vocab import (
    _APPLY_LETTERS,
    _PLAIN_WORDS,
    _STOP_COMMANDS,
    CONSTANT_WORDS,
    FUNCTIONS,
    GREEK,
    MULTI_ARG_FUNCTIONS,
)


class _Parser:
    """Recursive-descent parser over the token list; see the module docstring for the tree it builds."""

    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.toks = tokens
        self.i = 0
        self.abs_depth = 0
        self.depth = 0

    # -- token helpers -------------------------------------------------------------------------------
    def peek(self, k: int = 0) -> tuple[str, str] | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def at(self, *texts: str) -> bool:
        tok = self.peek()
        return tok is not None and tok[1] in texts

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        if tok is None:
            raise LatexParseError("unexpected end of expression")
        self.i += 1
        return tok

    def expect(self, text: str) -> None:
        tok = self.take()
        if tok[1] != text:
            raise LatexParseError(f"expected {text!r}, got {tok[1]!r}")

    def enter(self) -> None:
        check_deadline()
        self.depth += 1
        if (
            self.depth > 1000
        ):  # ~8 frames a level (`deadline.RECURSION_ROOM`); a RecursionError is a parse error too
            raise LatexParseError("expression nested too deeply")

    # -- grammar ------------------------------------------------------------------------------------
    def parse(self) -> Node:
        node = self.expr()
        if self.peek() is not None:
            raise LatexParseError(f"unexpected {self.peek()[1]!r}")  # type: ignore[index]
        return node

    def expr(self) -> Node:
        self.enter()
        if self.at("+"):
            self.take()
            node = self.term()
        elif self.at("-"):
            self.take()
            node = ("neg", self.term())
        elif self.at("\\pm"):
            self.take()
            node = ("pm", ("num", Fraction(0), None, None), self.term())
        elif self.at("\\mp"):
            self.take()
            node = ("pm", ("num", Fraction(0), None, None), ("neg", self.term()))
        else:
            node = self.term()
        terms = [node]
        while self.at("+", "-", "\\pm", "\\mp"):
            op = self.take()[1]
            rhs = self.term()
            if op == "+":
                terms.append(rhs)
            elif op == "-":
                terms.append(("neg", rhs))
            else:
                left = terms[0] if len(terms) == 1 else ("add", tuple(terms))
                terms = [("pm", left, rhs if op == "\\pm" else ("neg", rhs))]
        self.depth -= 1
        return terms[0] if len(terms) == 1 else ("add", tuple(terms))

    def term(self) -> Node:
        factors = [self.unary()]
        while True:
            tok = self.peek()
            if tok is None:
                break
            if tok[1] in ("*", "\\cdot", "\\times", "\\ast"):
                self.take()
                factors.append(self.unary())
            elif tok[1] in ("/", "\\div"):
                self.take()
                num = factors[0] if len(factors) == 1 else ("mul", tuple(factors))
                factors = [("div", num, self.unary())]
            elif self.starts_operand(tok):
                rhs = self.power()
                mixed = self.mixed_number(factors, rhs)
                if mixed is not None:
                    factors = [mixed]
                else:
                    factors.append(rhs)
            else:
                break
        return factors[0] if len(factors) == 1 else ("mul", tuple(factors))

    @staticmethod
    def mixed_number(factors: list[Node], rhs: Node) -> Node | None:
        """`2\\frac{1}{2}` and `2 1/2` are mixed numbers (2 + 1/2), not products; a percent or degree sign after
        the fraction marks the whole mixed number (`33\\frac{1}{3}\\%` is 100/3 %, never 33 * (1/3)%)."""
        if rhs[0] in ("pct", "deg"):
            inner = _Parser.mixed_number(factors, rhs[1])
            return None if inner is None else (rhs[0], inner)
        if len(factors) != 1 or factors[0][0] != "num" or factors[0][2] is not None:
            return None
        if rhs[0] != "div" or rhs[1][0] != "num" or rhs[2][0] != "num":
            return None
        whole, num, den = factors[0][1], rhs[1][1], rhs[2][1]
        if rhs[1][2] is None and rhs[2][2] is None and whole.denominator == 1 and 0 < num < den:
            return ("add", (factors[0], rhs))
        return None

    def starts_operand(self, tok: tuple[str, str]) -> bool:
        kind, text = tok
        if kind in ("num", "word"):
            return True
        if kind == "cmd":
            return text[1:] not in _STOP_COMMANDS
        if text in ("(", "{"):
            return True
        return text == "|" and self.abs_depth == 0

    def unary(self) -> Node:
        if self.at("-"):
            self.take()
            return ("neg", self.unary())
        if self.at("+"):
            self.take()
            return self.unary()
        return self.power()

    def power(self) -> Node:
        self.enter()
        base = self.postfix(self.primary())
        if self.at("^", "**"):
            self.take()
            exponent = self.exponent()
            base = self.postfix(("pow", base, exponent), allow_pow=False)
        self.depth -= 1
        return base

    def exponent(self) -> Node:
        # a sign after a braced or numeric exponent marks the power, as it is drawn (`10^{-2}\%` is 10²%, a
        # hundredth of a percent; `10^{2}!` is (10²)!), not the exponent
        if self.at("{"):
            self.take()
            node = self.group_body("}")
        elif self.at("-"):
            self.take()
            return ("neg", self.exponent())
        elif self.peek() and self.peek()[0] == "num":  # type: ignore[index]
            node = number_node(self.take()[1])
        else:
            node = self.postfix(self.primary(), allow_pow=False)
        if self.at("^", "**"):
            self.take()
            node = ("pow", node, self.exponent())
        return node

    def postfix(self, node: Node, allow_pow: bool = True) -> Node:
        while True:
            if self.at("!!"):
                self.take()
                node = ("fact2", node)
            elif self.at("!"):
                self.take()
                node = ("fact", node)
            elif self.at("°"):
                self.take()
                node = ("deg", node)
            elif self.at("%"):
                self.take()
                node = ("pct", node)
            elif self.at("'") and node[0] == "sym":
                self.take()
                node = ("sym", node[1] + "'")
            else:
                return node

    def group_body(self, close: str) -> Node:
        node = self.expr()
        if self.at("\\choose"):
            self.take()
            node = ("func", "binomial", (node, self.expr()))
        self.expect(close)
        return node

    def tex_argument(self) -> Node:
        """One TeX macro argument: `{...}`, or a single character/command (`\\frac12`, `\\sqrt2`)."""
        tok = self.peek()
        if tok is None:
            raise LatexParseError("missing macro argument")
        if tok[1] == "{":
            self.take()
            return self.group_body("}")
        if tok[1] == "(":  # `\sqrt(2)`: not TeX, but the intent is clear
            self.take()
            return self.group_body(")")
        kind, text = tok
        if kind == "num":
            if len(text) > 1 and text[0].isdigit():
                self.toks[self.i] = ("num", text[1:]) if text[1] != "." else ("num", "0" + text[1:])
                return number_node(text[0])
            self.take()
            return number_node(text)
        if kind == "word":
            if len(text) > 1:
                self.toks[self.i] = ("word", text[1:])
            else:
                self.take()
            return self.letter(text[0])
        if kind == "cmd":
            return self.primary()
        raise LatexParseError(f"bad macro argument {text!r}")

    def letter(self, ch: str) -> Node:
        if ch == "e":
            return ("const", "E")
        if ch == "i":
            return ("const", "I")
        return self.subscripted(ch)

    def subscripted(self, name: str) -> Node:
        if self.at("_"):
            self.take()
            if self.at("{"):
                start = self.i + 1
                depth = 0
                while self.i < len(self.toks):
                    t = self.take()[1]
                    depth += t == "{"
                    depth -= t == "}"
                    if depth == 0:
                        break
                sub = "".join(t[1] for t in self.toks[start : self.i - 1])
            else:
                tok = self.take()
                sub = tok[1]
                if tok[0] == "num" and len(sub) > 1:  # `x_12` is x_1 * 2 in TeX, but nobody means that
                    pass
            name = f"{name}_{{{sub}}}" if len(sub) > 1 else f"{name}_{sub}"
        return ("sym", name)

    def function_argument(self) -> Node:
        if self.at("("):
            self.take()
            return self.group_body(")")
        if self.at("{"):
            self.take()
            return self.group_body("}")
        factors = [self.power()]
        while (tok := self.peek()) is not None and self.starts_operand(tok):
            if tok[0] == "cmd" and tok[1][1:] in FUNCTIONS:
                break
            if tok[0] == "word" and any(tok[1].startswith(f) for f in FUNCTIONS):
                break
            factors.append(self.power())
        return factors[0] if len(factors) == 1 else ("mul", tuple(factors))

    def function(self, name: str) -> Node:
        canonical = FUNCTIONS[name]
        power: Node | None = None
        base: Node | None = None
        if canonical.startswith("log") and self.at("_"):
            self.take()
            base = self.tex_argument()
        if self.at("^"):
            self.take()
            power = self.exponent()
        if canonical == "sqrt":
            index: Node | None = None
            if self.at("["):
                self.take()
                index = self.group_body("]")
            arg = self.tex_argument()
            node: Node = ("func", "sqrt", (arg,)) if index is None else ("func", "root", (arg, index))
        else:
            arg = self.function_argument()
            if canonical == "log10":
                node = ("func", "log", (arg, ("num", Fraction(10), None, None)))
            elif base is not None:
                node = ("func", "log", (arg, base))
            else:
                node = ("func", canonical, (arg,))
        if power is not None:
            if power == ("neg", ("num", Fraction(1), None, None)) and canonical in (
                "sin",
                "cos",
                "tan",
                "sec",
                "csc",
                "cot",
            ):
                return ("func", "a" + canonical, node[2])
            return ("pow", node, power)
        return node

    def multi_arg(self, name: str) -> Node:
        self.expect("(")
        args = [self.expr()]
        while self.at(","):
            self.take()
            args.append(self.expr())
        self.expect(")")
        return ("func", MULTI_ARG_FUNCTIONS[name], tuple(args))

    def big_operator(self, kind: str) -> Node:
        self.expect("_")
        self.expect("{")
        var = self.take()[1]
        self.expect("=")
        lo = self.group_body("}")
        self.expect("^")
        hi = self.tex_argument()
        body = self.term()
        return (kind, body, var, lo, hi)

    def limit(self) -> Node:
        """`\\lim_{x \\to a} body` -> ("lim", body, x, a); sympy evaluates it (two-sided)."""
        self.expect("_")
        self.expect("{")
        var = self.take()[1]
        arrow = self.take()
        if arrow not in (("cmd", "\\to"), ("cmd", "\\rightarrow")):
            raise LatexParseError("a limit needs `x \\to a`")
        point = self.group_body("}")
        return ("lim", self.term(), var, point)

    def word(self, text: str) -> Node:
        """Plain-text letters: known names (`sqrt`, `pi`, `sin`) or single-letter variables (`xy` = x*y)."""
        tok_index = self.i - 1
        for name in _PLAIN_WORDS:
            if text.startswith(name):
                rest = text[len(name) :]
                if rest:
                    self.toks.insert(tok_index + 1, ("word", rest))
                if name in CONSTANT_WORDS:
                    return CONSTANT_WORDS[name]
                if name in GREEK:
                    return self.subscripted(name)
                if name in MULTI_ARG_FUNCTIONS:
                    return self.multi_arg(name)
                return self.function(name)
        if len(text) > 3:
            raise LatexParseError(f"{text!r} is a word, not an expression")
        if len(text) > 1:
            self.toks.insert(tok_index + 1, ("word", text[1:]))
        ch = text[0]
        primes = 0  # `f'(2)`, `f''(x)`: a derivative applied is a function applied, named with its primes
        while ch in _APPLY_LETTERS and len(text) == 1 and self.peek(primes) == ("op", "'"):
            primes += 1
        if (
            ch in _APPLY_LETTERS
            and len(text) == 1
            and (nxt := self.peek(primes)) is not None
            and nxt[1] == "("
        ):
            self.i += primes
            ch += "'" * primes
            self.take()
            args = [self.expr()]
            while self.at(","):
                self.take()
                args.append(self.expr())
            self.expect(")")
            return ("apply", ch, tuple(args))
        return self.letter(ch)

    def primary(self) -> Node:
        kind, text = self.take()
        if kind == "num":
            if self.at("_") and text.isdigit():  # `204_5`: a numeral in another base, compared as written
                return self.subscripted(text)
            return number_node(text)
        if kind == "sci":
            return number_node(text)
        if kind == "word":
            return self.word(text)
        if text == "(":
            return self.group_body(")")
        if text == "[":
            return self.group_body("]")
        if text == "{":
            return self.group_body("}")
        if text == "|":
            self.abs_depth += 1
            inner = self.expr()
            self.abs_depth -= 1
            self.expect("|")
            return ("func", "Abs", (inner,))
        if kind == "cmd":
            return self.command(text[1:])
        raise LatexParseError(f"unexpected {text!r}")

    def command(self, name: str) -> Node:
        if name == "frac":
            num = self.tex_argument()
            den = self.tex_argument()
            return ("div", num, den)
        if name == "binom":
            return ("func", "binomial", (self.tex_argument(), self.tex_argument()))
        if name in FUNCTIONS:
            return self.function(name)
        if name in MULTI_ARG_FUNCTIONS:
            return self.multi_arg(name)
        if name == "pi":
            return ("const", "pi")
        if name == "infty":
            return ("const", "oo")
        if name in GREEK:
            return self.subscripted(name)
        if name in ("lfloor", "lceil"):
            inner = self.expr()
            self.expect("\\r" + name[1:])
            return ("func", "floor" if name == "lfloor" else "ceiling", (inner,))
        if name in ("sum", "prod"):
            return self.big_operator(name)
        if name in ("Re", "Im"):  # real and imaginary parts
            return ("func", name.lower(), (self.function_argument(),))
        if name == "lim":
            return self.limit()
        if name == "ldots":
            return ("ellipsis",)
        if name in ("exp", "e"):
            return ("const", "E")
        if name == "sqrt":
            return self.function("sqrt")
        if name == "overline":  # complex conjugate
            return ("func", "conjugate", (self.tex_argument(),))
        if name in ("hat", "vec", "bar", "tilde", "mathring"):
            arg = self.tex_argument()
            if arg[0] != "sym":
                raise LatexParseError(f"\\{name} of a non-symbol")
            return ("sym", f"{name}({arg[1]})")
        raise LatexParseError(f"unsupported command \\{name}")


def parse_latex(s: str) -> Node:
    """Parse one expression (no top-level commas, relations or brackets-as-tuples) into a tree."""
    tokens = tokenize(s)
    if not tokens:
        raise LatexParseError("empty expression")
    try:
        return _Parser(tokens).parse()
    except RecursionError as exc:  # deeper than the caller's stack allows: an error, never a crash
        raise LatexParseError("expression nested too deeply for this stack") from exc
