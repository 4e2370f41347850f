"""Units of one quantity written in different sizes: `5000 m` answers `5 km`, `300 minutes` answers `5 hours`,
`500 cents` answers `\\$5`. Each unit's size in a base unit of its kind is exact (an inch is 0.0254 m by
definition), so a converted value is compared exactly; units of different kinds, or unknown ones, never convert."""

from __future__ import annotations

from fractions import Fraction

_F = Fraction
_KINDS: dict[str, dict[str, Fraction]] = {
    "length": {
        "mm": _F(1, 1000), "millimeter": _F(1, 1000), "millimetre": _F(1, 1000),
        "cm": _F(1, 100), "centimeter": _F(1, 100), "centimetre": _F(1, 100), "dm": _F(1, 10),
        "m": _F(1), "meter": _F(1), "metre": _F(1),
        "km": _F(1000), "kilometer": _F(1000), "kilometre": _F(1000),
        "in": _F(254, 10000), "inch": _F(254, 10000), "inches": _F(254, 10000),
        "ft": _F(3048, 10000), "foot": _F(3048, 10000), "feet": _F(3048, 10000),
        "yd": _F(9144, 10000), "yard": _F(9144, 10000), "mi": _F(1609344, 1000), "mile": _F(1609344, 1000),
    },
    "time": {
        "ms": _F(1, 1000), "s": _F(1), "sec": _F(1), "second": _F(1), "min": _F(60), "minute": _F(60),
        "h": _F(3600), "hr": _F(3600), "hrs": _F(3600), "hour": _F(3600), "day": _F(86400), "week": _F(604800),
    },
    "mass": {
        "mg": _F(1, 1000), "g": _F(1), "gram": _F(1), "kg": _F(1000), "kilogram": _F(1000),
        "ton": _F(1000000), "tonne": _F(1000000),
    },
    "volume": {"ml": _F(1, 1000), "milliliter": _F(1, 1000), "l": _F(1), "liter": _F(1), "litre": _F(1)},
    "money": {"cent": _F(1, 100), "dollar": _F(1)},
}  # fmt: skip


def unit_factor(pred_unit: str, gold_unit: str) -> Fraction | None:
    """The factor turning a value in `pred_unit` into `gold_unit` (1000 from km to m), or None when the two
    are not sizes of one kind of quantity (`cm` and `kg`, or a unit this table does not know)."""
    for sizes in _KINDS.values():
        if pred_unit in sizes and gold_unit in sizes:
            return sizes[pred_unit] / sizes[gold_unit]
    return None
