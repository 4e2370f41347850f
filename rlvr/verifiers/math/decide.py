"""Grading one extracted answer against a parsed gold: options, text answers, units and angles, then the
value comparison (`compare.py`); None when only the sympy stage can decide."""

from __future__ import annotations

import re
from typing import Any

from rlvr.core.types import Reason, Verdict
from rlvr.verifiers.math import compare as cmp
from rlvr.verifiers.math.choice import answer_start, choice_hedged, option_with_value, stated_choice
from rlvr.verifiers.math.clock import clocks_equal
from rlvr.verifiers.math.config import MathVerifierConfig
from rlvr.verifiers.math.extract import Extraction, extract_answer, reply_parts
from rlvr.verifiers.math.gold import Gold, parse_gold
from rlvr.verifiers.math.normalize import Normalized, canonical_text, currency_unit, normalize_answer
from rlvr.verifiers.math.notation import bases_written, numeral_base
from rlvr.verifiers.math.numerals import numerals_in_text
from rlvr.verifiers.math.shapes import Answer, AnswerParseError, Choice, Equation, Scalar, Seq, Text, describe
from rlvr.verifiers.math.structure import false_equality, parse_answer, parse_choice
from rlvr.verifiers.math.tree import free_symbols
from rlvr.verifiers.math.unit_scale import unit_factor
from rlvr.verifiers.math.vocab import PLURAL_SHIFTS, TEXT_FILLERS, counted_label

# a label in words or an angle's name, `=`, then one value with a digit (no second `=`: chains are judged
# link by link elsewhere)
_WORDED_LABEL_RE = re.compile(
    r"^\s*(?:\\(?:text|mathrm|textbf)\s*\{\s*[A-Za-z][A-Za-z ]*\}|\\angle\s*[A-Z]{1,3})\s*=\s*([^=]*\d[^=]*?)\s*$"
)
_COMMA_DECIMAL_RE = re.compile(r"^-?\d+,\d+$")
# a gold written with a decimal comma only where it cannot be a list: `0,111`, `1000,99`, cents `2,74`
_GOLD_COMMA_DECIMAL_RE = re.compile(r"^-?(?:(?:0|\d{4,}),\d+|\d+,\d{2})$")
_TRAILING_WORDS_RE = re.compile(r"(?:\s+[A-Za-z][A-Za-z\-']*\.?)+\s*$")
# what a counted label follows: a value's last character (`5 apples`, `\frac{1}{2} cups`, `3\pi units`); after
# a word or a separator the words are no label (`no, yes` names two answers, `yes` counts nothing)
_VALUE_END_RE = re.compile(r"(?:[\d})\]%°!]|\\[a-zA-Z]+)\s*$")


def decide(
    completion: str, gold: Gold, config: MathVerifierConfig, opts: cmp.CompareOptions
) -> Verdict | None:
    """The verdict on `completion` against a parsed gold, or None when only the sympy stage can decide."""
    verdict = _decide(completion, gold, config, opts)
    if (
        verdict is not None
        and not verdict.passed
        and verdict.details.get("method") != "parts"
        and isinstance(gold.answer, Seq)
        and not gold.answer.ordered
        and len(gold.answer.items) > 1
        and isinstance(completion, str)
        and (parts := reply_parts(numerals_in_text(completion))) is not None
    ):
        # `**(a)** The mean is $5$. **(b)** The median is $4$.` against `5, 4`: a gold listing the parts grades a
        # reply that answers no other way by its parts, boxed or not (`parts.py`), in order
        by_parts = _decide(completion, gold, config, opts, Extraction(parts, "parts"))
        if by_parts is None or by_parts.passed:
            return by_parts
    return verdict


def _decide(
    completion: str,
    gold: Gold,
    config: MathVerifierConfig,
    opts: cmp.CompareOptions,
    parts: Extraction | None = None,
) -> Verdict | None:
    """`decide`, with the reply's answer read as `parts` when given."""
    if gold.answer is None:
        return Verdict.fail(Reason.UNPARSABLE_GOLD, gold=gold.text[:200], error=gold.error)
    if not isinstance(completion, str):
        return Verdict.fail(
            Reason.NO_ANSWER, error=f"completion must be a string, got {type(completion).__name__}"
        )
    # numerals of other scripts in ASCII first (`3万` is one number, never 3): `numerals.numerals_in_text`
    found = extract_answer(numerals_in_text(completion), config.extraction)
    if isinstance(gold.answer, Choice) and (
        found is None or parse_choice(normalize_answer(found.answer, units=False).text) is None
    ):
        if found is not None and gold.answer.value is not None:
            # `\\boxed{12}` for `\\textbf{(C)}\\ 12`: no letter, so the reply is graded as the option's value
            return _decide(completion, _value_gold(gold.answer.value), config, opts)
        letter = stated_choice(completion)  # "The answer is for sure D, it can't be A or B"
        found = Extraction(letter, "choice") if letter else found
    if found is None and isinstance(gold.answer, Text) and _BARE_WORDS_RE.match(completion):
        found = Extraction(completion.strip().rstrip("."), "whole")  # `evelyn` for `\\text{Evelyn}`: a name
    if found is None or not found.answer.strip():
        return Verdict.fail(Reason.NO_ANSWER, method=found.method if found else None)
    if parts is not None:
        found = parts
    if found.method == "parts" and not gold.text.lstrip().startswith("("):
        # the parts of a reply are ordered (`(a) 5, (b) 14`): a gold listing them (`5, 14`) is read in order
        ordered = parse_gold("(" + gold.text + ")", config)
        gold = ordered if ordered.answer is not None else gold
    if gold.answer is None:  # (narrowed again for the type checker: neither gold above is unparsed)
        return Verdict.fail(Reason.UNPARSABLE_GOLD, gold=gold.text[:200], error=gold.error)
    details: dict[str, Any] = {
        "extracted": found.answer[:500],
        "method": found.method,
        "gold": gold.text[:200],
    }
    if len(found.answer) > config.max_answer_chars:
        return Verdict.fail(Reason.WRONG, error="answer too long", **details)
    if isinstance(gold.answer, Choice):
        choice = parse_choice(normalize_answer(found.answer, units=False).text)
        details["parsed"] = choice.letter if choice else None
        if choice is not None and choice_hedged(completion[answer_start(completion) :], choice.letter):
            return Verdict.fail(Reason.WRONG, error="the answer names more than one option", **details)
        # `\\text{(B)}^{\\times}`: an option with a mark on it (crossed out, starred) is not chosen plainly
        ok = (
            choice is not None
            and choice.letter == gold.answer.letter
            and not _MARKED_OPTION_RE.search(found.answer)
        )
        clash = _option_value_clash(gold.answer, found.answer, opts) if ok else None
        if clash is not None:  # `(C) 13` for `\\textbf{(C)}\\ 12`: the right letter with a wrong value
            return Verdict.fail(Reason.WRONG, error=clash, **details)
        return Verdict.correct(**details) if ok else Verdict.fail(Reason.WRONG, **details)
    same_time = clocks_equal(gold.text, found.answer)
    if same_time is not None:  # `4:00 PM` is `16:00`, never `4:00 AM` (a meridiem is no unit to strip)
        details["parsed"] = "clock time"
        if same_time:
            return Verdict.correct(**details)
        return Verdict.fail(Reason.WRONG, error="a different time of day", **details)
    if not isinstance(gold.answer, Equation | Text) and (worded := _WORDED_LABEL_RE.match(found.answer)):
        # `\\text{Area} = 12`, `\\angle ABC = 40^\\circ`: a label in words names the value on the right
        found = Extraction(worded.group(1), found.method)
        details["extracted"] = found.answer[:500]
    base_clash = _base_clash(gold.text, found.answer) or _foreign_digits(gold.text, found.answer)
    if base_clash is not None:
        return Verdict.fail(Reason.WRONG, error=base_clash, **details)
    norm = normalize_answer(_in_gold_base(gold.text, found.answer), units=config.strip_units)
    chain = _one_unit_chain(found.answer) if config.strip_units and norm.unit is None else None
    if (
        chain is not None
    ):  # `10 km + 15 km = 25 km`: a computation in one unit, graded as its result in that unit
        norm = chain
    if isinstance(gold.answer, Text):
        # `\\text{odd?}` asks rather than answers; the key drops punctuation, so look at the text itself
        # `\\text{yes}^*`: a mark on a text answer is not the text
        ok = (
            "?" not in found.answer
            and "^" not in found.answer
            and (
                _same_words(_text_key(canonical_text(found.answer)), _text_key(gold.answer.key))
                or _yes_no_restated(found.answer, gold.answer.key)
            )
        )
        details["parsed"] = canonical_text(found.answer)
        return Verdict.correct(**details) if ok else Verdict.fail(Reason.WRONG, **details)
    if (valued := option_with_value(norm.text)) is not None:
        # `(D) 25`, `\textbf{(E)}\ 512` against a gold value: the option's value is what the reply states (the
        # gold names no letter to check it against); `(C) 12 or (D) 13` is no option with a value
        norm = normalize_answer(valued[1], units=config.strip_units)
    if "$" not in found.answer and false_equality(norm.text):  # `\\$ = ` is a currency, not an equality
        return Verdict.fail(Reason.WRONG, error="a false equality (`3 = 4`) answers nothing", **details)
    pred = parse_pred(norm.text)
    if pred is None:
        return Verdict.fail(Reason.WRONG, error="the answer could not be parsed", **details)
    details["parsed"] = describe(pred)[:500]
    details["gold_parsed"] = describe(gold.answer)[:500]
    unit = norm.unit or (currency_unit(found.answer) if config.strip_units else None)
    if unit in _ANGLE_UNITS and _in_degrees(gold.answer):  # `60 \\text{ rad}` is not `60^\\circ`
        return Verdict.fail(Reason.WRONG, error=f"unit {unit!r} differs from the gold's degrees", **details)
    angle = _angle_mismatch(gold.answer, gold.text, norm.text)
    if angle is not None:  # `60 \\text{ turns}` is not `60^\\circ`, `1.047^\\circ` is not `\\pi/3`
        return Verdict.fail(Reason.WRONG, error=angle, **details)
    if gold.unit and unit and gold.unit != unit:  # `5 cents` is not `\\$5`; `500 cents` is
        factor = unit_factor(unit, gold.unit)
        if factor is None or not isinstance(pred, Scalar):
            return Verdict.fail(
                Reason.WRONG, error=f"unit {unit!r} differs from the gold's {gold.unit!r}", **details
            )
        pred = Scalar(("mul", (("num", factor, None, None), pred.node)), pred.text)  # in the gold's unit
    try:
        ok = cmp.answers_equal(gold.answer, pred, opts) or comma_decimal_equal(gold, pred, norm.text, opts)
    except cmp.NeedsSympy:
        if not config.symbolic:
            return Verdict.fail(
                Reason.WRONG, error="deciding needs the sympy stage, which is disabled", **details
            )
        return None
    except cmp.Undecidable as exc:
        return Verdict.fail(Reason.TIMEOUT, error=str(exc), **details)
    return Verdict.correct(**details) if ok else Verdict.fail(Reason.WRONG, **details)


# the last member of a chain: one number and what follows it (`= 25 km`)
_LAST_MEMBER_RE = re.compile(r"=\s*(-?\d+(?:\.\d+)?)\s*(\S[^=]*?)\s*$")
# what may stand between the quantities of a computation once their unit is gone: numbers, operators, brackets
_ARITHMETIC_RE = re.compile(r"(?:[\d.\s+\-*/=()\u00d7\u00b7\u22c5]|\\(?:times|cdot)(?![a-zA-Z]))+")


def _one_unit_chain(answer: str) -> Normalized | None:
    """A chain of equalities between quantities in one unit (`10 km + 15 km = 25 km`, `12 - 5 = 7 apples`): the
    chain without the unit, and the unit, as its last member names it; None for anything else. The unit written
    after every number, or only after the result, is one statement (`10 + 15 = 25 km`); a chain with any other
    word or symbol left in it (`5 x + 2 x = 7 x`), or a product of quantities (`2 m × 3 m = 6 m`, in m²), is no
    computation in one unit and is left as it is."""
    last = _LAST_MEMBER_RE.search(answer)
    unit = normalize_answer(f"{last.group(1)} {last.group(2)}", units=True).unit if last is not None else None
    if last is None or unit is None:
        return None
    # `10 km + 15 km`: the unit as the result writes it, after a number (never a letter inside a word)
    bare, written = re.subn(r"(?<=\d)[ \t]*" + re.escape(last.group(2)) + r"(?![^\W\d_])", " ", answer)
    if not _ARITHMETIC_RE.fullmatch(bare) or bare.count("=") != answer.count("="):
        return None
    if written > 1 and re.search(r"[*/\u00d7\u00b7\u22c5]|\\(?:times|cdot)", bare):
        return None  # `2 m × 3 m = 6 m`: a product of quantities is in another unit (m²), not the same one
    return Normalized(normalize_answer(bare, units=False).text, unit)


def _value_gold(value: Answer) -> Gold:
    """A gold for a choice gold's value alone (`12` of `\\textbf{(C)}\\ 12`)."""
    text = value.text if isinstance(value, Scalar) else value.show()
    return Gold(text, None, value, None, text)


def _option_value_clash(gold: Choice, pred_text: str, opts: cmp.CompareOptions) -> str | None:
    """Why a reply's option, written with a value (`(C) 13`), differs from a gold option that carries its value,
    or None (no value on either side, or the same value); a value that cannot be read or compared is a clash."""
    option = option_with_value(normalize_answer(pred_text, units=False).text)
    if gold.value is None or option is None:
        return None
    pred = parse_pred(normalize_answer(option[1], units=True).text)
    try:
        same = pred is not None and cmp.answers_equal(gold.value, pred, opts)
    except (cmp.NeedsSympy, cmp.Undecidable):
        same = False  # an option's value is a number written out: one that needs sympy is not the gold's
    return None if same else f"option {gold.letter} is written with the value {option[1]!r}, not the gold's"


def comma_decimal_equal(gold: Gold, pred: Answer, pred_text: str, opts: cmp.CompareOptions) -> bool:
    """`1000,99` for `1000.99`, a gold `0,111` for `0.111`: one comma between digits, no space, is a
    decimal point when the other side is one number (a list `{1000, 99}` could never match a number)."""
    gold_text = gold.plain
    mine: Answer
    other: Answer
    if _COMMA_DECIMAL_RE.match(pred_text) and isinstance(gold.answer, Scalar):
        mine, other = parse_answer(pred_text.replace(",", ".")), gold.answer
    elif _GOLD_COMMA_DECIMAL_RE.match(gold_text) and isinstance(pred, Scalar):
        mine, other = pred, parse_answer(gold_text.replace(",", "."))
    else:
        return False
    return cmp.answers_equal(other, mine, opts)


def parse_pred(text: str) -> Answer | None:
    """Parse a completion's answer; a label after a number (`5 boxes`) is dropped as a last resort.

    Only a label of what was counted is dropped (`counted_label`): a tail that could change or qualify
    the value (`3 or more`, `3 times x`, `5 thousand`, `2 cubed`) leaves the answer unparsable (wrong).
    """
    try:
        answer = parse_answer(text)
    except (AnswerParseError, RecursionError):
        answer = None
    if answer is None or isinstance(answer, Text):
        stripped = _TRAILING_WORDS_RE.sub("", text)
        if stripped and stripped != text and counted_label(text[len(stripped) :].split()):
            try:
                value = parse_answer(stripped)
            except (AnswerParseError, RecursionError):
                return answer
            # `seven apples` counts in words; `no, yes` is no value before a label (`no` would be n*o)
            numeral = isinstance(value, Scalar) and not free_symbols(value.node)
            return value if numeral or _VALUE_END_RE.search(stripped) else answer
    return answer


_ANGLE_UNITS = frozenset(["radian", "rad", "gradian", "grad"])


def _in_degrees(answer: Answer) -> bool:
    """Whether a (gold) answer is an angle marked in degrees (`60^\\circ`)."""
    return isinstance(answer, Scalar) and answer.node[0] == "deg"


_MARKED_OPTION_RE = re.compile(r"\b[A-J]\s*\)?\s*\}?\s*\^")
_TRAILING_WORD_RE = re.compile(r"[\d}\s]([A-Za-z]{3,})\s*$")


def _angle_mismatch(gold: Answer, gold_text: str, pred_text: str) -> str | None:
    """Why an angle's unit differs from the gold's, or None: a gold in degrees is answered in degrees (not
    `turns`, `arcminutes`), a gold in radians (a multiple of pi) is not answered in degrees."""
    m = _TRAILING_WORD_RE.search(pred_text)
    word = m.group(1).lower().rstrip("s") if m else None
    degrees = "\u00b0" in pred_text or word in ("degree", "deg")
    if _in_degrees(gold) and word is not None and not degrees:
        return f"unit {word!r} is not the gold's degrees"
    # `90^\\circ` converts to pi/2; `\\frac{\\pi}{3}` degrees or `1.047^\\circ` (radians marked as degrees) do not
    radians_marked = "\\pi" in pred_text or re.search(r"\d\.\d", pred_text)
    if not _in_degrees(gold) and "\\pi" in gold_text and degrees and "=" not in pred_text and radians_marked:
        return "radians marked as degrees against a gold in radians"
    return None


def _text_key(key: str) -> str:
    """A text answer's key without words that do not change it (`odd function` is `odd`)."""
    return " ".join(w for w in key.split() if w not in TEXT_FILLERS) or key


_GOLD_NUMERAL_RE = re.compile(r"^\s*\$?\s*[0-9A-F]+_\{?(\d{1,2})\}?\s*\$?\s*$")
_DIGITS_RE = re.compile(r"^\s*[0-9A-F]+\s*$")
_HEX_NUMERAL_RE = re.compile(r"^\s*(?=[0-9a-fA-F]*\d)[0-9a-fA-F]+_\{?16\}?\s*$")


def _base_clash(gold_text: str, pred_text: str) -> str | None:
    """Why a numeral's base differs from the gold's, or None: a numeral is read in the base it is written in
    when the gold is a decimal number or is written in that base (`3_4` does not answer a gold `11_2`)."""
    gold_bases, pred_bases = bases_written(gold_text), bases_written(pred_text)
    if gold_bases and pred_bases and pred_bases != gold_bases:
        return f"numerals in base {sorted(pred_bases)} against a gold in base {sorted(gold_bases)}"
    return None


def _in_gold_base(gold_text: str, pred_text: str) -> str:
    """A bare numeral against a gold that is one numeral in base b (`12_3`, `2A_{16}`) is read in base b: the
    question asked for that base, so its digits are the answer with or without the subscript (`12` is `12_3`)
    and the decimal value (`5`) is not (`_foreign_digits` says why); anything else is left as it is."""
    gold = _GOLD_NUMERAL_RE.match(gold_text)
    if gold is not None and int(gold.group(1)) == 16 and _HEX_NUMERAL_RE.match(pred_text):
        # `2a_{16}` for `2A_{16}`: hex digits have no case (against a base-16 gold, `a_{16}` names no term)
        return pred_text.upper()
    if gold is None or not _DIGITS_RE.match(pred_text):
        return pred_text
    base = int(gold.group(1))
    return (
        f"{pred_text.strip()}_{{{base}}}" if numeral_base(pred_text.strip(), base) is not None else pred_text
    )


def _foreign_digits(gold_text: str, pred_text: str) -> str | None:
    """Why a bare numeral cannot answer a gold written in base b, or None: its digits are no numeral of b
    (`5` or `2` against `12_3`, `10_2`: a decimal value where the question asks for base-b digits)."""
    gold = _GOLD_NUMERAL_RE.match(gold_text)
    if gold is None or not _DIGITS_RE.match(pred_text) or int(gold.group(1)) == 10:
        return None
    base = int(gold.group(1))
    if numeral_base(pred_text.strip(), base) is not None:
        return None
    return f"{pred_text.strip()} is no numeral of base {base}, the base the gold is written in"


# `Yes, it is possible.`: a yes or no, a comma or stop, then a sentence that restates it
_YES_NO_RE = re.compile(r"^\W*(yes|no)\s*[,.;:!]\s*(\w.*)$", re.I | re.S)
_NEGATION_RE = re.compile(r"\b(?:not|no|never|cannot|impossible|none|nothing|neither|nor|\w+n't)\b", re.I)
_TURN_RE = re.compile(r"\b(?:yes|but|however|although|though|unless|if|only|except)\b", re.I)


def _yes_no_restated(pred_text: str, gold_key: str) -> bool:
    """Whether a reply is the gold's yes/no followed by a sentence of the same sense (`Yes, it is possible.` for
    `yes`, `No, it cannot.` for `no`): the sentence must not turn (`but`, `if`, a second yes) and must deny
    exactly when the answer is no (`Yes, it is not possible.` and `No, it is possible.` say both)."""
    text = re.sub(r"\\(?:text|textbf|mathrm)\s*\{([^{}]*)\}", r"\1", pred_text)
    m = _YES_NO_RE.match(text)
    if gold_key not in ("yes", "no") or m is None or m.group(1).lower() != gold_key:
        return False
    rest = m.group(2)
    return not _TURN_RE.search(rest) and bool(_NEGATION_RE.search(rest)) == (gold_key == "no")


# a whole reply of a few words and nothing else (no digit, no LaTeX): against a text gold, it is the answer
_BARE_WORDS_RE = re.compile(r"^\s*[A-Za-z][A-Za-z'-]*(?: [A-Za-z][A-Za-z'-]*){0,3}\.?\s*$")


# a weekday's abbreviation names it (against a gold that is that weekday: `Sun` alone may be the star)
_WEEKDAYS = {
    "mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday", "thu": "thursday",
    "thur": "thursday", "thurs": "thursday", "fri": "friday", "sat": "saturday", "sun": "sunday",
}  # fmt: skip


def _same_words(pred: str, gold: str) -> bool:
    """Two text keys that say the same: equal, a weekday abbreviated (`tue` for `tuesday`), or one a plural `s`
    of the other in one word (`circles` for `circle`) where that word has four letters or more and its plural
    is no other word (`odds`, `evens`)."""
    if pred == gold or _WEEKDAYS.get(pred) == gold or _WEEKDAYS.get(gold) == pred:
        return True
    a, b = pred.split(), gold.split()
    if len(a) != len(b):
        return False
    differ = [(x, y) for x, y in zip(a, b) if x != y]
    if len(differ) != 1:
        return False
    x, y = differ[0]
    short, long = (x, y) if len(x) < len(y) else (y, x)
    return long == short + "s" and len(short) >= 4 and not short.endswith("s") and short not in PLURAL_SHIFTS
