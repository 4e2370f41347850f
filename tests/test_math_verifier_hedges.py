"""No hedge scores: a reply that names two different values is never graded right against both.

RL maximises whatever the reward allows. If some way of writing two candidate answers were accepted for either
gold, a policy would learn to write both. Extraction never sees the gold, so a reply has one reading, right or
wrong for every gold alike; this test holds the verifier to that across many hedge forms (boxes, phrases, prose,
tags, lists, brackets, strike-outs, options) and value kinds (integers, fractions, radicals, letters, words)."""

from __future__ import annotations

import itertools

import pytest

from rlvr.verifiers import MathVerifier

# `{a}` and `{b}` are the two candidate values; each form is a way a policy could name both
HEDGES = [
    r"\boxed{{{a}}} or \boxed{{{b}}}",
    r"\boxed{{{a}}} \boxed{{{b}}}",
    r"The answer is $\boxed{{{a}}}$. Alternatively, $\boxed{{{b}}}$.",
    r"$\boxed{{{a}}}$ (or $\boxed{{{b}}}$)",
    r"$\boxed{{{a}}}$ ({b} if the ends count)",
    r"\boxed{{{a} \text{{ or }} {b}}}",
    r"\boxed{{{a}, {b}}}",
    r"\boxed{{\{{{a}, {b}\}}}}",
    r"\boxed{{{a} / {b}}}",
    r"\boxed{{{a} \lor {b}}}",
    r"The answer is either {a} or {b}.",
    r"The answer is {a} or {b}.",
    r"The answer is {a}, unless it is {b}.",
    r"Final answer: {a} (maybe {b}).",
    r"Answer: {a}. Answer: {b}?",
    r"<answer>{a}</answer> <answer>{b}</answer>",
    r"Under reading A: $\boxed{{{a}}}$. Under reading B: $\boxed{{{b}}}$.",
    r"If the question means the total, $\boxed{{{a}}}$; if it means the difference, $\boxed{{{b}}}$.",
    r"$\boxed{{{a}}}$ <s>$\boxed{{{b}}}$</s>",
    r"$\boxed{{{a}}}$ ~~$\boxed{{{b}}}$~~",
    r"$x = {a}$ or $x = {b}$",
    r"So $x = {a}$ and $x = {b}$.",
    r"The value is {a}; the value is {b}.",
    r"**{a}** or **{b}**",
    "<think>The answer is {a}.</think> The answer is {b}, or {a}.",
    r"$\boxed{{{a}}}$\n\nHmm, or maybe $\boxed{{{b}}}$.",
    r"Answer: ({a}) or ({b})",
    r"$\boxed{{{a}}}$ [alt. {b}]",
    r"\boxed{{{a}}}; alt: ${b}$",
    r"\boxed{{{a} \pm {b}}}",
    r"{a}\n{b}",
    r"{a}, {b}",
]

# pairs of different values of each kind a gold may take
PAIRS = [
    ("7", "8"),
    ("12", "-12"),
    (r"\frac{1}{2}", r"\frac{1}{3}"),
    (r"\sqrt{2}", r"\sqrt{3}"),
    ("0.5", "0.25"),
    (r"\pi", "3"),
    ("x^2", "2x"),
    (r"\text{(A)}", r"\text{(C)}"),
    (r"\text{odd}", r"\text{even}"),
    ("(1, 2)", "(2, 1)"),
]


@pytest.mark.parametrize("form", HEDGES)
def test_a_hedge_is_never_right_for_both_values(verifier: MathVerifier, form: str) -> None:
    """Whatever a form's reading is, it cannot be right for both of two different golds."""
    both = []
    for a, b in PAIRS:
        for x, y in ((a, b), (b, a)):
            reply = form.format(a=x, b=y).replace(r"\n", "\n")
            right = [g for g in (x, y) if verifier.verify(reply, g).passed]
            if len(right) == 2:
                both.append(reply)
    assert both == [], f"hedges scored right for either gold: {both}"


def test_the_hedge_forms_can_fail() -> None:
    """The check above sees a hedge: a verifier that accepts any value the reply names is caught."""

    class AnyValue(MathVerifier):
        def verify(self, completion: str, reference: str):  # type: ignore[override]
            verdict = super().verify(completion, reference)
            if not verdict.passed and reference in completion:
                return super().verify(reference, reference)
            return verdict

    greedy = AnyValue(in_process=True)
    caught = [
        form
        for form, (a, b) in itertools.product(HEDGES[:3], PAIRS[:1])
        if all(greedy.verify(form.format(a=a, b=b), g).passed for g in (a, b))
    ]
    assert caught == HEDGES[:3]


def test_one_value_stated_twice_is_no_hedge(verifier: MathVerifier) -> None:
    """The same value written twice (or equal forms of it) is one answer, right for its gold."""
    assert verifier.verify(r"The answer is $\boxed{7}$, i.e. $\boxed{7}$.", "7").passed
    assert verifier.verify(r"$\boxed{\frac{1}{2}}$ (that is, $0.5$)", r"\frac{1}{2}").passed
