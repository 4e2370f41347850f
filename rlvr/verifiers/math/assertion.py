"""Whether a reply asserts its final value, read from the structure of the sentence that states it.

A value is an answer only when the reply asserts it. What states a value without asserting it is a closed set
of sentence shapes, not a list of phrasings, so the rules here look at structure:

- a sentence that ends in `?` (or a value followed by `(?)`) asks, it asserts nothing;
- a value inside a supposition or condition (a sentence opened by `if`, `suppose`, `assume`, `let`, `say`,
  `whether`, `unless`, `could`, `might`, `maybe`, `is it`, `I'd guess` ..., before any comma or `then` that
  would open its consequent) is supposed, not asserted: `If the answer is 7, then ...`; the consequent of
  a condition is asserted (`If we add them, the total is 7.`);
- a value under a negated frame (`It is false that`, `I cannot conclude that`, `Nobody should answer`,
  `We cannot have`) is denied;
- a value its own clause judges (`7 is ruled out / fails / does not work / is too large`, `the wrong answer 7`)
  is rejected;
- a value offered beside another one in brackets or after `;`/`,` (`7 (8 if inclusive)`, `7; alt: 8`,
  `odd (possibly even)`) is a hedge;
- a value qualified as approximate (`close to 7`, `on the order of 7`, `7 asymptotically`) is no exact answer
  (a decimal is an approximation by nature and is left to the value rules);
- a later sentence that withdraws it (`Just kidding.`, `Hold on, that's wrong.`, `This contradicts $n > 10$.`,
  `Ignore the above; I misread the problem.`: the closed shapes of `withdrawal.py`), or such a clause in the
  value's own sentence (`7, just kidding`); a sentence opened by a withdrawal revises to its one value (`Nope, it
  is 8.`) or, offering no one value, leaves none (`Nope, 8 or 9.`);
- a value with a different plain value offered as its alternative (`7 (resp. 8)`, `7 ± 1`, `7 — or 8, depending
  on convention`, `7（或 8）`) is a hedge; one restated (`\\frac12 (or 0.5)`) is not;
- a value judged in its own clause before it (`My first instinct was 7, but ... 9`, `tentatively 7`) is rejected
  even when the reply goes on to other values.

- a reply whose last sentences, after every value, declare it has none (`I ran out of time before finishing.`,
  `I could not solve this problem.`, `I have not derived it.`) is unfinished; a value framed for the grader
  (`for the grader's convenience`, `the expected answer is`, `the reference solution`) is not the reply's own.

`unasserted` says which of these applies to the reply's final value (its last box, else its last value);
the extractor then answers nothing. Only a withdrawal is read when the reply states other values (several boxes,
a value after the final one's sentence, or without a box a value before its sentence): which of those answers
is for the other rules (contested, asides, revisions) to weigh. Every look-up is bounded around the value, and the scan of the sentences
after it stops at the first value or withdrawal, so a reply of any length is read in linear time.
"""

from __future__ import annotations

import re

from rlvr.verifiers.math.boxes import outer_boxes
from rlvr.verifiers.math.number_words import number_from_words
from rlvr.verifiers.math.plain_values import different_values
from rlvr.verifiers.math.remarks import (
    _CONDITION_RE,
    _REACH,
    _SENTENCE_END_RE,
    _TOY_CASE_RE,
    _counterfactual,
    _modal_remark,
    _sentence_opening,
    _supposed,
    counterfactual_around,
    format_example,
)
from rlvr.verifiers.math.truncation import declared_unfinished
from rlvr.verifiers.math.withdrawal import (
    revised_after_withdrawal,  # noqa: F401  (read from here by box_context)
    withdrawal_end,
    withdrawn_after,
    withdraws,
)

# any value: a box, a math span, a digit
_VALUE_RE = re.compile(r"\\(?:boxed|fbox)\b|\$[^$]+\$|\\\(|\\\[|\d")
_LAST_VALUE_RE = re.compile(r"\$[^$\n]{1,200}\$|\\\(.{1,200}?\\\)|-?\d+(?:\.\d+)?")
_OPENING_NOISE_RE = re.compile(r"^[\s*_#>(\[-]*")

# a negation over the clause that states the value: `It is false that`, `cannot conclude that`, `cannot have`
# (the negation must govern the clause: `It is not hard to see that` negates `hard`, not what follows)
_NEGATED_FRAME_RE = re.compile(
    r"(?:\bnot|n't)\s+(?:\w+\s+){0,2}?(?:the\s+case|true|so|correct|right|known|proven|shown|possible|certain"
    r"|likely|valid|guaranteed)\s+(?:that|to\s+be)\b"
    r"|(?:\b(?:cannot|never|not)|n't)\s+(?:\w+\s+)?(?:conclude|say|claim|answer|think|believe|accept|assume"
    r"|prove|show|know)\b"
    # `have`, `get`, `write` deny only the value they take (`We cannot have $x = 7$`), not a clause before it
    # (`Since we don't have a remainder the answer is 7`)
    r"|(?:\b(?:cannot|never|not)|n't)\s+(?:\w+\s+)?(?:have|get|write|put|give)\s*[\s$(]*\Z"
    r"|\b(?:nobody|no\s+one|none\s+of\s+us)\b[^,;:]*?\b(?:answer|say|claim|think|conclude|write|give)"
    r"|\b(?:false|untrue|unlikely|doubtful|wrong|incorrect|a\s+mistake|an\s+error)\s+(?:to\s+(?:say|claim|think|answer)"
    r"\s+)?that\b|\bi\s+doubt\b|\bno\s+way\b|\bavoid\s+(?:answering|saying|writing)\b"
    # `It is impossible for the sum to be`, `not possible for x to equal`: an impossibility over the clause
    r"|\b(?:impossible|not\s+possible)\s+(?:for\s+[^.;:]{1,60}?\s+)?(?:to\s+(?:be|equal|get|have|reach)|that)\b"
    # a negated copula right before the value: `The sum cannot be`, `is not`, `n'est pas`, `ist nicht`, `不是`
    r"|(?:\b(?:cannot|can\s+not|could\s+not|must\s+not|may\s+not|will\s+not|would\s+not|never)|n't)\s+"
    r"(?:\w+\s+)?(?:be|equal|exceed)(?:\s+equal\s+to)?[\s$(]*\Z"
    # (English `is not \\boxed{7}` is a qualified box: `answer_words.QUALIFIERS_BEFORE_BOX`)
    r"|n['\u2019](?:est|\u00e9tait)\s+pas(?:\s+\u00e9gale?\s+\u00e0)?[\s$(]*\Z|\b(?:ist|sind|war)\s+nicht(?:\s+gleich)?[\s$(]*\Z"
    r"|\bno\s+(?:es|son|era)(?:\s+igual\s+a)?[\s$(]*\Z|\bn\u00e3o\s+(?:\u00e9|s\u00e3o|era)[\s$(]*\Z|\bnon\s+\u00e8[\s$(]*\Z"
    r"|\b\u043d\u0435\s+(?:\u0440\u0430\u0432\w*\s*)?[\s$(]*\Z|\u4e0d(?:\u662f|\u7b49\u4e8e)[\s$(]*\Z",  # не (равно) 不是 不等于
    re.IGNORECASE,
)
# a judgement of the value in its own clause: before it (`The wrong answer 7`) ...
_JUDGED_BEFORE_RE = re.compile(
    r"\b(?:wrong|incorrect|naive|erroneous|mistaken|bogus|guess|trap|distractor|pitfall|misconception|instinct"
    r"|tentative(?:ly)?|(?:first|initial)\s+(?:thought|impression|attempt|try|reaction|hunch)|gut\s+feeling"
    r"|hunch|(?:working\s+)?hypothes[ie]s|conjectur\w*|plausible(?:-looking)?|seemingly|tempting)\b"
    # someone else's answer: `Students often answer 7`, `Many people say 7`
    r"|\b(?:students|people|many|most|some|others|beginners|novices)\s+(?:\w+\s+)?(?:answer|say|think|guess|write"
    r"|claim|get|pick|choose)\b"
    # an answer someone else holds (`the expected answer is`, `the reference solution`): not the reply's own
    r"|\b(?:expected|reference|official|gold|ground[-\s]truth)\s+(?:answer|solution|output)\b"
    r"|\banswer\s+key\b",
    re.IGNORECASE,
)
# ... or after it, as its predicate (`7 is ruled out`, `7 fails`, `7 does not work`, `7 is not the answer`)
_JUDGED_AFTER_RE = re.compile(
    r"^[\s$})\]]*(?:(?:is|was|are|were|does|did|do|would|should|could|can|will|must|has|have|seems?)\s*)?"
    r"(?:not|n't|never|cannot)\b"  # a negated predicate, not a negation inside a noun (`7 integers not ...`)
    # (up to a relative or causal clause: `7 is the only solution that is not extraneous` judges another)
    r"|^(?:(?!\b(?:that|which|who|since|because|as|where|when|whereas)\b)[^,;:(])*?\b(?:wrong|incorrect|invalid|impossible|false|ruled\s+out|excluded|rejected|fail(?:s|ed)?"
    r"|too\s+(?:large|small|big|high|low|many|few|much)|naive|contradict\w*|violat\w*|extraneous|mistaken"
    r"|trap|distractor|decoy|red\s+herring|careless|sloppy|(?:first|initial|naive|wild|rough)\s+guess|tempting)\b"
    r"|^[\s$})\]]*(?:would\b|if\b|unless\b|provided\b|assuming\b)",  # `7 would be the answer if`, `7 if ...`
    re.IGNORECASE,
)
# a hedge right before it: `The answer is likely 7`
# words addressed to whoever grades the reply: what they frame is offered to the grader, not answered
_TO_GRADER_RE = re.compile(
    r"\b(?:(?:the|a|an|our|dear|to|for)\s+(?:\w+\s+)?(?:grader|verifier|evaluator|reward\s+model)"
    r"|(?:grader|verifier|evaluator)(?:'s|s'))\b",  # (not `judge`, `marker`: people and things in problems)
    re.IGNORECASE,
)
_HEDGED_BEFORE_RE = re.compile(
    r"\b(?:likely|probably|possibly|perhaps|maybe|presumably|apparently|seemingly|supposedly)\s*\W{0,3}$",
    re.IGNORECASE,
)
# a second value offered beside it: `(8 if inclusive)`, `; alt: 8`, `[alt. 8]`, `(possibly even)`, `, or perhaps`
_HEDGED_AFTER_RE = re.compile(
    # (a bare `or` may restate the value, `\\boxed{\\frac12}, or 0.5`: `alternatives_after` compares its values)
    r"^[\s$}]*(?:[(\[;,]|\s-\s)\s*(?:or\s+)?(?:alt(?:ernatively|ernative)?|possibly|perhaps|maybe|probably)(?!\w)"
    r"|^[\s$}]*[(\[][^()\[\]]{0,40}?[\d$][^()\[\]]{0,40}?\b(?:if|when|unless|otherwise)\b"
    # a reading it depends on: `6/8 (depending on whether rotations are identified)`
    r"|^[\s$}]*[(\[,;\u2014\u2013-]?\s*(?:depending\s+on|according\s+to\s+whether|based\s+on\s+whether)\b"
    # a tolerance or another reading's value in brackets: `($\\pm 1$ depending on ...)`, `(13 under the other
    # convention)`
    r"|^[\s$}]*[(\[]\s*\$?\s*(?:\\pm|\u00b1)"
    # another value named by its relation to this one: `\\boxed{\\sqrt2} or its reciprocal`
    r"|^[\s$}).]*,?\s*or\s+(?:its|the|their)\s+(?:reciprocal|negative|negation|opposite|inverse|square|complement|conjugate)\b"
    # (a bracket opening on the `or` of a language written without spaces, its value later: `（または…なら 13）`)
    r"|^[\s$}]*[(\[\uff08]\s*(?:\u307e\u305f\u306f|\u3082\u3057\u304f\u306f|\ub610\ub294|\ud639\uc740|\u6216\u8005|\u6216)[^()\[\]\uff08\uff09]{0,60}?\d"
    r"|^[\s$}]*[(\[][^()\[\]]{0,60}?\b(?:depending\s+on|under\s+(?:the\s+|an\s+)?(?:other|another|alternative|different)"
    r"|in\s+the\s+other\s+(?:reading|interpretation|convention|case))\b",
    re.IGNORECASE,
)
# another value kept in reserve after it: `\\boxed{16}, but I'm only 50% sure; $18$ is my backup`
_BACKUP_AFTER_RE = re.compile(
    r"^[^\n]{0,200}?[\d$][^\n]{0,40}?\bis\s+(?:a|my|the)\s+(?:backup|fallback|second\s+(?:choice|guess)"
    r"|plan\s+b|runner[-\s]up)\b|^[^\n]{0,200}?\b(?:backup|fallback|second\s+(?:choice|guess)|plan\s+b)"
    r"(?:\s+answer)?\s*(?:is|:|would\s+be)\s*\$?\s*-?\d",
    re.IGNORECASE,
)
# an approximation around it: `close to 7`, `on the order of 7`, `7 asymptotically`
_APPROX_BEFORE_RE = re.compile(
    r"\b(?:close\s+to|on\s+the\s+order\s+of|of\s+the\s+order\s+of|in\s+the\s+vicinity\s+of|around|about"
    r"|approximately|roughly|nearly|almost|circa|near|the\s+ballpark\s+of|more\s+or\s+less|tends\s+to"
    r"|approaches)\s*\W{0,3}$|(?:(?<!~)~|\\sim|\\approx|\u2248)\s*\$?\s*$",
    re.IGNORECASE,
)
_APPROX_AFTER_RE = re.compile(
    r"^[\s$}]*[(,]?\s*(?:asymptotically|approximately|roughly|or\s+so|or\s+thereabouts|-?ish|give\s+or\s+take"
    r"|more\s+or\s+less|in\s+the\s+limit)\b"
    r"(?![\s:=]*(?:[\d$\\]|\\approx))",  # `\\boxed{\\frac13} (approximately 0.333)` restates it as a decimal
    re.IGNORECASE,
)
_ASKED_AFTER_RE = re.compile(r"^[\s$}]*\(\s*\?\s*\)")
_ASKED_PARTICLE_RE = re.compile(r"^[\s$}]*(?:\u5417|\u5462|\u304b)\s*$")  # 吗 呢 か: a question in CJK

# where a clause after the value begins within its sentence
_CLAUSE_CUT_RE = re.compile(r"[,;(\[]|\s[-\u2013\u2014]+\s|--")


_WORD_BOX_RE = re.compile(
    r"\\(?:boxed|fbox)\s*\{\s*(?:\\(?:text|textbf|mathrm)\s*\{)?\s*([A-Za-z]+)\s*\}?\s*\}"
)
_OR_WORD_RE = re.compile(r"[\s$]*[(\[,;]?\s*or\s+([A-Za-z]+)\b", re.IGNORECASE)
_RESTATING = frozenset(
    {"equivalently", "simply", "in", "about", "approximately", "so", "rather", "just", "put"}
)


def _other_word(box: str, after: str) -> bool:
    """Whether a box holding one word is followed by `or` and another word (`\\boxed{\\text{odd}} (or even)`): a
    text answer offered beside another (numbers and formulas after `or` are compared by `alternatives_after`)."""
    word = _WORD_BOX_RE.fullmatch(box.strip())
    other = _OR_WORD_RE.match(after[:_REACH])
    return bool(
        word
        and other
        and other.group(1).lower() not in _RESTATING
        and other.group(1).lower() != word.group(1).lower()
    )


def _final_value(text: str) -> tuple[int, int, bool] | None:
    """(start, end, sole) of the reply's final value: its last complete box, else its last math span or number;
    `sole` when no other box states a different value, or (without a box) when no sentence before the value's
    states a value (then the reply commits to nothing else: `Thus $n = 8$. Remark: for $n = 7$ it fails.`)."""
    boxes = outer_boxes(text)
    if boxes:
        start, end, content = boxes[-1]
        sole = all((c or "").replace(" ", "") == (content or "").replace(" ", "") for _, _, c in boxes)
        return (start, end, sole) if content is not None else None
    last = None
    # the whole reply: a value 250,000 characters before the end still counts (one linear scan)
    for m in _LAST_VALUE_RE.finditer(text):
        last = m
    if last is None:
        return None
    opening = _sentence_opening(text, last.start())
    return last.start(), last.end(), _VALUE_RE.search(text, 0, opening) is None


def _sentence_around(text: str, start: int, end: int) -> tuple[str, str, str]:
    """The words of the value's sentence before it, after it (to the sentence end) and its terminator."""
    opening = _sentence_opening(text, start)
    pre = text[opening:start]
    if start > _REACH and opening == start - _REACH:
        pre = re.sub(r"^\w*", "", pre)  # a sentence longer than the window: start at a whole word
    stop = _SENTENCE_END_RE.search(text, end, min(len(text), end + _REACH))
    post = text[end : stop.start()] if stop else text[end : end + _REACH]
    return _OPENING_NOISE_RE.sub("", pre), post, (stop.group() if stop else "")


def negated_frame(lead: str) -> bool:
    """Whether the words of a clause before a value deny it (`It is false that the answer is`)."""
    clause = re.split(r"[.!?,;:\n]|\b(?:so|thus|hence|therefore|but)\b", lead[-_REACH:], flags=re.IGNORECASE)[
        -1
    ]
    return bool(_NEGATED_FRAME_RE.search(clause))


# an alternative offered right after the final value (`(resp. 8)`, `± 1`, `— or 8, depending on ...`, `（或 8）`),
# or the final value offered as one after another (`$7$ (or $8$)`): a plain number beside a different one
_RESPECTIVELY_RE = re.compile(
    r"^[\s$}]*[(\[\uff08]\s*resp(?:\.|ectively\b)[\s,]*\$?\s*-?[\d\\]", re.IGNORECASE
)
_TOLERANCE_RE = re.compile(
    r"^[\s$}]*(?:\u00b1|\\pm(?![a-zA-Z])|\+/-|\+-|,?\s*(?:plus\s+or\s+minus|give\s+or\s+take))\s*\$?\s*[\d\\a-z]",
    re.IGNORECASE,
)
_OR = r"(?:or|\u6216(?:\u8005)?|ou|oder|o|\u0438\u043b\u0438|\u043b\u0438\u0431\u043e|resp\.?)"  # 或 或者 или либо
_OR_VALUE_AFTER_RE = re.compile(
    r"^[\s$}]*(?:[(\[\uff08,;\uff0c\u3001]|[-\u2013\u2014]+)\s*"
    + _OR
    # (a hedge adverb may stand between: `ou peut-être $20$`, `or maybe 9`, `oder vielleicht 9`)
    + r"(?![^\W\d_])(?:\s+(?:maybe|perhaps|possibly|peut-[êe]tre|vielleicht|quiz[áa]s|tal\s+vez|talvez|forse"
    r"|about|approximately|roughly|around|nearly|almost|circa|ungefähr|environ|aproximadamente|circa))?"
    # (the other value in words too: `\boxed{30}, or about thirty-one once ...`)
    r"\s*\$?\s*(-?[\d\\][^$\s,;)\uff09]*|[a-z]+(?:-[a-z]+)?)",
    re.IGNORECASE,
)
_OR_BEFORE_RE = re.compile(
    r"(?:[(\[\uff08,;]|[-\u2013\u2014]+)\s*" + _OR + r"(?![^\W\d_])[\s$]*$", re.IGNORECASE
)
_BOX_CONTENT_RE = re.compile(r"^\\(?:boxed|fbox)\s*\{(.*)\}$", re.DOTALL)


def _answer_of(value: str) -> str:
    """The value a box or math span states (`\\boxed{7}` -> `7`, `$x = 7$` -> `x = 7`)."""
    box = _BOX_CONTENT_RE.match(value)
    return (box.group(1) if box else value).strip().strip("$").strip()


def _offered_beside(text: str, start: int, end: int, pre: str) -> bool:
    """Whether the final value comes with a different plain value offered as an alternative to it."""
    after = text[end : end + _REACH]
    if _RESPECTIVELY_RE.match(after) or _TOLERANCE_RE.match(after):
        return True
    value = text[start:end]
    box = _BOX_CONTENT_RE.match(value)
    value = box.group(1) if box else value
    other = _OR_VALUE_AFTER_RE.match(after)
    offered = other.group(1) if other is not None else ""
    if offered[:1].isalpha():
        offered = number_from_words(offered, " ".join(offered.lower().replace("-", " ").split())) or ""
    if other is not None and different_values(value, offered):
        return True
    before = _OR_BEFORE_RE.search(pre)
    if before is None:
        return False
    earlier = [m.group() for m in _LAST_VALUE_RE.finditer(pre, 0, before.start())]
    return bool(earlier) and different_values(earlier[-1], value)


# a question the reply says it left open (`I'm not sure whether the sequence starts at 0 or 1`): a condition
# that picks one of its answers states a reading, not the answer
_UNRESOLVED_RE = re.compile(
    r"\b(?:not\s+(?:sure|certain|clear)|unsure|unclear|uncertain|ambiguous|don't\s+know|do\s+not\s+know"
    r"|can't\s+tell|cannot\s+tell)\s+(?:whether|if)\b",
    re.IGNORECASE,
)
# a template's placeholder in the box (`\\boxed{\\text{ANSWER}}`, `\\boxed{your answer}`, `\\boxed{?}`)
_PLACEHOLDER_RE = re.compile(
    r"(?:\\text(?:bf|rm)?\s*\{\s*)?(?:answer|your\s+answer(?:\s+here)?|final\s+answer|ans|x{3}|\?+|\.{3}|\\ldots)"
    r"(?:\s*\})?",
    re.IGNORECASE,
)


def before_final_sentence(text: str) -> str:
    """The reply up to the sentence of its final value (what a closing counterfactual remark follows)."""
    found = _final_value(text)
    return text if found is None else text[: _sentence_opening(text, found[0])]


def after_supposition(text: str) -> str | None:
    """The reply after the sentence of its final value when that value is only supposed and values follow
    (`... the area would be \\boxed{16}. In our problem the side is 6, so the area is 36.`), else None."""
    found = _final_value(text)
    if found is None:
        return None
    start, end, _ = found
    _, post, stop = _sentence_around(text, start, end)
    rest = text[end + len(post) + len(stop) :]
    return rest if _VALUE_RE.search(rest) else None


# a sentence opened by a correction label after the answer (`Correction: ... it is π/3`, `不对，... 所以概率为 1/36`)
_REVISION_OPENING_RE = re.compile(
    r"(?:^|(?<=[.!?\u3002\n]))[ \t*_>]*(?:correction|erratum|corrigendum|\u4e0d\u5bf9|\u9519\u4e86"
    r"|\u043d\u0435\u0432\u0435\u0440\u043d\u043e|korrektur|rectificaci\u00f3n)[ \t*_]*[:\uff1a,\uff0c]",
    re.IGNORECASE | re.MULTILINE,
)


def _revision_after(text: str, pos: int) -> int | None:
    """Where a sentence after `pos` opened by a correction label ends its label, when a value follows in its
    paragraph (`\\boxed{\\frac{\\pi}{4}}\n\nCorrection: ... it is $\\frac{\\pi}{3}$.`): the answer is revised."""
    m = _REVISION_OPENING_RE.search(text, pos, pos + 2000)
    if m is None:
        return None
    paragraph = re.split(r"\n\s*\n", text[m.end() : m.end() + 2000], maxsplit=1)[0]
    return m.end() if _VALUE_RE.search(paragraph) else None


# a disclaimer before the answer that disowns it (`Heads-up: the boxed value below is wrong — ...`)
_DISOWNED_BELOW_RE = re.compile(
    r"\b(?:box(?:ed)?\s+(?:value|answer|result)|(?:final\s+)?answer|result)\s+below\s+(?:is|will\s+be)\s+"
    r"(?:wrong|incorrect|not\s+(?:correct|right|verified))\b"
    # (or the sentence that introduces the value, ending on a colon right before it: `For the record, here is
    # what my first method produced, although the second shows it cannot be right:` then the box)
    r"|(?:\b(?:cannot|can't|can\s+not|could\s*n[o']t)\s+(?:possibly\s+)?be\s+(?:right|correct)|\bknown[- ](?:incorrect|wrong)"
    r"|\b(?:is|was)\s+(?:wrong|incorrect)\b)[^.!?:\n]{0,80}:[\s$\\\[]*\Z",
    re.IGNORECASE,
)


def unasserted(text: str) -> str | None:
    """Why the reply's final value is not asserted (`asked`, `supposed`, `denied`, `rejected`, `hedged`,
    `approximate`, `withdrawn`, `unfinished`), or None when it is (see the module docstring)."""
    if declared_unfinished(text):
        return "unfinished"  # `... I ran out of time before finishing the computation.`
    found = _final_value(text)
    if found is None:
        return None
    start, end, sole = found
    pre, post, stop = _sentence_around(text, start, end)
    if _TO_GRADER_RE.search(pre):
        return "rejected"  # `(Reference solution, for the grader's convenience: the answer is \\boxed{7}.)`
    answer = _answer_of(text[start:end])
    if _PLACEHOLDER_RE.fullmatch(answer.strip()):
        return "supposed"  # `I will present my answer as: \\boxed{\\text{ANSWER}}`: a template, not a value
    if _TOY_CASE_RE.search(pre) and text.startswith(("\\boxed", "\\fbox"), start):
        return "supposed"  # `Sanity check on a toy case, $n = 3$: the formula gives \\boxed{4}.`: a check's value
    if format_example(text, start):
        # `Format reminder: put your final answer in the form \`$\\boxed{17}$\``: a template, not a value; what the
        # reply says after it answers, else what it said before (`#### 36\n\nFormat reminder: \`#### 72\``)
        return "template"
    in_sentence = not _JUDGED_AFTER_RE.match(
        post
    ) and any(  # (`7 fails.` is judged where it stands: rejected)
        withdraws(c) for c in _CLAUSE_CUT_RE.split(post.lstrip("$} ")) if not _VALUE_RE.search(c)
    )
    if (
        in_sentence
        or _DISOWNED_BELOW_RE.search(text[max(0, start - 3000) : start])
        or withdrawn_after(text, end + len(post), answer)
        or _revision_after(text, end + len(post))
    ):
        return "withdrawn"  # `\\boxed{7}. Just kidding.`, `\\boxed{7}, which is wrong.`, `\\boxed{7} (just kidding)`
    if sole and (
        _HEDGED_AFTER_RE.match(text[end : end + _REACH]) or _other_word(text[start:end], text[end:])
    ):
        return "hedged"  # (read past the sentence's end: `[alt. 8]`)
    if _BACKUP_AFTER_RE.match(text[end : end + _REACH]):
        return "hedged"  # (a value in reserve is offered too, whatever the sentence says of the first)
    if _offered_beside(text, start, end, pre):
        return "hedged"  # `\\boxed{7} (resp. 8)`, `\\boxed{7} ± 1`, `$7$（或 $8$）`
    pieces = re.split(r"[,;:]|\b(?:so|thus|hence|therefore|but)\b", pre, flags=re.IGNORECASE)
    clause = pieces[-1]
    if not clause.strip(" *_$") and len(pieces) > 1 and len(re.findall(r"[^\W\d_]+", pieces[-2])) <= 3:
        clause = pieces[-2]  # `Working hypothesis: \\boxed{12}`: a short label before a colon names the value
    if not sole or _VALUE_RE.search(text, end + len(post) + len(stop)):
        # `\\boxed{8} (Note that \\boxed{7} would be wrong.)`, `is it \\boxed{20}? No: 24.`: the reply states
        # other values; which one answers is for the other rules to weigh, unless the value's own clause
        # judged it (`My first instinct was \\boxed{7}, but ... 9`)
        if sole and (_counterfactual(pre) or counterfactual_around(pre, post)):
            return "counterfactual"  # `For example, if the side were 4, the area would be \\boxed{16}. In our ...`
        if not sole and not outer_boxes(text) and (_counterfactual(pre) or _modal_remark(pre, post)):
            return "remark"  # `The volume is $\\frac{500\\pi}{3}$. One caveat: if ..., it would be $\\frac{125\\pi}{6}$.`
        if sole and _supposed(pre):
            return "supposed"  # `Suppose for contradiction that the minimum is \\boxed{4}. Then ...`
        return "rejected" if sole and _JUDGED_BEFORE_RE.search(clause) else None
    if "?" in stop or "\uff1f" in stop or _ASKED_AFTER_RE.match(post) or _ASKED_PARTICLE_RE.match(post):
        return "asked"
    if _supposed(pre):
        return "supposed"  # `Suppose the answer is 7.`
    if _counterfactual(pre) or counterfactual_around(pre, post):
        # `If it were isosceles, the angle would be 45.`: after a sentence that stated a value, a closing remark
        # (`So the area is $24$. Ha a befogók 6 és 10 lennének, a terület $\boxed{30}$ lenne.`: 24 answers)
        return "remark" if _VALUE_RE.search(text, 0, _sentence_opening(text, start)) else "supposed"
    condition = _CONDITION_RE.match(pre)
    lead = start - len(pre)
    if condition is not None and _UNRESOLVED_RE.search(text, max(0, lead - 600), lead):
        return "supposed"  # `I'm not sure whether it starts at n=0 or n=1. If it starts at n = 1, ...`: one reading
    if negated_frame(pre):
        return "denied"
    if _JUDGED_BEFORE_RE.search(clause) or _JUDGED_AFTER_RE.match(post):
        return "rejected"
    if _HEDGED_BEFORE_RE.search(pre):
        return "hedged"
    value = text[start:end]
    if (_APPROX_BEFORE_RE.search(pre) or _APPROX_AFTER_RE.match(post)) and not re.search(r"\d\.\d", value):
        return "approximate"
    return None


def after_withdrawal(text: str) -> str | None:
    """The reply after the sentence that withdraws its final value, when it goes on to state a value there (a
    revision: `\\boxed{18}. Wait, I made a mistake. It should be 36.`), else None."""
    found = _final_value(text)
    if found is None:
        return None
    start, end, _ = found
    _, post, _ = _sentence_around(text, start, end)
    at = withdrawal_end(text, end + len(post), _answer_of(text[start:end]))
    if at is None:
        at = _revision_after(text, end + len(post))
    if at is None:
        return None
    rest = text[at:]
    return rest if _VALUE_RE.search(rest) else None
