"""Closed word lists of many languages for rules written first in English: a word of error (`wrong`), `maybe`,
and `without ... would` (a counterfactual). One list per concept, read by `polarity.py`, `withdrawal.py`,
`phrase_words.py` and `assertion.py`, so that a language added here counts in every rule that reads the concept.

Words of scripts written with spaces are whole words (a letter may not touch either end: `vale` never matches
`valeur`); words of scripts written without spaces (zh ja ko th lo km my) are read inside a run of letters.
A word here that is also a common word of another language is written in a phrase that fixes it (Estonian
`on vale`, not `vale`, which is Spanish `okay`).
"""

from __future__ import annotations

#: `wrong`, `incorrect`, `error`, `mistake` in the languages of Europe, Central and South Asia, Africa and the
#: Pacific (the languages of `polarity._OTHER_STEMS` and `withdrawal._OTHER_WORDS` are there already).
WRONG_WORDS_SPACED = (
    # South Slavic, in both scripts: sr hr bs sl mk bg
    "pogrešn[oaiu]", "pogrešan", "pogreška", "greška", "greške", "netačn[oa]", "netočn[oa]", "napačn[oa]",
    "narobe", "napaka", "погрешн[оаи]", "погрешан", "грешка", "нетачн[оа]", "грешн[оаи]", "невярн[оа]",
    "неправилн[оа]", "невер(?:ен|на|но|ны)", "не\\s+е\\s+(?:верен|вярна|верно|вярно|правилен)",
    # East Slavic and Baltic not yet read: uk be lt lv
    "хибн[оаи]", "памылк\\w*", "няправільн[аы]", "neteising[ai]", "klaid[ao]", "nepareiz[ias]", "kļūd[aīu]",
    # Turkic, Mongolic, Caucasus: kk ky uz tt ba az tk mn ka hy
    "қате", "дұрыс\\s+емес", "ката", "туура\\s+эмес", "xato", "noto['ʻ‘’]g['ʻ‘’]ri", "хато", "яңлыш",
    "дөрес\\s+түгел", "səhv\\w*", "düzgün\\s+deyil", "ýalňyş", "nädogry", "буруу", "алдаа", "არასწორ\\w*",
    "შეცდომ\\w*", "սխալ\\w*",
    # Finnic, Celtic, Basque, Romance and Germanic not yet read: et fi cy ga gd br eu ca gl ro is af
    "on\\s+vale", "vigane", "virheellinen", "anghywir", "camgymeriad", "mícheart", "earráid", "ceàrr",
    "mearachd", "fazi", "okerra", "oker", "ez\\s+da\\s+zuzena", "akatsa", "incorrecte", "erroni", "equivocat",
    "erróneo", "errónea", "equivocad[oa]", "incorect[ăa]?", "rangt", "vitlaus\\w*", "röng", "verkeerd", "sbagliat[oaie]",
    "errat[oaie]", "erroné", "erronée", "fehlerhaft", "helytelen", "téves", "nesprávn[aeéáýy]", "niepoprawn\\w*",
    "felaktig", "feilaktig", "inkorrekt", "galt", "gabim\\w*", "gabuar", "nagkamali", "mali\\s+(?:ito|iyan|yan|yon|iyon)", "pasaktë", "żbaljat[aie]?", "ħażin", "żball",
    "malĝust[aeo]", "eraro",
    # Indic and Iranian not yet read, Semitic, Ethiopic: ur pa gu mr ta te kn ml si ne fa ar he am
    "غلط", "نادرست", "ਗਲਤ", "ਗ਼ਲਤ", "ખોટ\\w*", "ભૂલ", "चूक", "चुकीच\\w*", "त्रुटि", "தவறு", "తప్పు", "ತಪ್ಪು",
    "തെറ്റ\\w*", "වැරදි", "වැරදියි", "ስህተት", "ভুল",
    # Africa and the Pacific: sw ha yo ig zu xh so tl ms id mi haw
    "si\\s+sahihi", "k[oò]\\s+t[oọ]\u0300?n[aà]", "kuskure", "ba\\s+daidai\\s+ba", "aṣiṣe", "njehie", "a(?:yi|ku|wu|li|zi|si|bu)lungile", "ayilunganga", "ayichanekanga", "iphutha", "impazamo", "fosahetse", "haina\\s+kweli",
    "khalad", "qalad", "maling", "tidak\\s+betul", "silap", "diso", "tsy\\s+marina", "sayop",
    # Kurdish (Kurmanji), Tajik, Pashto, Uyghur, Tatar: ku tg ps ug
    "şaş\\s+(?:e|in|bû)", "xelet\\w*", "ne\\s+rast\\s+e", "нодуруст", "ғалат", "хатогӣ", "ناسم", "خاطا",
    # ro (both forms of `ș`), la, ckb
    "gre[șş]it[ăa]?", "gre[șş]eal[ăa]", "falsum", "falsa", "falsus", "هەڵە\\w*",
)  # fmt: skip
WRONG_WORDS_GLUED = (
    # Chinese in traditional characters and Cantonese: 錯 不對 有誤 唔啱 計錯 搞錯
    "錯", "不對", "有誤", "唔啱", "計錯", "搞錯",
    # Thai, Lao, Khmer, Burmese, Korean: ผิด ຜິດ ខុស မှား 오류 (Thai `ผิด` and Korean `틀렸` are read elsewhere)
    "ຜິດ", "ខុស", "မှား", "오류",
)  # fmt: skip

#: `not correct`, `not right`, `not true` as one phrase, in the languages that say `wrong` so as often as with a
#: word of error (`Čekaj, to nije točno.`, `เดี๋ยวก่อน คำตอบนี้ไม่ถูกต้อง`, `ഇല്ല, ഇത് ശരിയല്ല.`).
NOT_CORRECT_SPACED = (
    # South and West Slavic, Baltic, Finnic, Hungarian, Romanian, Greek: hr bs sr sl mk bg cs sk lv lt et fi hu ro el
    "nije\\s+(?:točno|tačno|ispravno|dobro|u\\s+redu)", "није\\s+(?:тачно|исправно|добро)",
    "ni\\s+(?:prav|pravilno|pravilen|točno|res)", "не\\s+е\\s+(?:точно|вярно|правилно|исправно)",
    "není\\s+(?:správn[eéáý]|pravda)", "nie\\s+je\\s+(?:správn[eéáy]|pravda)", "nav\\s+pareiz[is]",
    "nėra\\s+teising[ai]", "neteisingai", "ei\\s+ole\\s+(?:õige|oikein|oikea)", "väärin", "nem\\s+(?:jó|helyes)",
    "nu\\s+(?:e|este)\\s+(?:corect|bine)", "ei\\s+klapi", "ei\\s+täsmää", "ei\\s+vasta", "δεν\\s+είναι\\s+σωστ\\w*", "λάθος",
    # Turkic, Caucasus, Semitic, Iranian: tr ka hy ar he fa ur
    "doğru\\s+değil", "არ\\s+არის\\s+სწორი", "ճիշտ\\s+չէ", "ليس\\s+صحيح[اً]*", "غير\\s+صحيح[ةه]?", "خطأ",
    "לא\\s+נכון", "שגוי[הים]*", "درست\\s+نیست", "صحیح\\s+نیست", "درست\\s+نہیں", "صحیح\\s+نہیں",
    # Indic: hi ne mr gu pa bn ta te kn ml si
    "सही\\s+नहीं", "सही\\s+होइन", "बरोबर\\s+नाही", "સાચું\\s+નથી", "ਸਹੀ\\s+ਨਹੀਂ", "সঠিক\\s+নয়", "সঠিক\\s+না",
    "சரியல்ல", "சரி\\s+இல்லை", "సరైనది\\s+కాదు", "సరి\\s+కాదు", "ಸರಿಯಲ್ಲ", "ಸರಿ\\s+ಇಲ್ಲ", "ശരിയല്ല",
    "නිවැරදි\\s+නැහැ", "නිවැරදි\\s+නැත", "නිවැරදි\\s+නෑ",
    # South-East Asia, Africa: vi id ms tl sw am
    "không\\s+đúng", "không\\s+chính\\s+xác", "tidak\\s+(?:benar|tepat)", "hindi\\s+tama",
    "sio\\s+sahihi", "ትክክል\\s+አይደለም", "k[oò]\\s+t[oọ][\u0300\u0301]?(?:n[aà])?",
    # idioms of "that does not add up" and romanised words of error: nl fi fr de es it ru, Hinglish, pinyin, romaji
    "klopt\\s+niet", "ei\\s+pidä\\s+paikkaansa", "tient\\s+pas\\s+la\\s+route", "haut\\s+nicht\\s+hin",
    "no\\s+(?:me\\s+)?cuadra", "non\\s+torna", "не\\s+сходится", "galat", "ghalat", "suan\\s*cuo", "machigae\\w*",
)  # fmt: skip
#: `a contradiction` (what a supposition refuted arrives at: `Giả sử đáp án là 12. ... mâu thuẫn.`): vi id es pt it
#: de ru uk pl cs tr nl hi, and th in its script.
CONTRADICTION_SPACED = (
    "mâu\\s+thuẫn", "kontradiksi", "contradicci[óo]n", "contradi[çc][ãa]o", "contraddizione",
    "widerspruch", "противоречие", "суперечність", "sprzeczność", "çelişki", "tegenspraak", "विरोधाभास",
)  # fmt: skip
NOT_CORRECT_GLUED = (
    # Thai, Lao, Khmer, Burmese, Japanese, Korean: ไม่ถูก ບໍ່ຖືກ មិនត្រឹមត្រូវ မမှန် 正しくない 맞지 않
    "ไม่ถูก", "ບໍ່ຖືກ", "មិនត្រឹមត្រូវ", "မမှန်", "正しくない", "맞지\\s*않",
)  # fmt: skip

#: Retractions: `I take it back`, `forget that`, `cancel this answer` (fr es de it pt pl tr vi id hi ko ja zh ru nl
#: sv): a sentence with one withdraws what was said before it, though it names no error.
RETRACT_WORDS_SPACED = (
    "je\\s+retire\\s+(?:ce\\s+que|ma\\s+réponse|cette\\s+réponse|tout|mes\\s+paroles)", "oublie[sz]?\\s+(?:ça|cela|ce\\s+que)", "retiro\\s+lo", "olvida\\s+(?:eso|lo)",
    "olvídalo", "kommando\\s+zurück", "vergiss\\s+(?:das|es)", "ich\\s+nehme\\s+(?:das|es|alles)\\s+zurück",
    "ritiro\\s+(?:quanto|tutto|ciò|la\\s+risposta)", "lascia\\s+perdere", "retiro\\s+(?:o\\s+que|a\\s+resposta)",
    "esquece\\s+(?:isso|isto)", "cofam\\s+(?:to|tę|odpowiedź)", "odwołuję", "geri\\s+alıyorum", "unut\\s+bunu",
    "rút\\s+lại", "saya\\s+tarik\\s+kembali", "lupakan\\s+itu", "वापस\\s+लेता", "वापस\\s+लेती", "беру\\s+(?:свои\\s+слова\\s+)?назад",
    "забудьте|забудь\\s+(?:это|об\\s+этом)", "отставить", "ik\\s+neem\\s+(?:dat|het)\\s+terug", "vergeet\\s+dat",
    "jag\\s+tar\\s+tillbaka", "glöm\\s+det",
    # `disregard this result` addressed to the reader: fr es it pt de ru pl
    "ne\\s+tenez\\s+pas\\s+compte", "ne\\s+upoštevajte", "занемарите", "zanemarite", "no\\s+tingueu\\s+en\\s+compte",
    "huwag\\s+pansinin", "abaikan", "don'?t\\s+go\\s+by", "do\\s+not\\s+go\\s+by", "pay\\s+no\\s+attention\\s+to",
    "(?:should|must|can)(?:\\s+not|n'?t)\\s+be\\s+trusted", "do\\s+not\\s+trust", "don'?t\\s+trust", "ignorez\\s+(?:ce|cette|la|le)", "no\\s+tengas?\\s+en\\s+cuenta",
    "ignora\\s+(?:el|la|este|esta|questo|questa|il)\\s+(?:resultado|respuesta|risultato|risposta)",
    "desconsidere", "ignorieren\\s+Sie", "ignoriere\\s+(?:das|die|den)", "не\\s+обращайте\\s+внимания",
    "zignoruj",
    # a FIXME note: the author marks what it follows as known to be broken
    "fixme",
    # a withdrawal in a review's or a version control's words: `Agreed, withdrawing.`, `Revert "final answer: 42"`
    "withdrawing", "I\\s+withdraw", "retracted", "ignore\\s+me", "revert(?:s|ed)?(?=\\s+[\"'“]|\\s+commit|\\s+the\\s+answer)",
)  # fmt: skip
RETRACT_WORDS_GLUED = (
    "취소",
    "철회",
    "取り消",
    "撤回",
    "作废",
    "作廢",
    "收回",
    "请忽略",
    "請忽略",
    "無視して",
)

#: `no` as a clause of its own (`Nē, tas ir nepareizi`, `Rárá, dúró, ...`): lv lt/cs/sk bg/sr/mk uk pl hu fi/et ro
#: tr el he ar fa hi bn ta te kn ml si th vi id sw yo ka hy nl sv/da no/is.
NO_WORDS = (
    "nē", "ne", "не", "ні", "nie", "nem", "ei", "nu", "hayır", "όχι", "לא", "لا", "نه", "नहीं", "না", "இல்லை",
    "కాదు", "ಇಲ್ಲ", "ഇല്ല", "නැහැ", "නෑ", "ไม่", "không", "tidak", "bukan", "hapana", "rárá", "არა", "ոչ", "nee",
    "nej", "nei", "jo",
)  # fmt: skip

#: `maybe`, `perhaps` and `or maybe` in the languages `phrase_words.FOREIGN_HEDGES` does not hold: a clause with
#: one offers its values as possibilities.
MAYBE_WORDS_SPACED = (
    "ربما", "لعل", "شاید", "אולי", "शायद", "হয়তো", "ஒருவேளை", "బహుశా", "ಬಹುಶಃ", "ഒരുപക്ഷേ", "có\\s+lẽ",
    "có\\s+thể\\s+là", "labda", "ίσως", "можливо", "може\\s+би", "možda", "morda", "možno", "galbūt", "varbūt",
    "võib-olla", "potser", "agian", "efallai", "b'fhéidir", "ndoshta", "bəlkə", "мүмкін", "balki", "siguro",
    "baka", "miskien", "kanskje", "måske", "kannski", "forsi", "შეიძლება", "միգուցե", "գուցե",
    "можа", "бәлкім",
)  # fmt: skip
MAYBE_WORDS_GLUED = (
    "也许",
    "或许",
    "也許",
    "或許",
    "大概是",
    "อาจจะ",
    "หรืออาจ",
    "อาจเป็น",
    "たぶん",
    "多分",
    "可能是",
    "おそらく",
    "아마",
)

#: Openers of a supposition (`suppose`, `assume`, `let us say`) in languages `assertion.py` did not read: a value
#: in a sentence one opens, before its consequent, is supposed, not asserted (`Giả sử đáp án là 12. Khi đó ...`).
SUPPOSE_WORDS_SPACED = (
    "giả\\s+sử", "giả\\s+định", "anggap(?:lah)?", "umpamakan", "katakan(?:lah)?", "ipagpalagay", "tuseme",
    "tuchukulie", "मान\\s+(?:लीजिए|लो|लें|लेते\\s+हैं)", "ধরা\\s+যাক", "ধরি", "لنفترض", "افترض", "فرض\\s+کنید",
    "فرض\\s+کن", "נניח", "ας\\s+υποθέσουμε", "υποθέτουμε", "припустимо", "припустім", "pretpostavimo",
    "претпоставимо", "recimo", "denimo", "předpokládejme", "predpokladajme", "tarkime", "pieņemsim", "oletame",
    "tegyük\\s+fel", "suposem", "demagun", "diyelim\\s+ki", "farz\\s+edelim", "thử\\s+đoán", "ansatz",
    # a bet (`Je parierais sur 31`): fr es it pt de
    "je\\s+parierais", "apostar[íi]a", "scommetterei", "ich\\s+w[üu]rde\\s+(?:auf|wetten)",
)  # fmt: skip
SUPPOSE_WORDS_GLUED = ("สมมติ", "สมมุติ", "가정하면", "가정하자", "만약", "假定", "と仮定")

#: A counterfactual opened by `without` with a conditional verb after it (`Zonder de voorwaarde zou het antwoord
#: ... zijn`, `Bez tego warunku odpowiedź byłaby ...`): (without, conditional) per language not read before:
#: nl sv no da pl cs sk ro hu fi tr id ca el uk bg sr/hr.
WITHOUT_CONDITIONALS = (
    ("zonder", "(?:zou|zouden)"), ("utan", "skulle"), ("uten", "ville"), ("uden", "ville"),
    ("bez", "(?:by|byłaby|byłby|byłoby|wynosiłaby|wynosiłby|bylo\\s+by|by\\s+bylo|bola\\s+by|by\\s+bola)"),
    ("fără", "ar\\s+fi"), ("nélkül", "(?:lenne|volna)"), ("ilman", "(?:olisi|tulisi)"),
    ("olmadan", "(?:olurdu|olacaktı)"), ("tanpa", "(?:akan|adalah)"), ("sense", "seria"),
    ("χωρίς", "θα"), ("без", "(?:було\\s+б|б\\b|би\\b|щеше)"),
)  # fmt: skip


#: A counterfactual opened by `if` with a verb in the conditional mood after it (`Als de volgorde ertoe deed, zou het
#: antwoord ... zijn`, `Gdyby kolejność miała znaczenie, odpowiedź byłaby ...`): (if, conditional) of nl sv no da pl
#: cs sk ro hu fi tr (not the languages whose `if ... will` is a plain conditional).
IF_CONDITIONALS = (
    ("(?:als|indien)", "(?:zou|zouden)"), ("om", "skulle"), ("hvis", "(?:ville|skulle)"),
    ("(?:gdyby|jeśliby|jeżeliby)", "(?:by|byłaby|byłby|byłoby|wynosiłaby|wynosiłby)"),
    ("(?:kdyby|pokud\\s+by|keby|ak\\s+by)", "(?:by|bylo\\s+by|by\\s+bylo|by\\s+byla|by\\s+byl|bola\\s+by|by\\s+bola)"),
    ("dacă", "ar\\s+fi"), ("ha", "(?:lenne|volna)"), ("jos", "(?:olisi|tulisi)"), ("eğer", "(?:olurdu|olacaktı)"),
    # and the languages whose `if` of a counterfactual is a word of its own or takes one: el he id vi uk is hi
    ("αν", "θα"), ("(?:אילו|לו)", "(?:הייתה|היה|היו)"), ("(?:seandainya|andaikan|sekiranya)", "(?:akan|maka)"),
    ("giá\\s+như", "(?:sẽ|thì)"), ("якби", "(?:б|би|була|був|було)"), ("ef", "(?:væri|væru|myndi|mundi)"),
    ("(?:यदि|अगर)", "(?:होता|होती|होते)"),
    # ar sw: `لو ... لكانت`, `Kama ... lingekuwa` (the consequent's `-nge-`)
    ("لو", "لكان\\w*"), ("kama", "\\w*nge(?:kuwa|kuwepo|pata)\\w*"),
)  # fmt: skip


def spaced(words: tuple[str, ...]) -> str:
    """A regex alternation of `words` as whole words (no letter touches either end)."""
    return r"(?<![^\W\d_])(?:" + "|".join(words) + r")(?![^\W\d_])"


def glued(words: tuple[str, ...]) -> str:
    """A regex alternation of `words` of scripts written without spaces (read inside a run of letters)."""
    return "(?:" + "|".join(words) + r")[^\W\d_]*"  # (to the end of the run: a boundary may follow)


#: Every word of error above, as one regex fragment.
WRONG = (
    spaced(WRONG_WORDS_SPACED + NOT_CORRECT_SPACED + CONTRADICTION_SPACED)
    + "|"
    + glued(WRONG_WORDS_GLUED + NOT_CORRECT_GLUED + ("ขัดแย้ง",))
)
#: Every retraction above, as one regex fragment.
RETRACT = spaced(RETRACT_WORDS_SPACED) + "|" + glued(RETRACT_WORDS_GLUED)
#: Every word of error or retraction: what a sentence after an answer says to disown it.
DISOWNING = WRONG + "|" + RETRACT
#: Every `maybe` above, as one regex fragment.
MAYBE = spaced(MAYBE_WORDS_SPACED) + "|" + glued(MAYBE_WORDS_GLUED)
#: Every supposition opener above, as one regex fragment.
SUPPOSE = spaced(SUPPOSE_WORDS_SPACED) + "|" + glued(SUPPOSE_WORDS_GLUED)
#: `without ... would` and `if ... would` of every language above, as one regex fragment (the condition and its consequent in one
#: sentence).
WITHOUT_WOULD = "|".join(
    rf"{spaced((w,))}[^.!?\n]*?{spaced((c,))}" for w, c in WITHOUT_CONDITIONALS + IF_CONDITIONALS
)
