"""Clock times: `4:00 PM`, `4 p.m.`, `16:00`, `11:45\\text{ AM}`. A time of day is one instant, so `4:00 PM` is
`16:00` and never `4:00 AM` (the unit stripper used to drop `PM` as a word and grade the two equal). A gold with
no meridiem and an hour of 1-12 (`4:30`) names the same time on either half of the day: `4:30 AM`, `4:30 PM` and
`16:30` answer it. A gold that says the half of the day (`4:30 PM`, `16:30`) asks for it: a reply's bare `4:30`
does not say it (its prose may say `in the morning`, or it may be a duration), so it does not answer."""

from __future__ import annotations

import re
from typing import NamedTuple

_CLOCK_RE = re.compile(
    r"(?P<hour>\d{1,2})(?:\s*(?::|\{:\})\s*(?P<minute>\d{2})(?:\s*:\s*(?P<second>\d{2}))?)?"
    r"\s*(?:(?P<meridiem>[ap])\.?\s*m(?![a-z])\.?|(?P<noon>noon|midnight))?",
    re.IGNORECASE,
)
# markup around a time: `\text{4:00 PM}`, `4:00\text{ PM}`, `4:00\,\mathrm{p.m.}`, `**4:00 PM**`
_MARKUP_RE = re.compile(r"\\(?:text|mathrm|textrm|textbf|mbox)\s*\{([^{}]*)\}|\\[,;: ]|~|\*\*|\$")


class Clock(NamedTuple):
    """A time of day in minutes after midnight; `half_day` when it may be on either half (`4:30`)."""

    minutes: int
    half_day: bool


def parse_clock(text: str) -> tuple[Clock, bool] | None:
    """The clock time that `text` is as a whole and whether it says plainly that it is one (a meridiem, an hour
    over 12 or a leading zero: `4 PM`, `16:00`, `04:30`), or None when it is no time of day (`3:2` is a ratio)."""
    plain = _MARKUP_RE.sub(lambda m: m.group(1) or " ", text).strip().rstrip(".").strip()
    m = _CLOCK_RE.fullmatch(plain)
    if m is None or (m.group("minute") is None and not (m.group("meridiem") or m.group("noon"))):
        return None  # a bare number is no clock time
    hour, minute = int(m.group("hour")), int(m.group("minute") or 0)
    second = int(m.group("second") or 0)
    if minute > 59 or second > 59:
        return None
    meridiem = (m.group("meridiem") or "").lower()
    if meridiem:
        if not 1 <= hour <= 12:
            return None  # `13:00 PM` is no time
        hour = hour % 12 + (12 if meridiem == "p" else 0)
        return Clock(hour * 60 + minute, False), True
    if m.group("noon"):
        if (hour, minute) != (12, 0):
            return None
        return Clock(0 if m.group("noon").lower() == "midnight" else 720, False), True
    if hour > 24 or (hour == 24 and minute):
        return None
    marked = hour == 0 or hour > 12 or m.group("hour").startswith("0")  # `16:00`, `04:30`: a 24-hour clock
    return Clock(hour % 24 * 60 + minute, not marked), marked


def clocks_equal(gold: str, pred: str) -> bool | None:
    """Whether two clock times are the same time of day; None unless both are clock times and one of them says
    so plainly (`4:00 PM`, `16:00`): two bare `H:MM` (`3:20`) may be ratios, which the value comparison grades."""
    g, p = parse_clock(gold), parse_clock(pred)
    if g is None or p is None or not (g[1] or p[1]):
        return None
    (a, _), (b, _) = g, p
    if b.half_day and not a.half_day:
        return False  # `4:30` for `4:30 PM`: the gold asks for the half of the day, and the reply does not say it
    if a.half_day:
        return a.minutes % 720 == b.minutes % 720
    return a.minutes == b.minutes
