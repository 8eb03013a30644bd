from __future__ import annotations

import pytest

from graph.beliefs.normalize import NORMALIZERS, normalize


@pytest.mark.parametrize("raw", ["$750", "750 USD", "USD 750", "usd 750", " $ 750 ", "750$", "US$ 750", "$750.00"])
def test_currency_forms_of_one_amount_meet(raw):
    assert normalize("currency", raw) == "USD 750"


@pytest.mark.parametrize("raw, expected", [
    ("€1,200.50", "EUR 1200.5"), ("1200 eur", "EUR 1200"), ("£3.5", "GBP 3.5"), ("¥ 5000", "JPY 5000"),
    ("about a thousand", "about a thousand"), ("  12 apples ", "12 apples"),
])
def test_currency_reads_other_codes_and_leaves_prose_alone(raw, expected):
    assert normalize("currency", raw) == expected


def test_text_normalisers():
    assert normalize("none", " Seattle ") == " Seattle "
    assert normalize("trim", " Seattle ") == "Seattle"
    assert normalize("lowercase", " Seattle ") == " seattle "
    assert normalize("lowercase_trim", " Seattle ") == normalize("lowercase_trim", "seattle") == "seattle"
    assert set(NORMALIZERS) == {"none", "trim", "lowercase", "lowercase_trim", "currency"}
