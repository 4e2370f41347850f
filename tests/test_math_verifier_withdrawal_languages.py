"""Withdrawals after a box in every language the answer labels are read in: a `no`, a `wait` and a word of
error or admission (`Hayır, yanlış hesapladım; doğrusu 24`) take the box back, and the value after them answers;
the same words negated (`yanlış değil`) or followed by agreement take nothing back."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier

_WITHDRAWN = [
    "Cevap: $\\boxed{12}$. Hayır, yanlış hesapladım; doğrusu $24$.",  # tr
    "Câu trả lời: $\\boxed{12}$. Khoan, tôi tính sai, đúng là $24$.",  # vi
    "Jawaban: $\\boxed{12}$. Tunggu, saya salah hitung; yang benar $24$.",  # id
    "Odpowiedź: $\\boxed{12}$. Chwila, pomyliłem się: poprawnie $24$.",  # pl
    "Antwoord: $\\boxed{12}$. Wacht, dat klopt niet: het zijn er $24$.",  # nl
    "Svar: $\\boxed{12}$. Vänta, jag räknade fel: det är $24$.",  # sv
    "Відповідь: $\\boxed{12}$. Ні, помилка: правильно $24$.",  # uk
    "Απάντηση: $\\boxed{12}$. Περίμενε, λάθος: είναι $24$.",  # el
    "Vastaus: $\\boxed{12}$. Hetkinen, laskin väärin: oikein on $24$.",  # fi
    "Válasz: $\\boxed{12}$. Várj, elszámoltam: helyesen $24$.",  # hu
    "Odpověď: $\\boxed{12}$. Počkat, spletl jsem se: správně je $24$.",  # cs
    "Răspuns: $\\boxed{12}$. Stai, am greșit: corect este $24$.",  # ro
    "Jibu: $\\boxed{12}$. Subiri, nimekosea: sahihi ni $24$.",  # sw
    "উত্তর: $\\boxed{12}$। দাঁড়াও, ভুল হয়েছে: সঠিক উত্তর $24$।",  # bn (a danda ends the sentence)
    "پاسخ: $\\boxed{12}$. صبر کنید، اشتباه کردم: درست $24$ است.",  # fa
    "الجواب: $\\boxed{12}$. انتظر، أخطأت: الصحيح $24$.",  # ar
    "תשובה: $\\boxed{12}$. רגע, טעיתי: התשובה היא $24$.",  # he
    # the withdrawal in the sentence after the one the box ends (`... façons. Non, attendez : ...`)
    "Il y a donc $\\boxed{12}$ façons. Non, attendez : j'ai oublié le cas symétrique, donc $24$.",
]


@pytest.mark.parametrize("reply", _WITHDRAWN)
def test_a_withdrawn_box_gives_way_to_the_value_after_it(verifier: MathVerifier, reply: str) -> None:
    assert verifier.verify(reply, "12").reason == "wrong", reply
    assert verifier.verify(reply, "24").reason == "correct", reply


@pytest.mark.parametrize(
    "reply",
    [
        "Cevap: $\\boxed{12}$. Bu yanlış değil: $3 \\cdot 4 = 12$.",  # tr: `not wrong`
        "Đáp án: $\\boxed{12}$. Kết quả không sai, vì $3 \\cdot 4 = 12$.",  # vi: `not wrong`
        "Jawaban: $\\boxed{12}$. Tidak salah, karena $3 \\cdot 4 = 12$.",  # id: `not wrong`
        "Odpowiedź: $\\boxed{12}$. Nie ma błędu: $3 \\cdot 4 = 12$.",  # pl: `no error`
        "Svar: $\\boxed{12}$. Inte fel: $3 \\cdot 4 = 12$ och $4 \\cdot 6 = 24$ räknas inte.",  # sv: `not wrong`
        "Il y a donc $\\boxed{12}$ façons. Non pas $24$ : les cas symétriques sont les mêmes.",  # fr: `not 24`
    ],
)  # fmt: skip
def test_a_negated_error_takes_nothing_back(verifier: MathVerifier, reply: str) -> None:
    assert verifier.verify(reply, "12").reason == "correct", reply
    assert not verifier.verify(reply, "24").passed, reply
