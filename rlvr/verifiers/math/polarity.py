"""Whether a sentence judges the statement before it wrong, read from its words rather than from its phrasing.

A withdrawal can be phrased in endless ways (`Sanity check failed.`, `That's way too big.`, `Turns out that's
wrong.`, `Back to the drawing board.`), so instead of listing phrasings this module allows a closed vocabulary:
a clause judges the statement when every word in it belongs to the small set of words that talk about a
statement and its correctness (pronouns and function words, the names of what was computed: answer, result,
value, count, box ...; of what it is checked against: condition, equation, domain ...; of checking: check,
verification, plugging ...) and its polarity is negative (a negative word such as `wrong`, `failed`,
`contradicts`, `too big`, `start over`, or a positive one under a negation: `doesn't work`, `not in the domain`).
A clause with any other word names something else (`The other root is impossible.`, `Many students get this
wrong.`, `Negative lengths are impossible.`) and judges nothing said; a condition or a question (`if`, `would`,
`might`, `?`) judges no fact. The stated answer itself may be the clause's subject (`$7$ is not odd, so it cannot
be the answer.`): a clause that opens on it may say anything of it, but must name a negative word to judge it.
For other languages a short sentence with a word of error (`Это ошибка.`, `これは違う。`, `Hayır, bu yanlış.`)
does the same.
"""

from __future__ import annotations

import re

from rlvr.verifiers.math.languages import DISOWNING

#: The token a caller writes in place of the reply's own answer restated (`$7$` after `\\boxed{7}`).
ANSWER = "answervalue"


def wordset(words: str) -> frozenset[str]:
    """The words of a whitespace-separated list."""
    return frozenset(words.split())


_NEGATIVE = wordset(
    """wrong wrongly incorrect incorrectly invalid impossible false off bogus nonsense absurd mistake mistakes
    mistaken error errors erroneous flawed typo typos contradiction contradictions contradicts contradict
    contradicted contradictory violates violated violate violation fail fails failed failing failure broken bad
    inconsistent inconsistency excluded rejected nope scrap scrapped retract retracted retracting disregard
    discard ignore redo bug buggy botched garbage nah oops whoops invalidated disproved refuted untrue
    unacceptable inadmissible infeasible nonsensical withdraw withdrawing withdrawn awry amiss overcounts
    undercounts overcounted undercounted overcount undercount double-counts double-counted double-count void voided
    erratum errata trap cancelled canceled revoke revoked rescind rescinded annulled nullified misstep goof
    goofed placeholder provisional unconfirmed unreliable untrustworthy dubious questionable unsolved superseded
    outdated obsolete deprecated \u2717 \u2718 \u274c"""
)
# (`checks out`, `adds up`, `makes sense`, `that's it` are rewritten to `fine` first: `out`, `up` alone say nothing)
_POSITIVE = wordset(
    """right correct valid true work works worked hold holds held satisfy satisfies satisfied consistent fine
    ok okay good possible allowed permitted admissible acceptable feasible trust pass passes passed meet meets
    met happen happens trusted trustworthy reliable"""
)
# what only a negation makes a judgement of (`not the answer`, `not in the domain`); alone it names, not praises
_NAMING = wordset("answer solution domain range option options choice choices")
_NEGATORS = wordset("no not never without nothing none cannot hardly nor")
_SIZES = wordset("big large small high low many few much long short")
# two-word judgements: `start over`, `take it back`, `drawing board`, `scratch that` (wrong); `checks out`,
# `adds up`, `makes sense`, `that's it` (fine)
_PHRASES_WRONG_RE = re.compile(
    r"\bstart(?:ing)?\s+(?:over|again)\b|\btake\s+(?:it|that|this|everything)\s+back\b|\bdrawing\s+board\b"
    r"|\bscratch\s+(?:that|this|it|everything)\b|\bnot\s+so\s+fast\b|\bno\s+good\b|\btake\s+back\b"
    r"|\bblew\s+it\b|\bno\s+way\b|\bcount(?:s|ed)?\s+(?:each|every)\s+\w+\s+twice\b|\bcounted\s+twice\b|\babsolutely\s+not\b|\btoo\s+\w+\s+to\s+be\s+(?:right|correct|true|valid|possible|the\s+answer)\b",
    re.IGNORECASE,
)
_PHRASES_FINE_RE = re.compile(
    r"\b(?:check(?:s|ed)?\s+out|adds?\s+up|added\s+up|makes?\s+sense|made\s+sense"
    r"|(?<=(?:that|this)'s\s)(?:not\s+)?it|(?<=(?:that|this)\sis\s)(?:not\s+)?it)\b",
    re.IGNORECASE,
)
_CLOSED = (
    # pronouns, articles, auxiliaries, particles, adverbs of degree, certainty and time
    wordset(
        """the a an this that these those it its it's itself which what whatever is was are were be been being am
        's 're 'm seems seem seemed looks look looked appears appear appeared must do does did done has have had
        having i we my our me us you your one there here so then now but however though and or also too very way
        much all just still quite really clearly obviously definitely certainly totally completely entirely surely
        actually indeed evidently apparently plainly simply utterly absolutely hmm hm wait oh ah ugh uh um erm well
        sorry yes yeah again somewhere something everything anything above previous previously earlier before last
        final boxed given turns turned out realize realized realise realised see saw seen notice noticed think
        thought believe found find finding shows show showed shown indicates indicated reveals revealed upon after
        on in of to for at by with from into as than like more even any some thing things go goes going get gets
        got let let's please need needs should can will shall back over done seriously kind sort bit little whole
        here's that's there's what's wasn't isn't aren't weren't doesn't don't didn't can't couldn't won't
        wouldn't shouldn't hasn't haven't hadn't i'll we'll treat something's everything's nothing's possibly edit update note ps
        correction retraction i'm we're i've we've i'd you're eh whoa haha lol silly consider one's went against
        first second third both exactly below"""
    )
    # what was computed and what it is checked against, and the checking itself
    | wordset(
        """answer answers result results value values solution solutions number numbers box count counting
        computation computations calculation calculations work working reasoning step steps approach attempt claim
        conclusion derivation arithmetic math maths line lines part parts estimate guess figure total sum product
        condition conditions constraint constraints problem question hypothesis assumption domain equation
        equations requirement requirements statement original data range restriction restrictions premise
        premises hypotheses check checks checked checking recheck rechecked rechecking double-check double-checked
        double-checking verification verify verified verifying sanity plugging plug substituting substitution
        test tested testing proof reading mine ours list listing enumeration brute-force simulation ansatz
        conjecture"""
    )
    | _NEGATIVE
    | _POSITIVE
    | _NAMING
    | _NEGATORS
    | _SIZES
)
# the words that name the reply's answer itself in a clause of closed words (`the boxed number`, `my answer`)
_NAMES_ANSWER = wordset("answer boxed result") | {ANSWER}
#: Words one of which any negative clause has (negatives, negations, the heads of judging phrases)
CUE_WORDS = _NEGATIVE | _NEGATORS | wordset("too blew way scratch start starting drawing take")
# any word that can make a clause negative: without one, no clause is read
_CUE_RE = re.compile(
    r"(?<![\w'])(?:"
    + "|".join(sorted((re.escape(w) for w in _NEGATIVE | _NEGATORS), key=len, reverse=True))
    + r")(?![\w'])|n't\b|\btoo\b|\bblew\b|\bway\b|\bscratch\b|\bstart(?:ing)?\s+(?:over|again)\b"
    r"|\bdrawing\s+board\b|\btake\s+(?:\w+\s+)?back\b|\bcount(?:s|ed)?\s+(?:each|every)\s+\w+\s+twice\b"
    r"|\bcounted\s+twice\b",
    re.IGNORECASE,
)
_EXTRAPOSED_RE = re.compile(
    r"\bit(?:'s|\s+is|\s+was|\s+would\s+be|\s+will\s+be)\s+(?:\w+\s+){0,3}?(?:to|for|that)\b", re.IGNORECASE
)
_VALUE_RE = re.compile(r"\d|\$|\\[a-zA-Z(\[]")
_WORD_RE = re.compile(r"[a-z]+(?:['\u2019-][a-z]+)*|[\u2717\u2718\u274c]", re.IGNORECASE)
# a condition, a modal or a question judges no fact
_HYPOTHETICAL_RE = re.compile(
    r"\b(?:if|unless|otherwise|whether|would|could|might|may|suppose|assuming|when|whenever|else)\b|\?",
    re.IGNORECASE,
)
# clauses: punctuation, and the conjunctions that open a reason or a consequence
_CLAUSE_CUT_RE = re.compile(
    r"[,;:\u2014\u2013()]|\s-\s|\b(?:because|since|as|given|so|hence|thus|therefore|which|while|whereas|although"
    r"|though|but|and)\b",
    re.IGNORECASE,
)


def _negative(words: list[str]) -> tuple[bool, bool]:
    """(a negative word survives, a positive word survives) after each negation flips what follows it."""
    negative = positive = False
    for i, word in enumerate(words):
        flipped = any(w in _NEGATORS or w.endswith("n't") for w in words[max(0, i - 4) : i])
        if word in _NEGATIVE or (word in _SIZES and i > 0 and words[i - 1] == "too"):
            positive, negative = (positive or flipped), (negative or not flipped)
        elif word in _POSITIVE:
            negative, positive = (negative or flipped), (positive or not flipped)
        elif word in _NAMING and flipped:
            negative = True
    return negative, positive


def judges_wrong(sentence: str) -> bool:
    """Whether a sentence (with the reply's restated answer written as `ANSWER`) judges the statement before
    it wrong, by the closed vocabulary and polarity of one of its clauses (see the module docstring)."""
    if not _CUE_RE.search(sentence) or _HYPOTHETICAL_RE.search(sentence):
        return (
            False  # (no negative word, negation or judging phrase at all: the common case, decided at once)
        )
    sentence = _PHRASES_WRONG_RE.sub(" wrong ", sentence)
    sentence = _PHRASES_FINE_RE.sub(
        lambda m: " not fine " if m.group().lower().startswith("not") else " fine ", sentence
    )
    about_other = False  # an earlier clause named something else: a later `it` refers to that
    for clause in _CLAUSE_CUT_RE.split(sentence):
        if _VALUE_RE.search(clause):
            about_other = True  # `So 7 is wrong.` after `\\boxed{8}`: a judgement of another value
            continue
        if _EXTRAPOSED_RE.search(clause):
            about_other = (
                True  # `It is impossible to get more than this.`: a dummy `it`, judging what follows
            )
            continue
        words = [w.lower().replace("\u2019", "'") for w in _WORD_RE.findall(clause)]
        if not words:
            continue
        negative, positive = _negative(words)
        closed = all(w in _CLOSED or w == ANSWER for w in words)
        if (
            words[0] == ANSWER and not closed
        ):  # `$7$ is not odd`: a predicate of the answer, judged only by an
            if any(w in _NEGATIVE for w in words) and negative and not positive:  # explicit negative word
                return True
            continue
        if closed:
            # (`The count treats rotations as distinct, so the boxed number is too large`: a clause that names the
            # answer judges it, whatever an earlier clause was about)
            if negative and not positive and (not about_other or not _NAMES_ANSWER.isdisjoint(words)):
                return True
        else:
            about_other = True
    return False


# other languages: a short sentence with a word of error, no negation right before it
_OTHER_STEMS = (
    r"\u043e\u0448\u0438\u0431\u043a|\u043e\u0448\u0438\u0431\u0441|\u043d\u0435\s+\u0442\u0430\u043a"  # ошибк ошибс не так
    r"|\u043d\u0435\u0432\u0435\u0440\u043d|\u043d\u0435\u043f\u0440\u0430\u0432|\u043b\u043e\u0436\u043d"  # неверн неправ ложн
    r"|\u043d\u0435\s+\u043c\u043e\u0436\u0435\u0442\s+\u0431\u044b\u0442\u044c"  # не может быть
    r"|erreur|faux|fausse|incorrecte?|pas\s+(?:correct|juste|bon)|fehler|falsch|stimmt\s+nicht|kann\s+nicht\s+sein"
    r"|nicht\s+(?:richtig|korrekt)|un\s+error|error\s+de|incorrect[oa]|est\u00e1\s+mal|no\s+es\s+(?:correct[oa]|cierto)"
    r"|equivoqu|equivoc\u00f3|\berro\b|errad[oa]|incorret[oa]|n\u00e3o\s+est\u00e1\s+cert[oa]|sbagliat|errat[oa]|errore|yanl\u0131\u015f"
    r"|hatal\u0131|hata|\bsai\b|nh\u1ea7m|b\u0142\u0105d|b\u0142\u0119dn|\u017ale|klopt\s+niet|\bfout\b|onjuist"
    r"|\u9519|\u4e0d\u5bf9|\u4e0d\u53ef\u80fd|\u77db\u76fe|\u6709\u8bef|\u4e0d\u6b63\u786e"  # 错 不对 不可能 矛盾 有误 不正确
    r"|\u9593\u9055|\u9055\u3046|\u8aa4\u308a|\u304a\u304b\u3057\u3044|\u30df\u30b9"  # 間違 違う 誤り おかしい ミス
    r"|\ud2c0\ub838|\ud2c0\ub9b0|\uc798\ubabb|\ubaa8\uc21c|\uc624\ub958"  # 틀렸 틀린 잘못 모순 오류
    # withdrawals: 撤回 撤销 作废 取消 取り消 無効 / отстав(ить) отмен(яю) / rétract / pomyłk / widerruf / annul
    r"|\u64a4\u56de|\u64a4\u9500|\u4f5c\u5e9f|\u53d6\u6d88|\u53d6\u308a\u6d88|\u7121\u52b9"
    r"|\u043e\u0442\u0441\u0442\u0430\u0432|\u043e\u0442\u043c\u0435\u043d|r\u00e9tract|pomy\u0142k|widerruf|\bannul"
    r"|" + DISOWNING  # (and the words of error and retraction of `languages.py`)
)
_OTHER_STEM_RE = re.compile(_OTHER_STEMS, re.IGNORECASE)  # a cheap first test: most sentences have none
_OTHER_ERROR_RE = re.compile(
    r"(?<!\u043d\u0435\s)(?<!\bnot\s)(?<!\u6ca1\u6709)(?<!\u6ca1)(?<!\u65e0)(?<!\bkein\s)(?<!\bsin\s)(?<!\bsem\s)"
    r"(?<!\bkeine\s)(?<!\bkeinen\s)(?<!\bpas\s)(?<!\bnicht\s)(?<!\bnessun\s)(?<!\bgeen\s)(?<!\bbrak\s)"
    r"(?<!\bkh\u00f4ng\s)(?<!\u0431\u0435\u0437\s)(?<!\u043d\u0435\u0442\s)(?<!\bno\s)(?<!\u4e0d)"  # без нет 不
    r"(?<!\u5e38\u89c1)(?<!\u5178\u578b)(?<!\u5bb9\u6613)(?<!\u5e38\u72af)"  # 常见 典型 容易 常犯 (a common error)
    r"(?:" + _OTHER_STEMS + r")",
    re.IGNORECASE,
)


_ENGLISH_RE = re.compile(r"\b(?:the|is|are|was|were|this|that|it)\b", re.IGNORECASE)


def other_language_wrong(sentence: str) -> bool:
    """Whether a short sentence of another language says the statement before it is wrong (`Это ошибка.`):
    short, so that it has no room to name something else (`常见错误是忽略负根` is longer than a judgement)."""
    if len(sentence) > 200 or not _OTHER_STEM_RE.search(sentence):
        return False
    if len(sentence.split()) <= 6 and len(sentence.strip()) <= 40:
        return _OTHER_ERROR_RE.search(sentence) is not None
    # a longer one whose predicate is the word of error, at its end (`Stai, calculul de mai sus este greșit.`,
    # `Die Rechnung oben ist leider falsch.`): the sentence judges its subject, the statement before it
    if _ENGLISH_RE.search(sentence):
        return False  # (English sentences are judged by their clauses: `judges_wrong`)
    end = max((m.end() for m in _OTHER_ERROR_RE.finditer(sentence)), default=-1)
    clause_rest = re.split("[:\u2014]", sentence[end:], maxsplit=1)[0]
    return end >= 0 and len(sentence.split()) <= 10 and not re.search(r"\w", clause_rest)


_CONDITION_AFTER_RE = re.compile(
    r"\s*(?:wenn|falls|sofern|si|se|if|unless|when|když|pokud|jeśli|jeżeli|gdy|если|когда|als|om|hvis|ha|jos|eğer)\b",
    re.IGNORECASE,
)
_PITFALL_ADJECTIVE_RE = re.compile(
    r"typisch|häufig|gängig|klassisch|com[úu]n|t[íi]pic|courant|typique|fr[ée]quent|comune|classic|częst|typow"
    r"|типичн|частая|частой|распространённ|yaygın|tipik|vanlig|veelgemaakt|gebruikelijk",
    re.IGNORECASE,
)


def first_clause_judged_wrong(sentence: str) -> bool:
    """Whether a sentence of another language opens on a clause whose last word is a word of error (`Das obige
    Ergebnis ist falsch, ich habe die Aufgabe falsch gelesen.`): its subject, the statement before, is judged."""
    first, *rest = re.split(r"[,;\uff0c\u060c]", sentence, maxsplit=1)
    first = first.rstrip(" .!")
    if rest and _CONDITION_AFTER_RE.match(rest[0]):
        return False  # (`Die Fläche ist falsch, wenn man nicht halbiert.`: wrong under a condition)
    if len(first) > 80 or _ENGLISH_RE.search(first) or not _OTHER_STEM_RE.search(first):
        return False
    if _PITFALL_ADJECTIVE_RE.search(first):
        return False  # (`Ein typischer Fehler, den viele machen`: a pitfall named, not a judgement)
    last = list(_OTHER_ERROR_RE.finditer(first))
    return bool(last) and not re.search(r"\w", first[last[-1].end() :])
