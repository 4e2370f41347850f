"""The words around a committed answer: doubts and hedges after it, rejections, asides and section titles,
the qualifiers of a box, attributions and denials. `commitment.py`, `asides.py`, `box_context.py` and `extract.py`
read them (split from `vocab.py`)."""

from __future__ import annotations

from rlvr.verifiers.math.phrase_words import FOREIGN_HEDGES
from rlvr.verifiers.math.vocab import HEDGES

# ---- What follows a committed answer (see `commitment.py`)
#: Phrases of doubt: a clause with one offers its values as possibilities ("I'm not sure; it might be 7").
UNCERTAINTY_PHRASES = (
    r"not\s+(?:sure|certain)",
    "unsure",
    "uncertain",
    r"(?:couldn't|could\s+not|can't|cannot)\s+(?:verify|confirm|check)",
)
#: Words that offer a value as one possibility ("maybe 7", "could be 7", "unless ..., in which case 7").
HEDGE_MARKERS = (
    *sorted(HEDGES),
    "might",
    "could",
    "plausible",
    r"also\s+(?:possible|valid|correct|right)",  # `15 is also possible`, `15 is just as likely`
    r"just\s+as\s+(?:likely|good|valid)",
    r"whether\s+(?:it|the\s+answer|this)\s+(?:should|might|could|would|is|was)",  # `double-check whether it should be 13`
    "defensible",  # `though 13 is defensible too`, `a case can be made for 13`, `split between this and 13`
    r"a\s+case\s+(?:can|could)\s+be\s+made",
    r"(?:split|torn)\s+(?:\w+\s+)?between",
    "arguabl[ey]",
    # a value ranked beside the answer (`but 25 is equally likely`, `runner-up: 25`, `my fallback would be 4`)
    r"equally\s+(?:likely|plausible|possible|valid|good)",
    r"runner[- ]up",
    r"second\s+(?:choice|guess|best|pick)",
    r"fall-?back",
    r"backup(?:\s+answer)?",
    # a tolerance in words (`35, give or take one`, `more or less 35`, `35 or so`)
    r"give\s+or\s+take",
    r"depending\s+on",  # `12/15 (depending on the reading)`
    r"more\s+or\s+less",
    r"or\s+so",
    *FOREIGN_HEDGES,
    "alternatively",
    "alternative",
    "otherwise",
    "unless",
    r"in\s+which\s+case",
    r"would\s+be",
)
#: Predicates that say the value before them is wrong ("7 is wrong", "7 fails", "7 is off by one").
REJECTION_PREDICATES = (
    # a negation only where it denies being the answer ("7 is not it"), not a property ("8 is not prime")
    r"(?:not|n't|never)\s+(?:the\s+(?:answer|solution|result|one)|it|right|correct|valid|possible|true|an?\s+"
    r"(?:answer|solution|option)|work|works|an\s+option)",
    "wrong",
    "incorrect",
    "false",
    "invalid",
    "impossible",
    "off",
    "fails?",
    "failed",
    r"(?:does\s+not|doesn't|won't)\s+work",
    "extraneous",
    "rejected",
    r"ruled\s+out",
    "excluded",
    r"too\s+(?:big|small|large|many|few|high|low)",
    r"a\s+(?:common\s+)?(?:mistake|trap|error|pitfall)",
    r"(?:gives?|leads?\s+to)\s+a\s+contradiction",
)
#: Words that make what a clause says next a known wrong answer ("a common mistake is to say it's 7").
PITFALL_WORDS = ("mistake", "trap", "tempting", "misconception", "pitfall", r"some\s+might\s+say")
#: Titles of a section after the answer that explains or remarks on it (`## Explanation`, `Note:`, `Remark:`).
#: Of those, the ones that title a remark (they open an aside mid-text too: `(Note: ...)`, `Remark. ...`).
REMARK_TITLES = (
    "remark", "note", "observation",
    # the same in other languages: it de fr es pt ru pl cs hu fi nl sv da no et vi id el ar he ko
    "osservazione", "nota", "bemerkung", "anmerkung", "hinweis", "remarque", r"observaci[óo]n", r"observa[çc][ãa]o",
    "примечание", "замечание", "uwaga", r"pozn[áa]mka", r"megjegyz[ée]s", "huomautus", "opmerking",
    r"anm[äa]rkning", r"bem[æa]rkning", "merknad", r"m[äa]rkus", r"l[ưu]u\s+[ýy]", r"ghi\s+ch[úu]", "catatan",
    "σημείωση", "ملاحظة", "הערה", "참고",
)  # fmt: skip
SECTION_TITLES = (
    "explanation", "reasoning", *REMARK_TITLES, "check", "verification", "justification", "summary", "recap",
    "checklist", r"(?:key\s+)?takeaway",
    # facts beside the problem (`### Related facts`, `Key concepts`, `See also`, `Fun fact`)
    r"related\s+(?:facts?|results?|problems?|formulas?)", r"key\s+(?:concepts?|ideas?|facts?)", r"see\s+also",
    r"fun\s+facts?", "extensions?", r"further\s+(?:reading|notes?)", "bonus",
    # a section on the mistake to avoid (`**Why not $48?** A common mistake is ...`)
    r"why\s+not", r"common\s+(?:mistake|pitfall|error|trap)", "pitfall", r"watch\s+out",
)  # fmt: skip
#: Labels of a note added after the answer that may amend it (`Nachtrag:`, `补充：`, `FIXME:`): de zh ja ru es fr
#: it pt, the Latin and English ones.
ADDENDUM_TITLES = (
    "addendum", "erratum", "errata", "fixme", "nachtrag", r"anm\.?", "zusatz", "追记", "追記", "补充", "補足", "注",
    "备注", "附注", "дополнение", "постскриптум", "adenda", "addenda", r"nota\s+bene", "post-scriptum",
    "aggiunta", "adendo", r"obs\.?", "xxx",
)  # fmt: skip
#: Openers of a remark beside the answer (`Note that`, `For comparison`, `By the way`): a box in a sentence they
#: open is an aside (`asides.py`); so do `REMARK_TITLES`.
ASIDE_OPENERS = (
    r"also\s+note",
    r"for\s+(?:comparison|reference|context|completeness|the\s+record)",
    r"by\s+the\s+way",
    "incidentally",
    r"as\s+an\s+aside",
    r"side\s+note",
)
#: Tails that mark a sentence as a remark beside the answer (`The sum would be 1173, in case that's useful.`)
ASIDE_TAILS = (
    r"in\s+case\s+(?:that's|that\s+is|it's|it\s+is|you\s+(?:need|want)\s+it)\s+(?:useful|helpful|needed|of\s+interest)",
    r"if\s+(?:you're|you\s+are)\s+(?:curious|interested)",
    r"for\s+what\s+it'?s\s+worth",
    r"(?:just\s+)?as\s+a\s+bonus",
)
#: Phrases right before a box that make its value a bound or a denial (`at least \\boxed{12}`, `not \\boxed{12}`).
QUALIFIERS_BEFORE_BOX = (
    r"at\s+least",
    r"at\s+most",
    "not",
    "never",
    r"(?:more|less|fewer|greater|smaller)\s+than",
    "approximately",
    "roughly",
    "about",
    "around",
    "nearly",
    "almost",
)
#: Phrases right after a box that make its value a bound or an estimate (`\\boxed{12} at least`, `is a lower bound`).
QUALIFIERS_AFTER_BOX = (
    r"at\s+least",
    r"at\s+most",
    r"or\s+(?:more|less|fewer|so|greater|higher|lower|above|below)",
    r"(?:an?\s+)?(?:lower|upper)\s+bound",
    "approximately",
    "roughly",
    r"an?\s+(?:estimate|approximation)",
    r"or\s+(?:thereabouts|something\s+(?:close|near|like\s+that|similar))",  # `\boxed{12} or something close`
    r"give\s+or\s+take(?:\s+\w+)?",
    r"more\s+or\s+less",
    # a value not yet given as the answer: `\boxed{12} (tentative)`, `(draft)`, `(to be checked)`
    r"tentative(?:ly)?",
    r"provisional(?:ly)?",
    r"(?:a\s+)?draft",
    r"(?:a\s+)?placeholder",
    r"to\s+be\s+(?:checked|confirmed|verified|determined|revised)",
    r"pending(?:\s+\w+)?",
    # a value whose sign is left open (`\\boxed{24} (up to sign)`): it and its negative
    r"up\s+to\s+(?:a\s+|the\s+)?sign",
    r"(?:or|and)\s+its\s+negative",
    # a box as the subject of a property (`so \\boxed{30} is divisible by 6`): an instance checked, not an answer
    r"is\s+(?:divisible|indeed\s+divisible|a\s+(?:multiple|factor|divisor)|(?:a\s+)?(?:prime|composite|even|odd)\b)",
)
#: Whose answer a phrase states when it is not the reply's own ("the expected answer is 7", "Reference answer:").
ATTRIBUTIONS = (
    "expected",
    "reference",
    "correct",
    "official",
    "given",
    "intended",
    "textbook",
    r"book'?s?",
    "key",
)
#: Words that make a later value in a sentence depend on an earlier one (`$60^\\circ$, twice the $30^\\circ$`).
SUBORDINATORS = (
    "twice",
    "thrice",
    "half",
    "compared",
    "than",
    "versus",
    "vs",
    "not",
    "unlike",
    "instead",
    "rather",
    "except",
    "when",
    "if",
    "for",
    "from",
    "of",
    "after",
    "before",
    "as",
    "by",
    "while",
    "whereas",
    # where an extremum is taken: `the minimum is $-3$ (attained at $x = -2$)`
    "attained",
    "achieved",
    "reached",
    "occurs",
    "occurring",
)
#: Words that state a value (`... which is $4\\pi$`): a value after one is stated, not subordinate.
COPULAS = ("is", "are", "was", "were", "equals", "gives", "becomes", "yields", "which", "so", "hence", "thus")
#: Words that deny or reject a value near them, in several languages ("we reject 7", "7 violates ...", "n \\neq 7",
#: "8, а не 7", "7ではありません"): a guessed value (no box, no answer phrase) in their reach is no answer.
DENIAL_CUES = (
    r"\bnot\b", r"\bno\b(?!\s*,)", r"\bnever\b", r"\bcannot\b", r"n't\b", r"\bwrong\b", r"\bincorrect\b",
    r"\breject\w*", r"\bdiscard\w*", r"\bfail\w*", r"\bviolat\w*", r"\bbreak\w*", r"\bextraneous\b",
    r"\binvalid\b", r"\bimpossible\b", r"\bexclud\w*", r"\\neq?\b", "\u2260", "~~", "[\u2717\u2718\u274c]",
    r"\bне\b", r"\bнет\b", r"\bnão\b", r"\bnon\b", r"\bnicht\b", r"\bfalsch\w*", r"\bfaux\b", r"\bpas\b",
    "不", "非", "ではありません", "ではない", "아닙니다", "아니",
)  # fmt: skip
