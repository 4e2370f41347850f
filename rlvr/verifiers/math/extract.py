"""Finding the final answer in free-form model output.

Tried in order, first hit wins: the last `\\boxed{...}` / `\\fbox{...}` (nested braces; an unterminated or
empty last box is *no answer*, not a reason to fall back to an earlier box), GSM8K's `#### 42`, a phrase
such as "the final answer is ..." / "Answer: ..." (last occurrence), and finally the last math span
(`$...$`, `\\(...\\)`, `\\[...\\]`) or, failing that, the last number in the text.

This module locates the answer; reading what an answer phrase states and what revises it is `phrases.py`,
the words around the last box are `box_context.py`, what offers the answer as one of several or disowns it by
structure is `offered.py`, the shared textual atoms are `atoms.py`.
"""

from __future__ import annotations

import re

from rlvr.verifiers.math.answer_words import COPULAS, SUBORDINATORS
from rlvr.verifiers.math.asides import asides_unboxed
from rlvr.verifiers.math.assertion import (
    after_supposition,
    after_withdrawal,
    before_final_sentence,
    unasserted,
)
from rlvr.verifiers.math.atoms import (
    _MATH_SPAN_RE,
    _NUMBER_RE,
    _NUMBER_WORD_RE,
    _PLAIN_NUMBER_RE,
    METHODS,
    Extraction,
    _is_prose,
    bracketed_values,
    in_expression,
    minus_signs,
    named_base,
)
from rlvr.verifiers.math.box_context import (
    _ASKED_RE,
    _BOX_SUFFIX_RE,
    _after_last_box,
    _hedged_last_box,
    _qualified_box,
)
from rlvr.verifiers.math.box_terms import box_term
from rlvr.verifiers.math.boxes import (
    last_boxed,
    outer_boxes,
)
from rlvr.verifiers.math.checks import _SECTION_RE, checks_at_end_dropped
from rlvr.verifiers.math.closing import (
    bold_closing,
    closing_result,
    closing_statement,
    formula_line,
    stated_after_formula,
)
from rlvr.verifiers.math.code_blocks import read_code
from rlvr.verifiers.math.commitment import denied_before, guess_contested, rejected_after, same_value, screen
from rlvr.verifiers.math.contested import contested, gloss_differs
from rlvr.verifiers.math.formula_pairs import also_assigned, assignments_joined, labelled_beside
from rlvr.verifiers.math.markup import marks_drawn, money_dollars, struck_out, table_total
from rlvr.verifiers.math.offered import (
    _ANSWERS_LINE_RE,
    _ASIDE_LINE_RE,
    _ASIDE_RE,
    _DEPENDING_RE,
    _REPORTED_AFTER_RE,
    _alternatives_offered,
    _card_rejects,
    _pair_guess,
    _second_assignment,
    offered_beside,
)
from rlvr.verifiers.math.parts import inline_parts, part_answers
from rlvr.verifiers.math.phrases import (
    _CONCLUSION_RE,
    _NEGATED_RE,
    _PHRASE_RE,
    _clean_phrase_answer,
    _concluding_number,
    _hedge,
    _sentence_rest,
    alternatives_after,
    clause_hedge,
    prose_scale,
)
from rlvr.verifiers.math.quotes import asides_removed
from rlvr.verifiers.math.readings import hedged_last_line, left_open
from rlvr.verifiers.math.remarks import BOUND_BEFORE_RE, format_example, labelled_wrong
from rlvr.verifiers.math.revisions import _phrase_answer_after, _restated_value, _revised_value, _revises
from rlvr.verifiers.math.truncation import cut_in_check, cut_off, drop_unclosed_think, revising_when_cut
from rlvr.verifiers.math.turns import reply_opened, tagged_reply, turn_ended
from rlvr.verifiers.math.vocab import NUMBER_WORDS, SCALE_PATTERN, SCALED_NUMBER_PATTERN, SCALES_PATTERN

_GSM8K_RE = re.compile(r"####\s*([^\n]+)")


# what glued to a box from outside is its unit, not an operation: a percent sign, a degree sign
_UNIT_SUFFIX_RE = re.compile(r"\\%|\^\s*(?:\{\s*\\circ\s*\}|\\circ)")


# a scale word right after a box (`\\boxed{3.2} million`), outside its formula or not (possessive: a run of
# spaces that no scale word follows is scanned once)
_SCALE_AFTER_BOX_RE = re.compile(
    r"[ \t]*+\$*+[ \t]*+(?:\\text\s*+\{\s*+)?(" + SCALES_PATTERN + ")", re.IGNORECASE
)
_SCALED_BOX_RE = re.compile(r"-?" + SCALED_NUMBER_PATTERN)  # (`\\boxed{2{,}4} milliards`: 2.4 billion)
# a base subscript glued to a box from outside: `\\boxed{11}_2`, `\\boxed{3}_{10}`
_GLUED_BASE_RE = re.compile(r"[ \t]*+_\s*\{?\s*(\d+)\s*\}?")


#: Only the tail of very long outputs is searched for a trailing math span or number.
_TAIL = 8000
_DOLLAR_RE = re.compile(r"(?<!\\)\$\$?")


_SENTENCE_BREAK_RE = re.compile(r"[.!?](?=\s|$)|\n")


def _tail(text: str) -> str:
    """The last `_TAIL` characters, never starting inside a math span: a span cut by the window would be read
    from its middle (the last `... + 1 = 7$` of a 5001-term false chain reads as `7`), so the window starts
    after a span it would cut (a span that long is no answer to read)."""
    start = len(text) - _TAIL
    if start <= 0:
        return text
    head = text[:start]
    opened = ""  # the `$` or `$$` that opened the span the window would start in
    for m in _DOLLAR_RE.finditer(head):
        opened = "" if m.group() == opened else opened or m.group()
    if opened:  # a `$` that never closes (an unescaped currency sign `$5`) opens no span: the window stays
        close = text.find(opened, start)
        start = close + len(opened) if close >= 0 else start
    for opener, closer in (("\\(", "\\)"), ("\\[", "\\]")):
        if head.rfind(opener) > head.rfind(closer):  # inside `\\(...\\)` or `\\[...\\]`
            close_at = text.find(closer, start)
            start = max(start, close_at + len(closer) if close_at >= 0 else start)
    return text[start:]


def undouble_backslashes(text: str) -> str:
    """A doubly escaped output (`\\\\frac{1}{2}`, every command written with two backslashes, as JSON-escaped
    text reads) back to LaTeX; text with any single-backslash command is left alone (`\\\\` is a row break)."""
    if "\\\\" not in text or re.search(r"(?<!\\)\\(?![nt])[a-zA-Z{}()\[\]]", text):
        return text
    return text.replace("\\\\", "\\")


_SPAN_GAP_RE = re.compile(r"^\s*(?:,|;|/|\band\b|\bor\b)\s*$")


# between two values of one sentence: the later one is subordinate to the earlier (`$60^\circ$, twice the
# $30^\circ$ angle`, `3 when divided by 5`) when the words between subordinate it and none states it
_SUBORDINATE_RE = re.compile(r"\b(?:" + "|".join(SUBORDINATORS) + r")\b", re.IGNORECASE)


_TRAILING_NAME_RE = re.compile(r"[A-Za-z]\s*=\s*[$(]*$")
_STATES_RE = re.compile(r"\b(?:" + "|".join(COPULAS) + r")\b|=", re.IGNORECASE)


_QED_RE = re.compile(r"\$*\s*\\(?:blacksquare|qed|square|Box)(?![a-zA-Z])\s*\$*|∎|\bQ\.E\.D\.")


def _principal(text: str, values: list[tuple[int, int]]) -> int:
    """Index of the value that a reply's last sentence states: the last one, unless the words before it in
    the same sentence subordinate it to an earlier one (`twice the`, `compared to`, `not`, `when divided by`)."""
    k = len(values) - 1
    while k > 0:
        gap = text[values[k - 1][1] : values[k][0]]
        # (the name a later value is assigned to states nothing of the earlier: `-3 (attained at x = -2)`)
        stating = _STATES_RE.search(_TRAILING_NAME_RE.sub("", gap))
        if re.search(r"[.!?](?:\s|$)|\n", gap) or stating or not _SUBORDINATE_RE.search(gap):
            break
        k -= 1
    return k


# a last line that offers more help (`Let me know if you'd like ...`, `Feel free to ask ...`): whatever values it
# names are offered, not stated
_OFFER_RE = re.compile(
    r"(?:^|\n)[ \t*_>]*(?:let\s+me\s+know|feel\s+free|if\s+you(?:'d|\s+would|\s+want)|would\s+you\s+like|do\s+you\s+want"
    r"|want\s+me\s+to|i\s+can\s+also|i'?d\s+be\s+happy|happy\s+to\s+help|hope\s+(?:this|that|it)\s+helps)\b[^\n]*\s*\Z",
    re.IGNORECASE,
)


_REVISING_RE = re.compile(
    r"\b(?:actually|rather\s+than|instead|wrong|mistake|should\s+(?:be|read)|correct\s+answer)\b",
    re.IGNORECASE,
)


def _closing_remarks_dropped(tail: str) -> str:
    """A reply's end without what closes it after the answer: end-of-proof marks and a last remark section
    (`Remark:`, `Note:`) that follows a value; they comment on the answer, they do not give it."""
    tail = _QED_RE.sub(" ", tail)
    # (`Let me know if you'd like the x-intercept (which is $\\frac{27}{4}$) too!`; but an offer that revises is read:
    # `I'd be happy to explain why it's actually 32 rather than the 48 I boxed.`)
    offer = _OFFER_RE.search(tail)
    if (
        offer is not None
        and _NUMBER_RE.search(tail[: offer.start()])
        and not _REVISING_RE.search(tail, offer.start())
    ):
        tail = tail[: offer.start()]
    sections = list(_SECTION_RE.finditer(tail))
    if not sections or not _NUMBER_RE.search(tail[: sections[-1].start()]):
        return tail
    remark = tail[sections[-1].start() :].lstrip(".!?,{( \t\n")
    if re.search(r"\n\s*\n\s*\S", remark) or _CONCLUSION_RE.search(remark) or _PHRASE_RE.search(remark):
        return tail  # not a closing remark: a paragraph or a conclusion follows it ("Note: ... So 12.")
    return tail[: sections[-1].start()]


_GLUED_OR_RE = re.compile(r"(?<=[)\]\d])or(?=[(\[A-Z])")


def _commits(text: str) -> bool:
    """Whether `text` commits to an answer of its own: it has a box or an answer phrase."""
    return bool(outer_boxes(text)) or _PHRASE_RE.search(text) is not None


# a part offering another value beside its own (`(b) 35 (or 36 if the endpoints count)`, `(b) 35? 36?`)
_PART_HEDGE_RE = re.compile(r"\bor\b|\?|\bmaybe\b|\bperhaps\b|\bif\b|\bunless\b", re.IGNORECASE)


def _part_answer(part: str) -> str | None:
    """The answer of one part of a reply in parts that boxes nothing (`(a) The mean is $5$.`); None for a part
    that offers another value too (a hedge between values answers no part)."""
    found = extract_answer(part, ("final_answer", "last_math"), 1)
    if found is None:
        return None
    for line in part.split("\n"):  # (the value stated with another beside it on any line of the part)
        at = line.find(found.answer)
        if at >= 0 and _PART_HEDGE_RE.search(line, at + len(found.answer)):
            return None
    return found.answer


def _answering_text(text: str) -> str:
    """The part of a completion that answers, as the extractor reads it: from where the reply opens to the next
    turn, code read as what it shows, struck-out, hidden and quoted text and unclosed drafts removed."""
    text = struck_out(
        marks_drawn(minus_signs(reply_opened(text)))
    )  # before turns end: `<s>7</s>` is struck out, `</s>` ends none
    # (a draft never closed answers nothing)
    text = drop_unclosed_think(tagged_reply(read_code(undouble_backslashes(turn_ended(text)))))
    return asides_removed(money_dollars(text), _commits)  # `> quoted`, `[^1]:`, `<details>`; `$245` is money


def reply_parts(text: str) -> str | None:
    """The answers of a reply written in labelled parts, boxed or not, as a tuple (`parts.part_answers`, loose)."""
    return part_answers(_answering_text(text), _part_answer, loose=True)


_SCALE_AFTER_RE = re.compile(r"[ \t]?(?:" + SCALE_PATTERN + r")(?![^\W\d_])", re.IGNORECASE)


def extract_answer(text: str, methods: tuple[str, ...] = METHODS, revisions: int = 3) -> Extraction | None:
    """Find the final answer of a completion; None if there is none (an empty box gives answer ''). Past a
    withdrawn final value the rest of the reply is read, at most `revisions` times."""
    if not isinstance(text, str) or not text.strip():
        return None
    text = _answering_text(text)
    if not text.strip() or revising_when_cut(text):
        return None  # `\\boxed{12}. Wait, I misread ... so`: the answer was being withdrawn when the reply was cut
    # `**(a)** ... \boxed{5}. **(b)** ... \boxed{14}.`: one answer per part, in order
    parts = part_answers(text, _part_answer) if revisions > 0 else None
    if (
        parts is None
        and not outer_boxes(text)
        and (listed := _ANSWERS_LINE_RE.search(text[-1000:])) is not None
    ):
        parts = inline_parts(listed.group(1))  # `Answers: (i) $3x^2-3$; (iii) $2$.`: all parts, not the last
    if parts is None and contested(text):
        return None  # two different values (boxes, answer phrases), nothing says which one answers: none does
    if _alternatives_offered(text) or left_open(text) or hedged_last_line(text) or _card_rejects(text):
        # `"alternatives": [45]`, a table of candidates with confidences, a table of readings left open: the answer
        # is one of several
        return None
    why = unasserted(text)
    if (
        why is not None
    ):  # `Suppose the answer is \\boxed{7}.`, `\\boxed{7}. Just kidding.`: the final value is not asserted
        if revisions > 0 and (why == "remark" or (why == "rejected" and labelled_wrong(text))):
            # a closing counterfactual remark, or a closing box its line labels a wrong answer (`> Common wrong
            # answer: \\boxed{60}`): the answer stands before it
            return extract_answer(before_final_sentence(text), methods, revisions - 1)
        rest = None if revisions <= 0 else after_withdrawal(text) if why == "withdrawn" else None
        if rest is None and why in ("counterfactual", "supposed", "template") and revisions > 0:
            # `... would be \\boxed{16}. In our problem ..., so the area is 36.`: what follows answers; what a
            # supposition leads to (`Is it 20? No: ... the answer is 24.`) only when it commits (box, phrase)
            rest = after_supposition(text)
            if rest is not None and why in ("supposed", "template"):
                committed = tuple(m for m in methods if m in ("boxed", "final_answer"))
                kept = extract_answer(rest, committed, revisions - 1) if committed else None
                concluded = _concluding_number(rest) if kept is None and "last_math" in methods else None
                # (`Suppose, for contradiction, ... \\boxed{2}. ... Hence the minimum is $3$.`: a conclusion commits)
                if kept or concluded is not None or why == "supposed":
                    return kept or (Extraction(concluded, "conclusion") if concluded is not None else None)
            if why == "template":  # (nothing after the template answers: what the reply said before it does)
                return extract_answer(before_final_sentence(text), methods, revisions - 1)
        # `\\boxed{18}. Wait, I made a mistake. It should be 36.`: what follows the withdrawal answers, if anything
        return extract_answer(rest, methods, revisions - 1) if rest is not None else None
    for method in methods:
        if method == "boxed":
            if parts is not None:
                return Extraction(parts, "parts")
            unboxed = asides_unboxed(text)  # `\\boxed{40}. (For comparison, ... \\boxed{26}.)`: 40
            if unboxed is None:
                return None  # every box is in an aside: nothing was committed to
            text = unboxed
            boxed = last_boxed(text)
            if boxed is not None:
                more = alternatives_after(text[outer_boxes(text)[-1][1] :], boxed) if boxed else []
                if more:  # `\\boxed{3} or 4`: a hedge between values is all of them, never the first
                    return Extraction(", ".join([boxed, *more]), "boxed")
                if boxed and _ASKED_RE.match(text[outer_boxes(text)[-1][1] :]):
                    return None  # `\\boxed{\\text{odd}}?`: a box that asks answers nothing
                after_end = text[outer_boxes(text)[-1][1] :]
                base = _GLUED_BASE_RE.match(after_end) or named_base(after_end) if boxed else None
                if base is not None:  # `\\boxed{11}_2`, `\\boxed{12} in base 10`: that base's numeral
                    digits = base.group(1) if isinstance(base, re.Match) else base[0]
                    if not boxed.isalnum() or (isinstance(base, re.Match) and digits != "10"):
                        return (
                            None  # `\\boxed{3}_5`: a glued subscript other than 10 may index, not name a base
                        )
                    return Extraction(f"{boxed}_{{{digits}}}", "boxed")
                scale = _SCALE_AFTER_BOX_RE.match(after_end) if _SCALED_BOX_RE.fullmatch(boxed) else None
                if scale is not None:  # `\\boxed{3.2} million`: the box and its scale word state 3,200,000
                    return Extraction(f"{boxed} {scale.group(1).lower()}", "boxed")
                suffix = _BOX_SUFFIX_RE.match(after_end) if boxed else None
                if suffix is not None and not _UNIT_SUFFIX_RE.fullmatch(suffix.group(1)):
                    return (
                        None  # `\\boxed{3}!`, `\\boxed{3}^2`: the box states 3, the whole 6 or 9: two values
                    )
                if (
                    suffix is not None
                ):  # `\\boxed{50}\\%`, `\\boxed{30}^\\circ`: a percent or degree sign is its unit
                    return Extraction(f"{{{boxed}}}{suffix.group(1)}", "boxed")
                if boxed and box_term(text, *outer_boxes(text)[-1]):  # type: ignore[arg-type]
                    return None  # `$5 + \\boxed{3}$`: the box marks part of a formula, no answer as a whole
                qualified = _qualified_box(text) if boxed else None
                if qualified is not None:  # `at least \\boxed{12}`, `\\boxed{12} is a lower bound`
                    return Extraction(qualified, "qualified")
                hedged = _hedged_last_box(text) if boxed else None
                if hedged is not None:  # `\\boxed{8}. (Alternatively \\boxed{7}.)`
                    return Extraction(hedged, "hedge")
                after_box = _after_last_box(text) if "final_answer" in methods else None
                return after_box or Extraction(boxed, "boxed")
        elif method == "gsm8k":
            # (a `#### 72` quoted as code or given as the format to use is the template, not a line of the answer:
            # `Format reminder for next time: \`#### 72\``)
            lines = [
                m
                for m in _GSM8K_RE.finditer(text)
                if text[m.start() - 1 : m.start()] != "`" and not format_example(text, m.start())
            ]
            if lines:
                stated = lines[-1].group(1)
                if re.match(r"\s*(?:~|\u2248|\\approx)", stated):
                    return None  # `#### ~18`: an approximate count is no exact answer
                later = _phrase_answer_after(text[lines[-1].end() :])
                if later is not None and not same_value(later, stated.strip()):
                    return None  # `#### 15\nThe answer is 12.`: two final values, neither revised
                return Extraction(prose_scale(stated.strip()), "gsm8k")
        elif method == "final_answer":
            matches = list(_PHRASE_RE.finditer(text))
            closing = closing_result(text) if not matches else None
            if closing is not None:  # `...\nRésultat : 2`: a result label on the closing line answers
                return Extraction(closing, "final_answer")
            if matches:
                after = text[matches[-1].end() :]
                if not after.strip(" \t\n*_:\uff1a$"):
                    return (
                        None  # `... 所以答案是` as the reply's last words: cut before the answer was stated
                    )
                if _NEGATED_RE.match(after):  # "the answer is not 12": only what follows may answer
                    text = re.split(r"\.(?:\s|$)", after, maxsplit=1)[-1] if "." in after else ""
                    if not text.strip():
                        return None
                    continue
                answer = _clean_phrase_answer(after)
                if _DEPENDING_RE.search(after.split("\n", 1)[0]):
                    return None  # `The answer is 12/15 (depending on whether ...)`: left to a reading
                rest = _sentence_rest(after) if answer else None
                screened = screen(rest, answer) if rest is not None else None
                hedge = _hedge(answer, screened) if screened is not None else None
                hedge = hedge or (
                    clause_hedge(after, answer) if answer else None
                )  # "is 12, though maybe 13."
                if hedge is not None:  # "Final answer: 8. Hmm, or 7."
                    return Extraction(hedge, "hedge")
                if answer and screened is not None and _PLAIN_NUMBER_RE.match(answer):
                    later = _revised_value(screened.text) if _revises(screened.text) else None
                    restated = _restated_value(screened.text)
                    if later is None and restated is not None and restated[1] == ",":
                        later = restated[0]  # "is 7. Nope, 8.": the last committed answer wins
                    if later is not None and not same_value(later, answer):  # "is 7. Correction: 8."
                        return Extraction(later, "revised")
                    if later is None and restated is not None and not same_value(restated[0], answer):
                        return None  # "Answer: 8\nSteps: 7", "is 7. Erratum: 8": a label or a correction?
                if answer and not (screened is not None and _revises(screened.text)):
                    checked = screened.text if screened is not None else after
                    revised = _revised_value(checked) if _PLAIN_NUMBER_RE.match(answer) else None
                    return Extraction(revised or answer, "final_answer")  # "is 3. Wait, no, seven."
        elif method == "last_math":
            bare = text.strip()
            unglued = _GLUED_OR_RE.sub(" or ", bare)  # `W(x)=1orW(x)=-1`: a connective, not a word
            latex_only = re.sub(r"\\text\s*\{[^{}]{0,30}\}", " ", unglued)  # `2 \text{ million}`: LaTeX
            if (
                len(bare) <= 300
                and "$" not in bare
                and "~~" not in bare
                and not re.search(r"\n\s*\n", bare)  # (paragraphs are steps: the last one is read below)
                and not _is_prose(latex_only)
            ):  # `~~7~~` is struck out, not stated  # the whole reply is the answer
                return Extraction(re.sub(r"^(\*\*|__)(.+)\1$", r"\2", bare), "whole")  # `**7**`: bold
            if cut_off(text):
                # cut off mid-sentence with no box or answer phrase: its last value is a draft, unless the cut fell
                # in a check restating the answer (`... $\frac{5}{12}$。\n\n验算：... $\frac{5}{1`)
                if (before_check := cut_in_check(text)) is None:
                    return None
                text = before_check
            # (checks before a closing remark close the reply once the remark is gone: read them again)
            tail = checks_at_end_dropped(_closing_remarks_dropped(checks_at_end_dropped(_tail(text))))
            aside, whole_tail = _ASIDE_RE.search(tail), tail
            if aside is not None and (
                _MATH_SPAN_RE.search(tail[: aside.start()]) or _NUMBER_RE.search(tail[: aside.start()])
            ):
                tail = tail[
                    : aside.start()
                ]  # `... $120^\\circ$. (The exterior angle is $60^\\circ$.)`: an aside
            spans = list(_MATH_SPAN_RE.finditer(tail))
            if not spans and (line := formula_line(tail)) is not None:
                return Extraction(line, "last_math")  # `x ∈ (−∞, −1] ∪ [3, ∞)` as a chat UI's last line
            total = table_total(tail) if spans else None
            if total is not None:  # `| **Total** | **\$12** |` after the rows' formulas: the table's answer
                return Extraction(total, "conclusion")
            stated = stated_after_formula(tail[spans[-1].end() :]) if spans else None
            # `| 5 | 25 | 55 |\n\nThe sum of the first five squares is **55**.`: a closing line states it
            stated = stated or (closing_statement(tail[spans[-1].end() :]) if spans else None)
            if stated is not None:  # `... arrange $3$ books is **12**.`: the formula restates the question
                return Extraction(stated, "conclusion")
            concluding = tail[spans[-1].end() :] if spans else tail
            concluded = _concluding_number(concluding)
            if concluded is not None:
                # (a revision after the conclusion wins: `So they travel **501 km**. Actually it is 500 km.`)
                later = concluding[concluding.rfind(concluded) + len(concluded) :]
                # (the next sentence, to its end or to the reason after its value: `Actually it is 500 km — the ...`)
                later = _SENTENCE_BREAK_RE.split(later, maxsplit=1)[-1]
                later = re.split(
                    r"(?<=\d)[^.!?\n\d]*?\s(?:[\u2014\u2013]|--)\s|[.!?](?=\s|$)", later, maxsplit=1
                )[0]
                revised = _revised_value(later) if _revises(later) else None
                if revised is not None and not same_value(revised, concluded):
                    return Extraction(revised, "revised")
                return Extraction(concluded, "conclusion")
            bold = bold_closing(concluding)
            line_start = tail.rfind("\n", 0, spans[-1].start()) + 1 if spans else 0
            if (
                bold is None
                and spans
                and "\n" not in concluding.rstrip()
                and re.fullmatch(r"\$+\s*-?\d+(?:\.\d+)?\s*\$+", spans[-1].group())
                and re.search(
                    r"\b(?:is|are|was|were|equals)\s+(?:\*\*|__)", tail[line_start : spans[-1].start()]
                )
            ):
                # (a bold value before the last formula of the closing line marks the answer: `The maximum height
                # is **35 m**, reached $2$ seconds after launch.`)
                bold = bold_closing(tail[line_start:])
            if bold is not None:  # `So, the train will travel **315 km** in 3.5 hours.`: bold marks it
                return Extraction(bold, "conclusion")
            while spans and (
                denied_before(tail[max(0, spans[-1].start() - 80) : spans[-1].start()])
                or BOUND_BEFORE_RE.search(tail, max(0, spans[-1].start() - 40), spans[-1].start())
            ):
                spans.pop()  # `..., not the arithmetic mean $50$.`, `fewer than $96$ tiles`: no value stated
            if spans:
                spans = spans[: _principal(tail, [(m.start(), m.end()) for m in spans]) + 1]
                content = next(g for g in spans[-1].groups() if g is not None).strip()
                # `Average speed $= 48$ km/h`: the prose before the formula is its left-hand side
                content = (
                    content[1:].lstrip() if content.startswith("=") and "=" not in content[1:2] else content
                )
                k = len(spans) - 1
                while k > 0 and (
                    _SPAN_GAP_RE.match(tail[spans[k - 1].end() : spans[k].start()])
                    or assignments_joined(tail, spans[k - 1], spans[k])
                ):
                    k -= 1  # `$3$ and $4$`: the answer is both, never the last one alone
                if k < len(spans) - 1:
                    joined = [next(g for g in sp.groups() if g is not None).strip() for sp in spans[k:]]
                    if not any(_is_prose(part) for part in joined):
                        return Extraction(", ".join(joined), "last_math")
                if content and len(spans) > 1 and also_assigned(tail, spans[-2], spans[-1]):
                    return None  # `$x = 4$. Also $x = 9$.`: a second answer, not a revision
                if content and labelled_beside(tail, spans):
                    return (
                        None  # `$$\\text{Total} = 8$$ $$\\text{Rows} = 7$$`: two labelled values, no answer
                    )
                if content and _is_prose(content):  # `$? just about 1$`: a stray `$` opened the span
                    numbers = {n.strip().rstrip(",") for n in _NUMBER_RE.findall(content)}
                    if len(numbers) == 1:
                        return Extraction(numbers.pop(), "last_math")
                if content and rejected_after(tail[spans[-1].end() :]):
                    return None  # `So $x = 7$ is not a solution.`
                line_start = tail.rfind("\n", 0, spans[-1].start()) + 1
                line_end = tail.find("\n", spans[-1].end())
                if content and _ASIDE_LINE_RE.search(
                    tail, line_start, line_end if line_end >= 0 else len(tail)
                ):
                    return (
                        None  # `- Product of the roots, for completeness: $6$`: an aside's value, no answer
                    )
                final = re.search(r"(-?\d+(?:\.\d+)?)[^\d]*$", content) if content else None
                if final is not None and offered_beside(tail[spans[-1].end() :], final.group(1)):
                    return None  # `... = 900^\\circ.$$` then `Cevap 900 ya da 1080 derecedir.`: two values offered
                if content:
                    return Extraction(content, "last_math")
            found = [
                m
                for m in _NUMBER_RE.finditer(tail)
                if not rejected_after(tail[m.end() :])
                and not BOUND_BEFORE_RE.search(tail, max(0, m.start() - 40), m.start())
            ]
            if not found and (words := list(_NUMBER_WORD_RE.finditer(tail))):
                return Extraction(
                    NUMBER_WORDS[words[-1].group().lower()], "last_number"
                )  # "the count is eight"
            if found:
                last = found[_principal(tail, [(m.start(), m.end()) for m in found])]
                spans_all = [(m.start(), m.end()) for m in _NUMBER_RE.finditer(tail)]
                if in_expression(tail, last.start(), last.end()) or _second_assignment(tail, last, spans_all):
                    return None  # `x ≥ 2.`, `3 + 4.`, `log₂ 8.`: a bound, an operand, an argument, no value
                pair = next((p for p in bracketed_values(tail) if p[0] <= last.start() < p[1]), None)
                if pair is not None:  # `decreasing on the interval (-2, 2).`: the pair, never its endpoint
                    return _pair_guess(tail, pair, spans_all)
                if guess_contested(tail, last.start(), last.end(), spans_all) or gloss_differs(
                    whole_tail, last.end(), last.group().strip().rstrip(",")
                ):  # a guess needs an uncontested number: no answer rather than a wrong one
                    return None
                if _REPORTED_AFTER_RE.match(tail, last.end()):
                    return (
                        None  # `先生は答えが25だと言っていました`: someone's words reported, not the reply's
                    )
                scale = _SCALE_AFTER_RE.match(tail, last.end())  # (`Zysk wyniesie 45 tys. zł.`: 45,000)
                return Extraction(
                    last.group().strip().rstrip(",") + (scale.group() if scale else ""), "last_number"
                )
        else:
            raise ValueError(f"unknown extraction method {method!r}; choose from {METHODS}")
    return None
