"""Numbers written in the words of other languages, 0 to 99: German, French, Spanish, Italian, Portuguese,
Russian and Turkish (`vierundzwanzig`, `quatre-vingt-dix`, `treinta y dos`, `двадцать четыре`). `numerals.py` reads them in a
reply's text, `number_words.py` as a whole answer (split from `numerals.py`)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable


def _words_to_99() -> dict[str, int]:
    """0 to 99 as German, French, Spanish, Italian, Portuguese and Russian write them (keys without accents,
    hyphens as spaces: `vierundzwanzig`, `vingt quatre`, `quatre vingt dix`, `veinticuatro`, `treinta y dos`,
    `ventotto`, `vinte e um`, `двадцать четыре`). Words that are English words too are left out: `null`, `due`,
    `once` (11), `um` (1)."""
    table: dict[str, int] = {}

    def add(words: str, start: int = 0) -> list[list[str]]:
        forms = [w.split("/") for w in words.split()]
        table.update({_plain(f): n for n, fs in enumerate(forms, start) for f in fs if f != "_"})
        return forms

    def tens(words: str, units: list[list[str]], join: str, first: int = 2) -> None:
        for t, ten_forms in enumerate(add(words, 0), first):
            for ten in ten_forms:
                table[_plain(ten)] = 10 * t
                for u, unit_forms in enumerate(units, 1):
                    table.update({_plain(join.format(t=ten, u=unit)): 10 * t + u for unit in unit_forms})

    add("_ eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn sechzehn "
        "siebzehn achtzehn neunzehn")  # fmt: skip
    units = [[w] for w in ["ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun"]]
    tens("zwanzig dreißig/dreissig vierzig fünfzig sechzig siebzig achtzig neunzig", units, "{u}und{t}")
    fr = add("zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize "
             "dix-sept dix-huit dix-neuf")  # fmt: skip
    fr_units = [["et un"], *fr[2:10]]
    tens("vingt trente quarante cinquante soixante septante huitante/octante nonante", fr_units, "{t} {u}")
    for base, start in (("soixante", 70), ("quatre vingt", 90)):  # 70 and 90 count on from 60 and 80 by 10-19
        table.update({_plain(f"{base} {f[0]}"): start + k for k, f in enumerate(fr[10:20])})
    table[_plain("soixante et onze")] = 71
    table.update(
        {_plain(f"quatre vingt {f[0]}"): 80 + k for k, f in enumerate(fr[1:10], 1)} | {"quatre vingts": 80}
    )
    table["quatre vingt"] = 80
    add("cero uno dos tres cuatro cinco seis siete ocho nueve diez _ doce trece catorce quince dieciséis "
        "diecisiete dieciocho diecinueve veinte veintiuno/veintiún veintidós veintitrés veinticuatro veinticinco "
        "veintiséis veintisiete veintiocho veintinueve")  # fmt: skip
    es = [[w] for w in ["uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"]]
    tens("treinta cuarenta cincuenta sesenta setenta ochenta noventa", es, "{t} y {u}", first=3)
    it = add("zero uno _ tre quattro cinque sei sette otto nove dieci undici dodici tredici quattordici quindici "
             "sedici diciassette diciotto diciannove")  # fmt: skip
    for t, ten in enumerate(
        ["venti", "trenta", "quaranta", "cinquanta", "sessanta", "settanta", "ottanta", "novanta"], 2
    ):
        table[ten] = 10 * t
        for u, unit in enumerate(["uno", "due", *(f[0] for f in it[3:10])], 1):  # `ventuno`, `ventotto`
            table[(ten[:-1] if unit[0] in "uo" else ten) + unit] = 10 * t + u
    pt = add("zero _ dois/duas três quatro cinco seis sete oito nove dez onze doze treze catorze/quatorze quinze "
             "dezesseis/dezasseis dezessete/dezassete dezoito dezenove/dezanove")  # fmt: skip
    tens(
        "vinte trinta quarenta cinquenta sessenta setenta oitenta noventa",
        [["um", "uma"], *pt[2:10]],
        "{t} e {u}",
    )
    ru = add("ноль один/одна/одно два/две три четыре пять шесть семь восемь девять десять одиннадцать двенадцать "
             "тринадцать четырнадцать пятнадцать шестнадцать семнадцать восемнадцать девятнадцать")  # fmt: skip
    tens("двадцать тридцать сорок пятьдесят шестьдесят семьдесят восемьдесят девяносто", ru[1:10], "{t} {u}")
    # Turkish: `on` (10) is an English word, so ten alone is left out (`on bir` to `on dokuz` are read)
    tr = add("sıfır bir iki üç dört beş altı yedi sekiz dokuz")
    table.update({_plain(f"on {f[0]}"): 10 + k for k, f in enumerate(tr[1:10], 1)})
    tens("yirmi otuz kırk elli altmış yetmiş seksen doksan", tr[1:10], "{t} {u}")
    _northern(table, add, tens)
    return table


def _northern(table: dict[str, int], add: Callable[..., list[list[str]]], tens: Callable[..., None]) -> None:
    """0 to 99 in Dutch, Swedish, Norwegian, Danish, Icelandic, Finnish, Hungarian, Polish, Czech, Greek, Welsh,
    Swahili and Indonesian. A word alone that is a word of English or of another language too is left out (`to`,
    `fire`, `sex`, `pump`, `ni`, `ti`, `het`, `ein`, `moja`, `nulla`); it is read inside a compound (`tjugofem`)."""
    nl = add("nul een twee drie vier vijf zes zeven acht negen tien elf twaalf dertien veertien vijftien zestien "
             "zeventien achttien negentien")  # fmt: skip
    tens("twintig dertig veertig vijftig zestig zeventig tachtig negentig", nl[1:10], "{u}en{t}")
    sv = add("noll ett två tre fyra fem _ sju åtta nio tio elva tolv tretton fjorton femton sexton sjutton "
             "arton nitton")  # fmt: skip
    tens(
        "tjugo trettio fyrtio femtio sextio sjuttio åttio nittio",
        [["ett", "en"], *sv[2:10], ["sex"]][:9],
        "{t}{u}",
    )
    add("_ _ _ tre _ fem seks sju/syv åtte/otte _ _ elleve tolv tretten fjorten femten seksten "
             "sytten/sytton atten nitten")  # fmt: skip
    no_units = [["en", "et"], ["to"], ["tre"], ["fire"], ["fem"], ["seks"], ["sju", "syv"], ["åtte"], ["ni"]]
    tens("tjue tretti førti femti seksti sytti åtti nitti", no_units, "{t}{u}")
    tens("tyve tredive fyrre halvtreds tres halvfjerds firs halvfems", [["en"], *no_units[1:7], ["otte"], ["ni"]],
         "{u}og{t}")  # fmt: skip
    for english in ("pet", "firs"):  # (Czech `pět` and Danish `firs` unaccented are English words)
        table.pop(english, None)
    table["tres"] = 3  # (Danish sixty alone is Spanish and Portuguese three: the commoner reading wins)
    tens("tuttugu þrjátíu fjörutíu fimmtíu sextíu sjötíu áttatíu níutíu",
         _forms("einn tveir þrír fjórir fimm sex sjö átta níu"), "{t} og {u}")  # fmt: skip
    add("_ einn/eitt tveir/tvær/tvö þrír/þrjár/þrjú fjórir/fjórar/fjögur fimm _ sjö átta níu tíu ellefu tólf "
        "þrettán fjórtán fimmtán sextán sautján átján nítján")  # fmt: skip
    fi = add("nolla yksi kaksi kolme neljä viisi kuusi seitsemän kahdeksan yhdeksän kymmenen")
    table.update({_plain(f[0] + "toista"): 10 + k for k, f in enumerate(fi[1:10], 1)})
    for t, f in enumerate(fi[2:10], 2):
        table[_plain(f[0] + "kymmentä")] = 10 * t
        table.update({_plain(f"{f[0]}kymmentä{u[0]}"): 10 * t + k for k, u in enumerate(fi[1:10], 1)})
    hu = add("_ egy kettő/két három négy öt _ _ nyolc kilenc tíz")
    hu_units = [["egy"], ["kettő", "két"], *hu[3:6], ["hat"], ["hét"], *hu[8:10]]
    for ten, start in (("tizen", 10), ("huszon", 20)):
        table.update({_plain(ten + u): start + k for k, us in enumerate(hu_units, 1) for u in us})
    table["husz"] = 20
    tens("harminc negyven ötven hatvan hetven nyolcvan kilencven", hu_units, "{t}{u}", first=3)
    pl = add("zero jeden/jedna dwa/dwie trzy cztery pięć sześć siedem osiem dziewięć dziesięć jedenaście dwanaście "
             "trzynaście czternaście piętnaście szesnaście siedemnaście osiemnaście dziewiętnaście")  # fmt: skip
    tens("dwadzieścia trzydzieści czterdzieści pięćdziesiąt sześćdziesiąt siedemdziesiąt osiemdziesiąt "
         "dziewięćdziesiąt", pl[1:10], "{t} {u}")  # fmt: skip
    cs = add("nula jedna/jeden/jedno dva/dvě tři čtyři pět šest sedm osm devět deset jedenáct dvanáct třináct "
             "čtrnáct patnáct šestnáct sedmnáct osmnáct devatenáct")  # fmt: skip
    tens("dvacet třicet čtyřicet padesát šedesát sedmdesát osmdesát devadesát", cs[1:10], "{t} {u}")
    el = add("μηδέν ένα/μία/μια δύο/δυο τρία/τρεις τέσσερα/τέσσερις πέντε έξι επτά/εφτά οκτώ/οχτώ εννέα/εννιά δέκα "
             "έντεκα δώδεκα δεκατρία δεκατέσσερα δεκαπέντε δεκαέξι δεκαεπτά/δεκαεφτά δεκαοκτώ/δεκαοχτώ "
             "δεκαεννέα/δεκαεννιά")  # fmt: skip
    tens("είκοσι τριάντα σαράντα πενήντα εξήντα εβδομήντα ογδόντα ενενήντα", el[1:10], "{t} {u}")
    # Welsh counts in tens (`tri deg a dau`, 32; `un deg pump`, 15) with the soft mutation after `dau` (`dau ddeg`)
    cy = _forms("un dau/dwy tri/tair pedwar/pedair pump/pum chwech saith wyth naw")
    add("_ un dau/dwy tri/tair pedwar/pedair _ chwech saith wyth naw")
    for t, ten in enumerate(["un deg", "dau ddeg", "tri deg", "pedwar deg", "pum deg", "chwe deg", "saith deg",
                             "wyth deg", "naw deg"], 1):  # fmt: skip
        table[_plain(ten)] = 10 * t
        for k, us in enumerate(cy, 1):
            table.update({_plain(f"{ten}{join}{u}"): 10 * t + k for u in us for join in (" a ", " ")})
    sw = add("sifuri _ mbili tatu nne tano sita saba nane tisa kumi")  # (`moja` alone is Polish `my`)
    tens("kumi ishirini thelathini arobaini hamsini sitini sabini themanini tisini", [["moja"], *sw[2:10]],
         "{t} na {u}", 1)  # fmt: skip
    ind = add("nol satu dua tiga empat lima enam tujuh delapan/lapan sembilan sepuluh sebelas")
    table.update({_plain(f"{u} belas"): 10 + k for k, us in enumerate(ind[2:10], 2) for u in us})
    for t, us in enumerate(ind[2:10], 2):
        for ten in (f"{u} puluh" for u in us):
            table[_plain(ten)] = 10 * t
            table.update({_plain(f"{ten} {v}"): 10 * t + k for k, vs in enumerate(ind[1:10], 1) for v in vs})

    # (`one` alone is an article too: `(een dozijn)`, `(egy tucat)`, `(ett dussin)` restate twelve, they do not say 1)
    for article in [
        "een",
        "ett",
        "egy",
        "yksi",
        "satu",
        "jeden",
        "jedna",
        "jedno",
        "ενα",
        "μια",
        "einn",
        "eitt",
    ]:
        table.pop(article, None)


def _forms(words: str) -> list[list[str]]:
    """The forms of each number in a space-separated list, a slash between forms of one (`dau/dwy tri/tair`)."""
    return [w.split("/") for w in words.split()]


def _plain(text: str) -> str:
    """A number word's key: lower case, no accents, hyphens as spaces, `and` as the English word (`Dieciséis` ->
    `dieciseis`, `vingt-et-un` -> `vingt and un`: answer lines write other languages' `and` in English)."""
    text = unicodedata.normalize("NFD", text.strip().rstrip(".").lower().replace("-", " "))
    words = "".join(c for c in text if not unicodedata.combining(c)).split()
    return " ".join("and" if w in ("et", "y", "e") else w for w in words)


_FOREIGN_WORDS = _words_to_99()


def foreign_number(text: str) -> str | None:
    """The number words of another language name, to 99 (`sieben`, `vierundzwanzig`, `vingt-quatre`, `veinticuatro`,
    `двадцать четыре`), or None."""
    return None if (n := _FOREIGN_WORDS.get(_plain(text))) is None else str(n)
