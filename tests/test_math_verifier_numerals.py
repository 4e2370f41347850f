"""Numerals as other languages and locales write them (`rlvr/verifiers/math/numerals.py`): digits of other scripts,
CJK numerals read by position (with ASCII digits before 万/千/만 too), CJK fractions, Indian lakh groups,
apostrophe groups, a decimal comma before a label, number words of other languages, and the label after any of
them. Each rule with wrong counterparts: another numeral, a malformed grouping, an ambiguous reading, a label that
changes the value. The right cases are the tails of real replies a held-out red-team round graded wrong."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier
from rlvr.verifiers.math.numerals import (
    cjk_number,
    foreign_number,
    locale_number,
    numerals_in_text,
    qualifies_number,
    script_digits,
)

from grading import assert_linear, expect_verdict

_RUSSIAN = "Расстояние 15 км, скорость 6 км/ч, значит $t = 15 : 6 = 2{,}5$ ч.\n\nОтвет: 2,5 ч."


@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        # digits of other scripts are digits
        ("ดังนั้น คำตอบคือ ๖๐ วิธี", "60", "correct"),
        ("ดังนั้น คำตอบคือ ๖๐ วิธี", "61", "wrong"),
        ("ดังนั้น คำตอบคือ ๖๑ วิธี", "60", "wrong"),
        ("Answer: ٣٫٥", "3.5", "correct"),  # Arabic-Indic digits and the Arabic decimal separator
        ("Answer: ٣٫٥", "35", "wrong"),
        ("Answer: १२", "12", "correct"),  # Devanagari
        ("Answer: १२", "21", "wrong"),
        (r"\boxed{１２}", "12", "correct"),  # full-width
        # CJK numerals, read by position, with a classifier and a noun after them
        ("答：二十四个正因数。", "24", "correct"),
        ("答：二十五个正因数。", "24", "wrong"),
        ("答：一百零五", "105", "correct"),
        ("答：一百五", "105", "wrong"),  # 150 as people say it, 105 as written: neither is read
        ("答：一百五", "150", "wrong"),
        # ASCII digits before the characters of position (Chinese, Japanese, Korean)
        ("答え：1万2千円", "12000", "correct"),
        ("答え：1万2千円", "1200", "wrong"),
        ("答え：1万2千円", "12002", "wrong"),
        ("答え：1万2円", "10002", "wrong"),  # 12000 as people say it
        ("答え：12千円", "12000", "wrong"),  # one digit before a unit
        ("답: 3만 원", "30000", "correct"),
        ("답: 3만 원", "3", "wrong"),
        ("답: 1억 2천만 원", "120000000", "correct"),
        ("답: 1억 2천만 원", "100002000", "wrong"),
        (r"\boxed{3.5万}", "35000", "correct"),
        (r"\boxed{3.5万}", "3.5", "wrong"),
        # CJK fractions: the denominator first
        ("答え：3分の2", r"\frac{2}{3}", "correct"),
        ("答え：3分の2", r"\frac{3}{2}", "wrong"),
        ("答：四分之三", r"\frac{3}{4}", "correct"),
        ("答：四分之三", r"\frac{4}{3}", "wrong"),
        ("答：负四分之三", r"-\frac{3}{4}", "correct"),
        ("答：负四分之三", r"\frac{3}{4}", "wrong"),
        ("답: 3분의 2", r"\frac{2}{3}", "correct"),
        ("답: 3분의 2", "6", "wrong"),
        # Indian lakh groups: only the exact pattern (three digits last, pairs before)
        ("**Answer: ₹1,00,000**", "100000", "correct"),
        ("**Answer: ₹1,00,000**", "100", "wrong"),
        ("**Answer: 12,34,567**", "1234567", "correct"),
        ("**Answer: 1,000,00**", "100000", "wrong"),  # malformed groups
        ("**Answer: 10,00,00**", "100000", "wrong"),
        # apostrophe groups of three
        ("**Antwort:** 1'250'000 Franken", "1250000", "correct"),
        ("**Antwort:** 1'250'000 Franken", "1250", "wrong"),
        ("**Antwort:** 3'250'00", "325000", "wrong"),  # malformed groups
        ("**Antwort:** 3'25'000", "325000", "wrong"),
        ("Réponse : 1 250,50 €", "1250.5", "correct"),  # space groups before a decimal comma
        ("Réponse : 1 250,50 €", "125050", "wrong"),
        ("Réponse : 1 25,50 €", "125.5", "wrong"),  # malformed groups
        # a decimal comma before a label
        (_RUSSIAN, "2.5", "correct"),
        (_RUSSIAN, "25", "wrong"),
        ("Ответ: 2,500 руб.", "2.5", "wrong"),  # before three digits a comma may group thousands
        ("Ответ: 1,5·10⁴", "15000", "correct"),  # a decimal comma in scientific notation
        ("Ответ: 1,5·10⁴", "1.5", "wrong"),
        ("Antwort: 2,5 \\times 10^{-3}", "0.0025", "correct"),
        ("Antwort: 1,500 · 10^3", "1500", "wrong"),  # 1.5 or 1500 before the power: unread
        ("答：30％", r"30\%", "correct"),  # full-width percent
        ("答：30％", r"3\%", "wrong"),
        # number words of other languages, with a unit after them
        ("Antwort: zwölf Zentimeter", "12", "correct"),
        ("Antwort: zwölf Zentimeter", "11", "wrong"),
        ("Antwort: zwölf Tausend", "12", "wrong"),  # a scale word is no label
        ("Ответ: пять км", "5", "correct"),
        ("Ответ: пять км", "6", "wrong"),
        ("Antwort: vierundzwanzig", "24", "correct"),  # compounds to 99 in de/fr/es/it/pt/ru
        ("Antwort: vierundzwanzig", "42", "wrong"),
        ("Réponse : quatre-vingt-dix-neuf élèves", "99", "correct"),
        ("Réponse : quatre-vingt-dix-neuf élèves", "80", "wrong"),
        ("Réponse : vingt et un", "21", "correct"),
        ("Réponse : vingt trente", "20", "wrong"),  # another number after it: no label
        ("Respuesta: treinta y cuatro alumnos", "34", "correct"),
        ("Respuesta: treinta y cuatro alumnos", "30", "wrong"),
        ("Respuesta: veintidós", "22", "correct"),
        ("Risposta: ventotto", "28", "correct"),
        ("Resposta: vinte e quatro", "24", "correct"),
        ("Ответ: двадцать четыре способа", "24", "correct"),
        ("Ответ: двадцать четыре способа", "20", "wrong"),
        # labels that change the value
        ("答：3倍", "3", "wrong"),  # three times
        ("답: 30여 명", "30", "wrong"),  # more than thirty
        ("答：约24个", "24", "wrong"),  # about 24
        ("答：二十四个以上", "24", "wrong"),  # 24 or more
        ("答：5 x", "5", "wrong"),  # a variable, not a label
        ("答え：1万2千円くらい", "12000", "wrong"),  # about
        # a count's label that is a plural without s (`vocab.IRREGULAR_PLURALS`)
        ("N = 1.5 × 10⁴\n\n**Answer:** 1.5 × 10⁴ people", "15000", "correct"),
        ("N = 1.5 × 10⁴\n\n**Answer:** 1.5 × 10⁴ people", "1.5", "wrong"),
        (r"\boxed{2 \times 10^3 \text{ children}}", "2000", "correct"),
        (r"\boxed{2 \times 10^3 \text{ child}}", "2000", "wrong"),  # a singular names no count
    ],
)
def test_numerals_of_other_locales(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    expect_verdict(verifier, pred, gold, reason)


@pytest.mark.parametrize(
    "text, value",
    [
        ("二十四", "24"),
        ("十二", "12"),
        ("一千零五十", "1050"),
        ("三万五千", "35000"),
        ("零", "0"),
        ("一百五", None),  # colloquially 150
        ("三万五", None),  # colloquially 35000
        ("二〇二四", None),  # digit by digit, no positions
        ("千千万万", None),  # countless: units out of order
        ("万一", None),  # `in case`: a section with nothing before it
        ("3만", None),  # Hangul positions only after ASCII digits, read by `locale_number`
    ],
)
def test_cjk_number(text: str, value: str | None) -> None:
    assert cjk_number(text) == value


@pytest.mark.parametrize(
    "text, value",
    [
        ("1万2千円", "12000"),
        ("3 万元", "30000"),
        ("3万5000", "35000"),
        ("1억 2천만 원", "120000000"),
        ("3.5亿", "350000000"),
        ("二又四分之三", r"(2+\frac{3}{4})"),
        ("百分之三十", r"\frac{30}{100}"),
        ("负四分之三", r"-\frac{3}{4}"),
        ("-1,00,000", "-100000"),
        ("1,00,000", "100000"),
        ("1'250.5", "1250.5"),
        ("2,5 ч.", "2.5"),
        ("2,5", None),  # may list two numbers: the comparison decides
        ("2,500 руб.", None),  # 2.5 or 2500
        ("5 а", None),  # a single letter of a spaced script may name a variable
        ("천만 원", None),  # Hangul positions only after ASCII digits
        ("60 วิธี", "60"),
        ("60 apples", None),  # a plain number with an English label: the English rules read it
        ("zwölf Zentimeter", "12"),
        ("1万2", None),
        ("12千", None),
        ("3万5亿", None),  # sections largest first
        ("1'250'00", None),
        ("1,000,00", None),
        ("3倍", None),
        ("二十四个三角形", None),  # another numeral in the label: no label
        ("30 мин или 2 ч", None),  # more than a label
        ("3 тысячи", None),
        ("3 π", None),
        ("1,5\\cdot 10^{4}", "15000"),
        ("1,500\\cdot 10^{3}", None),  # 1.5 or 1500 before the power
    ],
)
def test_locale_number(text: str, value: str | None) -> None:
    assert locale_number(text) == value


@pytest.mark.parametrize(
    "text, value",
    [
        ("einundzwanzig", "21"),
        ("Dreißig", "30"),
        ("soixante-dix-sept", "77"),
        ("quatre-vingt-un", "81"),
        ("quatre-vingts", "80"),
        ("septante", "70"),
        ("dieciséis", "16"),
        ("dieciseis", "16"),
        ("trentuno", "31"),
        ("vinte e uma", "21"),
        ("девяносто девять", "99"),
        ("once", None),  # English words too: `once`, `um`, `null`, `due`
        ("um", None),
        ("null", None),
        ("due", None),
        ("zwanzigundvier", None),  # units before tens in German
        ("vingt vingt", None),
    ],
)
def test_foreign_number(text: str, value: str | None) -> None:
    assert foreign_number(text) == value


@pytest.mark.parametrize(
    "after, qualified",
    [
        ("以上", True),  # or more
        ("左右。", True),  # about
        (" 이상", True),
        ("개 이상", True),
        ("くらい", True),
        (" เท่า", True),  # times
        (" Prozent", True),
        (" тысячи", True),
        ("个正因数。", False),
        (" 원", False),
        (" วิธี", False),
        (" Zentimeter", False),
        ("元，不是 30 以上", False),  # only its own clause
    ],
)
def test_qualifies_number(after: str, qualified: bool) -> None:
    assert qualifies_number(after) is qualified


def test_script_digits() -> None:
    assert script_digits("๖๐ วิธี, ١٢, ٣٫٥, १२, １２") == "60 วิธี, 12, 3.5, 12, 12"
    assert script_digits("x² ⑦") == "x² ⑦"  # superscripts and circled numbers are not decimal digits here


# ---- numerals in a reply's prose are read before its answer is found: `3万元` is one number, never 3
@pytest.mark.parametrize(
    "pred, gold, reason",
    [
        ("答：所求概率为四分之三。", r"\frac{3}{4}", "correct"),
        ("答：所求概率为四分之三。", r"\frac{4}{3}", "wrong"),
        ("答：所求概率为四分之三。", "3", "wrong"),
        ("答：3万元", "30000", "correct"),
        ("答：3万元", "3", "wrong"),  # was read as 3 before the scale
        ("答：3.5万元", "3.5", "wrong"),
        ("答：二又四分之三", r"\frac{11}{4}", "correct"),
        ("答：二又四分之三", r"\frac{3}{4}", "wrong"),  # the whole is part of the number
        ("答：360 共有二十四个正因数。", "360", "wrong"),  # 360 is the subject, not the answer
        ("答：路程是 3千米。", "3", "correct"),  # kilo is the unit's prefix
        ("答：路程是 3千米。", "3000", "wrong"),
        ("答：三点一四", "3.14", "correct"),  # a CJK decimal
        ("答：三点一四", "3.41", "wrong"),
        ("答：零点五", "0.5", "correct"),
        # groupings no English reply writes, in prose: read whole, never their first group
        ("Das Ergebnis ist 1.250.000 Franken.", "1250000", "correct"),
        ("Das Ergebnis ist 1.250.000 Franken.", "1.25", "wrong"),
        ("So the total prize is ₹1,00,000 in all.", "100000", "correct"),
        ("So the total prize is ₹1,00,000 in all.", "1", "wrong"),
        ("Also the total is 1'250'000 Franken.", "1250000", "correct"),
        ("Answer: 12 lakh", "1200000", "correct"),
        ("Answer: 12 lakh", "12", "wrong"),
        ("Answer: ₹1.5 crore", "15000000", "correct"),
        ("Answer: ₹1.5 crore", "1.5", "wrong"),
        # the scale words of other languages multiply the number before them
        ("Ответ: 3 тысячи рублей", "3000", "correct"),
        ("Ответ: 3 тысячи рублей", "3", "wrong"),
        ("Antwort: 2,5 Millionen Euro", "2500000", "correct"),
        ("Antwort: 2,5 Millionen Euro", "2.5", "wrong"),
        ("Antwort: 3 Tausend", "3", "wrong"),
        ("Respuesta: 3 mil millones", "3000000000", "correct"),
        ("Respuesta: 3 mil millones", "3000", "wrong"),
    ],
)
def test_numerals_in_prose(verifier: MathVerifier, pred: str, gold: str, reason: str) -> None:
    expect_verdict(verifier, pred, gold, reason)


@pytest.mark.parametrize(
    "text, out",
    [
        ("上半年共盈利 3 万元，即 30000 元", "上半年共盈利 30000元，即 30000 元"),
        ("共有二十四个正因数", "共有24个正因数"),
        ("概率为四分之三", "概率为3/4"),
        ("负四分之三", "-3/4"),
        ("2と3分の1", "7/3"),
        ("답: 1억 2천만 원", "답: 120000000 원"),
        ("๖๐ วิธี", "60 วิธี"),
        (
            "一些 第一 千万 十分 万一 千千万万 二〇二四",
            "一些 第一 千万 十分 万一 千千万万 二〇二四",
        ),  # words, no numbers
        ("3千米", "3千米"),
        ("3分の休憩", "3分の休憩"),  # three minutes' break: no fraction
        (
            "共有二十四个以上",
            "共有二十四个以上",
        ),  # qualified: left unread, as a whole answer's label leaves it
        ("約1万2千円くらい", "約1万2千円くらい"),
        ("3만 이상", "3만 이상"),
        ("만 원", "만 원"),
        ("1.250,50 € und 1.250 €", "1250.50 € und 1.250 €"),  # one dot group alone may be a decimal
        (
            "1,000,00 und 3'250'00 und 12.03.2024",
            "1,000,00 und 3'250'00 und 12.03.2024",
        ),  # malformed: as written
        ("Rs 3 lakhs.", "Rs 300000."),
        ("3 тыс. руб.", "3000 руб."),
        ("2,500 тысяч", "2,500 тысяч"),  # 2.5 or 2500 thousand
        ("3 Tausender", "3 Tausender"),  # a word of its own, no scale
    ],
)
def test_numerals_in_text(text: str, out: str) -> None:
    assert numerals_in_text(text) == out


def test_numerals_in_text_is_linear() -> None:
    for build in (
        lambda n: "一" * n,
        lambda n: "1万" * (n // 2),
        lambda n: "四分之" * (n // 3),
        lambda n: "1" * n + "分之",
        lambda n: "二十四个" * (n // 4),
    ):
        assert_linear(lambda n, build=build: (numerals_in_text(build(n)), locale_number(build(n))), 25_000)
