"""The vocabulary of the answer parser: function names, Greek letters, constants, stop words."""

from __future__ import annotations

FUNCTIONS = {
    "sin": "sin",
    "cos": "cos",
    "tan": "tan",
    "sec": "sec",
    "csc": "csc",
    "cot": "cot",
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "arccot": "acot",
    "arcsec": "asec",
    "arccsc": "acsc",
    "asin": "asin",
    "acos": "acos",
    "atan": "atan",
    "sinh": "sinh",
    "cosh": "cosh",
    "tanh": "tanh",
    "coth": "coth",
    "arsinh": "asinh",
    "arcosh": "acosh",
    "artanh": "atanh",
    "log": "log",
    "ln": "log",
    "lg": "log10",
    "exp": "exp",
    "sqrt": "sqrt",
    "det": "det",
}
MULTI_ARG_FUNCTIONS = {"max": "Max", "min": "Min", "gcd": "gcd", "lcm": "lcm"}
GREEK = frozenset(
    [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "varepsilon",
        "zeta",
        "eta",
        "theta",
        "vartheta",
        "iota",
        "kappa",
        "lambda",
        "mu",
        "nu",
        "xi",
        "omicron",
        "rho",
        "varrho",
        "sigma",
        "tau",
        "upsilon",
        "phi",
        "varphi",
        "chi",
        "psi",
        "omega",
        "Gamma",
        "Delta",
        "Theta",
        "Lambda",
        "Xi",
        "Sigma",
        "Upsilon",
        "Phi",
        "Psi",
        "Omega",
    ]
)
CONSTANT_WORDS = {
    "pi": ("const", "pi"),
    "infty": ("const", "oo"),
    "infinity": ("const", "oo"),
    "oo": ("const", "oo"),
}
_PLAIN_WORDS = sorted(
    set(FUNCTIONS)
    | set(MULTI_ARG_FUNCTIONS)
    | set(CONSTANT_WORDS)
    | GREEK - {"eta", "nu", "mu", "xi", "chi", "phi"},
    key=len,
    reverse=True,
)
_APPLY_LETTERS = frozenset("fgh")
# commands that end an implicit product (operators, relations, closing delimiters)
_STOP_COMMANDS = frozenset(
    [
        "cdot",
        "times",
        "div",
        "pm",
        "mp",
        "choose",
        "ast",
        "le",
        "ge",
        "ne",
        "lt",
        "gt",
        "in",
        "notin",
        "cup",
        "cap",
        "setminus",
        "to",
        "rightarrow",
        "Rightarrow",
        "implies",
        "rfloor",
        "rceil",
        "rangle",
        "right",
        "end",
        "text",
        "or",
        "and",
        "ldots",
    ]
)
_IGNORED_COMMANDS = frozenset(
    {"displaystyle", "limits", "nolimits", "left", "right", "middle", "qquad", "quad"}
)
