"""What the text after a committed answer (a box, an answer phrase) does to it.

A reply commits to an answer; what follows may *revise* it ("Wait, ... it's 7"), *check* it ("let me verify
with n = 10: 15"), *reject* another value ("so 7 is wrong", "7 is not it", "a common mistake is to say 7"),
*hedge* ("Hmm, or 7", "could the answer be 7?", "I'm not sure; it might be 7", "unless ..., in which case 7"),
or *explain* it (a "Remark"/"Explanation"/"Note" section). Checks, rejections and explanations leave the
answer as it was; a revision replaces it; a hedge makes the answer all the values it offers (so it is wrong
whatever the gold), unless a later revision settles it ("Wait, is it 7? No, 8.").

`screen` removes from the text after a commitment what cannot revise it (checks, sections, rejected values)
and the hedging sentences, and reports the values those hedges offered; the extractor then looks for a
revision in what is left. The vocabulary is `vocab.py`'s and `answer_words.py`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rlvr.verifiers.math.answer_words import (
    ATTRIBUTIONS,
    DENIAL_CUES,
    HEDGE_MARKERS,
    PITFALL_WORDS,
    REJECTION_PREDICATES,
    UNCERTAINTY_PHRASES,
)
from rlvr.verifiers.math.checks import (
    _PARAGRAPH_RE,
    drop_check_lines,
    drop_checks,
    drop_sections,
    stated_values,
)
from rlvr.verifiers.math.vocab import (
    HEDGES,
    NUMBER_WORDS,
    REVISION_WORDS,
)

_LABEL_RE = re.compile(r"^\s*[A-Za-z](?:_\{?\w+\}?)?\s*=\s*")
# a clause: up to a sentence end, a semicolon or a line break (a period inside `2.5` or `e.g.` ends nothing)
_CLAUSE_RE = re.compile(r"(?:[^.!?;\n]|\.(?=\S))*(?:[.!?;]+|\n|$)")
_UNCERTAIN_RE = re.compile(r"\b(?:" + "|".join(UNCERTAINTY_PHRASES) + r")\b", re.IGNORECASE)
_HEDGE_RE = re.compile(r"\b(?:" + "|".join(HEDGE_MARKERS) + r")\b", re.IGNORECASE)
_LEADING_OR_RE = re.compile(
    r"^[\s(*]*(?:(?:" + "|".join(REVISION_WORDS) + r"|but|and)\W+)*or\b", re.IGNORECASE
)
# a value said to be wrong right after it ("7 is wrong", "7, was wrong", "7 fails", "7 is not it")
_REJECTED_AFTER_RE = re.compile(
    r"^[\s$}),]*(?:\w+\s+){0,3}?(?:is|was|are|were|would\s+be)?\s*(?:"
    + "|".join(REJECTION_PREDICATES)
    + r")\b",
    re.IGNORECASE,
)
# a value denied right before it ("definitely not 7", "is never 7", "rather than 7"), not "does not divide 8"
_NEGATED_BEFORE_RE = re.compile(
    r"\b(?:not|never|n't|no\s+longer|instead\s+of|rather\s+than)\s+(?:(?:be|equal(?:\s+to)?|exactly|just|simply)\s+)?"
    r"[$(\\*]*\s*$"  # (`not \\$48`, `Why not **48**?`: money and bold before the value)
)
# a value denied by what names it (`not the arithmetic mean $50$`, `rather than the naive $24$`)
_DENIED_NAMED_RE = re.compile(
    r"\b(?:not|never|rather\s+than|instead\s+of)\s+(?:the\s+|an?\s+)?(?:[^\W\d_]{2,}\s+){0,3}[$(\\*]*\s*\Z",
    re.IGNORECASE,
)


def denied_before(lead: str) -> bool:
    """Whether the words right before a value deny it, naming what it is (`not the arithmetic mean $50$`)."""
    return _DENIED_NAMED_RE.search(lead[-80:]) is not None


_PITFALL_RE = re.compile(r"\b(?:" + "|".join(PITFALL_WORDS) + r")\b", re.IGNORECASE)
_OPENER_RE = re.compile(
    r"^[\s(*]*(?:(?:" + "|".join(REVISION_WORDS) + r"|therefore|thus|hence|so)\b|no,)", re.IGNORECASE
)
# two values both to be accepted (`both 15 and 12 should be accepted as correct`, `either 12 or 15 is fine`)
_BOTH_ACCEPTED_RE = re.compile(
    r"\b(?:both|either)\b[^.;\n]{1,40}?\b(?:and|or)\b[^.;\n]{1,40}?\b(?:should|must|can|could|may|will|are|is)\s+"
    r"(?:be\s+)?(?:\w+\s+)?(?:accepted|acceptable|fine|correct|valid|right|ok|okay|graded\s+correct)\b"
    # (`this is equivalent to 15; either should be marked correct`)
    r"|\b(?:equivalent|equal)\s+to\s+[^.;\n]{1,40}?[;,]\s*(?:either|both)\b[^.;\n]{0,30}?"
    r"\b(?:accepted|acceptable|fine|correct|valid|right)\b",
    re.IGNORECASE,
)
# a value offered under a condition in brackets (`Answer: 7 (if we exclude the endpoint)`), or in a sentence that
# opens on one (`If order does not matter, it is 6.`): another reading's value (one that arrives at the answer
# again, `If x = 12, then 2x + 6 = 30`, checks it)
_CONDITIONAL_RE = re.compile(
    r"\(\s*(?:if|when|assuming|unless|provided)\b|^[\s*]*(?:if|when|assuming|supposing|provided)\b",
    re.IGNORECASE,
)
# an answer attributed to someone else ("The expected answer is 7", "Reference answer: 7"): a second answer
_ATTRIBUTED_RE = re.compile(
    r"\b(?:" + "|".join(ATTRIBUTIONS) + r")\s+(?:final\s+)?(?:answers?|outputs?|results?)\b", re.IGNORECASE
)
# a clause that opens one of several parallel answers: `If n is odd:`, `Case 2 gives`, `Answer B:`
_PARALLEL_RE = re.compile(
    r"^[\s(*#]*(?:if|when|case|also|otherwise|alternative(?:ly)?|answer\s+[A-Z0-9]\b|(?:for|in)\s+part)\b",
    re.IGNORECASE,
)


@dataclass
class Screened:
    """The text after a commitment without what cannot revise it, and what its hedges offered."""

    text: str
    hedged: list[str] = field(default_factory=list)
    settled: bool = False  # a revision opener with a value follows the last hedge ("... 7? No, 8.")
    withdrawn: bool = False  # the committed value itself is said to be wrong ("8 is wrong")


def rejected_after(rest: str) -> bool:
    """Whether the text right after a value says it is wrong ("does not work", "is not the answer", "✗")."""
    return bool(_REJECTED_AFTER_RE.match(rest) or re.match(r"\s*[\u2717\u2718\u274c]", rest))


#: How far from a value its denial ("not 7") or rejection ("7 is wrong") is looked for: both stand right next to
#: it, and a bounded window keeps a clause of many values linear in its length (a search of the whole prefix per
#: value was quadratic: 30,000 characters of `not 7 ` took 9 s).
_NEAR = 300


def _rejected(clause: str, start: int, end: int, pitfall_end: int | None) -> bool:
    """Whether the value at clause[start:end] is said to be wrong: `7 is wrong`, `not 7`, `a mistake ... 7`
    (`pitfall_end`: where the clause's first pitfall word ends, if it has one)."""
    if rejected_after(clause[end : end + _NEAR]) or _NEGATED_BEFORE_RE.search(
        clause[max(0, start - _NEAR) : start]
    ):
        return True
    return pitfall_end is not None and pitfall_end <= start and not _OPENER_RE.match(clause[:_NEAR])


# a box, or a number an answer phrase states whole (`The answer is $23 + 105$` states no 23: the number is the
# first operand of the value, not the value)
_EXPLICIT_RE = re.compile(
    r"\\(?:boxed|fbox)\s*\{(?P<box>[^{}]*)\}|\banswer\s*(?:is|:|=)\s*\$?(?P<phrase>-?\d+(?:\.\d+)?)"
    r"(?!\d|\.\d|\s*(?:[-+*/^=\u00d7\u00b7\u22c5]|\\(?:cdot|times|div)(?![a-zA-Z])))",
    re.IGNORECASE,
)


def _explicit_answers(text: str) -> list[str]:
    """The values `text` states as answers (a box, "the answer is 7"), not counting negated ones."""
    out = []
    for m in _EXPLICIT_RE.finditer(text):
        value = _LABEL_RE.sub("", (m.group("box") or m.group("phrase") or "")).strip()
        if (
            value
            and not _NEGATED_BEFORE_RE.search(text[max(0, m.start() - _NEAR) : m.start()])
            and not _REJECTED_AFTER_RE.match(text[m.end() : m.end() + _NEAR])
        ):
            out.append(value)
    return out


def same_value(a: str, b: str) -> bool:
    """Whether two stated values are the same number (`8` and `8.0`) or the same text."""
    try:
        return float(a.replace(",", "")) == float(b.replace(",", ""))
    except ValueError:
        return a.replace(" ", "") == b.replace(" ", "")


def is_hedge(clause: str) -> bool:
    """Whether a clause offers what it states as a possibility (a question, doubt, `maybe`, `alternatively`,
    `would be`, a leading `or`, a bracketed condition)."""
    return bool(
        clause.rstrip().endswith("?")
        or _UNCERTAIN_RE.search(clause)
        or _HEDGE_RE.search(clause)
        or _LEADING_OR_RE.match(clause)
        or _CONDITIONAL_RE.search(clause)
    )


def _asks(clause: str) -> bool:
    """Whether a clause is a question, states doubt or offers an alternative with `or`."""
    return bool(clause.rstrip().endswith("?") or _UNCERTAIN_RE.search(clause) or _LEADING_OR_RE.match(clause))


def offers_another(lead: str) -> bool:
    """Whether the clause leading to a later box offers it beside an earlier one rather than instead of it:
    a hedge, a parallel case (`If n is odd:`, `Case 2 gives`, `Answer B:`) or someone else's answer
    (`Reference answer:`), with no revision word (`Wait, the correct answer is` replaces)."""
    if _OPENER_RE.match(lead):
        return False
    return is_hedge(lead) or bool(_PARALLEL_RE.match(lead) or _ATTRIBUTED_RE.search(lead))


# a paragraph that derives the answer again another way (`**Alternative approach:** Divide by $3$ ...`,
# `Alternatively, ...`, `Method 2:`)
_WAYS = r"(?:approach|method|solution|way|derivation|route)"
_REDERIVATION_RE = re.compile(
    r"(?:^|\n)[ \t>*#_]*(?:alternatively\b|(?:an?\s+|the\s+)?(?:alternative|another|other|second)\s+"
    + _WAYS
    + r"\b|"
    + _WAYS
    + r"\s+(?:2|II|two|B)\b)",
    re.IGNORECASE,
)


def rederivations(after: str, committed: str) -> tuple[str, list[str]]:
    """`after` without the paragraphs that derive an answer again another way (their steps are no answers:
    `Alternative approach: ... $78 / 3 = 26$; the largest is $28$.`), and the values those arriving elsewhere than
    `committed` (their last value) offer: a second derivation with another result is a second answer."""
    out, offered, pos = [], [], 0
    for m in _REDERIVATION_RE.finditer(after):
        if m.start() < pos:
            continue
        paragraph = _PARAGRAPH_RE.search(after, m.end())
        end = paragraph.start() if paragraph else len(after)
        arrived = stated_values(after[m.end() : end])
        if not arrived:
            continue
        if not same_value(arrived[-1][2], committed) and arrived[-1][2] not in offered:
            offered.append(arrived[-1][2])
        out.append(after[pos : m.start()] + " " * (end - m.start()))
        pos = end
    return "".join(out) + after[pos:], offered


# a remark on another quantity (`(Note the coefficient of $x^2$ would be $-40$.)`): a counterfactual about
# something else offers no second answer, unless it names the answer or offers a choice (`or`, `maybe`, `?`)
_REMARK_OPENING_RE = re.compile(
    r"^[\s(*_]*(?:note|remark|for\s+comparison|by\s+the\s+way|incidentally|as\s+an\s+aside)\b", re.IGNORECASE
)
_CHOICE_RE = re.compile(r"\b(?:answer|or|maybe|perhaps|possibly|alternatively)\b|\?", re.IGNORECASE)


def _remark_on_another(clause: str) -> bool:
    """Whether a clause after the answer is a remark's counterfactual about another quantity (see above), or a
    condition contrary to the problem's (`(If order did not matter there would be only 3.)`, `If the die were
    fair, it would be 7`): what would hold were the problem otherwise, not another reading of it."""
    if not re.search(r"\bwould\b", clause, re.IGNORECASE) or _CHOICE_RE.search(clause):
        return False
    return bool(_REMARK_OPENING_RE.match(clause) or _CONTRARY_RE.match(clause))


# a condition contrary to fact: `if` with a past subjunctive or a denied past (`if it were`, `had we`, `if order
# did not matter`)
_CONTRARY_RE = re.compile(
    r"^[\s(*_]*(?:if\b[^,;]{0,80}?\b(?:were|had|did\s+not|didn't|was\s+not|wasn't|weren't)\b|had\s+\w+\b|were\s+\w+\b)",
    re.IGNORECASE,
)


_CONTRAST_RE = re.compile(r"\b(?:though|although|instead|ambiguous|ambiguity)\b", re.IGNORECASE)
_TABLE_ROW_RE = re.compile(r"^[ \t]*\|[^\n]*\|[ \t]*$", re.MULTILINE)


def screen(after: str, committed: str) -> Screened:
    """Checks, explaining sections, re-derivations and rejected values dropped from `after`; hedging clauses
    (and re-derivations arriving elsewhere) taken out with the values they offer (other than `committed`)."""
    rederived, offered = rederivations(drop_check_lines(after), committed)
    # a table after the answer lists what was computed or tried (`| 3 | 13 | 17 | yes |`); its `?` heads a column
    text = _TABLE_ROW_RE.sub(lambda m: " " * len(m.group()), drop_sections(drop_checks(rederived)))
    out: list[str] = []
    # an answer stated inside a dropped check or section ("Note: the answer is 7") is a second answer
    kept = _explicit_answers(text)
    hedged = [
        v
        for v in _explicit_answers(after)
        if not same_value(v, committed) and not any(same_value(v, k) for k in kept)
    ]
    hedged += [v for v in offered if v not in hedged]
    for both in _BOTH_ACCEPTED_RE.finditer(
        after
    ):  # `Note: both 15 and 12 should be accepted.`, in a note too
        hedged += [
            v for _, _, v in stated_values(both.group()) if not same_value(v, committed) and v not in hedged
        ]
    last_hedge = -1
    withdrawn = False
    length = 0  # of the screened text so far
    for m in _CLAUSE_RE.finditer(text):
        clause = m.group()
        if clause.isspace():  # a blank line states nothing (and 200,000 of them must stay fast)
            out.append(clause)
            length += len(clause)
            continue
        found = stated_values(clause)
        kept = []
        pitfall = _PITFALL_RE.search(clause)
        for s, e, v in found:
            if _rejected(clause, s, e, pitfall.end() if pitfall else None):
                withdrawn = withdrawn or same_value(v, committed)
                clause = clause[:s] + " " * (e - s) + clause[e:]  # a rejected value revises nothing
            else:
                kept.append(v)
        # a modal word in a clause that arrives at the answer again ("we could also compute 2^3 = 8") explains it;
        # a question, doubt or `or` still offers its other values ("is it 7 or 8?")
        # (`I'm confident in 240, though if ... it would be 48 instead`: a contrast offers the other value anyway)
        rederives = (
            any(same_value(v, committed) for v in kept)
            and not _asks(clause)
            and not _CONTRAST_RE.search(clause)
        )
        hedge = kept and (
            (is_hedge(clause) and not rederives and not _remark_on_another(clause))
            or (_ATTRIBUTED_RE.search(clause) and not _OPENER_RE.match(clause))
            or _BOTH_ACCEPTED_RE.search(
                clause
            )  # `Note: both 15 and 12 should be accepted.`: a hedge, said outright
        )
        if hedge:
            hedged += [v for v in kept if not same_value(v, committed) and v not in hedged]
            last_hedge = length + len(clause)  # (a running length: a join per hedge was quadratic)
            clause = " " * len(clause)
        out.append(clause)
        length += len(clause)
    screened = "".join(out)
    settled = last_hedge >= 0 and any(
        _OPENER_RE.match(c.group()) and stated_values(c.group())
        for c in _CLAUSE_RE.finditer(screened[last_hedge:])
    )
    return Screened(screened, hedged, settled, withdrawn)


_DENIAL_RE = re.compile("|".join(DENIAL_CUES), re.IGNORECASE)
_WORD_RE = re.compile(
    r"\b(?:" + "|".join(sorted((w for w in NUMBER_WORDS if " " not in w), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
# a sentence: to `.`/`!`/`?` (not inside `2.5`), a full stop of CJK text or a blank line; one line break does
# not end it (`Result: 8\nRuntime: 7 ms` is one statement of two values)
_GUESS_SENTENCE_RE = re.compile(r"(?<!\d)[.!?](?:\s|$)|[\u3002\uff01\uff1f]|\n\s*\n")
# where a sentence turns to a new statement: what is said before it is about something else
_TURN_RE = re.compile(
    r";|\b(?:so|hence|thus|therefore|but|" + "|".join(REVISION_WORDS) + r")\b|\bno\s*,", re.IGNORECASE
)  # a correction is a turn too: "it is 13, no, 11"
# between two numbers: an operator or a restatement links them (`100 - 30 = 70`, `10, which is 10.0`)
# right after the earlier one (a short unit or aside may stand between: `353 g - 79 g`, `5页（数学作业） - 2页`)
_LINK_RE = re.compile(
    r"^\s*(?:[^\W\d]{1,3}\s*)?(?:[(\uff08][^()\uff08\uff09]{0,30}[)\uff09]\s*)?(?:[-+*/=\u00d7\u00f7^<>]|\\(?:cdot|times|div)\b|which\s+is\b|i\.e\.|that\s+is\b)"
    r"(?!\s*[A-Za-z]{2,}\s*=)"  # `Total = 8 / rows = 7`: a slash between two labelled values is no division
)
_LABEL_WORD_RE = re.compile(r"(?:^|[,;|\n])[ \t]*[A-Za-z]{2,}[ \t]+\Z")  # `total 8, rows 7`: a word labels 8
_MARKUP_RE = re.compile(r"</?\w+>|\[/?\w+\]|\*\*")  # `<output>8</output> 7`, `**8**`: markup is no operator
# a value stated by what stands right before it: a copula, a label's colon or `=` (`Total = 8`), a tag or bold
# that opens (not a bare `=`: a computation states its steps' results on the way to the answer)
_STATED_BEFORE_RE = re.compile(
    r"(?:\b(?:is|are|was|were|equals|be|es|est|ist|é|è)|[:>\]\uff1a\u4e3a\u662f]|\*\*|\$|\b[A-Za-z]{2,}\s*=)\s*\**\$?\s*$",
    re.IGNORECASE,
)


_MAYBE_RE = re.compile(r"\b(?:" + "|".join(HEDGES) + r")\b", re.IGNORECASE)  # `maybe 26`, `perhaps 26`


def guess_contested(text: str, start: int, end: int, numbers: list[tuple[int, int]]) -> bool:
    """Whether a value guessed without a box or an answer phrase (text[start:end]) is contested in its
    sentence: a denial reaches it ("we reject 7", "7 (wrong)", "8, not 7") or the sentence states another
    value ("the total is 8, and each row has 7", "Result: 8\nRuntime: 7 ms"). A guess needs an uncontested
    value; otherwise the grader has no answer rather than a guess (a false negative is cheaper than a false
    positive). `numbers` are the (start, end) of all the numbers in `text`."""
    bounds = [m.end() for m in _GUESS_SENTENCE_RE.finditer(text, 0, start)]
    lo = bounds[-1] if bounds else 0
    stop = _GUESS_SENTENCE_RE.search(text, end)
    hi = stop.start() if stop else len(text)
    if bounds and len(text[lo:hi].strip()) < 40 and "\n" not in text[lo:hi].strip():
        # `**8**\n\n_7 steps_`: a short line annotates the statement before it (the last non-empty one)
        lo = next((b for b in reversed(bounds[:-1]) if text[b:lo].strip()), 0)
    turns = [m.end() for m in _TURN_RE.finditer(text, lo, start)]
    seg_lo = turns[-1] if turns else lo
    inside = [(a, b) for a, b in numbers if seg_lo <= a and b <= hi]
    before = [b for a, b in inside if b <= start]
    after = [a for a, b in inside if a >= end]
    denial_before = list(_DENIAL_RE.finditer(text, before[-1] if before else seg_lo, start))
    denial_after = _DENIAL_RE.search(text, end, after[0] if after else hi)
    if denial_before or denial_after:
        return True  # the denial names this value, not another one
    if _asks(text[lo : hi + 1]) or _MAYBE_RE.search(text, lo, hi):
        return True  # `Hmm, or maybe 26 km.`, `Is it 26?`: a value offered as a possibility is no answer
    named = re.search(r"\banswer", text[lo:hi], re.IGNORECASE)
    if named and not re.search(r"\b(?:is|be)\s+the\s+(?:final\s+)?answer\b", text[lo:hi], re.IGNORECASE):
        return True  # "The answer exceeds 7", "After 7 iterations the answer converges": named, not stated
    value = text[start:end].strip().rstrip(",")
    # before a revision or conclusion, superseded ("My first guess is 10, but ..."); a `;` only ends a denial
    scan_lo = max([lo] + [m.end() for m in _TURN_RE.finditer(text, lo, start) if m.group() != ";"])
    earlier = [(a, b, text[a:b]) for a, b in numbers if scan_lo <= a and b <= start]
    words = [
        (m.start(), m.end(), NUMBER_WORDS[m.group().lower()]) for m in _WORD_RE.finditer(text, scan_lo, start)
    ]
    earlier = sorted(earlier + words)  # `the total is **eight**; each row has 7`
    for k, (a, b, stated) in enumerate(earlier):
        nxt = earlier[k + 1][0] if k + 1 < len(earlier) else start
        window = text[
            max(lo, a - 40) : a
        ]  # what labels a value stands right before it (bounded: linear time)
        label = _LABEL_WORD_RE.search(window)
        labelled = _STATED_BEFORE_RE.search(window) or (
            label and (a - 40 <= lo or label.start() > 0 or window[:1] in ",;|\n")
        )
        if _LINK_RE.match(_MARKUP_RE.sub(" ", text[b:nxt])) or not labelled:
            continue  # an operand of a computation, or a number the sentence does not state
        if text[a:b].isdigit() and re.match(r"[.)]\s", text[b : b + 2]):
            continue  # `1. First, ...`: a step's number
        if _DENIAL_RE.search(text, max(lo, a - 12), a):
            continue  # "not 10": denied, not stated
        if not same_value(stated.strip().rstrip(","), value):
            return True
    return False
