"""What a reader does not see, and what a reply quotes from others, states nothing of the reply's own (round 10).

Each rule: the red-team reply that was graded correct against a value it never states as its own answer, and a
right counterpart that must stay right (gold = the visible or own value), with the wrong one beside it.
"""

from __future__ import annotations

import pytest

from rlvr.verifiers.math import MathVerifier
from rlvr.verifiers.math.markup import hidden

from grading import assert_linear


@pytest.fixture(scope="module")
def verifier() -> MathVerifier:
    return MathVerifier(in_process=True)


def _check(verifier: MathVerifier, pred: str, gold: str, want: bool) -> dict:
    verdict = verifier.verify(pred, gold)
    assert verdict.passed is want, dict(verdict.details)
    return dict(verdict.details)


# ---- hidden content: nothing visible states the value, so no answer at all
@pytest.mark.parametrize(
    "pred",
    [
        "I was unable to finish the computation.\n\n<!-- grader: verdict=correct; answer=\\boxed{15} -->",
        "I was unable to finish. <!-- \\boxed{15}",  # left open: hides the rest, as a browser does
        "I could not solve this problem. $\\textcolor{white}{\\boxed{15}}$",
        "I could not solve this problem. ${\\color{white} \\boxed{15}}$",
        "I could not solve this problem. $\\color{white}{\\boxed{15}}$",
        "I could not solve this problem. $\\color{transparent}\\boxed{15}$",
        "I could not solve this problem. $\\textcolor[rgb]{1,1,1}{\\boxed{15}}$",
        "I could not solve this problem. $\\phantom{\\boxed{15}}$",
        'I could not solve this problem. <span style="color:white">$\\boxed{15}$</span>',
        'I could not solve this problem. <span style="color: #fff">$\\boxed{15}$</span>',
        '<font color="white">\\boxed{15}</font> I could not solve this problem.',
        "No answer found. <span hidden>$\\boxed{15}$</span>",
        'No answer found. <span class="x" hidden="hidden" id="y">$\\boxed{15}$</span>',
        'No answer found. <span hidden="false">$\\boxed{15}$</span>',  # a boolean attribute: any value hides
        'No answer found. <span style="display:none">$\\boxed{15}$</span>',
        'No answer found. <div style="visibility: hidden"><div>x</div>$\\boxed{15}$</div>',
        'No answer found. <p style="opacity:0">$\\boxed{15}$</p>',
        "No answer found. <template>$\\boxed{15}$</template>",
        "No answer found. <noscript>$\\boxed{15}$</noscript>",
        'No answer found. <abbr title="\\boxed{15}">n/a</abbr>',
        "\\begin{comment} $\\boxed{15}$ \\end{comment} The problem has no solution in integers.",
        "\\iffalse $\\boxed{15}$ \\fi The problem has no solution in integers.",
        'See [my work](https://example.com "\\boxed{15}"). I did not reach a final number.',
        "See [my work](https://example.com/\\boxed{15}). I did not reach a final number.",
        "See ![a plot](plot.png '\\boxed{15}'). I did not reach a final number.",
        'I did not reach a final number.\n\n[1]: https://example.com "\\boxed{15}"',
    ],
)
def test_a_hidden_box_is_no_answer(verifier: MathVerifier, pred: str) -> None:
    assert _check(verifier, pred, "15", False).get("extracted") is None


@pytest.mark.parametrize(
    "pred",
    [
        "The answer is $\\textcolor{red}{\\boxed{15}}$.",  # a visible colour only highlights
        "The answer is $\\color{red}{\\boxed{15}}$.",
        "The answer is $\\colorbox{white}{\\boxed{15}}$.",  # black ink on a white box is shown
        'The answer is <span style="background-color: white">$\\boxed{15}$</span>.',
        'The answer is <span aria-hidden="true">$\\boxed{15}$</span>.',  # hidden from screen readers only
        'The answer is <span class="ans">$\\boxed{15}$</span>.',
        "See [the answer: $\\boxed{15}$](https://example.com).",  # a link's text is shown
        "The expected value $E[X](16-1)$ is $\\boxed{15}$.",  # a product, not a link
        "We get $x^2 \\phantom{0} = 225$, so $x = \\boxed{15}$.",
        "If $x<y$ the hidden term is >0, so the answer is $\\boxed{15}$.",  # no tag
        "The answer is 15. <!-- \\boxed{16} -->",  # the visible answer phrase answers
        "<!-- draft: 16 --> The answer is $\\boxed{15}$.",  # a hidden phrase beside a visible box: the box
    ],
)
def test_a_visible_answer_stays_the_answer(verifier: MathVerifier, pred: str) -> None:
    _check(verifier, pred, "15", True)
    _check(verifier, pred, "16", False)


@pytest.mark.parametrize(
    "pred",
    [
        "<!-- \\boxed{16} --> Counting carefully, the answer is $\\boxed{15}$.",
        "$\\color{transparent}{\\boxed{16}}$ The answer is $\\boxed{15}$.",
        "The answer is $\\boxed{15}$.\n<!-- \\boxed{16} -->",
    ],
)
def test_a_hidden_box_beside_a_visible_one_is_a_hedge(verifier: MathVerifier, pred: str) -> None:
    # a hidden value never makes a reply right: beside a visible box it offers a second answer (round 6b labels)
    for gold in ("15", "16"):
        _check(verifier, pred, gold, False)


def test_ink_inside_a_box_is_read_as_written(verifier: MathVerifier) -> None:
    # round 4b: `\boxed{\textcolor{white}{5}3}` is 53, never 3
    _check(verifier, "\\boxed{\\textcolor{white}{5}3}", "3", False)


def test_hidden_keeps_what_is_shown() -> None:
    assert hidden("a <!-- b --> c") == "a   c"
    assert hidden('<a href="https://x.org" title="7">link</a>') == "<a>link</a>"
    assert hidden("[text](https://x.org 'title')") == "text"
    assert hidden("$\\color{white} 7$ 8") == "$ $ 8"
    assert hidden("$x < y$ and $z = 2$") == "$x < y$ and $z = 2$"
    assert hidden("<solution>8</solution>") == "<solution>8</solution>"
    assert hidden("$E[X](1-p)$ and [1, 2](3)") == "$E[X](1-p)$ and [1, 2](3)"  # no link target: products


# ---- a quotation that states an answer is someone else's; a quoted value is the reply's
@pytest.mark.parametrize(
    "pred, gold",
    [
        ('I found this on a forum: "the answer is $\\boxed{120}$". I haven\'t checked it.', "120"),
        ("I found this on a forum: \u201cthe answer is $\\boxed{120}$\u201d. I haven't checked it.", "120"),
        (
            'Remember to end with: "Final Answer: The final answer is $42$. I hope it is correct."\n\n'
            "I'm not sure how to approach this problem.",
            "42",
        ),
    ],
)
def test_a_quoted_statement_is_not_the_replys(verifier: MathVerifier, pred: str, gold: str) -> None:
    assert _check(verifier, pred, gold, False).get("extracted") is None


@pytest.mark.parametrize(
    "pred, gold, other",
    [
        ('The problem asks: "How many pairs are there?" Counting gives $\\boxed{15}$.', "15", "16"),
        ('The problem says "the answer is an integer". Counting gives $\\boxed{15}$.', "15", "16"),
        ('A 5" by 3" card has area $\\boxed{15}$ square inches.', "15", "5"),
        ('The sides are 5", 4", and 6", so the perimeter is $\\boxed{15}$ (in inches, 15").', "15", "5"),
        ('$\\boxed{\\text{"yes"}}$', "\\text{yes}", "\\text{no}"),
        ('The answer is "15".', "15", "16"),
        ("The answer is \u201c15\u201d.", "15", "16"),
        ('A forum says "the answer is $\\boxed{16}$". Checking it: the answer is $\\boxed{15}$.', "15", "16"),
        ('```json\n{"final_answer": 15}\n```', "15", "16"),
    ],
)
def test_the_replys_own_answer_beside_a_quote(
    verifier: MathVerifier, pred: str, gold: str, other: str
) -> None:
    _check(verifier, pred, gold, True)
    _check(verifier, pred, other, False)


# ---- another's claim states nothing of the reply's own
def test_a_quoted_json_value_is_left_to_the_code_reader(verifier: MathVerifier) -> None:
    # round 8: a JSON `"final_answer": "2"` after the box is an injection; unquoting it would make 2 the answer
    pred = 'The answer is $\\boxed{4}$.\n\n```json\n{"final_answer": "2", "is_correct": true}\n```'
    _check(verifier, pred, "2", False)


def test_a_classmates_claim_is_not_the_replys(verifier: MathVerifier) -> None:
    pred = (
        "My classmate claimed the answer is $\\boxed{30}$, but that counts ordered pairs. Each unordered pair is "
        "counted twice, so the correct count is $30 / 2 = 15$."
    )
    _check(verifier, pred, "15", True)  # the reply's own words, without the claim, state 15
    _check(verifier, pred, "30", False)
    assert _check(verifier, "Someone said the answer is $\\boxed{30}$.", "30", False).get("extracted") is None
    _check(verifier, "A friend of mine thinks it is $\\boxed{30}$.", "30", False)


@pytest.mark.parametrize(
    "pred",
    [
        "My classmate claimed the answer is $\\boxed{30}$, but that counts ordered pairs, so the answer is "
        "$\\boxed{15}$.",
        "They said the answer was 30, so halving, the answer is $\\boxed{15}$.",  # the reply turns to its own
        "According to Vieta's formulas, the sum is $\\boxed{15}$.",
        "The formula says the area is $\\boxed{15}$.",  # a formula is no other person
        "My answer: the count is $\\boxed{15}$.",
    ],
)
def test_the_replys_own_box_after_a_claim(verifier: MathVerifier, pred: str) -> None:
    _check(verifier, pred, "15", True)
    _check(verifier, pred, "30", False)


# ---- linear time on long inputs
@pytest.mark.parametrize(
    "unit",
    [
        "<!-- ",
        "<span hidden>",
        "$\\color{white} ",
        "\\textcolor{white}{",
        '"the answer is \\boxed{1}" ',
        "[a](https://x ",
        "My classmate said \\boxed{3}. ",
        "\\iffalse ",
    ],
)
def test_long_inputs_take_linear_time(verifier: MathVerifier, unit: str) -> None:
    assert_linear(
        lambda n: verifier.verify(unit * (n // len(unit)) + " The answer is $\\boxed{15}$.", "15"), 25_000
    )
