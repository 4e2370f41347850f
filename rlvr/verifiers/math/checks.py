"""The checks and explaining sections after a committed answer: the values they compute are not a new answer.

A reply may verify its answer on an instance ("let me check with n = 10: 15"), close on check lines
(`Verificare: $50\\cdot 51 = 2550$ ✓`) or explain it in a section (`## Explanation`, `Note:`). `drop_checks`,
`drop_sections` and `checks_at_end_dropped` remove them so that only what could revise the answer is read
(split from `commitment.py`, which screens the rest)."""

from __future__ import annotations

import re
from collections.abc import Callable

from rlvr.verifiers.math.answer_words import SECTION_TITLES
from rlvr.verifiers.math.phrase_words import CHECK_LABELS, CHECK_LABELS_GLUED
from rlvr.verifiers.math.vocab import (
    CHECK_CUES,
    CHECK_REPORTS,
    ERROR_WORDS,
    EXAMPLE_CUES,
    NUMBER_WORDS,
    REVISION_WORDS,
)
from rlvr.verifiers.math.withdrawal import FAILURE_MARKS, withdraws

_CHECK_CUE_RE = re.compile(r"\b(?:" + "|".join(CHECK_CUES) + r")\b", re.IGNORECASE)
_EXAMPLE_CUE_RE = re.compile(r"\b(?:" + "|".join(EXAMPLE_CUES) + r")(?!\w)", re.IGNORECASE)
_INSTANCE_RE = re.compile(
    r"(?<![\w\\])[A-Za-z](?:_\{?\w+\}?)?\s*=\s*-?\d|\b(?:smaller|small|special|simple)\s+case"
)
_CHECK_END_RE = re.compile(r"\b(?:" + "|".join(REVISION_WORDS + ERROR_WORDS) + r")\b|\bno,", re.IGNORECASE)
_SENTENCE_END_RE = re.compile(r"(?<!\d)\.(?:\s|$)|\n")
_PARAGRAPH_RE = re.compile(r"\n\s*\n")
# a section after the answer that explains or remarks on it: `## Explanation`, `*Verification:*`, `(Note: ...)`
_TITLES = "(?:" + "|".join(SECTION_TITLES) + ")s?"
_SECTION_RE = re.compile(
    r"(?:^|\n)[ \t]*(?:#+[ \t]*|\*{1,2}|__?|\|[ \t]*)?" + _TITLES + r"\b"  # a heading, a table row
    r"|(?:^|[.!?,{]\s*|\(\s*)[\"']?" + _TITLES + r"[\"']?\s*:",  # `Note: ...`, `(Note: ...)`, `"note": ...`
    re.IGNORECASE,
)
# a value in a sentence: a box, a math span, a number, a number word
_VALUE_RE = re.compile(
    r"\\(?:boxed|fbox)\s*\{(?P<box>[^{}]*(?:\{[^{}]*\}[^{}]*)*)\}"
    r"|\$(?P<span>[^$]+)\$"
    r"|(?<![\w.])(?P<num>-?\d+(?:\.\d+)?)(?![\w.]*\d)"
    r"|\b(?P<word>"
    + "|".join(sorted((w for w in NUMBER_WORDS if " " not in w), key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)
# a report that a check was done ("I verified by plugging in: ..."): what it computes is the check's
_REPORT_RE = re.compile(r"\b(?:" + "|".join(CHECK_REPORTS) + r")\b", re.IGNORECASE)


def stated_values(clause: str) -> list[tuple[int, int, str]]:
    """(start, end, value) of each value a clause states (`$n = 7$` states 7, `$2^3 = 8$` states 8)."""
    out = []
    for m in _VALUE_RE.finditer(clause):
        if m.group("word"):
            value = NUMBER_WORDS[m.group("word").lower()]
        else:
            value = (m.group("box") or m.group("span") or m.group("num")).strip()
            value = value.rsplit("=", 1)[-1] if "=" in value else value  # `$2^3 = 8$` arrives at 8
        out.append((m.start(), m.end(), value.strip()))
    return out


def drop_checks(after: str) -> str:
    """`after` (what follows a committed answer) without its checks: the numbers of a check are not a new answer.

    A check tests the answer on an instance: a check word (`verify`, `check`, `plug in`, ...) whose sentence sets
    a variable to a value (`with n = 10`, `for x = 2`) or names a small case, or an example word (`for example`,
    `e.g.`). It runs to the end of its paragraph, or up to a revision or error word (`wait`, `wrong`, ...),
    after which the text may revise the answer again. A recheck of the problem itself ("let me recheck: 3 + 4 is
    7") tests no instance, so it may revise; an answer phrase is a commitment and is never dropped by callers.
    """
    out: list[str] = []
    pos = look = 0  # text before `pos` is settled; cues are searched from `look`
    # the next example and report cues at or after `look`, searched again only once `look` passes them: a search
    # per check cue would rescan the rest of the text each time (10,000 `Check n:` lines took minutes)
    cues: dict[re.Pattern[str], re.Match[str] | None] = {}

    def next_cue(pattern: re.Pattern[str]) -> re.Match[str] | None:
        if pattern not in cues or (cues[pattern] is not None and cues[pattern].start() < look):  # type: ignore[union-attr]
            cues[pattern] = pattern.search(after, look)
        return cues[pattern]

    while True:
        check = _CHECK_CUE_RE.search(after, look)
        example = next_cue(_EXAMPLE_CUE_RE) or next_cue(_REPORT_RE)
        if example is not None and (check is None or example.start() <= check.start()):
            cue = example
        elif check is not None:
            end = _SENTENCE_END_RE.search(after, check.end())
            if not _INSTANCE_RE.search(after, check.end(), end.start() if end else len(after)):
                look = check.end()  # no instance: not a check (yet); look further
                continue
            cue = check
        else:
            out.append(after[pos:])
            return "".join(out)
        paragraph = _PARAGRAPH_RE.search(after, cue.end())
        stop = paragraph.start() if paragraph else len(after)
        correction = _CHECK_END_RE.search(after, cue.end(), stop)
        stop = correction.start() if correction else stop
        out.append(after[pos : cue.start()] + " ")
        pos = look = stop


# a section's own words that revise the answer it follows (`Note: box should read 32`, `P.S. ... I mistyped`)
_BOX_REVISED_RE = re.compile(
    r"\b(?:box(?:ed)?|answer)\s+(?:above\s+)?should\s+(?:read|be)\b|\bmistyped\b|\bignore\s+the\s+(?:box|answer)\b"
    r"|\bI\s+boxed\s+the\s+wrong\b",
    re.IGNORECASE,
)


# where a paragraph's clauses split (`Ich habe mich verrechnet, richtig ist 12.`)
_CLAUSE_SPLIT_RE = re.compile(r"[.!?;:,\n\u3002\uff0c\uff1a\uff1b\uff01\uff1f\u060c\u0964\u1362]")


def _disowns(paragraph: str) -> bool:
    """Whether a paragraph after a section withdraws what came before in any language (`Mali ito.`,
    `ይህ ትክክል አይደለም።`), as a word of error of `_CHECK_END_RE` does in English."""
    return any(withdraws(clause) for clause in _CLAUSE_SPLIT_RE.split(paragraph[:600])[:8] if clause.strip())


def drop_sections(after: str) -> str:
    """`after` without its explaining sections (`## Explanation`, `Note:`, `Remark:`): they explain, not answer.

    A section runs to the end of the reply, unless a later paragraph revises or calls something wrong
    (`Check 1: ...\n\nScratch all that; 13 is wrong.`): what the reply says after its checks is read again."""
    out: list[str] = []
    pos = 0
    while (section := _SECTION_RE.search(after, pos)) is not None:
        out.append(after[pos : section.start()] + " ")
        own = _PARAGRAPH_RE.search(after, section.end())
        if _BOX_REVISED_RE.search(after, section.end(), own.start() if own else len(after)):
            pos = (
                section.start()
            )  # `P.S. Ignore the box — I mistyped; it should be $32$.`: no remark, a revision
            break
        pos = len(after)
        for paragraph in _PARAGRAPH_RE.finditer(after, section.end()):
            following = _PARAGRAPH_RE.search(after, paragraph.end())
            stop = following.start() if following else len(after)
            if _CHECK_END_RE.search(after, paragraph.end(), stop) or _disowns(after[paragraph.end() : stop]):
                pos = paragraph.end()
                break
    return "".join(out) + after[pos:]


# a check line: one that a check label of any language opens, with a colon (`Verificare: ...`, `**검산:** ...`;
# one word may come before it: `Quick check:`), or a statement marked as verified at its end (`$2x = 12$ ✓`)
_ANY_CHECK_LABEL = (
    r"(?:[^\W\d_]+[ \t]+)?(?:(?:"
    + "|".join(CHECK_LABELS)
    + r")(?![^\W\d_])|"
    + "|".join(CHECK_LABELS_GLUED)
    + ")"
)
_CHECK_LABEL_RE = re.compile(
    r"^[ \t>*#_\-]*" + _ANY_CHECK_LABEL + r"[ \t]*(?:\*\*|__)?[ \t]*(?:[:\uff1a]|[\u2014\u2013\-](?=[ \t]))",
    re.IGNORECASE,
)
# a heading that is a check label alone (`### Verificare`, `**Проверка**`): a check section runs from it
_CHECK_HEADING_RE = re.compile(
    r"^[ \t]*(?:#+[ \t]*|\*\*|__)"
    + _ANY_CHECK_LABEL
    + r"[ \t]*(?:\*\*|__)?[ \t]*[:\uff1a]?[ \t]*(?:\*\*|__)?[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
_CHECK_MARK_RE = re.compile(
    r"[\u2713\u2714\u2705\u2611]\ufe0f?[\s*_]*\Z"
)  # `✔️`: an emoji selector may follow
# what a passed check never holds: a failed mark, a box, a revision or error word (`Check: 3 + 5 = 8 ✗, wait`)
_NOT_PASSED_RE = re.compile(f"[{FAILURE_MARKS}]" + r"|\\(?:boxed|fbox)\b|\banswer\b", re.IGNORECASE)


def check_line(line: str, labelled_only: bool = False) -> bool:
    """Whether `line` is a passed check of an answer (see above): it states no new answer. A check that finds
    an error, holds a box or names the answer is no plain check: what it says may revise."""
    if _NOT_PASSED_RE.search(line) or _CHECK_END_RE.search(line):
        return False
    return bool(_CHECK_LABEL_RE.match(line) or (not labelled_only and _CHECK_MARK_RE.search(line)))


def drop_check_lines(after: str) -> str:
    """`after` (what follows a committed answer) with its check lines blanked: their values are checked, not
    stated as a new answer (`Răspuns: $1275$\\n\\nVerificare: $50\\cdot 51 = 2550$ ✓`)."""
    return "\n".join(" " * len(line) if check_line(line) else line for line in after.split("\n"))


# a line that concludes (`So ...`, `Therefore ...`) or states a value in bold (`The value of $xy$ is **6**.`)
_GOES_ON_RE = re.compile(
    r"^[ \t>*_]*(?:so|therefore|thus|hence)\b|^[^\n]*\b(?:is|are|=)[ \t]*\*\*-?\d[^\n]*$",
    re.IGNORECASE | re.MULTILINE,
)
_SECTION_CHARS = 20_000  # (a check section longer than this is read by its start)
#: How many closing lines are read as checks: a reply ends with a few (each is searched for in what precedes it)
_CLOSING_CHECKS = 20


def checks_at_end_dropped(text: str) -> str:
    """`text` without the check lines that close it, when a value stands before them: a reply that ends by
    checking (`Răspuns: $1275$\\n\\nVerificare: $50\\cdot 51 = 2550$ ✓`) answers with what it checked (lines with
    no number after a check, `Sper că ajută!`, go with it). A line only marked ✓ checks when the value it arrives
    at was stated before it; `2x = 8\\nx = 4 ✓` states 4 first there: that line is the answer, marked."""
    digit = re.search(r"\d", text)
    kept, dropped = text.rstrip(), False
    heading = next(reversed(list(_CHECK_HEADING_RE.finditer(text))), None)  # its section closes the reply
    if heading is not None and digit is not None and digit.start() < heading.start():
        section = text[heading.end() :]
        # (the section closes the reply unless a line concludes after its checks: `**Verification:** - (1) ✓ ...
        # So $x = 3$ and $y = 2$, ... The value of $xy$ is **6**.` goes on with the answer)
        concludes = _GOES_ON_RE.search(section[:_SECTION_CHARS])
        if not concludes and not (_NOT_PASSED_RE.search(section) or _CHECK_END_RE.search(section)):
            kept, dropped = text[: heading.start()].rstrip(), True
    for _ in range(_CLOSING_CHECKS):
        start = kept.rfind("\n") + 1
        line, before = kept[start:], kept[:start].rstrip()
        if digit is None or digit.start() >= len(before):
            break  # no value before this line
        if not check_line(line):
            if re.search(r"\d", line):
                break  # a line that states a value: what the reply ends on
            kept = before  # `Sper că ajută!`: no value, no statement of one
            continue
        if not _CHECK_LABEL_RE.match(line):
            arrived = stated_values(line)
            value = arrived[-1][2] if arrived else ""
            if not value or not re.search(r"(?<![\w.])" + re.escape(value) + r"(?![\w.]*\d)", before):
                break
        kept, dropped = before, True
    return kept if dropped else text


_PASS_MARKS = "\u2713\u2714\u2705"  # ✓ ✔ ✅
_PASSED_RE = re.compile(f"[{_PASS_MARKS}]")
# a check's finding that its value fails (`These two sides do not agree.`, `so $x = 2$ does not satisfy the
# equation`, `$\\log_3(-1)$ is undefined`), with no word of error: the value checked is refuted
_REFUTES_RE = re.compile(
    r"\b(?:do(?:es)?\s+not|don'?t|doesn'?t|fails?\s+to)\s+(?:agree|satisfy|work|hold|match|check\s+out)\b"
    r"|\bnot\s+an?\s+(?:valid\s+)?(?:solution|root)\b|\bextraneous\b|\bis\s+undefined\b|\bfails\b"
    r"|\bsomething(?:'s|\s+is)\s+(?:off|wrong|amiss)\b"
    # (a root the check throws out, in more words and languages: `an artifact of squaring`, `must be thrown out`,
    # `eine Scheinlösung`, `una solución extraña`, `une solution parasite`, `11 と合わない`)
    r"|\bartifacts?\s+of\b|\b(?:must|should|has\s+to)\s+be\s+(?:thrown\s+out|discarded|rejected|excluded|dropped)\b"
    r"|\bspurious\b|\bScheinl[öo]sung|\bsoluci[óo]n\s+extra[ñn]a\b|\bsolution\s+(?:parasite|étrangère)\b"
    r"|(?P<mismatch>\b(?:ei\s+klapi|ei\s+täsmää|stimmt\s+nicht|passt\s+nicht|ne\s+correspond\s+pas|no\s+coincide"
    r"|non\s+coincide|не\s+совпада\w*|nie\s+zgadza\s+się|komt\s+niet\s+overeen|stemmer\s+ikke|stämmer\s+inte"
    r"|nem\s+egyezik|nesouhlasí|uyuşmuyor|tidak\s+cocok|tidak\s+memenuhi|không\s+thỏa\s+mãn)\b|\u5408\u308f\u306a\u3044|\u4e00\u81f4\u3057\u306a\u3044|\u4e0d\u4e00\u81f4|\u4e0d\u7b26|\u4e0d\u76f8\u7b26)"
    # (`with our boxed $x = 4$ it is $0 \neq 12$`: an inequality the check arrives at, no mark of success after it)
    # (and in a program's or a plain-text spelling: `24 != 30`, `24 =/= 30`, `24 <> 30`, `35 \\not= 30`)
    r"|(?P<unequal>\\neq?|\u2260)(?![^.\n]*[" + _PASS_MARKS + "])"
    # (the plain-text spellings only as the verdict closing a sentence: `Note that 30 != 0, so ...` judges nothing)
    r"|(?P<spelled>!=|=/=|<>|\\not\s*=)(?=[ \t$]*-?\d+(?:\.\d+)?[ \t$]*(?:[.!]?[ \t]*$|[.!]\s))"
    r"|(?P<offby>\boff\s+by\s+\d)"  # (`24 vs 30 - off by 6`)
    # (`... RHS $= -2$. ✗`: a check marked failed, at the line's end or before what the line goes on to say)
    r"|(?P<mark>[" + FAILURE_MARKS + r"])\ufe0f?[ \t*_]*(?:$|[.;,]|[ \t]*\|[ \t]*$)"
    # (a check's run reported failed: a REPL's `False`, a test runner's `FAILED` / `1 failed`, a prover's error,
    # `Expected 70, got 72`, `Δ = 2 ⇒ mismatch`, `⊭`, `84 legs — that's 4 short of 88`)
    # (each as a run's own line or verdict, never a word of prose: `12 failed the test`, `Relative error: 0.05%`)
    r"|(?P<report>^[ \t]*(?-i:FAILED|FAIL|AssertionError|Traceback)\b|^[ \t=]*[1-9]\d*\s+failed\b[^\n]*\bin\s+[\d.]+\s*s"
    r"|\bunsolved\s+goals\b|^[ \t]*expected\s+(?P<expected>-?\d+(?:\.\d+)?),?\s+(?:but\s+)?got\s+(?!(?P=expected)(?!\d|\.\d))-?\d"
    r"|\bmismatch(?:ed)?[ \t.!]*$|\u22ad[^\n]*\d)",
    re.IGNORECASE | re.MULTILINE,
)
# a variable set to a value (`x = 5`, `n_1 = 3`): a check that names none tests the answer itself
_ASSIGNMENT_RE = re.compile(r"(?<![\w\\])[A-Za-z](?:_\{?\w+\}?)?\s*=\s*-?\d+(?:\.\d+)?")
_ASSIGNED_VALUE_RE = re.compile(r"^[A-Za-z](?:_\{?\w+\}?)?\s*=\s*")
_CHECK_OPENER_RE = re.compile(
    r"\b(?:check\w*|verif\w*|for|with|substitut\w*|plug\w*|test\w*|try|trying|at|"
    + "|".join(CHECK_LABELS)
    + r")\b|"
    + "|".join(CHECK_LABELS_GLUED),
    re.IGNORECASE,
)
_NAMED_IN_CLAUSE_RE = re.compile(
    r"(?<![\w\\])[A-Za-z]\s*=\s*(-?\d+(?:\.\d+)?)\$?"
    r"(?:\s+(?:is|was|does|doesn't|fails|must|should|es|est|ist|eine?|une?|una?|an?)\b)*+\s*\Z"
)
_LEFT_OF_RE = re.compile(r"(?<![\w.^_{])(-?\d+(?:\.\d+)?)[ \t$]*\Z")
_VERSUS_RE = re.compile(r"(?<![\w.])(-?\d+(?:\.\d+)?)\s+vs\.?\s+(-?\d+(?:\.\d+)?)(?![\w.]*\d)")
_UNEQUAL_TO_RE = re.compile(r"[ \t]*\$?[ \t]*(-?\d+(?:\.\d+)?)(?![\w.]*\d)")
_NEGATED_BEFORE_RE = re.compile(r"\b(?:no|none|nothing|neither|nor)\b[^,;:]{0,30}\Z", re.IGNORECASE)
_OUR_VARIABLE_RE = re.compile(r"\b(?:our|the|this|that)\s+\$?[A-Za-z]\$?\s+(?:is\s+|was\s+)?(?:an?\s+)?\Z")
_CHECKED_VALUE_RE = re.compile(r"(?<![\w.^_{])-?\d+(?:\.\d+)?(?![\w.])")


def refuted_by_check(rest: str, value: str, same: Callable[[str, str], bool]) -> int | None:
    """Where a check after the answer ends that refutes it (see above): the refutation's line checks the
    answer's value first (after its last check opener) (`Check with $x = 2$: ... so $x = 2$ does not satisfy ...`); None if none does."""
    for m in _REFUTES_RE.finditer(rest[:3000]):
        line = rest[rest.rfind("\n", 0, m.start()) + 1 : m.start()]
        openers = list(_CHECK_OPENER_RE.finditer(line))  # (`Check 4: ✓. Check -2: undefined.`: the second)
        first = _CHECKED_VALUE_RE.search(line, openers[-1].start() if openers else 0)
        block = rest[max(rest.rfind("\n\n", 0, m.start()), 0) : m.start()]  # (the refutation's paragraph)
        opener = _CHECK_OPENER_RE.search(block)
        if first is None and opener is not None:
            # `**Check** ($x = 5$):\n- Left: 3\n- Right: 3\nThese two do not agree`: a refuting line with no
            # value of its own judges the check its paragraph opened with
            first = _CHECKED_VALUE_RE.search(block, opener.start())
        clause = line[max(line.rfind(". "), line.rfind("; "), 0) :]  # (the refuting clause)
        if _NEGATED_BEFORE_RE.search(clause):
            continue  # (`So no solution must be thrown out.`: the refutation is denied)
        if m.group("report"):
            # (a run reported failed tests what its paragraph computed: the answer, unless it sets another value)
            assigned = [a.group() for a in _ASSIGNMENT_RE.finditer(block)]
            passed = _PASSED_RE.search(rest, m.start() - len(line), m.end())
            refuted = not passed and all(same(_ASSIGNED_VALUE_RE.sub("", a), value) for a in assigned)
        elif m.group("offby"):
            # (`24 vs 30 - off by 6`: `off by` refutes only two values set side by side, one of them the answer)
            versus = _VERSUS_RE.search(line)
            refuted = versus is not None and any(same(v, value) for v in versus.groups())
        else:
            # (`Plugging back in: LHS $= 2$, RHS $= -2$. ✗`: a check that sets no variable and is marked failed
            # tests the answer itself; `Check 7: left = 2, right = -2. ✗` names the value it checked before its
            # colon; `These differ, so our $x$ is extraneous.` names the answer by its variable)
            implicit = (
                (m.group("mark") is not None or m.group("mismatch") is not None)
                and opener is not None
                and not _ASSIGNMENT_RE.search(block)
                and not re.search(
                    r"\d", re.split(r"[:\uff1a]", block[opener.end() : opener.end() + 30], maxsplit=1)[0]
                )
            ) or bool(_OUR_VARIABLE_RE.search(clause))
            # (the value the refuting clause names itself: `These differ, so $x = 2$ is extraneous.`)
            named = _NAMED_IN_CLAUSE_RE.search(clause)
            # (the value an inequality the check arrives at sets against: `$6 \\times 4 = 24 \\ne 30$` refutes 30;
            # or, in a plain spelling, the value on its left when the check sets no variable: `24 =/= 30`)
            unequal = (
                _UNEQUAL_TO_RE.match(rest, m.end()) if m.group("unequal") or m.group("spelled") else None
            )
            left = _LEFT_OF_RE.search(rest, max(0, m.start() - 40), m.start()) if m.group("spelled") else None
            refuted = (
                implicit
                or (unequal is not None and same(unequal.group(1), value))
                or (left is not None and not _ASSIGNMENT_RE.search(block) and same(left.group(1), value))
                or any(
                    v is not None and same(v.group(1) if v is named else v.group(), value)
                    for v in (first, named)
                )
            )
        if refuted:
            end = _SENTENCE_END_RE.search(rest, m.end())
            return end.end() if end else len(rest)
    return None
