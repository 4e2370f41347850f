"""Right answers the loaded red-team rounds (9-12) still missed, found as classes: answer labels of more
languages, derivatives applied (`f'(3) = 9`), currency abbreviations (`Rs. 60`), the division slash and a result
line's arrow. Each with the wrong value the same reply must still fail."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier


@pytest.mark.parametrize(
    ("reply", "right", "other"),
    [
        # answer labels of more languages (te, ml, si, am, mn, ceb, eo): the label's value, not the last formula's
        ("కర్ణం $= \\sqrt{169} = 13$, చుట్టుకొలత $= 30$.\n\nసమాధానం: 13", "13", "30"),
        ("തുക $= 65$. ശരാശരി $= \\frac{65}{5} = 13$, ഇരട്ടി $= 26$.\nഉത്തരം: 13", "13", "26"),
        ("එක් කොටසක් $= 8$. විශාල කොටස $= 5 \\times 8 = 40$, කුඩා $= 24$.\nපිළිතුර: 40", "40", "24"),
        ("$6$ መጽሐፍት $= 6 \\times 35 = 210$ ብር, ቀሪ $= 90$።\nመልስ: 210 ብር", "210", "90"),
        ("Хурд $= \\frac{240}{3} = 80$ км/ц, хугацаа $= 5$ цаг.\nХариу: 80 км/ц", "80", "5"),
        ("Luwang $= 9 \\times 4 = 36$, perimetro $= 2(9 + 4) = 26$.\n\nTubag: 36", "36", "26"),
        # a derivative applied is a labelled value, as `f(3) = 9` is; `f^{\prime}` and `f′` are `f'`
        ("$f'(2) = 0$ kaj $f'(3) = 27 - 18 = 9$.\n\nRespondo: $f'(3) = 9$", "9", "0"),
        ("The slope there is $\\boxed{f^{\\prime}(3) = 9}$.", "9", "3"),
        ("Concavity: $\\boxed{f''(1) = -4}$.", "-4", "1"),
        ("So the rate of change is f′(2) = 5", "5", "2"),
        # a currency abbreviation's dot ends no sentence (`Rs. 60`, Nepali `रु. ६०` with native digits)
        ("Each pen costs Rs. 15, so four cost Rs. 60.\n\nAnswer: Rs. 60", "60", "15"),
        ("$४ \\times १५ = ६०$ रुपैयाँ।\nउत्तर: रु. ६०", "60", "4"),
        # the division slash U+2215 writes a fraction, as `/` and the fraction slash do
        ("P = (4/10) · (3/9) = 12/90\n\nSo the probability is 2∕15.", "\\frac{2}{15}", "15"),
        # a result label with an arrow for its colon on the closing line
        ("• Time: 36/9 + 36/15 = 4 + 2.4 = 6.4 h\nResult ⟶ 6.4 hours", "6.4", "2.4"),
        ("Speed: 9\nResult → 6.4 hours", "6.4", "9"),
    ],
)  # fmt: skip
def test_missed_answers_read(verifier: MathVerifier, reply: str, right: str, other: str) -> None:
    assert verifier.verify(reply, right).reason == "correct", reply
    assert verifier.verify(reply, other).reason == "wrong", reply


@pytest.mark.parametrize(
    ("reply", "gold"),
    [
        # a hedge between two amounts stays a hedge when each is written `Rs. n` (the dot split it in four)
        ("Answer: Rs. 60. Hmm, or Rs. 70.", "70"),
        ("Answer: Rs. 60. Hmm, or Rs. 70.", "60"),
        # another derivative, or another function, is another quantity
        ("$\\boxed{g'(x) = 3x^2}$", "f'(x) = 3x^2"),
        ("$\\boxed{f(x) = 3x^2}$", "f'(x) = 3x^2"),
        # a result line that is a step, not the closing line, answers nothing by itself
        ("Result → 6.4 hours\nThen we add the 2 h stop: 8.4 hours in all, maybe 9.", "6.4"),
    ],
)  # fmt: skip
def test_gaps_closed_without_new_false_positives(verifier: MathVerifier, reply: str, gold: str) -> None:
    assert not verifier.verify(reply, gold).passed, reply
