"""The vocabulary of the answer parser: function names, Greek letters, constants, stop words."""

from __future__ import annotations

import math
import re


def _words(text: str) -> frozenset[str]:
    """The set of the space-separated words of `text` (a compact way to write a word list)."""
    return frozenset(text.split())


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
GREEK = _words(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi "
    "omicron rho varrho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Sigma "
    "Upsilon Phi Psi Omega"
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
_STOP_COMMANDS = _words(
    "cdot times div pm mp choose ast le ge ne lt gt in notin cup cap setminus to rightarrow "
    "Rightarrow implies rfloor rceil rangle right end text or and ldots"
)
_IGNORED_COMMANDS = frozenset(
    {"displaystyle", "limits", "nolimits", "left", "right", "middle", "qquad", "quad"}
)

#: Words that may appear in a math answer without making it prose (see `structure.is_text`).
MATH_WORDS = _words(
    "sin cos tan sec csc cot arcsin arccos arctan sinh cosh tanh log ln exp sqrt pi infty infinity "
    "frac dfrac tfrac binom cdot times div left right begin end pmatrix bmatrix matrix array text "
    "mathrm sum prod circ alpha beta gamma delta epsilon theta lambda sigma omega phi psi rho tau mu "
    "nu xi eta zeta kappa chi ldots cup cap emptyset le ge ne pm mp lfloor rfloor lceil rceil langle "
    "rangle min max gcd lcm overline sqrt choose mid det and or"
)


#: LaTeX command and function names that do not make a span prose (`extract._is_prose`; `last_math`).
PROSE_MATH_NAMES = _words(
    "frac dfrac tfrac cfrac sqrt cdot times div pi infty left right sin cos tan log ln exp text mathrm "
    "begin end pmatrix bmatrix matrix array binom circ pm le ge ne cup cap emptyset ldots dots"
)

#: Whole text answers that name a number ("three", "one half"): read as that number.
NUMBER_WORDS = {
    **{
        w: str(i)
        for i, w in enumerate(
            [
                "zero",
                "one",
                "two",
                "three",
                "four",
                "five",
                "six",
                "seven",
                "eight",
                "nine",
                "ten",
                "eleven",
                "twelve",
                "thirteen",
                "fourteen",
                "fifteen",
                "sixteen",
                "seventeen",
                "eighteen",
                "nineteen",
                "twenty",
            ]
        )
    },
    **{
        w: str(10 * i)
        for i, w in enumerate(["thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], 3)
    },
    "hundred": "100",
    "one hundred": "100",
    "thousand": "1000",
    "one thousand": "1000",
    "half": "\\frac{1}{2}",
    "one half": "\\frac{1}{2}",
    "one third": "\\frac{1}{3}",
    "two thirds": "\\frac{2}{3}",
    "one quarter": "\\frac{1}{4}",
    "one fourth": "\\frac{1}{4}",
    "three quarters": "\\frac{3}{4}",
    "three fourths": "\\frac{3}{4}",
}
#: Whole text answers meaning the real line / the empty set (keys as `normalize.canonical_text` writes them).
ALL_REALS = frozenset(
    ["all real numbers", "all reals", "real numbers", "all real x", "all real values", "every real number"]
)
NO_SOLUTION = frozenset(
    [
        "no solution",
        "no solutions",
        "no real solution",
        "no real solutions",
        "none",
        "empty set",
        "no such number",
        "no such numbers",
        "there is no solution",
        "there are no solutions",
    ]
)
#: Words a text answer may add without changing it ("odd function" for "odd").
TEXT_FILLERS = _words("function functions number numbers is it its")
#: Words whose plural `s` is another word, never the plural of the answer (`evens`, `means`, `goods`).
PLURAL_SHIFTS = _words("even mean good news right minute")

# ---- The hedge / qualification vocabulary: one list per role, every rule that reads words draws from here.
# A number's meaning changes with the words around it; each tuple below names one kind of such word, and the
# unions after them say which kinds each rule looks for (before a number, after it, between answers).

#: Connectives: a second value or a condition follows (`3 or 4`, `3 and 4`, `3 but not 4`).
CONNECTIVES = _words("and or but nor")
#: Negations: the value is denied (`3 is not possible`, `never 3`, `the answer is not 12`).
NEGATIONS = _words("not no never none isn't aren't")
#: Copulas and judgements: the text states something about the value (`3 is wrong`, `3 is possible`).
JUDGEMENTS = _words("is are was were be wrong correct true false possible impossible")
#: Comparatives and bounds: the value is a bound, not the answer (`at least 3`, `3 or more`, `more than 3`).
COMPARATIVES = _words("more less fewer most least greater smaller larger bigger higher lower than")
#: Prepositions: the value is placed relative to something (`3 to the left`, `5 below zero`, `3 per day`).
PREPOSITIONS = _words("at to of by from for in on with without over under above below up down per")
#: Quantifiers and additions: the value is a part of something larger (`3 each`, `3 and others`, `3 too`).
QUANTIFIERS = _words(
    "each every all any some only just others other etc else also too then either neither both"
)
#: Approximators: the value is near the answer, not the answer (`about 3`, `roughly 3`).
APPROXIMATORS = _words("about around approximately nearly almost roughly")
#: Hedges: the value is one possibility (`maybe 3`, `3 or maybe 4`, `A and possibly B`).
HEDGES = _words("maybe perhaps possibly probably")
#: Operations: the value is an operand (`3 times x`, `2 cubed`, `twice 3`).
OPERATIONS = _words(
    "plus minus times divided multiplied squared cubed power powers root roots exponent half halves double "
    "triple twice factorial inverse reciprocal cube square opposite fold"
)
#: Ordinals (every one a fraction's denominator can be, the teens and tens included), so that the fraction words
#: are the whole closed class, not the few a red team tried: `7 thirds`, `7 twelfths`, `7 hundredths`.
ORDINALS = _words(
    "third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth fifteenth "
    "sixteenth seventeenth eighteenth nineteenth twentieth thirtieth fortieth fiftieth sixtieth seventieth "
    "eightieth ninetieth hundredth thousandth millionth billionth"
)
#: Fraction words: `7 thirds` is 7/3, not 7 things counted.
FRACTION_WORDS = frozenset({f"{w}s" for w in ORDINALS} | {"halves", "quarters"})
#: Percent words: `12 percent` is 0.12 (or 12 of a hundred), never a count of 12.
PERCENT_WORDS = _words("percent percentage pct per cent")
#: Plural nouns that do not end in s: a count's label as well (`1.5 × 10⁴ people`, `3 children`).
IRREGULAR_PLURALS = _words("people children men women mice geese oxen dice")
#: Signs: the value's sign is stated in words (`5 negative`, `5 below zero`).
SIGNS = _words("negative positive zero")
#: Scale words and the factor each stands for (`5 thousand` is 5000, `3 dozen` is 36): `normalize` applies them.
SCALES = {
    "hundred": 100,
    "thousand": 1000,
    "million": 10**6,
    "billion": 10**9,
    "trillion": 10**12,
    "quadrillion": 10**15,
    "dozen": 12,
}
#: The same scale words in other languages, after a number (`۶۵ هزار تومان` is 65,000 toman, `3 Millionen`, `12 mil`):
#: fa ar ur hi bn ru uk de nl es pt it fr tr id sw.
FOREIGN_SCALES = {
    "هزار": 1000, "ألف": 1000, "آلاف": 1000, "ہزار": 1000, "हज़ार": 1000, "हजार": 1000, "হাজার": 1000,
    "тысяч": 1000, "тысячи": 1000, "тысяча": 1000, "тисяч": 1000, "тисячі": 1000, "tausend": 1000,
    "duizend": 1000, "mil": 1000, "mila": 1000, "mille": 1000, "bin": 1000, "ribu": 1000, "elfu": 1000,
    "میلیون": 10**6, "مليون": 10**6, "ملین": 10**6, "लाख": 10**5, "crore": 10**7, "करोड़": 10**7,
    "миллион": 10**6, "миллиона": 10**6, "миллионов": 10**6, "мільйон": 10**6, "millionen": 10**6,
    "miljoen": 10**6, "millón": 10**6, "millones": 10**6, "milhão": 10**6, "milhões": 10**6, "milione": 10**6,
    "milioni": 10**6, "millions": 10**6, "milyon": 10**6, "juta": 10**6, "milioni ya": 10**6, "lakh": 10**5,
    "tysięcy": 1000, "tysiące": 1000, "tysiąc": 1000, "tusen": 1000, "tuhatta": 1000, "ezer": 1000, "nghìn": 1000,
    "ngàn": 1000, "triệu": 10**6, "tỷ": 10**9, "milliard": 10**9, "milliards": 10**9, "milliarden": 10**9,
    "miliardi": 10**9, "miliardo": 10**9, "milyar": 10**9, "miliar": 10**9, "mil millones": 10**9,
    # cs sk sv no da fi hu pl; es `billón` is the long scale's 10^12; `grand` is a thousand (`5 grand`)
    "tisíc": 1000, "tisíce": 1000, "tisícov": 1000, "tisíců": 1000, "milion": 10**6, "miliony": 10**6,
    "milionů": 10**6, "milionov": 10**6, "milionów": 10**6, "miljon": 10**6, "miljoner": 10**6,
    "millioner": 10**6, "miljoonaa": 10**6, "millió": 10**6, "miliarda": 10**9, "miliardy": 10**9,
    "miliard": 10**9, "miliardów": 10**9, "miljard": 10**9, "miljarder": 10**9, "milliarder": 10**9,
    "milliárd": 10**9, "billón": 10**12, "billones": 10**12, "grand": 1000,
    # abbreviations: pl `tys.` `mln` `mld`, de `Tsd.` `Mio.` `Mrd.`, ru `тыс.` `млн` `млрд`, id `rb`, en `bn`
    "tys": 1000, "tsd": 1000, "rb": 1000, "bn": 10**9, "mln": 10**6, "mld": 10**9, "mio": 10**6, "mrd": 10**9, "тыс": 1000, "млн": 10**6, "млрд": 10**9,
}  # fmt: skip
#: Scale words of scripts written without spaces, read glued to what follows (`3.5 亿元`, `12万`, `3만 원`); `千` and `천`
#: are not among them: `12千円` is no way to write 12,000 (the numerals test keeps it wrong).
GLUED_SCALES = {
    "万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8, "만": 10**4, "억": 10**8,
    "ล้าน": 10**6, "แสน": 10**5, "หมื่น": 10**4, "พัน": 1000,
}  # fmt: skip
#: Every scale word after a number as one regex fragment (group-free): a spaced word, whole and longest first
#: (`mil millones` before `mil`), with an optional plural `s`, or a glued one (`3.5 亿元`).
SCALE_PATTERN = (
    # (`4 thousand-piece puzzles`: a scale word joined to a noun by a hyphen is an adjective, no scale)
    r"(?:(?:"
    + "|".join(sorted([*SCALES, *FOREIGN_SCALES], key=len, reverse=True))
    + r")s?(?![^\W\d_]|-[^\W\d_])"
    r"|(?:" + "|".join(GLUED_SCALES) + r"))"
)


#: A number before one scale word or several (`2,4 nghìn tỷ` is 2.4 thousand billion, `2{,}4 milliards`): a decimal
#: comma is read as one unless three digits follow it (`2,400 million` groups thousands).
SCALED_NUMBER_PATTERN = r"(?:\d+(?:[.,]\d+|\{,\}\d+)?)"
SCALES_PATTERN = SCALE_PATTERN + r"(?:[ \t]+" + SCALE_PATTERN + r")*"
#: One scale word of `SCALE_PATTERN`, compiled once for every module that looks for one.
SCALE_WORD_RE = re.compile(SCALE_PATTERN, re.IGNORECASE)
#: Scale words written before their number (Swahili `elfu 5` is 5,000, `laki 3` is 300,000).
SCALES_BEFORE = {"elfu": 1000, "laki": 10**5, "milioni": 10**6, "bilioni": 10**9}
SCALE_FIRST_RE = re.compile(
    r"(?<![\d.,])(?<![\d.,][ \t])\b(" + "|".join(SCALES_BEFORE) + r")[ \t]+(\d+(?:[.,]\d+)?)(?![\w.,]*\d)",
    re.IGNORECASE,
)


def scale_factor(word: str) -> int:
    """The factor a scale word of `SCALE_PATTERN` stands for (`thousand`, `Millionen`, `亿`; a plural `s` dropped),
    or of several in a row (`nghìn tỷ`: their product)."""
    words = [m.group() for m in SCALE_WORD_RE.finditer(word)]
    if len(words) > 1:
        return math.prod(scale_factor(w) for w in words)
    key = " ".join(word.lower().split())
    for table in (SCALES, FOREIGN_SCALES, GLUED_SCALES):
        if key in table:
            return table[key]
    return SCALES.get(key[:-1]) or FOREIGN_SCALES[key[:-1]]


def scaled_decimal(digits: str) -> str:
    """The number before a scale word as a plain decimal (`2,4` and `2{,}4` are 2.4; `2,400` is 2400)."""
    digits = digits.replace("{,}", ",")
    return digits.replace(",", "") if re.fullmatch(r"\d{1,3},\d{3}", digits) else digits.replace(",", ".")


#: Other multiplying words that are not read as a factor (`5 score`, `5 gross`): they still change the value.
OTHER_SCALES = _words("score gross") | {f"{w}s" for w in SCALES}

#: Conditions: the value holds only in a case (`12 if n is odd`, `12 when x > 0`).
CONDITIONS = _words("if when whenever unless provided assuming")
#: Words after a value that make it another value or an estimate (`7 repeating`, `7 give or take`).
AFTER_QUALIFIERS = _words("repeating recurring repeated give ish")

#: Words that change or qualify a value when they follow it, so a tail containing one is never a label of what
#: was counted (`3 or more`, `3 times x`, `5 thousand`, `2 cubed`, `5 below zero`, `3 is wrong`): every role.
VALUE_WORDS = (
    CONNECTIVES
    | NEGATIONS
    | JUDGEMENTS
    | COMPARATIVES
    | PREPOSITIONS
    | QUANTIFIERS
    | APPROXIMATORS
    | HEDGES
    | OPERATIONS
    | FRACTION_WORDS
    | SIGNS
    | frozenset(SCALES)
    | OTHER_SCALES
    | PERCENT_WORDS
    | CONDITIONS
    | AFTER_QUALIFIERS
    | frozenset(w for w in NUMBER_WORDS if " " not in w)
)
#: Words that qualify a number when they stand just before it (`at least 3`, `about 3`, `maybe 3`, `not 3`,
#: `3 times`): a prose answer's number with one of these before it is not stated plainly.
QUALIFIERS_BEFORE = (
    COMPARATIVES
    | APPROXIMATORS
    | HEDGES
    | _words("not no never")
    | _words("over under above below up")
    | _words("plus minus times")
    | OPERATIONS
    | SIGNS
)
#: Words that may introduce a second value offered as an alternative (`3 or maybe 4`, `A and also B`).
ALTERNATIVE_HEDGES = (*sorted(HEDGES - {"probably"}), "even", "also")
#: Words that say a gap between two boxes is not one answer (`\\boxed{3} \\text{ but not } \\boxed{4}`).
CONTRASTS = ("but", "not", "no", "never", "except", "nor", "instead", "rather", "than")
#: A negation right after an answer phrase ("the answer is not 12", "is never 3", "isn't", "no longer").
NEGATION_AFTER_PHRASE = (r"not\b", r"n't\b", r"never\b", r"no longer\b")


#: Phrases that may close a count without changing it (`12 in total`, `20 dollars each`, `3 apples left`).
COUNT_CLOSERS = (
    ("in", "total"),
    ("in", "all"),
    ("altogether",),
    ("total",),
    ("each",),
    ("apiece",),
    ("left",),
    ("remaining",),
    ("in", "stock"),
    ("so", "far"),
)


def counted_label(words: list[str]) -> bool:
    """Whether the words after a number only name what it counts (`apples`, `red marbles`, `square units`):
    after a closing phrase (`in total`, `each`, `left`, `per hour`) is set aside, nothing or one to three
    words, none of them a `VALUE_WORDS` word or a single letter (a variable), the last a plural noun."""
    clean = [w.lower().rstrip(".") for w in words]
    if any(len(w) < 2 or not w.isalpha() for w in clean):
        return False
    closed = False
    while clean:
        closer = next((c for c in COUNT_CLOSERS if tuple(clean[-len(c) :]) == c), None)
        if closer is not None:
            clean, closed = clean[: -len(closer)], True
        elif len(clean) >= 2 and clean[-2] in ("per", "every", "a", "an") and clean[-1] not in VALUE_WORDS:
            clean, closed = clean[:-2], True  # a rate: `miles per hour`, `5 per day`
        else:
            break
    if not clean:
        return closed
    if not 1 <= len(clean) <= 3 or any(w in VALUE_WORDS - PERCENT_WORDS for w in clean):
        return False
    return clean[-1].endswith("s") or clean[-1] in PERCENT_WORDS or clean[-1] in IRREGULAR_PLURALS


#: Words that start a check of an answer on an instance (`let me verify with n = 10`): see `extract.drop_checks`.
CHECK_CUES = (
    "verify",
    "verifying",
    "check",
    "checking",
    "test",
    "testing",
    "confirm",
    "confirming",
    r"plug(?:ging)?\s+in",
    r"substitut\w*",
    "sanity",
    "try",
    "trying",
)
#: Reports that a check was done ("I verified by plugging in: 3 + 4 = 7"): the check's numbers are its own.
CHECK_REPORTS = (
    r"I\s+(?:have\s+)?(?:verified|checked|confirmed|double-checked)",
    r"(?:verified|checked|confirmed)\s+(?:by|with|that|using)",
)
#: Words that open an example: whatever numbers follow are the example's, never a new answer.
EXAMPLE_CUES = (r"for\s+example", r"for\s+instance", r"e\.g\.", r"as\s+an\s+example")
#: Words that open a revision of a stated answer ("... \\boxed{3}. Hmm, actually it's four"): what follows
#: A value called the correct one, as a regex fragment (`correct value is`, `true count, though, is`, `accurate count
#: comes to`): an answer stated (`phrases._PHRASE_RE`), and after an answer an explicit revision (`EXPLICIT_REVISIONS`).
CORRECT_VALUE_PHRASE = (
    r"(?:correct|right|true|real|actual|accurate)\s+(?:value|answer|result|count|total|number|figure|sum|amount)"
    r"(?:\s*,[^,\n]{1,20},)?\s+(?:is|comes\s+to)"
)
#: Correction labels of zh / ja (`訂正：`, `修正：`): revision words after an answer.
CJK_CORRECTION_LABELS = ("修正", "更正", "订正", "訂正")
#: may state a new answer (`extract._revised_value`), or name another option (`extract.choice_hedged`).
REVISION_WORDS = (
    "wait",
    "actually",
    r"hmm+",
    "oops",
    "sorry",
    "correction",
    "mistake",
    r"re-?check(?:ing)?",
    "instead",
    r"on\s+second\s+thought",
    # a chat correction of a typo (`EDIT: typo in the last line, it should read 48`, `(typo above: I meant 11/26)`)
    r"edit(?=\s*:)",
    "typo",
    r"I\s+meant",
    r"should\s+read",
    r"(?:upd|eta|update)(?=[*_]*\s*:)",  # (`UPD: 21, the host shakes hands too`, `ETA: make that 21`, `**Update:**`)
    # `wait` in other languages opening a correction (pl `Chwileczkę`, `Zaraz`, fr `Attendez`, de `Warte`)
    r"chwileczk[eę]",
    "chwila",
    "zaraz",
    "czekaj",
    "attendez",
    "aspetta",
    "warte",
    "подожди(?:те)?",
    r"(?<=\^)\s*meant|(?<=\^ )meant",  # (`^ meant 21`)
    r"brain\s+fart",
    r"fat-?\s?finger(?:ed)?",
    # a correction label of zh / ja after the answer (`訂正：正しくは 61 です。`)
    *CJK_CORRECTION_LABELS,
)
#: Words that withdraw an answer given before them ("\\boxed{8}. Wait, actually \\boxed{7}", "Correction:", "I made
#: an error"): only these let a later, different value replace an earlier one (`contested.py`). No hedge
#: (`hmm`), no pitfall (`mistake`, `wrong` name someone else's error) and no third-person error is one.
EXPLICIT_REVISIONS = (
    "wait",
    "actually",
    "oops",
    "sorry",
    "correction",
    r"on\s+second\s+thought",
    r"I\s+(?:made|have\s+made)\s+(?:an?\s+)?(?:\w+\s+)?(?:error|mistake)",
    r"my\s+(?:mistake|error|bad)",
    r"I\s+was\s+wrong",
    r"let\s+me\s+(?:redo|recompute|recalculate|correct|fix)",
    r"(?:fix|correct)(?:ing|ed)?\s+(?:it|this|that)",
    # a later noticing that changes it: `was going to be \\boxed{24}, until I noticed ... \\boxed{18}`
    r"(?:until|then|but\s+then)\s+(?:I|we)\s+(?:noticed|realized|realised|remembered|re-?read|saw)",
    "addendum",
    # a value called the correct one (`I miscounted at the top. The correct count is **14**.`)
    # (opening its sentence: `If the order mattered, the correct value is ...` is a supposition's consequent)
    r"(?:(?<=[.!?:]\s)|(?<=\n)|(?<=\*\*)|(?<=\bso\s)|(?<=\bthus\s)|(?<=\bhence\s)|(?<=\btherefore\s)"
    r"|(?<=\btherefore,\s))the\s+" + CORRECT_VALUE_PHRASE,
    # a correction label of zh / ja (`修正：上面的最后一步有误，正确答案应为 21。`, `訂正：`)
    *CJK_CORRECTION_LABELS,
)  # fmt: skip
#: Words that say a check found an error: they end the check (`checks.drop_checks`), so a conclusion after
#: them may state a new answer. They do not open a revision by themselves ("2 would be wrong" revises nothing).
ERROR_WORDS = ("wrong", "incorrect", "error", r"should\s+be", r"not\s+right", "mistake")
