"""Values framed as something other than the reply's assertion, read from the words of their own sentence.

A value in a supposition or a condition (`Suppose the answer is 7`, `Hypothetically, ...`, with no consequent yet)
is supposed; one in a counterfactual with a modal consequent (`If it were isosceles, the angle would be 45`, `For
example, if ...`, `Если бы ...`) is what would hold, not what does; one that `would` hold under a condition stated
after it is a remark; a value of a toy case (`take the toy case $n = 3$`) checks another instance; a value showing
the answer's format in an echoed instruction (`For example: \\boxed{42}`) is a template. `assertion.py` reads
these for the reply's final value; the sentence window they share (`_sentence_opening`) is here.
"""

from __future__ import annotations

import re

from rlvr.verifiers.math.boxes import outer_boxes
from rlvr.verifiers.math.languages import SUPPOSE, WITHOUT_WOULD

#: How far before and after the final value its sentence is read (a longer sentence is read from its tail).
_REACH = 400

# a sentence ends at `.`/`!`/`?` before a space or the end (so not inside `2.5`), or at a line break
_SENTENCE_END_RE = re.compile(r"[.!?]+(?=[\s)\]]|$)|[\u3002\uff01\uff1f]+|\n")  # CJK full stops end one too


# --- a supposition or condition that opens the sentence (a closed class)
_SUPPOSITION_RE = re.compile(
    r"(?:(?:so|and|now|then|but|ok(?:ay)?|well|hmm+)\s*,?\s+)?"
    r"(?:if|suppose|supposing|assume|assuming|whether|unless|provided|could|might|maybe|perhaps|possibly"
    r"|what\s+if|in\s+case|say|guess|(?:i|we)(?:'d|\s+would|\s+will)?\s+(?:guess|assume|suppose)|my\s+guess"
    r"|let(?:'s|\s+us)?\s+(?:\w+ly\s+)?(?:assume|suppose|say|guess|pretend|try)|let(?!'s|\s+(?:me|us)\b)"
    r"|is\s+(?:it|the\s+answer|this)|can\s+it\s+be|would\s+it\s+be|try|test|plug\s+in|substitute|consider"
    r"|pretend|imagine|one\s+(?:might|may|could|would)\s+(?:think|guess|say|expect)|ansatz"
    r"|(?:were|had)\s+(?:the|it|we|there|x|n))\b",
    re.IGNORECASE,
)
# a sentence adverb that makes the whole sentence a supposition, up to a turn (`Hypothetically, the answer is 7`)
_HYPOTHETICAL_RE = re.compile(
    r"(?:hypothetically|theoretically|in\s+theory|for\s+the\s+sake\s+of\s+(?:argument|contradiction)"
    r"|(?:just\s+)?as\s+a\s+(?:guess|placeholder|hypothesis)"
    # (`Placeholder until the count is done: \\boxed{0}`, `Conjecture (unproven): the count is \\boxed{24}`)
    r"|placeholder|(?:unproven\s+)?conjecture|unverified\s+guess|todo|tbd"
    # `Angenommen, ...`, `Supposons que ...`, `Предположим, что ...`: a comma does not end these
    # (`Nehmen wir einmal an, das Ergebnis wäre 12`: a particle may stand inside the German opener)
    r"|angenommen|nehmen\s+wir\s+(?:(?:einmal|mal|doch|nun|jetzt|kurz)\s+){0,2}an|gesetzt\s+den\s+fall"
    r"|supposons|admettons|supongamos|suponhamos|\u043f\u0440\u0435\u0434\u043f\u043e\u043b\u043e\u0436\u0438\u043c"
    r"|\u0434\u043e\u043f\u0443\u0441\u0442\u0438\u043c)\b",
    re.IGNORECASE,
)
# a condition that opens the sentence, and a modal consequent after it: the value is what would hold, not what does
_CONDITION_RE = re.compile(
    r"(?:(?:so|and|now|but|ok(?:ay)?|well)\s*,?\s+)?(?:if|even\s+if|suppose|supposing|assume|assuming|provided"
    r"|were|had|what\s+if|in\s+case|without(?!\s+loss)|absent|ignoring|but\s+for|if\s+not\s+for"
    # another instance than the problem's (`For an eight-sided die, the probability would be \\boxed{1/8}`)
    r"|for\s+an?\s+(?=[^,.\n]{1,40},))\b",
    re.IGNORECASE,
)
_WOULD_RE = re.compile(
    r"\bwould(?:'ve|\s+have)?\b|'d\s+(?:be|get|have|say|guess|go\s+with|bet|pick)\b", re.IGNORECASE
)  # (`If I had to bet, I'd say \\boxed{24}`: a counterfactual choice)
_TURN_RE = re.compile(r"\b(?:but|however|actually|in\s+fact|so|therefore|thus|hence)\b", re.IGNORECASE)
# what ends the supposition and opens its consequent: a comma, `then`, a colon, `we get`, `this gives`
# the same in other languages (CJK openers have no word boundary after them)
_SUPPOSITION_OTHER_RE = re.compile(
    r"(?:\u5047\u8bbe|\u5047\u5982|\u5982\u679c|\u82e5|\u8bbe|\u4eee\u306b|\u3082\u3057)"  # 假设 假如 如果 若 设 仮に もし
    r"|(?:supposons|admettons|si|angenommen|wenn|falls|nehmen\s+wir\s+an|\u043f\u0440\u0435\u0434\u043f\u043e\u043b"
    r"\u043e\u0436\u0438\u043c|\u0435\u0441\u043b\u0438|\u0434\u043e\u043f\u0443\u0441\u0442\u0438\u043c|supongamos"
    r"|suponha|suponhamos"
    # it pl nl tr id/ms hu fi cs ro sv da/no (`Ammettiamo per assurdo che ...`, `Załóżmy, że ...`)
    r"|supponiamo|ammettiamo|per\s+assurdo|za\u0142\u00f3\u017cmy|stel\s+dat|veronderstel|varsayal\u0131m|misalkan"
    r"|andaikan|tegy\u00fck\s+fel|oletetaan|p\u0159edpokl\u00e1dejme|s\u0103\s+presupunem|anta\s+att|antag\s+at"
    r"|anta\s+at)\b"  # ... предположим если допустим (not `se`: Spanish `Se obtiene 7` asserts)
    r"|" + SUPPOSE,  # (the openers of `languages.py`)
    re.IGNORECASE,
)
# a consequent in the conditional mood (en it de fr es pt pl ru): what follows a supposition, supposed too
_CONDITIONAL_MOOD_RE = re.compile(
    r"\bwould\b|(?<=\w)'d\b|\b(?:avrebbe(?:ro)?|sarebbe(?:ro)?|w\u00fcrden?|w\u00e4ren?|h\u00e4tten?|serai(?:en)?t"
    r"|aurai(?:en)?t|ser\u00edan?|habr\u00edan?|seriam?|teriam?|by\u0142oby|\u0431\u044b\u043b[\u0430\u043e\u0438]?\s+\u0431\u044b)\b",
    re.IGNORECASE,
)
_CONSEQUENT_RE = re.compile(
    r"[,;:\uff0c\uff1b\uff1a\u3001]|\u90a3\u4e48|\u5219|\bthen\b|\b(?:we|you|i)\s+(?:get|have|obtain|find|see)\b|\b(?:this|that|it)\s+(?:gives|yields)\b",
    re.IGNORECASE,
)


def _sentence_opening(text: str, pos: int) -> int:
    """Where the sentence holding `pos` opens, looking back at most `_REACH` characters."""
    window = text[max(0, pos - _REACH) : pos]
    cuts = [m.end() for m in _SENTENCE_END_RE.finditer(window)]
    return pos - len(window) + (cuts[-1] if cuts else 0)


# the answer's format, shown with an example value (an echoed prompt: `put your final answer within \\boxed{}. For
# example: \\boxed{42}.`, `in the form \`Final Answer: $\\boxed{17}$\`` (replace 17 with your answer)`): a template
_FORMAT_EXAMPLE_RE = re.compile(
    r"(?:\b(?:put|write|give|present|enclose|format|state|wrap)\w*\b[^.\n]{0,60}?\b(?:answer|result)s?\b[^.\n]{0,40}?"
    r"\b(?:in|within|as|like|using)\b|\bin\s+the\s+(?:form|format)\b|\b(?:answer\s+)?format\b[^:.\n]{0,30}:"
    r"|\b(?:for\s+example|e\.\s?g\.|example(?:\s+(?:output|answer|format))?)\s*:"
    # (zh ja: `按要求的格式：答案写成 \\boxed{5} 这样的形式`, `例如`, `形式で`)
    r"|\u683c\u5f0f|\u4f8b\u5982|\u5f62\u5f0f)[^.\n\u3002]*$",
    re.IGNORECASE,
)


def format_example(text: str, start: int) -> bool:
    """Whether the value at `start` shows the answer's format in an echoed instruction (see above)."""
    lead = text[_sentence_opening(text, start) : start]
    if _FORMAT_EXAMPLE_RE.search(lead) is None:
        return False
    return "\\boxed{}" in text[max(0, start - 400) : start] or bool(
        re.search(
            r"\b(?:format|form|instruction|prompt|template|example)\b|\u683c\u5f0f|\u4f8b\u5982",
            lead,
            re.IGNORECASE,
        )
    )


# an example or a hypothesis opening a conditional (`For example, if ...`, `Hypothetically, if ...`)
_EXAMPLE_OPENER_RE = re.compile(
    r"(?:for\s+(?:example|instance)|e\.\s?g\.|say|hypothetically|in\s+theory|(?:one\s+|a\s+)?caveat\s*:"
    r"|note\s*:|however)\s*,?\s*",
    re.IGNORECASE,
)
# a counterfactual in another language: ru `Если бы ...`, de `Wenn ... wäre/würde/hätte`, fr `Si ... serait/aurait`,
# es/it/pt `Si ... sería/habría`, `Se ... sarebbe/seria`
_FOREIGN_COUNTERFACTUAL_RE = re.compile(
    r"\u0435\u0441\u043b\u0438\s+\u0431\u044b\b|(?:wenn|falls)\b.*\b(?:w\u00e4re|w\u00fcrde|h\u00e4tte)"
    r"|si\b.*\b(?:serait|aurait|ser\u00eda|habr\u00eda|fuera)|se\b.*\b(?:sarebbe|avrebbe|seria|teria)\b"
    # `without ...` with a modal consequent (es de fr it pt ru), and the negative conditionals of zh ja ko
    # (`不考虑…的话，答案是`, `…がなければ、答えは`, `…없다면 답은`)
    r"|(?:sin|sans)\b.*\b(?:ser\u00eda|habr\u00eda|serait|aurait)|ohne\b.*\b(?:w\u00e4re|w\u00fcrde|h\u00e4tte)"
    r"|senza\b.*\b(?:sarebbe|avrebbe)|sem\b.*\b(?:seria|teria)\b|\u0431\u0435\u0437\b.*\b\u0431\u044b\b"
    r"|(?:\u4e0d\u8003\u8651|\u6ca1\u6709|\u5982\u679c|\u5047\u5982|\u82e5).{0,60}\u7684\u8bdd"
    r"|\u3082\u3057.{0,60}?(?:\u3060\u3063\u305f\u3089|\u3067\u3042\u3063\u305f\u306a\u3089)"  # (ja `もし…だったら`)
    r"|.{0,80}?(?:\u304c|\u3082)?\u306a\u3051\u308c\u3070|.{0,80}?(?:\uc5c6|\uc54a\ub294|\uc544\ub2c8)\ub2e4\uba74"
    r"|\u0e16\u0e49\u0e32.{0,80}?\u0e04\u0e07\u0e08\u0e30"  # (th `ถ้า ... คงจะ`)
    r"|" + WITHOUT_WOULD,  # (`Zonder ... zou`, `Bez ... byłaby`: the languages of `languages.py`)
    re.IGNORECASE,
)


def _counterfactual(pre: str) -> bool:
    """Whether the sentence before a value is a counterfactual condition with a modal consequent (`If it were
    isosceles, the angle would be`), after an optional opener (`For example, if the side were 4, ...`, `One
    caveat: if ...`), or one in another language (`Если бы a = 2, то ответ был бы`)."""
    opener = _EXAMPLE_OPENER_RE.match(pre)
    rest = pre[opener.end() :] if opener else pre
    condition = _CONDITION_RE.match(rest)
    if condition is not None and _WOULD_RE.search(rest, condition.end()) is not None:
        return True
    return _FOREIGN_COUNTERFACTUAL_RE.match(rest) is not None


# a counterfactual whose consequent's verb follows the value, as verb-final languages write it: the condition
# before (hu `Ha ...`, tr `...saydı`, fa `اگر ...`, ko `...다면`) and the conditional mood after (`... $\\boxed{30}$
# lenne.`, `olurdu`, `می‌شد`, `이었을 것이다`)
_CONDITION_BEFORE_RE = re.compile(
    r"(?<![^\W\d_])(?:ha|eğer)(?![^\W\d_])|[^\W\d_]+(?:saydı|seydi|sayd[ıi]|seyd[ıi])(?![^\W\d_])|\u0627\u06af\u0631"
    r"|\ub2e4\uba74|\ub354\ub77c\uba74",
    re.IGNORECASE,
)
_MOOD_AFTER_RE = re.compile(
    r"^[^.!?\n]{0,40}?(?:(?<![^\W\d_])(?:lenne|lennének|volna)(?![^\W\d_])"
    r"|[^\W\d_]*(?:urdu|ürdü|ırdı|irdi|ardı|erdi|acaktı|ecekti)(?![^\W\d_])|\u0645\u06cc\u200c?\u0634\u062f"
    r"|\u0645\u06cc\u200c?\u0628\u0648\u062f|\uc744\s*\uac83\uc774\ub2e4|\uc744\s*\ud150\ub370)",
    re.IGNORECASE,
)


def counterfactual_around(pre: str, post: str) -> bool:
    """Whether the value's sentence is a counterfactual whose conditional verb follows the value (see above)."""
    return _MOOD_AFTER_RE.match(post) is not None and _CONDITION_BEFORE_RE.search(pre) is not None


# a check on another instance than the problem's, in the value's sentence (`take the toy case $n = 3$: ...`)
_TOY_CASE_RE = re.compile(
    r"\b(?:toy|small(?:er)?|simple|simpler|trivial)\s+(?:case|example|instance|version)\b|\bsanity[- ]check\b",
    re.IGNORECASE,
)
_IF_AFTER_RE = re.compile(r"\b(?:if|in\s+case|should)\b", re.IGNORECASE)


def _modal_remark(pre: str, post: str) -> bool:
    """Whether a value is what `would` hold under a condition stated after it (`The perpendicular slope would be
    $-\\frac34$, which we'll need if the next part asks for it.`): a remark, not the answer."""
    return _WOULD_RE.search(pre) is not None and _IF_AFTER_RE.search(post) is not None


_FOR_CONTRADICTION_RE = re.compile(
    r",\s*(?:for\s+(?:the\s+sake\s+of\s+)?(?:a\s+)?contradiction|to\s+the\s+contrary|by\s+way\s+of\s+contradiction)\s*,",
    re.IGNORECASE,
)


def _supposed(pre: str) -> bool:
    """Whether the sentence before a value supposes it: an opener with no consequent yet (`Suppose the answer
    is`, `Assume for contradiction that`), or a hypothetical adverb with no turn after it."""
    # (`Suppose, for contradiction, that ...`: the bracketed purpose is no consequent)
    pre = _FOR_CONTRADICTION_RE.sub(" ", pre)
    pre = re.sub(r"^(\W*ansatz)\s*:", r"\1", pre, flags=re.IGNORECASE)  # (`Ansatz: the answer is`: a label)
    opener = _SUPPOSITION_RE.match(pre) or _SUPPOSITION_OTHER_RE.match(pre)
    if opener is not None and not _CONSEQUENT_RE.search(pre, opener.end()):
        return True
    if opener is not None and _CONDITIONAL_MOOD_RE.search(pre, opener.end()):
        return True  # `Supponiamo che sia 12: con 12 gettoni i 5 bambini ne avrebbero 60.`: what would follow
    adverb = _HYPOTHETICAL_RE.match(pre)
    return adverb is not None and not _TURN_RE.search(pre, adverb.end())


#: A comparison in words right before a formula: what follows is a bound, not a value (`fewer than $96$ tiles`)
BOUND_BEFORE_RE = re.compile(
    r"\b(?:(?:fewer|less|more|greater|smaller|larger|bigger|higher|lower)\s+than|at\s+(?:most|least)|exceeds?)"
    r"[ \t]*\Z",
    re.IGNORECASE,
)


# a line that labels its value a wrong answer (`> ⚠️ **Common wrong answer:** $\\boxed{60}$`, `Pitfall: ...`)
_WRONG_LABEL_RE = re.compile(
    r"[\W_]*(?:(?:common|typical|frequent|classic|tempting)\s+)?(?:(?:wrong|incorrect)\s+answer|mistake|pitfall"
    r"|trap|distractor)[*_ ]*[:\uff1a]",
    re.IGNORECASE,
)


def labelled_wrong(text: str) -> bool:
    """Whether the line of the reply's last box opens with a label calling its value a wrong answer (see above)."""
    boxes = outer_boxes(text)
    return bool(boxes) and _WRONG_LABEL_RE.match(text, text.rfind("\n", 0, boxes[-1][0]) + 1) is not None
