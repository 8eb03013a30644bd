"""Value normalisers for claims (docs/beliefs.md, The write path): pure, deterministic, keyed by name.
Conflict and duplicate checks compare normalised values."""
from __future__ import annotations

import re
from collections.abc import Callable

from graph.core.vocab import NORMALIZER_NAMES

_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", "₽": "RUB", "₺": "TRY"}
_AMOUNT = r"[-+]?\d[\d,]*(?:\.\d+)?|[-+]?\.\d+"
_CODE_FIRST = re.compile(rf"^([A-Za-z]{{3}})\s*({_AMOUNT})$")
_CODE_LAST = re.compile(rf"^({_AMOUNT})\s*([A-Za-z]{{3}})$")
_SYMBOL_FIRST = re.compile(rf"^([^\w\s.,+-])\s*({_AMOUNT})$")
_SYMBOL_LAST = re.compile(rf"^({_AMOUNT})\s*([^\w\s.,+-])$")
_CODE_SYMBOL = re.compile(rf"^([A-Za-z]{{2,3}})?\s*([^\w\s.,+-])\s*({_AMOUNT})$")  # e.g. "US$ 750"


def _amount(text: str) -> str:
    """'1,250.50' -> '1250.5'; '750.00' -> '750'; thousands separators dropped."""
    number = float(text.replace(",", ""))
    return f"{number:.2f}".rstrip("0").rstrip(".") if number % 1 else str(int(number))


def currency(value: str) -> str:
    """Best effort: "$750", "750 USD", "USD 750", "usd750", "€ 1,200.00" -> "USD 750", "EUR 1200".
    Anything it cannot read keeps its trimmed form, so unknown formats still compare as text."""
    text = value.strip()
    if m := _CODE_FIRST.match(text):
        return f"{m[1].upper()} {_amount(m[2])}"
    if m := _CODE_LAST.match(text):
        return f"{m[2].upper()} {_amount(m[1])}"
    if (m := _SYMBOL_FIRST.match(text)) and m[1] in _SYMBOLS:
        return f"{_SYMBOLS[m[1]]} {_amount(m[2])}"
    if (m := _SYMBOL_LAST.match(text)) and m[2] in _SYMBOLS:
        return f"{_SYMBOLS[m[2]]} {_amount(m[1])}"
    if (m := _CODE_SYMBOL.match(text)) and m[2] in _SYMBOLS:
        return f"{_SYMBOLS[m[2]]} {_amount(m[3])}"
    return text


NORMALIZERS: dict[str, Callable[[str], str]] = {
    "none": lambda v: v,
    "trim": str.strip,
    "lowercase": str.lower,
    "lowercase_trim": lambda v: v.strip().lower(),
    "currency": currency,
}


def normalize(name: str, value: str) -> str:
    return NORMALIZERS[name](value)

assert tuple(NORMALIZERS) == NORMALIZER_NAMES, "every normaliser the vocabulary names exists"
