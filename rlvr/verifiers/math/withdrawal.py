"""Whether a sentence withdraws the statement before it, read clause by clause from a closed set of shapes.

A reply withdraws what it stated by a sentence that judges it, not by one phrase. Each clause of such a sentence
(cut at `,` `;` `:` dashes and their full-width forms), after its interjections (`Hmm`, `Wait`, `Hold on`, `❌`),
has one of five shapes; a clause of another shape (`On reflection`) neither withdraws nor stops the reading, and
a clause that opens with a condition (`Otherwise, this would be wrong.`) judges another case, so nothing:

- a negative interjection as the sentence's last clause: `Nope.`, `On reflection, no.`, `不对。`, `Нет.` (`No,
  that's right.` goes on), unless it answers a question that was not about the statement (`Could there be
  another? No.`; `Is that right? No.` withdraws);
- a judgement of what was said: subject `this`/`that`/`it`/`the above`/`my answer` (or `это`, `c'est`, `das`,
  `esto`, `这`, `これ` ...), predicate negative (`is wrong`, `can't be right`, `contradicts`, `doesn't work`),
  or a negated belief in it (`I don't think that's right`);
- a retraction verb on it: `Scratch that.`, `Ignore the above`, `Disregard my previous answer`, `I take it back`;
- an admission of error: `My bad.`, `I made a mistake`, `I misread the problem`, `I miscounted`, `我算错了`,
  `Ich habe mich verrechnet`, `Me equivoqué`, `Je me suis trompé`, `Я ошибся`, `計算ミス`;
- the same in the other languages the answer lines are read in (a closed vocabulary of judgements and admissions,
  with no negation right before it: `не противоречит` judges nothing).

`revised_after_withdrawal` reads the one value a withdrawing sentence revises to (`Nope, it is 8.`), and
`withdrawn_after` scans the sentences after a value for a withdrawal, stopping at the first new value: each
sentence is read once, so a reply of any length is read in linear time.
"""

from __future__ import annotations

import re

from rlvr.verifiers.math.languages import DISOWNING, NO_WORDS
from rlvr.verifiers.math.phrase_words import CHECK_LABELS, CHECK_LABELS_GLUED
from rlvr.verifiers.math.plain_values import plain_value
from rlvr.verifiers.math.polarity import (
    ANSWER,
    CUE_WORDS,
    first_clause_judged_wrong,
    judges_wrong,
    other_language_wrong,
    wordset,
)

# any value: a box, a math span, a digit
_VALUE_RE = re.compile(r"\\(?:boxed|fbox)\b|\$[^$]+\$|\\\(|\\\[|\d")

# interjections and sentence adverbs before the head of a clause (`Hmm, wait, no.`)
_INTERJECTIONS = (
    r"hmm+|oh|ah|wait|but|well|so|actually|okay|ok|uh|um|erm|sorry|haha|lol|obviously|clearly|again|yeah|edit"
    r"|update|p\.?\s?s|hold\s+on|hang\s+on|stop|however|alas|unfortunately|sadly|hm|huh|eh|ugh|damn|whoa"
    r"|on\s+(?:second\s+thought|reflection|closer\s+inspection|a\s+second\s+look)|looking\s+(?:again|back)|in\s+hindsight"
    r"|attendez|attends|moment|warte|espera|espere|aspetta|стоп|подожди(?:те)?|хм+|ой|увы|блин"
    # `wait` in more languages: tr vi id/ms pl nl sv/da/no uk el fi hu cs ro sw hi th bn he ar fa
    r"|bekle|khoan|ch\u1edd\s+\u0111\u00e3|\u0111\u1ee3i\s+\u0111\u00e3|tunggu|sebentar|chwila|czekaj|zaraz|wacht"
    r"|v\u00e4nta|vent|\u0437\u0430\u0447\u0435\u043a\u0430\u0439(?:\u0442\u0435)?|\u03c0\u03b5\u03c1\u03af\u03bc\u03b5\u03bd\u03b5|hetkinen|odota"
    r"|teka|arhoswch|arhosa|prit|\u0445\u04af\u043b\u044d\u044d\u0433\u044d\u044d\u0440\u044d\u0439|v\u00e1rj(?:unk)?|po\u010dkat|po\u010dkej|stai|a\u0219teapt\u0103|subiri|ngoja|\u0930\u0941\u0915\u094b|\u0930\u0941\u0915\u093f\u090f"
    r"|\u0e40\u0e14\u0e35\u0e4b\u0e22\u0e27(?:\u0e01\u0e48\u0e2d\u0e19)?|\u09a6\u09be\u0981(?:\u09a1\u09bc|\u09dc)\u09be(?:\u0993|\u09a8)|\u05e8\u05d2\u05e2|\u0627\u0646\u062a\u0638\u0631|\u0644\u062d\u0638\u0629"
    r"|\u0635\u0628\u0631\s+\u06a9\u0646(?:\u06cc\u062f)?"
    r"|\u7b49\u7b49|\u7b49\u4e00\u4e0b|\u55ef|\u54e6|\u5509|\u5f85\u3063\u3066|\u3044\u3084|\u3042\u308c"  # 等等 等一下 嗯 哦 唉 待って いや あれ
)
#: the marks of a failed check or a rejection: after an answer, one withdraws it (`\\boxed{17} 👎`, `✖️ (fails)`)
FAILURE_MARKS = "\u2717\u2718\u274c\u274e\u2716\u26d4\U0001f6ab\U0001f44e"  # ✗ ✘ ❌ ❎ ✖ ⛔ 🚫 👎
_LEAD_MARKS = r"[\s\-\u2013\u2014(\[*_<\u2190\u26a0\ufe0f\U0001f645" + FAILURE_MARKS + "]*"  # (and ⚠ 🙅)
_CROSS_RE = re.compile(f"[{FAILURE_MARKS}]")
_LEAD_RE = re.compile(
    _LEAD_MARKS + r"(?:(?:" + _INTERJECTIONS + r")\b[\s,.!:\-\u2013\u2014\uff0c\u3001\uff1a]*)*",
    re.IGNORECASE,
)

# a negative interjection standing alone as a clause
_ALONE = (
    r"no|nope|nah|not|wrong(?:\s+answer)?|incorrect|invalid|false|oops|whoops|jk|(?:just\s+)?(?:kidding|joking)"
    r"|psych|never\s*mind|retracted|not\s+(?:really|quite|so)|april\s+fools|no\s+wait|wait\s+no|not\s+at\s+all"
    r"|not\s+(?:quite\s+)?(?:right|correct)(?:\s+either)?|or\s+not|/s|[" + FAILURE_MARKS + "]+"
    r"|not\s+(?:it|that)|or\s+is\s+it\??|or\s+not\??|is\s+it\s+though\??"
    r"|definitely\s+not|of\s+course\s+not|certainly\s+not|that'?s\s+not\s+it|not\s+so\s+fast"
    r"|(?:an?\s+)?(?:mistake|typo|error|blunder|slip)"
    r"|non|nein|\u043d\u0435\u0442|n\u00e3o|\u3044\u3044\u3048|\u4e0d|\uc544\ub2c8"  # нет いいえ 不 아니
    # 不对 错了 不正确 错误 不是 / неверно неправильно / faux / falsch / incorrecto falso / errado incorreto /
    # 違う 違います 間違い / 틀렸다 틀렸어요
    r"|\u4e0d\u5bf9|\u9519\u4e86|\u4e0d\u6b63\u786e|\u9519\u8bef|\u4e0d\u662f"
    r"|\u043d\u0435\u0432\u0435\u0440\u043d\u043e|\u043d\u0435\u043f\u0440\u0430\u0432\u0438\u043b\u044c\u043d\u043e"
    r"|(?:c'est\s+)?faux|falsch|(?:es\s+)?incorrecto|falso|(?:est\u00e1\s+)?errado|incorreto"
    r"|\u9055\u3046|\u9055\u3044\u307e\u3059|\u9593\u9055\u3044|\ud2c0\ub838\ub2e4|\ud2c0\ub838\uc5b4\uc694"
    r"|" + "|".join(NO_WORDS)  # (`no` in the other languages: a first clause of its own, as `No, it is 8.`)
)
_ALONE_RE = re.compile(
    r"(?:" + _ALONE + r")(?:[\s,.!]+(?:" + _ALONE + r"))*[\s.!?)\]}*_\u3002\uff01]*$", re.IGNORECASE
)

# what a judgement is about: the statement before it
_ABOUT = (
    r"(?:this|that|it|which|"
    + ANSWER  # (the reply's answer restated: `On reflection, 8 can't be right.`)
    + r"|the\s+above|the\s+(?:[\w-]+\s+){1,2}above(?![^.!?\n]*\b(?:but|though|although|however|yet)\b)|(?:the|my|this|that|our)\s+(?:[\w-]+\s+)?(?:answer|result|value|solution"
    r"|computation|calculation|count|reasoning|work|box|claim|conclusion)(?:\s+above)?)"
)
# the reply's answer named as such (`the answer above`, `my result`, `the fair-coin answer`): a judgement of it is
# of the answer whatever other values its sentence names (`... biased ($p = 0.3$), so the answer doesn't apply`)
_ANSWER_NAMED = r"\b(?:the|my|our)\s+(?:[\w-]+\s+)?(?:answer|result|solution)(?:\s+above)?"
_BAD = (
    r"not\s+(?:quite\s+)?(?:right|correct|valid|possible|it|true|allowed|the\s+answer)|wrong|incorrect|invalid"
    r"|impossible|false|off|bogus|nonsense|absurd|a\s+(?:mistake|contradiction|typo)|mistaken|flawed|erroneous"
)
_JUDGEMENT = (
    r"\s*(?:(?:'s|\s+is|\s+was|\s+seems?|\s+looks?|\s+would\s+be|\s+must\s+be)(?:\s+(?:obviously|clearly"
    r"|definitely|probably|certainly|still|also|just|all|actually|totally|completely))?\s+(?:" + _BAD + r")"
    # (not a dummy subject before its infinitive or clause: `It is not possible to simplify further.`)
    r"(?!\s+(?:to|that|for|unless|if|when|whether)\b)"
    r"|\s+(?:can't|cannot|can\s+not|couldn't)\s+be(?:\s+(?:right|correct|true|it)|(?=[\s.!]*$))"
    r"|\s+makes?\s+no\s+sense"
    r"|\s+(?:contradicts|violates|fails|breaks|conflicts\s+with|is\s+inconsistent\s+with)"
    r"|\s+(?:does\s+not|doesn't|did\s+not|didn't)\s+(?:work|satisfy|hold|seem\s+right|look\s+right|check\s+out"
    r"|add\s+up|make\s+sense|apply)"
    # (counted twice, or not to be used: `This double-counts the diagonals`, `the answer above should not be used`)
    r"|\s+(?:double[- ]?counts|overcounts|undercounts|counts\s+\w+(?:\s+\w+)?\s+twice)"
    r"|\s+(?:used|applied|took|assumed)\s+(?:\w+\s+){0,2}?(?:wrong|incorrect)"  # `the answer above used the wrong sides`
    r"|\s+(?:should|must|cannot|can't)\s+not\s+be\s+(?:used|trusted|relied\s+on)|\s+(?:should|must)\s+not\s+be\s+used)\b"
)
_JUDGED = _ABOUT + _JUDGEMENT
# a negated belief in it: `I don't think that's right`, `I doubt that's correct`
_DISBELIEVED = (
    r"(?:i|we)\s+(?:(?:do\s+not|don't|no\s+longer)\s+(?:think|believe)|doubt)\s+(?:that\s+)?"
    r"(?:this|that|it)(?:'s|\s+is|\s+was)\s+(?:right|correct|true|valid|it|the\s+answer)\b"
    r"|(?:i|we)\s+(?:do\s+not|don't|can't|cannot|no\s+longer)\s+(?:stand\s+by|vouch\s+for|trust|endorse|believe\s+in)"
    r"\s+(?:this|that|it|the\s+above|my\s+\w+)\b|(?:i|we)\s+(?:(?:strongly|respectfully)\s+)?disagree\b"
)
_RETRACTED = (
    r"(?:(?:i|we)\s+)?(?:scratch|ignore|disregard|forget|strike|cancel|delete|undo|retract|withdraw|discard)"
    r"(?:\s+(?:that|this|it|the\s+above|everything(?:\s+above)?|all\s+(?:that|of\s+that)|(?:my|the|this|that)"
    r"\s+(?:\w+\s+){0,2}?(?:answer|result|value|line|step|part|box|computation|calculation|reasoning|solution"
    r"|work|attempt)|what\s+(?:i|we)\s+(?:just\s+)?(?:said|wrote|did)))?[\s.!?)\]}*_\u3002\uff01]*$"
    r"|(?:i|we)\s+take\s+(?:that|it|this|it\s+all)\s+back\b|belay\s+that\b|(?:i|we)\s+spoke\s+too\s+soon\b"
    r"|(?:i|we)\s+jumped\s+the\s+gun\b|(?:i|we)\s+(?:can't|cannot|could\s+not|couldn't)\s+reconcile\b"
    r"|(?:please\s+)?(?:do\s+not|don't)\s+(?:use|trust|submit|rely\s+on|accept)\s+(?:this|that|the\s+above|it|my)\b"
)
_ADMITTED = (
    r"(?:i|we)(?:'ve|\s+have)\s+(?:got|made)\s+an?\s+(?:\w+\s+)?(?:mistake|error|slip|blunder)\b|"
    r"(?:(?:i|we)\s+(?:(?:must|might|may)\s+have\s+|have\s+|had\s+)?(?:(?:messed|screwed)\s+(?:\w+\s+)?up|goofed"
    r"|erred|mis[a-z]{3,}|(?:was|were)\s+(?:\w+\s+)?(?:wrong|mistaken)|made\s+an?\s+(?:\w+\s+)?(?:mistake|error|slip|blunder)"
    # (a step left out or counted twice: `I forgot to divide by 2`, `I double-counted the corners`)
    r"|forgot|overlooked|(?:over|under|double)-?count(?:ed)?"  # (not `dropped`, `neglected`: often on purpose)
    r"|got\s+(?:it|this|that)\s+wrong)|my\s+(?:mistake|bad|error)"
    r"|(?:i|we)(?:'m|\s+am|'re|\s+are)\s+(?:\w+\s+)?(?:wrong|mistaken))\b"
)
# something unnamed judged: `Something is off.`, `Something went wrong.`
_AMISS = (
    r"something(?:'s|\s+is|\s+went|\s+must\s+be|\s+seems(?:\s+to\s+be)?)\s+(?:\w+\s+)?(?:off|wrong|amiss)\b"
)
_HEAD_RE = re.compile(
    r"(?:" + "|".join((_JUDGED, _DISBELIEVED, _RETRACTED, _ADMITTED, _AMISS)) + r")", re.IGNORECASE
)

# the same judgements and admissions in other languages (no negation right before: `не противоречит`)
_OTHER_WORDS = (
    r"\u043f\u0440\u043e\u0442\u0438\u0432\u043e\u0440\u0435\u0447|(?:\u044f|\u043c\u044b)\s+\u043e\u0448\u0438\u0431"  # противореч я/мы ошиб
    r"|\u043e\u0448\u0438\u0431\u0441\u044f|\u043e\u0448\u0438\u0431\u043b\u0430\u0441\u044c|\u043e\u0448\u0438\u0431\u043b\u0438\u0441\u044c"  # ошибся ошиблась ошиблись
    r"|\u043d\u0435\u0432\u0435\u0440\u043d|\u043d\u0435\u043f\u0440\u0430\u0432\u0438\u043b\u044c\u043d"  # неверн неправильн
    r"|contredit|je\s+me\s+suis\s+tromp|erreur\s+de\s+calcul|c'est\s+faux|est\s+faux|est\s+incorrect"
    r"|widerspricht|verrechnet|geirrt|vertan|rechenfehler|(?:das|dies|es)\s+ist\s+falsch|stimmt\s+nicht"
    r"|contradice|me\s+equivoqu|error\s+de\s+c\u00e1lculo|est\u00e1\s+mal|es\s+incorrecto"
    r"|contradiz|errei|me\s+enganei|erro\s+de\s+c\u00e1lculo|est\u00e1\s+errado"
    r"|\u77db\u76fe|\u7b97\u9519|\u6f0f\u6389|\u6f0f\u4e86|\u9519\u4e86|\u641e\u9519|\u5f04\u9519"  # 矛盾 算错 漏掉 漏了 错了 搞错 弄错
    r"|\u662f\u9519\u7684|\u4e0d\u5bf9|\u8ba1\u7b97\u5931\u8bef"  # 是错的 不对 计算失误
    r"|\u8a08\u7b97\u30df\u30b9|\u9593\u9055\u3048|\u9593\u9055\u3063|\u77db\u76fe"  # 計算ミス 間違え 間違っ 矛盾
    r"|\ud2c0\ub838|\uc798\ubabb|\ubaa8\uc21c"  # 틀렸 잘못 모순
    # tr `Bu cevap yanlış`, pt `Desconsidere a resposta acima`, vi `đáp án trên sai` (sai after what it judges)
    r"|yanl\u0131\u015f|hatal\u0131|desconsider|(?:tr\u00ean|n\u00e0y|\u0111\u00f3)\s+(?:l\u00e0\s+)?sai\b"
    # judgements and admissions in the other languages answer lines are read in: tr vi id/ms pl nl sv/da/no uk el
    # fi hu cs ro it fr es de th sw bn fa he ar hi (`Hayır, yanlış hesapladım`, `Tunggu, saya salah hitung`)
    r"|yan\u0131l|hata\s+yapt|t\u00ednh\s+sai|sai\s+r\u1ed3i|nh\u1ea7m|\bsalah\b|\bkeliru\b|pomyli\u0142|b\u0142\u0105d"
    r"|b\u0142\u0119dn|\bfout\b|vergist|rekenfout|\bfel\b|misstag|\bforkert|\bfeil\b|\u043f\u043e\u043c\u0438\u043b"
    r"|\u043d\u0435\u043f\u0440\u0430\u0432\u0438\u043b\u044c\u043d|\u03bb\u03ac\u03b8\u03bf\u03c2|\u03bb\u03b1\u03bd\u03b8\u03b1\u03c3\u03bc\u03ad\u03bd|v\u00e4\u00e4rin|virhe|\brossz\b"
    r"|hib\u00e1s|t\u00e9vedt|elsz\u00e1mol|spletl|\u0161patn|chybn|\bomyl|gre\u0219|gre\u015f|sbagli|\berrore\b|oubli\u00e9"
    r"|olvid\u00e9|vergessen|\u0e1c\u0e34\u0e14|kosea|\bkosa\b|\u09ad\u09c1\u09b2|\u0627\u0634\u062a\u0628\u0627\u0647|\u05d8\u05e2\u05d9\u05ea\u05d9|\u05d8\u05e2\u05d5\u05ea|\u05e9\u05d2\u05d5\u05d9"
    r"|\u062e\u0637\u0623|\u0623\u062e\u0637\u0623\u062a|\u062e\u0627\u0637\u0626|\u0917\u0932\u0924|\u0917\u093c\u0932\u0924"
    # a right-word negated after it, or a plea to ignore it (sv no/da nl it de he tl: `det stämmer inte`, `לא נכון`)
    # ja `これだと…除いていない` (with this, ... is not done / cannot be)
    r"|\u3053\u308c(?:\u3060\u3068|\u3067\u306f)[^\u3002]{0,30}?(?:\u3066\u3044\u306a\u3044|\u3066\u306a\u3044|\u3067\u304d\u306a\u3044)"
    # something does not add up (pl cs de fr es pt it ru)
    r"|nie\s+zgadza|nie\s+jest\s+tak|nesed\u00ed|passt\s+nicht|ne\s+colle\s+pas|no\s+cuadra|n\u00e3o\s+bate|non\s+torna"
    r"|\u043d\u0435\s+\u0441\u0445\u043e\u0434\u0438\u0442\u0441\u044f"
    r"|st\u00e4mmer\s+inte|stemmer\s+ikke|is\s+niet\s+(?:juist|goed)|non\s+\u00e8\s+(?:corrett|giust)"
    r"|stimmt\s+(?:so\s+|hier\s+|leider\s+|doch\s+)?nicht|ignorier|\u05dc\u05d0\s+\u05e0\u05db\u05d5\u05df|\bmali\b"
    r"|" + DISOWNING  # (and the words of error and retraction of `languages.py`)
)
_OTHER_RE = re.compile(
    r"(?<!\u043d\u0435\s)(?<!\u043d\u0435)(?<!pas\s)(?<!nicht\s)(?<!no\s)(?<!\u4e0d)(?<!\u6ca1)(?<!\u6ca1\u6709)"
    r"(?<!\u4e0d\u8981)(?<!\u522b)(?<!\u65e0)(?<!\bne\s)(?<!kh\u00f4ng\s)(?<!\bnie\s)(?<!\btidak\s)(?<!\bbukan\s)"
    r"(?<!\bgeen\s)(?<!\binte\s)(?<!\bikke\s)(?<!\bnem\s)(?<!\bnu\s)(?<!\bnon\s)(?<!\bei\s)(?<!\bbez\s)(?:"
    + _OTHER_WORDS
    + r")(?![^\W\d_]*\s+(?:pas|nicht|de\u011fil|non)\b)",
    re.IGNORECASE,
)

# a condition before a judgement: it judges another case
_CONDITIONAL_RE = re.compile(
    r"^\s*(?:if|otherwise|unless|without|else|when|for|except|in\s+(?:that|this|which|any)\s+case|assuming"
    r"|given|had|were|once)\b",
    re.IGNORECASE,
)
_CLAUSE_RE = re.compile(r"[^,;:\uff0c\uff1b\uff1a\u3001\u2014\u2013]+")


# a frame of belief before the head (`I think that's wrong`), not of doubt (`I'm not sure that's right`)
_BELIEF_RE = re.compile(
    r"(?:(?:i|we)\s+(?:think|believe|suspect|fear|feel|realize|realise|see|notice)|pretty\s+sure|clearly"
    r"|(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:(?!not\b)\w+\s+)?(?:sure|certain|afraid)|it\s+(?:seems|appears)"
    r"|apparently|evidently)\s+(?:now\s+)?(?:that\s+)?",
    re.IGNORECASE,
)


def _head(clause: str) -> str:
    """The clause after its opening interjections, marks and frame of belief (`Hold on, ` -> ``)."""
    rest = clause[_LEAD_RE.match(clause).end() :]  # type: ignore[union-attr]
    frame = _BELIEF_RE.match(rest)
    return rest[frame.end() :] if frame else rest


# every word some withdrawal shape needs (one at least is in any withdrawal, English or ASCII-written other
# languages): a sentence with none of them, no `n't`, no `mis-`/`over-` verb and only ASCII is decided at once
_CUE_WORDS = (
    wordset(
        """no nope nah not never wrong incorrect invalid impossible false off bogus nonsense absurd mistake mistakes
    mistaken error errors erroneous flawed typo contradiction contradicts contradict violates violated fails
    failed fail breaks broken inconsistent conflicts cannot doubt scratch ignore disregard forget strike cancel
    delete undo retract retracted retracting withdraw withdrawing withdrawn discard take back messed screwed
    goofed erred blunder slip forgot overlooked bad oops whoops jk kidding joking psych mind april wait amiss awry
    garbage scrap redo start drawing blew way absolutely too excluded rejected fine nothing none without hardly
    non nein nao faux fausse falsch fehler incorrecto incorrecta falso falsa errado errada incorreto incorreta
    erreur contredit widerspricht verrechnet geirrt vertan rechenfehler stimmt contradice mal contradiz errei
    enganei erro sbagliato sbagliata errore hata sai fout onjuist klopt pas nicht niet salah keliru fel feil
    forkert misstag vergist rekenfout virhe rossz spletl chybne omyl sbagliat sbagliato kosea kosa vergessen nie nee
    nej nei ei nem ne nu tidak bukan hapana bekle khoan tunggu sebentar chwila czekaj zaraz wacht vent hetkinen
    odota stai subiri ngoja teka mali ignorieren stemmer disagree belay spoke jumped reconcile redo revisit rework or though"""
    )
    | CUE_WORDS
)
_CUE_PARTS_RE = re.compile(
    r"n't|\bmis[a-z]|\b(?:over|under|double)[- ]?count|\btwice\b|equivoc|tromp|kosea|\u2717|\u2718|\u274c|/s\b"
)


def _may_withdraw(sentence: str) -> bool:
    """Whether a sentence has any word a withdrawal needs (a cheap test before the shapes are read)."""
    if not sentence.isascii():
        return True
    lowered = sentence.lower()
    if _CUE_PARTS_RE.search(lowered) or not _CUE_WORDS.isdisjoint(re.findall(r"[a-z]+", lowered)):
        return True
    return _WRONG_RE.search(lowered) is not None  # (ASCII-written languages: `anghywir`, `ez da zuzena`)


_WRONG_RE = re.compile(DISOWNING, re.IGNORECASE)
_DISMAY_RE = re.compile(r"\W*(?:oh\s+no|uh-?oh|oh\s+dear)\b", re.IGNORECASE)


# (not an English remark's: `Note: The solution provided is incorrect.` judges a solution quoted, as before)
_ONE_WORD_LABEL_RE = re.compile(
    r"^[\W_]{0,4}(?!(?:note|remark|observation)\b)[^\W\d_]{2,20}\.?[ \t*_]*[:\uff1a][ \t*_]*(?=\S)",
    re.IGNORECASE,
)


def withdrawal_kind(sentence: str) -> str | None:
    """How a sentence with no value withdraws the statement before it: `alone` (a bare negative interjection,
    `Nope.`), `judged` (a judgement, retraction or admission), or None."""
    if not _may_withdraw(sentence):
        return None
    # (a one-word label before the sentence says nothing of it: `Zastrzeżenie: powyższy wynik jest błędny.`)
    sentence = _ONE_WORD_LABEL_RE.sub("", sentence, count=1) or sentence
    if _DISMAY_RE.match(sentence):
        return "judged"  # `Oh no, I used the diameter as the radius.`: dismay at what was just said
    heads = [_head(c).strip() for c in _CLAUSE_RE.findall(sentence)]
    heads = [h for h in heads if h]  # (a clause of interjections only, `Hold on,`, says nothing)
    if not heads and _CROSS_RE.search(sentence):
        return "alone"  # `\\boxed{7} ❌`: a cross mark alone
    for head in heads:
        if _CONDITIONAL_RE.match(head):
            return None  # `Otherwise, this would be wrong.`: a condition judges another case
        if _HEAD_RE.match(head) or _OTHER_RE.search(head[:24]):
            return "judged"
    if judges_wrong(sentence) or other_language_wrong(sentence) or first_clause_judged_wrong(sentence):
        return "judged"  # `Sanity check failed.`, `That's way too big.`: polarity.py
    # a bare `No` withdraws as the sentence's last word (`On reflection, no.`), not before what it says next
    # (`No, that's right.`, `Wait, no, it is seven.`)
    return "alone" if heads and _ALONE_RE.match(heads[-1]) else None


def withdraws(sentence: str) -> bool:
    """Whether a sentence with no value withdraws the statement before it (`Scratch that.`, `Nope.`)."""
    return withdrawal_kind(sentence) is not None


# a question about the statement itself: its bare `No` withdraws it (`Is that right? No.`)
_QUERY_ABOUT_RE = re.compile(
    _LEAD_MARKS
    + r"(?:(?:"
    + _INTERJECTIONS
    + r")\b[\s,.]*)*(?:is|was|does|did|can|could|would)\s+"
    + _ABOUT
    + r"\s+(?:be\s+)?(?:right|correct|true|valid|it|the\s+answer|work|hold|make\s+sense)\b",
    re.IGNORECASE,
)

_ALTERNATIVE_RE = re.compile(r"\bor\b|\?|/|\b(?:maybe|perhaps|possibly|probably)\b|\u6216", re.IGNORECASE)
_PLAIN_NUMBER_RE = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]*\d)")
_FIRST_SENTENCE_RE = re.compile(
    r"[\s$.)\]\u0964]*(.*?)(?:[.!?](?=\s|$)|[\n\u3002\uff01\uff1f\u0964]|$)", re.DOTALL
)


# a bound the withdrawn value breaks: a comparison or a negated modal before a value, in the languages of the answer
# lines (en lv de fr es it pt pl ru)
_BOUND_RE = re.compile(
    r"\b(?:than|exceeds?|at\s+(?:most|least)|cannot|can't|can\s+not|could\s+not|never|nevar|lielāks|mazāks"
    r"|kann\s+nicht|nicht\s+(?:größer|kleiner)|ne\s+peut|no\s+puede|non\s+può|não\s+pode|nie\s+może"
    r"|не\s+может|больше|меньше)\b",
    re.IGNORECASE,
)
# (or the slip the writer confesses, after a colon or dash: `That can't be right: I forgot that $2$ counts twice.`)
_REASON_RE = re.compile(
    r"[\s,;:]*(?:since|because|as|given|for|due\s+to|by)\b|[\s,;:\u2014\u2013-]*I\s+(?:forgot|missed|dropped|misread"
    r"|miscounted|overlooked|neglected|ignored|confused|mixed\s+up|swapped|double[-\s]counted|left\s+out|made\s+an?"
    r"|used\s+the\s+wrong|counted\s+\w+\s+twice)\b",
    re.IGNORECASE,
)
# `\(...\)` is bounded: an unclosed `\(` repeated over a long reply must not rescan the rest at each one
_SPAN_RE = re.compile(r"\$([^$]+)\$|\\\(([^\n]{1,400}?)\\\)")
_ASSIGNED_RE = re.compile(r"^\s*[A-Za-z](?:_\{?\w+\}?)?\s*=\s*")


def restated(sentence: str, answer: str | None) -> str:
    """The sentence with each restatement of the reply's answer (`$7$`, `$x = 7$`, `7` after `\\boxed{7}`)
    written as `polarity.ANSWER`: what it says of the answer is then read as words, not as a new value."""
    if not answer or not answer.strip():
        return sentence
    key = answer.replace(" ", "")
    number = plain_value(answer)

    def same(value: str) -> bool:
        value = _ASSIGNED_RE.sub("", value)
        return value.replace(" ", "") == key or (number is not None and plain_value(value) == number)

    sentence = _SPAN_RE.sub(
        lambda m: f" {ANSWER} " if same(m.group(1) or m.group(2)) else m.group(), sentence
    )
    if number is None:
        return sentence
    return _PLAIN_NUMBER_RE.sub(
        lambda m: f" {ANSWER} " if plain_value(m.group()) == number else m.group(), sentence
    )


def _withdrawing_opening(sentence: str) -> int | None:
    """Where the sentence's opening withdrawal ends (its first clause with words, after interjections, that
    withdraws: `Nope,` `Wait, that's wrong,` `This contradicts $n > 10$`), or None when it opens otherwise."""
    for m in _CLAUSE_RE.finditer(sentence):
        if _head(m.group()).strip():
            return m.end() if withdraws(m.group()) else None
    return None


_DEPTH = 3  # (a revision withdrawn in turn is read a few levels deep: `Nope, 8. No, 9. No, ...` stays linear)


def revised_after_withdrawal(after: str, depth: int = 0) -> str | None:
    """The value (the last number or formula, with no alternative beside it) stated in the sentence after an
    answer that opens with a withdrawal and goes on (`\\boxed{7}. Just kidding, it is 8.`, `Nope, it is 8.`,
    `Wait, that's wrong, the answer is 7.`): the revised answer, or None (also when what follows withdraws the
    revision in turn: `Hmm, that's wrong: the base angles are 35°, so ... no, that's wrong.`)."""
    first = _FIRST_SENTENCE_RE.match(after[:400])
    assert first is not None  # (the pattern matches any text, the empty one too)
    value = _revision(first.group(1))
    if (
        value is not None
        and depth < _DEPTH
        and withdrawal_end(after, first.end(), value, depth + 1) is not None
    ):
        return None
    return value


def _revision(sentence: str, end: int | None = None) -> str | None:
    """The value a sentence opened by a withdrawal revises to (see `revised_after_withdrawal`), or None; `end`:
    where its withdrawing opening ends, when the caller found it already."""
    end = _withdrawing_opening(sentence) if end is None else end
    if end is None:
        return None
    rest = sentence[end:]
    if _REASON_RE.match(rest) or _BOUND_RE.search(rest):
        # `That's impossible, since $n < 5$.`, `That is wrong — an angle cannot be larger than 180°.`: a reason
        # for the withdrawal (a bound it breaks), no revision
        return None
    if _ALTERNATIVE_RE.search(rest):
        return None  # `Nope, it is 8 or 9.`: no one value instead
    spans = re.findall(r"\$([^$]+)\$", rest)
    if spans:  # `Scratch that: the answer is $\frac{1}{2}$.`: a formula is one value
        return spans[-1].strip()
    numbers = _PLAIN_NUMBER_RE.findall(rest)  # `No: 4*3*2 is 24.`: what the correction arrives at
    return numbers[-1] if numbers else None


_ANNOUNCED_RE = re.compile(  # a revision announced and never made (`Let me reconsider.` as the reply's last words)
    _LEAD_MARKS + r"(?:(?:" + _INTERJECTIONS + r")\b[\s,.!:\-]*)*"
    r"let(?:\s+me|'s|\s+us)\s+(?:reconsider|redo|recompute|rethink|start\s+over|re-?check|double[-\s]?check"
    r"|re-?examine|re-?evaluate|try\s+again)(?:\s+\w+){0,3}\s*[.!]+[\s)]*$"  # a whole sentence, not one cut off
    # (`I'll redo this later.`; it ritento riprovo, fr je réessaie, es lo intento de nuevo, de ich versuche es nochmal)
    r"|(?:i'?ll|i\s+will|we'?ll)\s+(?:redo|revisit|rework|fix)\s+(?:this|it|that)\b[^.!?]*[.!]+[\s)]*$"
    r"|let\s+me\s+redo\s+(?:this|it|that)\b[^.!?]*\blater\b[^.!?]*[.!]+[\s)]*$"
    r"|(?:ritento|riprovo|je\s+r[ée]essaie|lo\s+intento\s+de\s+nuevo|ich\s+versuche\s+es\s+(?:noch\s*mal|nochmals|erneut))"
    r"[.!\s)]*$"
    # (a correction pointed to that never comes: `(see correction below)`, `correction follows`)
    r"|\(?\s*(?:see\s+(?:the\s+)?(?:correction|erratum|errata)(?:\s+at\s+the\s+end|\s+below)?|corrected\s+below"
    r"|correction\s+(?:below|follows|to\s+follow))[.!\s)]*$"
    r"|[^.!?\n]*\b(?:corrected\s+(?:version|solution|answer)\s+is\s+in|see\s+the\s+corrected\s+(?:version|solution))"
    r"\s+(?:in\s+)?my\s+next\s+message[.!\s)]*$"
    r"|[^.!?\n]*\b(?:i'?ll|i\s+will|we'?ll)\s+(?:post|give|send|add|share|put)\s+(?:the\s+|a\s+)?(?:fixed|corrected|right"
    r"|correct|updated|revised)\s+(?:figure|value|answer|number|result|version|solution|total)\b[^.!?\n;]*[.!\s)_*]*$",
    re.IGNORECASE,
)
_SENTENCES_RE = re.compile(
    r"[^.!?\n\u3002\uff01\uff1f\u0964]+[.!?\u3002\uff01\uff1f\u0964]*"
)  # (`।`: a danda)


# the answer said to answer another question than the one asked (`I solved for $x$, but the question asks for $y$`,
# `Edit: the above solves the version where ...`): withdrawn, whatever values the sentence names
_MISMATCH_RE = re.compile(
    r"\b(?:but|and|while|whereas|yet|however)\s*,?\s+the\s+(?:question|problem|task)\s+(?:actually\s+|really\s+)?"
    r"(?:asks|asked|wants|wanted|is\s+asking|was\s+asking)\s+(?:for|about)\b|\bours\s+asks\b"
    r"|\bthe\s+above\s+(?:solves|answers|computes)\s+(?:the|a)\s+(?:\w+\s+)?(?:version|variant|case|problem)\b",
    re.IGNORECASE,
)


_ANSWER_JUDGED_RE = re.compile(_ANSWER_NAMED + _JUDGEMENT, re.IGNORECASE)
# the answer disowned by a status, a grade or a confidence of nothing (`**Status:** retracted`, `[VERIFY] wrong`,
# `Confidence: 0%`), by a failure mark that opens the sentence (`✖️ (fails the $n=3$ check)`), or said to count
# another quantity (`Hmm, that counts the edges, not the vertices`): withdrawn, whatever values the sentence names
_DISOWNED_RE = re.compile(
    r"\b(?:status|verdict|self[- ]?(?:evaluation|assessment|check)|evaluation|assessment|grade|judgement|judgment"
    r"|result|outcome)\W{0,8}(?:\[\w+\]\W*)?(?:(?:retracted|withdrawn|wrong|incorrect|invalid|failed|rejected|unverified"
    r"|false)\b|[" + FAILURE_MARKS + "])"
    r"|\[verify\]\W*(?:wrong|incorrect|false)\b"
    # the true value said to lie elsewhere (`So the true count is smaller than 720.`): the stated one is not it
    r"|\b(?:true|actual|correct|real|right)\s+(?:count|answer|value|number|total|result)\s+(?:is|must\s+be)\s+"
    r"(?:\w+\s+)?(?:smaller|larger|less|more|greater|bigger|lower|higher|fewer)\s+than\b"
    r"|\bconfiden(?:ce|t)\b[^.\n]{0,40}?(?<![\d.])0(?:\.0+)?\s*%|(?<![\d.])0(?:\.0+)?\s*%\s+confiden|\bno\s+confidence\b"
    r"|^[\s*_(>]*[" + FAILURE_MARKS + r"]"
    # (after a word of dismay, or naming the other quantity as the one asked: `This gives the area, not the
    # perimeter, as asked` keeps its answer)
    r"|^\W*(?:(?:hmm+|wait|oh|oops|whoops|but|ah|uh-?oh|argh)\W+)+(?:that|this|it)\s+(?:only\s+)?(?:counts|gives"
    r"|computes|finds|measures|is|was)\s+(?:the\s+)?[\w -]{1,40}?,?\s+(?:not|rather\s+than|instead\s+of)\s+the\s+\w+"
    r"|\bnot\s+the\s+[\w -]{1,40}?\s+(?:that\s+|which\s+)?the\s+(?:question|problem|task)\s+(?:asks|asked|wants|is\s+asking)",
    re.IGNORECASE,
)
# the answer refuted by a bound the sentence names: compared with it and called impossible (or far off), or an
# error admitted because of it (`that's way bigger than the number of subsets, 64`, `这超过了总人数 60，不可能`,
# `the probability can't exceed $\frac14$, so I've got a sign error somewhere`)
_REFUTED_BY_BOUND_RE = re.compile(
    r"^\W*(?:(?:hmm+|wait|but|oh|well|so|no)\W+)*(?:that|this|it|" + ANSWER + r")(?:'s|\s+is|\s+was)?\s+"
    r"(?:(?:way|much|far)\s+(?:bigger|larger|greater|more|smaller|less|fewer)\s+than\b"
    r"|(?:bigger|larger|greater|more|smaller|less|fewer)\s+than\b.*\b(?:can't|cannot|impossible|not\s+possible)\b)"
    r"|(?:\bexceeds?\b|\u8d85\u8fc7).*(?:\bcan't\b|\bcannot\b|\bimpossible\b|\u4e0d\u53ef\u80fd)"
    r"|\b(?:can't|cannot|can\s+not)\s+(?:exceed|be\s+(?:more|less|bigger|larger|greater|smaller)\s+than)\b.*"
    r"\b(?:error|mistake|wrong)\b",
    re.IGNORECASE,
)


# the answer's own value denied as the answer (`The answer cannot be 96.`, `Proof that the answer can't be 96.`)
_NOT_THE_ANSWER_RE = re.compile(
    r"\b(?:answer|result|value|count|total)\s+(?:cannot|can't|can\s+not|could\s*n[o']t|is\s+not|isn't)\s+(?:possibly\s+)?"
    r"(?:be\s+)?" + ANSWER + r"(?!\s*(?:\+|-|\*|/|\^|times|plus|minus|unless|if|when))",
    re.IGNORECASE,
)


# a sentence a check label opens (`Check: ...`, `**Verification:** ...`, `验算：...`)
_CHECK_SENTENCE_RE = re.compile(
    r"^[\W_]{0,4}(?:(?:"
    + "|".join(CHECK_LABELS)
    + r")(?!\w)|"
    + "|".join(CHECK_LABELS_GLUED)
    + r")[ \t*_]*[:\uff1a]",
    re.IGNORECASE,
)


def withdrawal_end(text: str, pos: int, answer: str | None = None, depth: int = 0) -> int | None:
    """Where the sentence after `pos` that withdraws what was stated ends (the scan stops at the first value
    other than a restatement of `answer`), the reply's end when it ends on a revision it announced (`Let me
    reconsider.`), or None."""
    announced = False
    query: bool | None = None  # None: no question before; True: one about the statement; False: another
    for m in _SENTENCES_RE.finditer(text, pos):
        if m.group().lstrip().startswith("|"):
            continue  # a table row lists what was computed or tried: a judgement after the table is read
        sentence = restated(m.group().strip(), answer)
        if not sentence:
            continue
        if (_MISMATCH_RE.search(sentence) or _ANSWER_JUDGED_RE.search(sentence)) and ANSWER not in sentence:
            return m.end()
        if _DISOWNED_RE.search(sentence):
            return m.end()
        if _REFUTED_BY_BOUND_RE.search(sentence):
            return m.end()  # `Hmm, that's bigger than 1, which a probability can't be.`: refuted by a bound
        if _VALUE_RE.search(sentence) and not _CHECK_SENTENCE_RE.match(sentence):
            # (a check's values test the answer: `Check: $4 - 1 = 3$. This is wrong.` judges the answer)
            # a new statement: what follows it judges that one; but one opened by a withdrawal must revise to
            # one value (`Nope, it is 8.`), else it withdrew the answer and offered none (`Nope, 8 or 9.`,
            # `This contradicts $n > 10$.`: the value is what the judgement names, no revision)
            opening = _withdrawing_opening(sentence)
            if opening is None:
                return None
            revised = _revision(sentence, opening)
            if revised is None:
                return m.end()
            # a revision withdrawn in turn leaves nothing (`that's wrong: it is 35, so... no, that's wrong.`)
            return withdrawal_end(text, m.end(), revised, depth + 1) if depth < _DEPTH else None
        if _NOT_THE_ANSWER_RE.search(sentence) and not text[m.end() : m.end() + 1].isdigit():
            return m.end()  # `The answer cannot be 96.` after `\\boxed{96}`: the value denied by name
        kind = withdrawal_kind(sentence)
        if kind == "judged" or (kind == "alone" and query is not False):
            return m.end()  # (a bare `No` after another question answers that question)
        asks = sentence.endswith(("?", "\uff1f"))
        query = bool(_QUERY_ABOUT_RE.match(sentence)) if asks else None
        announced = announced or bool(_ANNOUNCED_RE.match(sentence))
    return len(text) if announced else None


def withdrawn_after(text: str, pos: int, answer: str | None = None) -> bool:
    """Whether a sentence after `pos` withdraws what was stated (see `withdrawal_end`)."""
    return withdrawal_end(text, pos, answer) is not None
