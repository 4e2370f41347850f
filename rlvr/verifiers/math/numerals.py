"""Numerals as other languages and locales write them, read as the one value a whole answer states.

- digits of other scripts are digits (`๖๐` 60, `١٢` 12, `१२` 12, full-width `１２`; `٣٫٥` 3.5): `script_digits`;
- CJK numerals are read by position (`二十四` 24, `一百零五` 105, `三万五千` 35000), also with ASCII digits before
  the characters of position (`3万` 30000, `1万2千` 12000, `3.5亿`, Korean `3만` 30000, `1억 2천만` 120000000);
- CJK fractions name the denominator first (`四分之三` 3/4, `3分の2` 2/3, `3분의 2` 2/3, `百分之三十` 30/100);
- Indian lakh groups are one number only in the exact pattern (`1,00,000`: three digits last, pairs before them),
  apostrophe groups only in threes (`1'250'000`); a decimal comma before a label (`2,5 ч`) is a decimal point;
- number words of another language to 99 are their number (`zwölf`, `vierundzwanzig`, `quatre-vingt-dix`);

each optionally followed by a label that names what it counts or measures, in any script (`个正因数`, `円`, `원`,
`วิธี`, `ч.`, `Zentimeter`). A label that could change the value makes the answer no numeral here: a scale, a
multiple, a percent, a bound or an estimate, a fraction, another number, a conjunction (`3倍`, `30以上`, `3 тысячи`,
`zwölf Tausend`, `3 von 4`). A plain ASCII number with a Latin label is left to the English label rules
(`locale_number`, which `structure.parse_answer` asks first).

A reply's prose is read the same way before its answer is found (`numerals_in_text`, called by `decide`), so that
the extractor sees each such numeral as the one number it is: `3万元` is 30000 (never 3), `1.250.000` 1250000 (never
1.25), `12 lakh` and `3 тысячи` are scaled, `四分之三` is 3/4.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from decimal import Decimal

from rlvr.verifiers.math.foreign_words import foreign_number
from rlvr.verifiers.math.vocab import VALUE_WORDS


def script_digits(s: str) -> str:
    """`s` with each decimal digit of another script written as an ASCII digit, and the Arabic decimal and
    thousands separators (`٫`, `٬`) as `.` and `,`: a digit is a digit in any script."""
    if s.isascii():
        return s
    return "".join(
        str(unicodedata.decimal(c)) if c.isdecimal() and not c.isascii() else _ARABIC_SEPARATORS.get(c, c)
        for c in s
    )


_ARABIC_SEPARATORS = {"\u066b": ".", "\u066c": ","}

# CJK digits (with the financial forms) and the characters of position: units within a group of four digits,
# sections of four digits each; Korean writes the positions in Hangul (after ASCII digits only: its Hangul
# digits are common syllables, and `만` alone also means `only`)
_DIGITS = dict(zip("一二两兩三四五六七八九", (1, 2, 2, 2, 3, 4, 5, 6, 7, 8, 9)))
_DIGITS.update(zip("壹贰貳叁參肆伍陆陸柒捌玖", (1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9)))  # financial forms
_ZERO = "零〇"
_UNITS = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000, "십": 10, "백": 100, "천": 1000}
_SECTIONS = {
    "万": 10**4,
    "萬": 10**4,
    "亿": 10**8,
    "億": 10**8,
    "兆": 10**12,
    "만": 10**4,
    "억": 10**8,
    "조": 10**12,
}
_HANGUL = "십백천만억조"
_CJK = "".join(_DIGITS) + _ZERO + "".join(_UNITS) + "".join(_SECTIONS)
_TOKEN_RE = re.compile(rf"\d+(?:\.\d+)?|[{_CJK}]")
# a positional numeral: digits and CJK characters, groups apart only by spaces (`3 万`, `1억 2천만`)
_POSITIONAL_RE = re.compile(rf"[\d.{_CJK}]+(?:[ \t]+[\d.{_CJK}]+)*")
# a CJK integer as a fraction's part: ASCII digits or CJK digits and units (`四`, `十二`, `100`)
_PART = rf"(?:\d+|[{_CJK}]+)"
# `四分之三`, `二又四分之三` (a whole, 又, then the fraction), `3分の2`, `2と3分の1`, `3분의 2`
_FRACTION_RE = re.compile(rf"(?:({_PART})\s*[又と]\s*)?({_PART})\s*(?:分之|分の|분의)\s*({_PART})")
_SIGN_RE = re.compile(r"-|负|負|マイナス|마이너스")
_LAKH_RE = re.compile(r"[1-9]\d?(?:,\d\d)+,\d{3}(?:\.\d+)?(?![\d,.'\u2019])")
_APOSTROPHE_RE = re.compile(r"[1-9]\d{0,2}(?:['\u2019]\d{3})+(?:\.\d+)?(?![\d,.'\u2019])")
# space groups before a decimal comma (`1 250,50`, as French writes money): the comma can only be a decimal one
_SPACE_GROUPS_RE = re.compile(r"[1-9]\d{0,2}(?:[ \u00a0\u202f]\d{3})+,\d+(?![\d,.'\u2019])")
# a decimal comma: never before exactly three digits, where it may group thousands (`2,500`)
_DECIMAL_COMMA_RE = re.compile(r"(?:0|[1-9]\d*),(?!\d{3}(?!\d))\d+(?![\d,.'\u2019])")
# a decimal comma in scientific notation (`1,5·10⁴`, `2,5 \\times 10^{-3}`): no list is written so (not before
# exactly three digits, where it may group thousands)
_SCIENTIFIC_RE = re.compile(
    r"((?:0|[1-9]\d*),(?!\d{3}(?!\d))\d+)\s*(?:\\cdot|\\times)\s*10\s*\^\s*(?:\{\s*(-?\d+)\s*\}|(-?\d))(?![\d.,])"
)
_PLAIN_RE = re.compile(r"\d+(?:\.\d+)?(?![\d,.'\u2019])")


def locale_number(text: str) -> str | None:
    """The value (as LaTeX) of a whole answer that is one numeral written as the module docstring says, with
    an optional label after it; None for anything else."""
    s = text.strip().rstrip("。.").strip()
    sign = _SIGN_RE.match(s)
    body = s[sign.end() :].lstrip() if sign else s
    for read in (_fraction, _cjk_decimal, _positional, _scientific, _grouped, _worded):
        found = read(body)
        if found is not None:
            value, end, latin = found
            if not _label(body[end:], latin):
                return None
            return ("-" if sign and value != "0" else "") + value
    return None


def cjk_number(text: str) -> str | None:
    """The integer a Chinese numeral names (`四十二` is 42, `十二` 12, `一百零五` 105, `三万五千` 35000, `廿五` 25), or
    None."""
    # (the old single characters for twenty, thirty and forty: `廿五` is 25, `卅二` 32)
    text = text.strip().replace("\u5eff", "二十").replace("\u5345", "三十").replace("\u534c", "四十")
    if not re.fullmatch(f"[{_CJK}]+", text) or re.search(f"[{_HANGUL}]", text):
        return None
    return _positional_value(text)


def _positional_value(numeral: str) -> str | None:
    """A positional numeral (`二十四`, `1万2千`, `3.5亿`, `1억2천만`, `3万5000`): a digit before a unit is one
    digit (`12千` is no numeral), units fall within a section, a section holds less than ten thousand, sections
    come largest first, a decimal only scales one whole section (`3.5万`), `零` marks a skipped position. A last
    bare digit after a unit above ten or after a section, with no `零` before it, is refused: `一百五` and `1万2`
    are 150 and 12000 as people say them, 105 and 10002 as written; a last remainder written with all its digits
    (`1万2000`) is read."""
    tokens = _TOKEN_RE.findall(numeral)
    if "".join(tokens) != numeral:
        return None
    total, section, unit, last_section = Decimal(0), Decimal(0), 10**4, 10**16
    pending: Decimal | None = None
    zero = False  # a `零` since the last unit or section
    for i, tok in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if tok in _ZERO:
            if len(tokens) == 1:
                return "0"
            # `一百零五`: a skipped position, after a unit or a section and before a digit (`二〇二四` is no numeral)
            if i == 0 or (tokens[i - 1] not in _UNITS and tokens[i - 1] not in _SECTIONS) or nxt is None:
                return None
            if not (nxt[0].isdigit() or nxt in _DIGITS):
                return None
            zero = True
            continue
        if tok[0].isdigit() or tok in _DIGITS:
            if pending is not None:
                return None  # `四二`: two numbers in a row
            pending = Decimal(tok) if tok[0].isdigit() else Decimal(_DIGITS[tok])
            if "." in tok and (section or nxt not in _SECTIONS):
                return None
        elif tok in _UNITS:
            one_digit = pending is None or (pending == int(pending) and 1 <= pending <= 9)
            if not one_digit or _UNITS[tok] >= unit:
                return None  # `12千`, `二十二十`
            section += (1 if pending is None else pending) * _UNITS[tok]
            pending, unit, zero = None, _UNITS[tok], False
        else:
            factor = _SECTIONS[tok]
            section += pending or 0
            if section == 0 or section >= 10**4 or factor >= last_section:
                return None
            total, section, unit, last_section = total + section * factor, Decimal(0), 10**4, factor
            pending, zero = None, False
    if pending is not None and len(tokens) > 1 and not zero:
        before = tokens[-2]
        if before in _SECTIONS and len(tokens[-1]) != len(str(_SECTIONS[before])) - 1:
            return None  # `1万2`, `三万五`
        if before in _UNITS and _UNITS[before] > 10:
            return None  # `一百五`, `1千2`
    return _decimal_text(total + section + (pending or 0))


def _decimal_text(value: Decimal) -> str:
    """`value` written out in digits (`35000`, `12345.6`), never in exponent form."""
    return format(value.normalize(), "f") if value == value.to_integral_value() else format(value, "f")


def _fraction(s: str) -> tuple[str, int, bool] | None:
    """A CJK fraction at the start of `s` (`四分之三`): its LaTeX, where it ends, and that a Latin label may follow."""
    m = _FRACTION_RE.match(s)
    if m is None:
        return None
    whole, den, num = (_integer(m.group(k)) if m.group(k) else 0 for k in (1, 2, 3))
    if whole is None or den is None or num is None or den == 0:
        return None
    frac = rf"\frac{{{num}}}{{{den}}}"
    return (f"({whole}+{frac})" if m.group(1) else frac), m.end(), True


# `三点一四`: a CJK integer, `点`, then a digit for each decimal place
_CJK_DECIMAL_RE = re.compile(rf"([{_CJK}]+)点([{_ZERO}{''.join(_DIGITS)}]+)")


def _cjk_decimal(s: str) -> tuple[str, int, bool] | None:
    """A CJK decimal at the start of `s` (`零点五` 0.5, `三点一四` 3.14; `两` is no decimal digit)."""
    m = _CJK_DECIMAL_RE.match(s)
    whole = None if m is None else "0" if m.group(1) in _ZERO else cjk_number(m.group(1))
    if m is None or whole is None or "两" in m.group(2) or "兩" in m.group(2):
        return None
    places = "".join("0" if c in _ZERO else str(_DIGITS[c]) for c in m.group(2))
    return f"{whole}.{places}", m.end(), True


def _integer(part: str) -> int | None:
    """A fraction's part: ASCII digits or a CJK integer."""
    value = part if part.isdigit() else cjk_number(part)
    return None if value is None else int(value)


def _positional(s: str) -> tuple[str, int, bool] | None:
    """A positional numeral at the start of `s` with at least one CJK or Hangul character (`1万2千`)."""
    m = _POSITIONAL_RE.match(s)
    numeral = _kilo_cut(s, m.end()) if m else ""
    if not re.search(f"[{_CJK}]", numeral) or (
        re.search(f"[{_HANGUL}]", numeral) and not numeral[0].isdigit()
    ):
        return None  # Hangul positions only after ASCII digits
    value = _positional_value(re.sub(r"\s+", "", numeral))
    return None if value is None else (value, len(numeral), True)


# `千` before a unit is its prefix kilo (`3千米` is 3 km, `5千克` 5 kg), never a position of the numeral
_KILO_RE = re.compile("[千仟](?=[米克瓦卡焦帕赫伏])")


def _kilo_cut(s: str, end: int) -> str:
    """`s[:end]`, a numeral, without a last `千` that is the prefix of the unit after it."""
    return s[: end - 1].rstrip() if end and _KILO_RE.match(s, end - 1) else s[:end]


# in running text: a numeral with a character of position, ASCII digits before it allowed (`3 万`, `1억 2천만`),
# or a CJK fraction, each with a sign word before it (`负`)
_TEXT_NUMERAL_RE = re.compile(
    rf"(?<![\d.])(?P<sign>[负負])?(?:(?P<fraction>{_FRACTION_RE.pattern})|(?P<positional>"
    rf"(?:\d+(?:\.\d+)?[ \t]?)?[{_CJK}](?:[{_CJK}]|\d+(?:\.\d+)?|(?<=[{''.join(_SECTIONS)}])[ \t](?=\d)"
    rf")*))"
)


def numerals_in_text(text: str) -> str:
    """`text` with the numerals of other scripts in its prose written in ASCII (`二十四个` -> `24个`, `3 万元` ->
    `30000元`, `四分之三` -> `3/4`, `๖๐` -> `60`), so that an answer is found as the one number it is (never `3` of
    `3万`). Left as written: a lone CJK digit (`一些`, `第一`), a numeral led by a position (`千万` is also `by all
    means`), Hangul positions without ASCII digits before them, and anything that does not read (`千千万万`)."""
    text = _SCALE_WORDS_RE.sub(_scaled, _GROUPS_RE.sub(_ungrouped, script_digits(text)))
    return text if text.isascii() else _TEXT_NUMERAL_RE.sub(_ascii_numeral, text)


# groupings no English reply writes, in prose: lakh groups (`1,00,000`), apostrophe groups (`1'250'000`), dot
# groups two or more times or before a decimal comma (`1.250.000`, `1.250,50`); a single dot group (`1.250`) may
# be a decimal and stays as written
# (each pattern opens on a digit and looks behind it after: the engine then skips to digits at once, and 1,000,000
# characters of prose cost 10 ms rather than 140)
_GROUPS_RE = re.compile(
    r"[1-9](?<![\d.,'\u2019][1-9])(?:(?P<lakh>\d?(?:,\d\d)+,\d{3}(?:\.\d+)?)"
    r"|(?P<apostrophe>\d{0,2}(?:['\u2019]\d{3})+(?:\.\d+)?)"
    r"|(?P<dots>\d{0,2}(?:(?:\.\d{3}){2,}(?:,\d+)?|(?:\.\d{3})+,\d+)))(?![\d,'\u2019]|\.\d)"
)


# the scale words of other languages after a number, which multiply it (`12 lakh` is 1200000, `3 тысячи` 3000,
# `2,5 Millionen` 2500000, `3 mil millones` 3000000000): never the number alone. English ones are read elsewhere
# (`vocab.SCALES`); a decimal comma only where it cannot group thousands (`2,500 тысяч` is left as written)
def _each(words: str, factor: int) -> dict[str, int]:
    return dict.fromkeys(words.split(), factor)


_SCALE_WORDS = (
    _each("lakh lakhs lac lacs", 10**5)
    | _each("crore crores", 10**7)
    | _each("tausend mille mila mil тысяча тысячи тысяч тыс", 10**3)
    | _each("mio millionen millón millon millones milione milioni milhão milhao milhões milhoes", 10**6)
    | _each("миллион миллиона миллионов млн", 10**6)
    | _each(
        "mrd milliarde milliarden milliard milliards miliardo miliardi bilhão bilhao bilhões bilhoes", 10**9
    )
    | _each("миллиард миллиарда миллиардов млрд", 10**9)
)
_SCALE_WORD = "|".join(sorted(_SCALE_WORDS, key=len, reverse=True))
_SCALE_WORDS_RE = re.compile(
    rf"(\d(?<![\d.,]\d)\d*(?:\.\d+|,(?!\d{{3}}(?!\d))\d+)?)((?:[ \t]*(?:{_SCALE_WORD})(?![^\W\d_])\.?)+)",
    re.IGNORECASE,
)


def _ungrouped(m: re.Match[str]) -> str:
    """A grouped number of `_GROUPS_RE` in plain digits, a decimal comma after dot groups as a decimal point."""
    if m.group("dots"):
        return m.group().replace(".", "").replace(",", ".")
    return re.sub("[,'\u2019]", "", m.group())


def _scaled(m: re.Match[str]) -> str:
    """A number of `_SCALE_WORDS_RE` times its scale words, in digits."""
    value = Decimal(m.group(1).replace(",", "."))
    words = re.findall(r"[^\W\d_]+", m.group(2))
    for word in words:
        value *= _SCALE_WORDS[word.lower()]
    # a stop after a word that is no abbreviation ends the sentence, and stays
    stop = "." if m.group(2).endswith(".") and words[-1].lower() not in _ABBREVIATIONS else ""
    return _decimal_text(value) + stop


_ABBREVIATIONS = frozenset(_each("mio mrd тыс млн млрд", 1))


def _ascii_numeral(m: re.Match[str]) -> str:
    """The numeral `m` found in running text, in ASCII (`m` itself where it does not read)."""
    sign = "-" if m.group("sign") else ""
    if qualifies_number(m.string[m.end() : m.end() + 40]):
        return m.group()
    if m.group("fraction"):
        parts = [_integer(p) if p else 0 for p in m.group(3, 4, 5)]  # whole, denominator, numerator
        if None in parts or parts[1] == 0:
            return m.group()
        whole, den, num = (int(p or 0) for p in parts)
        return f"{sign}{whole * den + num}/{den}"  # `二又四分之三` is 11/4: one number, never 2 and 3/4
    numeral = _kilo_cut(m.string, m.end("positional"))[m.start("positional") :]
    if not numeral[0].isdigit() and (
        len(numeral) < 2
        or not (numeral[0] in _DIGITS or (numeral[0] == "十" and numeral[1] in _DIGITS))
        or re.search(f"[{_HANGUL}]", numeral)
    ):
        return m.group()  # `一些`, `千万`, `十分`: no numeral read as one in prose
    value = _positional_value(re.sub(r"\s+", "", numeral))
    return m.group() if value is None else sign + value + m.group("positional")[len(numeral) :]


_CLAUSE_END_RE = re.compile(r"[\n,.;:!?，。；：！？、]")


def qualifies_number(after: str) -> bool:
    """Whether the words right after a number in prose (`after`, to the end of its clause, two words at most)
    change or qualify it in another language (`个以上`, `左右`, `円くらい`, `여 명`, `이상`, `เท่า`, `Prozent`): a
    numeral so qualified is left as written here, as its label leaves it in a whole answer (`locale_number`)."""
    clause = _CLAUSE_END_RE.split(after[:40], maxsplit=1)[0]
    for word in clause.split()[:2]:
        key = word.lower()
        if any(g in word for g in _GLUED_CHANGERS) or key in _WORD_CHANGERS or key.startswith(_STEM_CHANGERS):
            return True
    return False


def _scientific(s: str) -> tuple[str, int, bool] | None:
    """A number in scientific notation with a decimal comma at the start of `s` (`1,5 \\cdot 10^{4}` 15000)."""
    m = _SCIENTIFIC_RE.match(s)
    if m is None:
        return None
    value = Decimal(m.group(1).replace(",", ".")).scaleb(int(m.group(2) or m.group(3)))
    return _decimal_text(value), m.end(), True


def _grouped(s: str) -> tuple[str, int, bool] | None:
    """An ASCII number at the start of `s`: lakh groups, apostrophe groups, space groups before a decimal comma, a
    decimal comma before a label, or a plain number before a label (a Latin label after a plain number is left to the English rules)."""
    for pattern in (_LAKH_RE, _APOSTROPHE_RE, _SPACE_GROUPS_RE, _DECIMAL_COMMA_RE, _PLAIN_RE):
        m = pattern.match(s)
        if m is None:
            continue
        if pattern in (_DECIMAL_COMMA_RE, _PLAIN_RE) and not s[m.end() :].strip():
            # `2,5` alone may list two numbers (`decide.comma_decimal_equal` reads it against the gold), and a
            # plain number alone is read as it is
            return None
        decimal = pattern in (_DECIMAL_COMMA_RE, _SPACE_GROUPS_RE)
        value = re.sub("['\u2019 \u00a0\u202f]", "", m.group()).replace(",", "." if decimal else "")
        return value, m.end(), pattern is not _PLAIN_RE
    return None


def _worded(s: str) -> tuple[str, int, bool] | None:
    """Number words of another language at the start of `s`, the longest run of up to five words that names a
    number (`zwölf`, `treinta y cuatro`, `двадцать четыре`)."""
    ends = [m.end() for m in itertools.islice(re.finditer(r"\S+", s), 5)]
    for end in reversed(ends):
        if (value := foreign_number(s[:end])) is not None:
            return value, end, True
    return None


# a label word: letters of any script with their combining marks (Thai vowels and tones, Devanagari vowel
# signs), a slash between letters (`км/ч`)
_LABEL_WORD_RE = re.compile(
    r"(?:[^\W\d_][\u0300-\u036f\u0e31\u0e34-\u0e3a\u0e47-\u0e4e\u0900-\u0903\u093a-\u094f]*)+"
)
# single letters that are units in Cyrillic (hour, metre, gram or year, second, tonne, litre, rouble); any other
# single letter of a spaced script may name a variable
_CYRILLIC_UNITS = frozenset("чмгстлр")
# what changes or qualifies a value after it in scripts written without spaces (found anywhere in a label):
# multiples, bounds, estimates, percents, powers and roots, a possessive (`3的平方`), conjunctions, negations;
# Thai: times, more than, upward, about, the scale words, percent, or, and, not, up to
_GLUED_CHANGERS = (
    "倍", "以上", "以下", "以内", "以外", "未満", "未满", "不", "没", "左右", "前後", "前后", "多", "余", "餘", "几",
    "幾", "来", "約", "约", "成", "割", "次方", "乗", "乘", "根号", "平方根", "的", "和", "或", "与", "與", "及", "加",
    "减", "減", "除", "パーセント", "百分", "くらい", "ぐらい", "ほど", "程度", "近く", "強", "弱", "または",
    "เท่า", "กว่า", "ขึ้นไป", "ประมาณ", "ล้าน", "พัน", "หมื่น", "แสน", "ร้อย", "สิบ", "เปอร์เซ็นต์", "หรือ", "และ",
    "ไม่", "ถึง",
)  # fmt: skip
# ... in scripts written with spaces, as whole words: Korean (about, or, and, not), Russian (or, and, of, on,
# in, not), the Latin-script languages (percent, times, more, less, or, and, of, on, not, about)
_WORD_CHANGERS = frozenset(
    "약 또는 및 아니 или и из на в не по раз раза mil mille mila pour por per cento ciento mal fois veces volte "  # noqa: SIM905
    "vezes "
    "mehr weniger plus moins más mas menos più meno mais oder und ou et o y e von de di du des sur su sobre aus "
    "hoch demi medio mezzo meio tiers quart nicht pas non no não etwa environ".split()
)
# ... and the stems that start such words: Korean (more than, times, at least / most, under, over, within,
# degree, around, square, fraction, percent, the scales), Russian (thousand, million, billion, hundreds, percent,
# times, more, less, square, cube, power, root, half, thirds, quarters, fifths, tenths, hundredths), the
# Latin-script languages (scales, percent, square, cube, root, half)
_STEM_CHANGERS = (
    "여", "넘", "배", "이상", "이하", "미만", "초과", "이내", "정도", "쯤", "가량", "제곱", "분의", "퍼센트", "프로",
    "십", "백", "천", "만", "억", "조",
    "тыс", "млн", "млрд", "миллион", "миллиард", "сотен", "сотни", "процент", "больш", "меньш", "более",
    "менее", "квадрат", "куб", "степен", "корн", "корень", "половин", "трет", "четверт", "пятых", "десятых",
    "сотых", "тысячн",
    "tausend", "million", "milliard", "billion", "millón", "millones", "milione", "milioni", "milhão", "milhões",
    "bilh", "prozent", "pourcent", "porcent", "percent", "quadrat", "carré", "cuadrad", "cubo", "cube", "kubik",
    "wurzel", "racine", "raíz", "radice", "hälfte", "halb", "moitié", "mitad", "metà", "metade", "tercio",
    "terzo", "terço", "cuarto", "quarto", "ungefähr", "aproximad", "circa",
)  # fmt: skip
_FRACTION_ENDINGS = ("tel", "ième", "ièmes", "avo", "avos", "esimo", "esimi", "ésimo", "ésimos")


def _label(rest: str, latin: bool) -> bool:
    """Whether `rest` (after a numeral) is empty or only names what the numeral counts or measures: one to three
    words of letters, none of them a changer (see above), another number or a Greek letter; Latin words only
    where `latin` (after a notation an English reply does not write: the English label rules read the rest)."""
    words = rest.split()
    if len(words) > 3:
        return False
    for raw in words:
        # an abbreviation's stop (`ч.`, `руб.`)
        word = raw[:-1] if raw.endswith(".") and len(raw) > 1 else raw
        key = word.lower()
        if not all(_LABEL_WORD_RE.fullmatch(part) for part in word.split("/")):
            return False
        if re.search(f"[{_CJK}]", _KILO_RE.sub("", word)) or any(g in word for g in _GLUED_CHANGERS):
            return False  # `3个三角形`, `3倍`: another numeral, or a word that changes the value
        if key in _WORD_CHANGERS or key.startswith(_STEM_CHANGERS) or foreign_number(word) is not None:
            return False
        if any("GREEK" in unicodedata.name(c, "") for c in word):
            return False  # `3 π`: a constant, not a label
        if all(c.isascii() or "LATIN" in unicodedata.name(c, "") for c in word):
            if not latin or len(word) < 2 or key in VALUE_WORDS or key.endswith(_FRACTION_ENDINGS):
                return False
        elif len(word) == 1 and key not in _CYRILLIC_UNITS and not _glued_script(word):
            return False  # a single letter may name a variable
    return True


def _glued_script(word: str) -> bool:
    """Whether a word's first character is of a script written without spaces (CJK, kana, Hangul, Thai)."""
    return any(
        name in unicodedata.name(word[0], "") for name in ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "THAI")
    )
