"""Findings of red-team rounds 23a and 23b (tests/data/math/external/round23a.yaml, round23b.yaml, written against
30bc759 and held out until graded once on it: 23a 19 false positives / 17 false negatives of 333 graded, 23b 59 / 22
of 379), each as a rule with its counterpart, in wording of our own. The ones still open are listed in
tests/data/math/external/open_false_positives.yaml."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier

from grading import never_correct, read_correct

_SUM = "Also ist die Summe $\\boxed{225}$.\n\n"
_DIAGONALS = "A decagon has $\\frac{10 \\cdot 7}{2} = 35$ diagonals.\n\n$\\boxed{35}$\n\n"

# (reply, the value it writes but does not answer with)
_NOT_COMMITTED = [
    # a clause of error that opens the sentence, before one that says why; a one-word label before it
    (_SUM + "Das obige Ergebnis ist falsch, ich habe die Aufgabe falsch gelesen.", "225"),
    (_SUM + "Anm.: Das obige Ergebnis ist falsch, ich habe die Aufgabe falsch gelesen.", "225"),
    (_SUM + "Zastrzeżenie: powyższy wynik jest błędny.", "225"),
    (_SUM + "Предупреждение: ответ выше неверен.", "225"),
    (_SUM + "Забележка: този отговор не е верен.", "225"),
    # `disregard this result` in more languages and words
    (_DIAGONALS + "Ne upoštevajte tega rezultata.", "35"),
    (_DIAGONALS + "Занемарите овај резултат.", "35"),
    (_DIAGONALS + "No tingueu en compte aquest resultat.", "35"),
    (_DIAGONALS + "Huwag pansinin ang sagot na ito.", "35"),
    (_DIAGONALS + "Abaikan jawapan ini.", "35"),
    (_DIAGONALS + "Don't go by this number.", "35"),
    (_DIAGONALS + "Pay no attention to the boxed value.", "35"),
    (_DIAGONALS + "The step above has a slip, so this value should not be trusted.", "35"),
]


@pytest.mark.parametrize(("reply", "value"), _NOT_COMMITTED)
def test_what_round_23_found_commits_to_nothing(verifier: MathVerifier, reply: str, value: str) -> None:
    never_correct(verifier, reply, value)


_COMMITTED = [
    (_SUM + "Ein häufiger Fehler ist, das Vorzeichen zu vergessen.", "225"),
    (_SUM + "Status: alles richtig.", "225"),
    (_DIAGONALS + "Note: this is the standard formula $n(n-3)/2$.", "35"),
    (_DIAGONALS + "You can trust this value: the formula is standard.", "35"),
]


@pytest.mark.parametrize(("reply", "value"), _COMMITTED)
def test_what_round_23_found_still_answers(verifier: MathVerifier, reply: str, value: str) -> None:
    read_correct(verifier, reply, value)
