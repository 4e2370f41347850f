"""The words that state an answer, in every language replies are written in: answer sentences and labels,
conclusion openers, qualifiers and the local or/and. `phrases.py` reads them all (split from `vocab.py`)."""

from __future__ import annotations

from rlvr.verifiers.math.languages import MAYBE

# ---- Answer phrases in every language the replies are written in: `phrases._PHRASE_RE` reads them all, so
# every rule that reads an answer phrase (contested answers, revisions, quoted asides) reads these too.
#: Sentences that state the answer ("the answer is 12", "la réponse est 12", "答案是 12"); English is the
#: `answer is` / `answer:` form of `phrases._PHRASE_RE` itself.
ANSWER_SENTENCES = (
    # (with the adverb of a conclusion after the copula: `La réponse est donc 12,5`, `Die Antwort ist also 7`)
    r"die\s+antwort\s+(?:ist|lautet)(?:\s+(?:also|daher|somit))?", r"la\s+r[ée]ponse(?:\s+finale)?\s+est(?:\s+(?:donc|alors|ainsi))?",
    r"la\s+respuesta\s+es(?:\s+(?:entonces|pues|por\s+tanto))?", r"a\s+resposta\s+[ée](?:\s+(?:ent[ãa]o|portanto|logo))?",
    r"la\s+risposta\s+[èe](?:\s+(?:quindi|dunque))?", r"ответ\s+(?:равен|равна|равно)",
    # every other language with an answer label: the copula before the value, or in a verb-final language
    # after a formula right after the noun (`Cevap $5$'tir`, `उत्तर $6$ है`, `پاسخ $5$ است`: the noun alone, as
    # in `Bu cevap doğru`, opens no answer)
    r"cevap(?=[ \t]*\$[^$\n]+\$[ \t]*'?[dt][ıiuü]r)", r"उत्तर(?=[ \t]*\$[^$\n]+\$[ \t]*हैं?)",
    r"(?:پاسخ|جواب)(?=[ \t]*\$[^$\n]+\$[ \t]*است)",
    r"het\s+antwoord\s+is", r"r[ăa]spunsul(?:\s+final)?\s+(?:este|e)", r"vastaus\s+on", r"svaret\s+(?:er|[äa]r)",
    r"jawab(?:an|annya)\s+(?:adalah|ialah)", r"jawap(?:an|annya)\s+(?:adalah|ialah)", r"odpowied[źz]\s+(?:to|wynosi)",
    r"odpov[ěe]ď\s+je", r"η\s+απάντηση\s+είναι", r"đáp\s+(?:án|số)\s+là", r"la\s+resposta\s+[ée]s",
    r"jibu\s+ni", r"відповідь\s+(?:дорівнює|становить)", r"الجواب\s+هو", r"الإجابة\s+هي", r"התשובה\s+(?:היא|הינה)",
    r"উত্তর\s+(?:হল|হলো)",
    "답은",  # Korean: the answer noun with its topic particle (`따라서 답은 $4$입니다`), a word of its own (`대답은`: a reply)
)  # fmt: skip
#: Labels that open an answer line when a colon (`:` or the full-width `：`) follows them (`Ответ: 10 км/ч`,
#: `答：这个数是 7`, `Réponse : 30`, `**Đáp số:** 4`): a closed list, one word (or two) per language.
ANSWER_LABELS = (
    "答", "답",  # Chinese, Japanese, Korean (`回答` is a reply, `解答` and `해답` a solution: not answer lines)
    "ответ", "відповідь",  # Russian, Ukrainian
    r"r[ée]ponse(?:\s+finale)?", r"respuesta(?:\s+final)?", r"resposta(?:\s+final)?", r"risposta(?:\s+finale)?",
    "antwort", "antwoord", "cevap", "yan[ıi]t", r"đáp\s+(?:số|án)(?:\s+(?:chính\s+xác|đúng|cuối\s+cùng))?", "odpowied[źz]", "odpověď",
    "jawaban", "jawapan", "svar", "απάντηση", "उत्तर", "الجواب", "الإجابة", "תשובה", "پاسخ", "คำตอบ",
    r"r[ăa]spuns(?:ul)?(?:\s+final)?", "vastaus", r"v[áa]lasz", "jibu", "উত্তর", "svaret", "התשובה", "جواب",
    "vastus", "atbilde", "atsakymas", "odgovor", "одговор", "отговор", "sagot",  # et lv lt sl/hr/sr bg tl
    "ateb", r"p[ëe]rgjigjj?[ea]", r"odpove[ďd]", "javob", "жауап", "erantzuna", "freagra",  # cy sq sk uz kk eu ga
    "cavab", "адказ", "жооп", "ҷавоб", "jogap", "хариу(?:лт)?", "պատասխան", "პასუხი",  # az be ky tg tk mn hy ka
    "సమాధానం", "ಉತ್ತರ", "ഉത്തരം", "விடை", "જવાબ", "ਉੱਤਰ", "ਜਵਾਬ", "ଉତ୍ତର", "উত্তৰ", "පිළිතුර",  # te kn ml ta gu pa or as si
    "အဖြေ", "ចម្លើយ", "ຄຳຕອບ", "መልስ", "መልሲ", "ځواب", "جاۋاب",  # my km lo am ti ps ug
    "respondo", "responsum", r"tweġiba", "tubag", "amsa", r"ìdáhùn", "impendulo", "jawaab", "valiny",  # eo la mt ceb ha yo zu so mg
    "freagairt", "bersiv", "wangsulan", r"azịza", "jawaabta", "pane",  # gd ku jv ig so haw
    # inflected forms and more languages: kk `Жауабы`, tt ba, ta te, lb fy yi mi qu, African GSM8K languages (om st
    # rw sn ee ln wo tw lg), ht
    "жауабы", "җавап", "яуап", "பதில்", "జవాబు", "äntwert", "antwurd", "ענטפער", "whakautu", "kutichiy", "deebii",
    "karabo", "igisubizo", "mhinduro", r"ŋuɖoɖo", "eyano", "tontu", "mmuae", r"okuddamu", "repons",
    # a result called final is the answer (a bare `Result:` labels a step as often: `RESULT_LABELS`)
    r"final\s+result", r"risultato\s+finale", r"r[ée]sultat\s+final", r"resultado\s+final", "endergebnis", "final",
)  # fmt: skip
#: The same in scripts written without spaces, read even right after other letters (`所以答案是七`, `最终答案：7`):
#: sentences, then labels.
ANSWER_SENTENCES_GLUED = (
    "答案是", "答案为", "答案為", "答案应为", "答案應為", "答案应该是", "答案應該是", "答えは", "정답은", "คำตอบคือ",
)  # fmt: skip
ANSWER_LABELS_GLUED = ("答案", "答え", "정답")
#: Labels of a result (`Résultat : 2`, `Ergebnis: Das Integral hat den Wert 2.`, `Total distance: 25 km`): they
#: label a step's result as often as the answer, so they answer only where they open a reply's closing line
#: (`closing.closing_result`), never as a commitment elsewhere; then labels of scripts written without spaces.
RESULT_LABELS = (
    "result", "total", r"r[ée]sultat", "ergebnis", "gesamt", "resultado", "risultato", "totale",
    "итого?", "результат", "підсумок", "wynik", "resultaat", "totaal", "sonuç", r"kết\s+quả", "hasil", "결과",
)  # fmt: skip
RESULT_LABELS_GLUED = ("结果", "結果", "合计", "總計", "总计")
#: Words of other languages that qualify a number before them in an answer line (`Ответ: около 10`, `答：约 10`):
#: about, at least, at most, more or fewer than, not (the English ones are `QUALIFIERS_BEFORE`).
FOREIGN_QUALIFIERS = (
    "около", "примерно", "приблизительно", "не", "больше", "меньше", "более", "менее", "почти", "минимум",
    "максимум", "约", "大约", "大約", "约为", "至少", "至多", "最多", "不是", "不", "超过", "少于", "多于", "約",
    "およそ", "少なくとも", "以上", "以下", "未満", "약", "최소", "이상", "이하", "environ", "moins", "plus",
    "pas", "aproximadamente", "unos", "menos", "más", "mais", "cerca", "circa", "almeno", "meno", "più", "non",
    "ungefähr", "etwa", "mindestens", "höchstens", "nicht", "yaklaşık", "en az", "khoảng", "ít nhất",
    "không", "około", "co najmniej", "nie", "sekitar", "paling sedikit", "tidak", "लगभग",
)  # fmt: skip
#: Words that open a concluding sentence ("Therefore, there are 12 ...", "Значит, ... равно −7", "所以结果是 −10"):
#: its one value is the reply's answer when no box or answer phrase gives one (`phrases._CONCLUSION_RE`).
CONCLUSION_OPENERS = ("Therefore", "Thus", "Hence", "So")  # capitalised: they open a sentence
#: ... in other languages (in any case), then in scripts written without spaces (no word boundary ends them).
CONCLUSION_OPENERS_OTHER = (
    "значит", "итак", "следовательно", "поэтому", r"таким\s+образом",  # Russian
    "donc", "ainsi", r"por\s+lo\s+tanto", r"por\s+tanto", "portanto", "logo", "quindi", "dunque",
    "daher", "somit", "folglich", "dolayısıyla", r"bu\s+nedenle", "vậy", r"do\s+đó", "zatem", "więc", "jadi",
    "maka",
)  # fmt: skip
CONCLUSION_OPENERS_GLUED = (
    "\u2234",  # `∴ 14`: the therefore sign
    "所以",
    "因此",
    "因而",
    "故",
    "于是",
    "よって",
    "したがって",
    "따라서",
    "그러므로",
)
#: Connectives of other languages between two values of an answer (`x = 3 или x = 5`, `8 或 9`): read as the
#: English `or` / `and`, so a hedge or a list in any language is all its values (`phrases._clean_phrase_answer`).
FOREIGN_OR = (
    "или", "либо", "або", "ou", "oder", "oppure", "lub", "albo", "nebo", "hoặc", "veya", r"ya\s+da", "atau",
    "eller", "ή", "या", "或者", "或是", "或", "または", "もしくは", "또는", "혹은", "vagy", "tai", "sau", "או", "أو", "یا",
    "ან", "tàbí", "tabi", "eða", "ose",  # ka yo is sq
    r"bzw\.", "beziehungsweise", "respektive",  # de: `24 bzw. 25` offers both
    r"resp\.", "illetve", "vel", r"o\s+sea",  # nl/cs hu la es
    "ili", "või", "vai", "arba", "neu", "nó", "edo", "jew", "yoki", "yaxud", r"və\s+ya", "немесе", "կամ",  # sh sl et lv lt cy ga eu mt uz az kk hy
    r"wzgl\.", "względnie", r"ou\s+bien", r"o\s+bien",  # pl fr es (not `o` alone: `7 o'clock`)
)  # fmt: skip
FOREIGN_AND = (
    "и", "і", "und", "et", "oraz", "và", "ve", "och", "og", "και", "और", "和", "及", "および", "그리고",
)  # fmt: skip
#: Labels of a check line in every language the answer labels are read in (`Verificare: $50\cdot 51 = 2550$ ✓`,
#: `Probe:`, `Проверка:`, `검산:`, `验算：`): a line they open checks the answer, it states no new one
#: (`checks.check_line`); then the labels of scripts written without spaces.
CHECK_LABELS = (
    "check", "checking", "verification", "verify", r"double[- ]check", "probe", r"überprüfung", "kontrolle",
    r"prüfung", r"v[ée]rification", r"verificaci[óo]n", r"comprobaci[óo]n", r"verifica[çc][ãa]o", "verifica",
    "controllo", "проверка", "перевірка", "sprawdzenie", "weryfikacja", r"zkou[šs]ka", "kontrola", r"ov[ěe][řr]en[íi]",
    "controle", "verificare", r"ellen[őo]rz[ée]s", "tarkistus", "kontrol", "kontroll", r"do[ğg]rulama",
    r"ki[ểe]m\s+tra", r"th[ửu]\s+l[ạa]i", "cek", "periksa", "pemeriksaan", "semakan", "uhakiki",
    r"comprovaci[óo]", "έλεγχος", "επαλήθευση", "जाँच", "जांच", "सत्यापन", "যাচাই", "التحقق", "تحقق", "בדיקה",
    "بررسی", "검산", "검증", "확인",
    # so ig haw jv or sw yo ha zu mg
    "hubin", "hubinta", "nlele", "hōʻoia", "ho'oia", "priksa", "mriksa", "ଯାଞ୍ଚ", "hakiki", "ìdánilójú", "tabbatarwa",
    "ukuhlola", "fanamarinana",
    # my km lo ka hy am ta te (`စစ်ဆေးချက် - ၂၅ + ၁၅ = ၄၀`)
    "စစ်ဆေးချက်", "စစ်ဆေးခြင်း", "ការពិនិត្យ", "ກວດສອບ", "შემოწმება", "ստուգում", "ማረጋገጫ", "சரிபார்ப்பு", "తనిఖీ",
)  # fmt: skip
CHECK_LABELS_GLUED = (
    "验算",
    "驗算",
    "检验",
    "檢驗",
    "验证",
    "驗證",
    "检查",
    "檢查",
    "検算",
    "検証",
    "確認",
    "ตรวจสอบ",
)
#: `maybe` and `could also be` in other languages (nl sv de fr es it pt ru pl tr id hu fi cs ro ja ko): a clause
#: with one offers its values as possibilities, as `answer_words.HEDGE_MARKERS` do in English.
FOREIGN_HEDGES = (
    "misschien", r"kan\s+(?:het\s+)?ook", "kanske", r"kan\s+också", "vielleicht", r"könnte\s+auch", r"peut-être",
    r"pourrait\s+aussi", r"quizás?", r"tal\s+vez", r"podría\s+ser", "forse", r"potrebbe\s+essere", "talvez",
    "возможно", r"может\s+быть", r"być\s+może", "belki", "mungkin", "talán", "ehkä", r"možná", r"poate\s+fi",
    r"かもしれ\w*", r"수도\s+있\w*",
    MAYBE,  # (and `maybe` in the languages of `languages.py`)
)  # fmt: skip
