"""The false-negative classes of issue 13, one acceptance rule at a time, each next to the wrong answers that
would have to pass if the rule were too loose (its adversarial cases). Every case asserts the reason."""

from __future__ import annotations

import pytest

from rlvr.verifiers import MathVerifier

MAT = r"\begin{pmatrix} 2 & 4 \\ 6 & 8 \end{pmatrix}"
A = r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}"


def _check(verifier: MathVerifier, pred: str, gold: str, want: bool) -> None:
    verdict = verifier.verify(pred, gold)
    assert verdict.reason == ("correct" if want else "wrong"), dict(verdict.details)


# (completion, gold, right?) -- each block: the rule's accepted form first, then what it must still refuse
LABELLED = [
    (r"$\boxed{(3, 2)}$", "$(p,q)=(3,2)$", True),
    (r"$\boxed{(2, 3)}$", "$(p,q)=(3,2)$", False),
    (r"$\boxed{4, 5}$", "$AB=4,CD=5$", True),
    (r"$\boxed{5, 4}$", "$AB=4,CD=5$", False),  # bare values follow the gold's labels in order
    (r"$\boxed{4}$", "$AB=4,CD=5$", False),
    (r"$\boxed{CD = 5, AB = 4}$", "$AB=4,CD=5$", True),  # labelled values are matched by label
    (r"$\boxed{CD = 4, AB = 5}$", "$AB=4,CD=5$", False),
    (r"$\boxed{7:32}$", "$S_{MBCN}:S=7:32$", True),
    (r"$\boxed{32:7}$", "$S_{MBCN}:S=7:32$", False),
    (r"$\frac{1}{\sqrt{6}}$", r"$\frac{NO}{BO}=\frac{1}{\sqrt{6}}$", True),
    (r"$\sqrt{6}$", r"$\frac{NO}{BO}=\frac{1}{\sqrt{6}}$", False),
    (r"$$1$$", "$$|AB|=1$$", True),
    (r"$\boxed{\det(A) = -2}$", "-2", True),
    (r"$\boxed{\det(A) = 2}$", "-2", False),
    (r"$\boxed{f^{-1}(x)=\frac{x-3}{2}}$", r"\frac{x-3}{2}", True),
    (r"$\boxed{f^{-1}(x)=\frac{x+3}{2}}$", r"\frac{x-3}{2}", False),
    # a condition is not a label: `2x = 4` and `x + y = 5` do not say what 4 or 5 is
    (r"$\boxed{4}$", "2x = 4", False),
    (r"$\boxed{5}$", "x + y = 5", False),
    (r"$\boxed{x + 1 = -2}$", "-2", False),
    (r"\boxed{1 < |z| \le 2}", r"[-2,-1) \cup (1,2]", True),
    (r"\boxed{-1 \le |z| \le 2}", r"[-2, 1] \cup [-1, 2]", False),  # a lower bound <= 0 is no band
    # a function defined with another argument name is the same function; nothing else is renamed
    ("W(x)=1orW(x)=-1", r"\boxed{W(n) = 1 \text{ and } W(n) = -1}", True),
    ("W(x)=1orW(x)=-2", r"\boxed{W(n) = 1 \text{ and } W(n) = -1}", False),
    ("W(x)=1orV(x)=-1", r"\boxed{W(n) = 1 \text{ and } W(n) = -1}", False),
    (r"\boxed{f(t) = t^2}", "f(x) = x^2", True),
    (r"\boxed{f(t) = x^2}", "f(x) = x^2", False),
    (r"\boxed{g(t) = t^2}", "f(x) = x^2", False),
    (r"\boxed{AC = 4}", "AB = 4", False),
    # coordinates named out of order are put in the order of their names
    (r"\boxed{y=-1, x=3}", "(3,-1)", True),
    (r"\boxed{y=3, x=-1}", "(3,-1)", False),
    (r"\boxed{x=-1, y=3}", "(3,-1)", False),
]

SETS = [
    (r"$\boxed{(7,11),\ (11,7)}$", "$(11,7)or(7,11)$", True),
    (r"$\boxed{(7,11)}$", "$(11,7)or(7,11)$", False),
    (r"$\boxed{(7,11), (7,11)}$", "$(11,7)or(7,11)$", False),  # a repeat is not the missing solution
    (r"$\boxed{(7,11), (11,7), (7, 11)}$", "$(11,7)or(7,11)$", True),  # listed twice, still the same set
    (r"$(5,2),(7,2)$", "$p=5,q=2;p=7,q=2$", True),
    (r"$(2,5),(2,7)$", "$p=5,q=2;p=7,q=2$", False),
    (r"$(5,2)$", "$p=5,q=2;p=7,q=2$", False),
    (r"\boxed{(0, -2, 6), (4, 0, 0)}", "$(0;-2;6),(4;0;0)$", True),
    (r"\boxed{(0, 6, -2), (4, 0, 0)}", "$(0;-2;6),(4;0;0)$", False),
    (r"$$\boxed{(x, y) = (5, 8) \quad \text{and} \quad (8, 5)}$$", "$$(5, 8), (8, 5)$$", True),
    (r"$$\boxed{(x, y) = (5, 8) \quad \text{and} \quad (5, 8)}$$", "$$(5, 8), (8, 5)$$", False),
    (r"$$\boxed{(3, 3)} \text{ for part (a) and } \boxed{(1, 1)}$$", "$$(3, 3), (1, 1)$$", True),
    (r"$$\boxed{(3, 3)} \text{ for part (a) and } \boxed{(1, 2)}$$", "$$(3, 3), (1, 1)$$", False),
    (r"$\boxed{1,2}$", r"\boxed{1} papers and \boxed{2} bins", True),
    (r"$\boxed{2,1}$", r"\boxed{1} papers and \boxed{2} bins", False),
    ("${35 cm,4}$", r"$\boxed{35 cm} ++++++ \boxed{4}$", True),  # a reference's boxes apart by symbols only
    ("${4}$", r"$\boxed{35 cm} ++++++ \boxed{4}$", False),
    ("$2,3$", r"\boxed{1} and and and or thus but \boxed{2} and \boxed{3}", True),  # prose parts them
    ("$1,2,3$", r"\boxed{1} and and and or thus but \boxed{2} and \boxed{3}", False),
    (r"\boxed{\text{no solution}}", r"\emptyset", True),
    (r"\boxed{\text{no real solutions}}", r"\emptyset", True),
    (r"\boxed{\text{no solution}}", r"\{1\}", False),
    (r"\boxed{\{1\}}", r"\emptyset", False),
]

INTERVALS = [
    (r"\boxed{x<-1 \text{ or } x>1}", r"(-\infty,-1)\cup(1,\infty)", True),
    (r"\boxed{x<-1 \text{ or } x>2}", r"(-\infty,-1)\cup(1,\infty)", False),
    (r"\boxed{x \le -1 \text{ or } x>1}", r"(-\infty,-1)\cup(1,\infty)", False),
    (r"\boxed{x \ne 0}", r"(-\infty,0)\cup(0,\infty)", True),
    (r"\boxed{x \ne 1}", r"(-\infty,0)\cup(0,\infty)", False),
    (r"\boxed{\mathbb{R}\setminus\{0\}}", r"(-\infty,0)\cup(0,\infty)", True),
    (r"\boxed{\mathbb{R}\setminus\{1\}}", r"(-\infty,0)\cup(0,\infty)", False),
    (r"\boxed{\mathbb{R}\setminus\{0, 1\}}", r"(-\infty,0)\cup(0,\infty)", False),
    (r"\boxed{\text{all real numbers}}", r"(-\infty,\infty)", True),
    (r"\boxed{\text{all real numbers}}", r"(0,\infty)", False),
    (r"\boxed{0<f(x)<1}", "(0,1)", True),
    (r"\boxed{0<f(x) \le 1}", "(0,1)", False),
    (r"\boxed{(0,1)}", "$0<f(x)<1$", True),
    (r"\boxed{[0,1]}", "$0<f(x)<1$", False),
    # `a <= |z| <= b` is two intervals, with its ends open or closed as written
    (
        r"$z \in \left[-\frac{3}{2}, -1\right] \cup \left[1, \frac{3}{2}\right]$",
        r"$1\leq|z|\leq \frac{3}{2}$",
        True,
    ),
    (
        r"$z \in \left[-\frac{3}{2}, -1\right) \cup \left(1, \frac{3}{2}\right]$",
        r"$1\leq|z|\leq \frac{3}{2}$",
        False,
    ),
    (r"$z \in \left[1, \frac{3}{2}\right]$", r"$1\leq|z|\leq \frac{3}{2}$", False),
    (r"$z \in \left[-\frac{3}{2}, \frac{3}{2}\right]$", r"$1\leq|z|\leq \frac{3}{2}$", False),
]

NUMBERS = [
    (r"\boxed{\text{three}}", "3", True),
    (r"\boxed{\text{four}}", "3", False),
    (r"\boxed{0.5}", "one half", True),
    (r"\boxed{0.5}", "one third", False),
    (r"\boxed{1{,}234{,}567}", "1234567", True),
    (r"\boxed{1{,}234{,}568}", "1234567", False),
    (r"\boxed{11,\! 111}", "11111", True),
    (r"\boxed{11, 111}", "11111", False),  # a plain comma and space lists two numbers
    (r"\boxed{111}", "0,111", False),  # a group starting with 0 is no thousands group
    (r"\boxed{0.333\ldots}", r"\frac{1}{3}", True),
    (r"\boxed{0.1666\ldots}", r"\frac{1}{6}", True),
    (r"\boxed{0.333\ldots}", r"\frac{1}{4}", False),
    (r"\boxed{3.14159\ldots}", r"\frac{1}{3}", False),
    (r"\boxed{0.3\ldots}", r"\frac{1}{3}", False),  # one digit is no repetition: 0.3 is not 1/3
    ("The total cost is 1000,99 euros.", "1000.99", True),
    ("The total cost is 1000,98 euros.", "1000.99", False),
    (r"\boxed{1000, 99}", "1000.99", False),  # with a space it is a list
    ("0.111", "0,111", True),
    ("1.2", "1,2", False),  # `1,2` as a gold may be the list {1, 2}: not read as a decimal
    (r"\boxed{33\frac{1}{3}\%}", r"33\frac{1}{3}\%", True),
]

CHOICES = [
    # a letter stated in prose, only when the gold is a letter
    ("The answer is for sure D, it can't be A or B", "D", True),
    ("The answer is for sure not D", "D", False),
    ("Let's think. It's not A because it doesn't make sense, therefore I think it's B", "B", True),
    ("Let's think. It's not A because it doesn't make sense, therefore I think it's B", "A", False),
    ("D. it can't be A or B", "D", True),
    ("B。不是 A", "B", True),
    ("B。不是 A", "A", False),
    ("réponse est C non A", "C", True),
    ("The answer is (B) and (D)", "B", False),  # two options named: neither
    ("(B) or (D)", "D", False),
    ("I think the answer is a number", "A", False),  # lower-case a is a word
    ("D", "(D) Alina", True),  # a gold option with its text
]

NO_LETTER = [  # no letter is stated: `no_answer`, never a guess
    ("I think it's B, not C", "C"),
    ("Alina", "(A) Alina"),
]

TEXT = [
    (r"\boxed{\text{odd function}}", r"\text{odd}", True),
    (r"\boxed{\text{even function}}", r"\text{odd}", False),
    (r"\boxed{\text{not odd}}", r"\text{odd}", False),
]

MATRICES = [
    (rf"$\boxed{{2{A}}}$", MAT, True),
    (rf"$\boxed{{3{A}}}$", MAT, False),
    (rf"$\boxed{{{A} + {A}}}$", MAT, True),
    (rf"$\boxed{{{A} - {A}}}$", MAT, False),
    (r"$\begin{pmatrix}1 & 0 \\ 0 & 2\end{pmatrix} \begin{pmatrix}2 & 4 \\ 3 & 4\end{pmatrix}$", MAT, True),
    (r"$\begin{pmatrix}2 & 4 \\ 3 & 4\end{pmatrix} \begin{pmatrix}1 & 0 \\ 0 & 2\end{pmatrix}$", MAT, False),
    (r"$\boxed{\langle 1, 2, 3 \rangle}$", r"\begin{pmatrix} 1 \\ 2 \\ 3 \end{pmatrix}", True),
    (r"$\boxed{\langle 1, 3, 2 \rangle}$", r"\begin{pmatrix} 1 \\ 2 \\ 3 \end{pmatrix}", False),
    (r"$\boxed{2\mathbf{i} - \mathbf{j}}$", r"\begin{pmatrix} 2 \\ -1 \end{pmatrix}", True),
    (r"$\boxed{2\mathbf{i} + \mathbf{j}}$", r"\begin{pmatrix} 2 \\ -1 \end{pmatrix}", False),
    (r"$\boxed{\hat{i} - \hat{j} + 3\hat{k}}$", r"\begin{pmatrix} 1 \\ -1 \\ 3 \end{pmatrix}", True),
    (r"$\boxed{2i - 1}$", r"\begin{pmatrix} 2 \\ -1 \end{pmatrix}", False),  # a plain i is imaginary
    (r"$\boxed{\mathbf{i}^2}$", r"\begin{pmatrix} 1 \\ 0 \end{pmatrix}", False),  # not linear: no vector
]

EXTRACTION = [
    # a doubly escaped completion is read as LaTeX; the values still decide
    (r"$\\boxed{\\left( 3, \\frac{\\pi}{2} \\right)}.$", r"$(3, \frac{\pi}{2})$", True),
    (r"$\\boxed{\\left( 3, \\frac{\\pi}{3} \\right)}.$", r"$(3, \frac{\pi}{2})$", False),
    # a new chat turn ends the answer: a box in it is not this reply's
    (r"So it is \boxed{5}. <|im_start|>user Now compute \boxed{7}", "5", True),
    (r"So it is \boxed{5}. <|im_start|>user Now compute \boxed{7}", "7", False),
    (r"<|im_start|>assistant So it is \boxed{5}.<|im_end|><|im_start|>user Now \boxed{7}", "5", True),
    (r"<|im_start|>assistant So it is \boxed{5}.<|im_end|><|im_start|>user Now \boxed{7}", "7", False),
    # several boxed steps, then a committed final answer: the final answer wins
    (
        r"$\boxed{200}$ then $\boxed{255}$, so $10,455. Final Answer: The final answer is $10,455$.",
        "10455",
        True,
    ),
    (
        r"$\boxed{200}$ then $\boxed{255}$, so $10,455. Final Answer: The final answer is $10,455$.",
        "255",
        False,
    ),
    (r"$\boxed{200}$ then $\boxed{255}$. The final answer is not 300.", "255", True),  # negated: no override
    # one box stays the answer: a restating phrase after it is not re-read (its extraction can be lossy)
    (
        r"between $\boxed{12 $ and $13 }. $ Final Answer: The final answer is \"$12 $ and $13 $\".",
        "12, 13",
        True,
    ),
    # "... is $X$. I hope it is correct." closes the answer: later rambling revises it only with a new answer
    (
        r"The final answer is $14 {, }916$. I hope it is correct. [Note: digits 3 and 4 and $A$ were checked.]",
        "14916",
        True,
    ),
    (r"The final answer is $5$. I hope it is correct. Wait, the final answer is $7$.", "5", False),
    (r"The final answer is $5$. I hope it is correct. Actually \boxed{7}.", "5", False),
    # a stray `$` opened a math span around prose: its one number answers
    ("how many $? just about 1$", "1", True),
    ("how many $? just about 1 or 2$", "1", False),
    ("how many $? just about 1 or 2$", "2", False),
    # a concluding sentence after the last formula states the answer
    (r"we get $d = \frac{90}{n}$. Therefore, there are 12 distinct sequences.", "12", True),
    (r"we get $d = \frac{90}{n}$. Therefore, there are 12 distinct sequences.", "90", False),
    (r"we get $d = \frac{90}{n}$. Therefore, 12 or 13 sequences remain.", "12", False),  # two numbers: none
    # prose in any script is prose: its last number answers, a LaTeX fraction is one number
    ("所以一共有3 + 10 = 13只鸟和鹳鸟。", "13", True),
    ("所以一共有3 + 10 = 13只鸟和鹳鸟。", "10", False),
    (r"答案：每份应该是 (\frac{2}{5}) 吨。", "2/5", True),
    (r"答案：每份应该是 (\frac{2}{5}) 吨。", "5", False),
]


@pytest.mark.parametrize(
    "pred, gold, want",
    LABELLED + SETS + INTERVALS + NUMBERS + CHOICES + TEXT + MATRICES + EXTRACTION,
)
def test_class(verifier: MathVerifier, pred: str, gold: str, want: bool) -> None:
    _check(verifier, pred, gold, want)


def test_whole_solution_gold_is_graded_by_its_final_answer(verifier: MathVerifier) -> None:
    gold = (
        "Let the value be $100$. After a $10 \\%$ loss it is $90$ and after a further $20 \\%$ loss it is $72$, "
        "so the loss is $28 \\%$. Final Answer: The final answer is $28 \\%$. I hope it is correct. Note: the "
        "solution provided is incorrect. The correct approach is as follows:"
    )
    assert verifier.verify(r"a total loss of $\boxed{28\%}$.", gold).passed
    assert not verifier.verify(r"a total loss of $\boxed{72\%}$.", gold).passed
    assert verifier.verify(r"a total loss of $\boxed{28\%}$.", gold).details["gold"] == "28 \\%"


@pytest.mark.parametrize("pred, gold", NO_LETTER)
def test_no_letter_stated(verifier: MathVerifier, pred: str, gold: str) -> None:
    verdict = verifier.verify(pred, gold)
    assert (verdict.passed, verdict.reason) == (False, "no_answer"), dict(verdict.details)
