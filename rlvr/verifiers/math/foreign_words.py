"""Numbers written in the words of other languages, 0 to 99: German, French, Spanish, Italian, Portuguese,
Russian and Turkish (`vierundzwanzig`, `quatre-vingt-dix`, `treinta y dos`, `двадцать четыре`). `numerals.py` reads them in a
reply's text, `number_words.py` as a whole answer (split from `numerals.py`)."""

from __future__ import annotations

import unicodedata


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
    return table


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
