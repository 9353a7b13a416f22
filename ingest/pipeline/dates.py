"""Temporal expressions in a message, resolved against the message's own timestamp.

Weekdays mean the next such weekday strictly after the message ("lunch Thursday"
sent on a Thursday is next week's); "tomorrow", "next week", "next weekend", "in 3 days",
"last Friday" and clock times are handled here; written dates ("March 3",
"3rd of May", "2026-12-01") go to `dateparser` with the message time as base.
"""
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

import dateparser

WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = r"(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?)"
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
CI = re.IGNORECASE
# A word that names a time, not a place or a person, though written with a capital ("moved to Thursday").
TIME_WORD = re.compile(rf"(?:(?:{'|'.join(WEEKDAYS)})s?|{MONTHS}|today|tomorrow|tonight|next|noon)\b", CI)

_RELATIVE_DAY = re.compile(r"\b(today|tonight|this (morning|afternoon|evening)|day after tomorrow|tomorrow|yesterday)\b", CI)
_WEEKDAY = re.compile(r"\b(last |next |this |on )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b", CI)
_NEXT_PERIOD = re.compile(r"\b(next|last) (week|month|year)\b|\b(this|next) weekend\b", CI)
_IN_N = re.compile(r"\bin (\d+|a|an|one|two|three|four|five|six|seven) (day|week|month)s?\b", CI)
_WRITTEN_DATE = re.compile(
    rf"\b{MONTHS}\.? \d{{1,2}}(st|nd|rd|th)?\b|\b\d{{1,2}}(st|nd|rd|th)? (of )?{MONTHS}\b|\b\d{{4}}-\d{{2}}-\d{{2}}\b", CI
)
_CLOCK = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm)\b|\bat (\d{1,2}):(\d{2})\b|\b(noon|midday)\b", CI)
_DAYPART = re.compile(r"\b(morning|afternoon|evening|night)s?\b", CI)


@dataclass
class When:
    at: datetime | None
    phrase: str = ""
    weekday: str = ""
    daypart: str = ""


def resolve_when(text: str, base: datetime) -> When:
    """The date (and time, if given) a message refers to, relative to `base`.

    A date past what `datetime` holds ("next month" said on 9999-12-31) is left unresolved.
    """
    try:
        day, phrase, weekday = _day(text, base)
    except (OverflowError, ValueError):
        return When(None)
    hour, minute = _clock(text)
    daypart = _daypart(text, hour)
    if day is None:
        return When(None, phrase, weekday, daypart)
    at = day.replace(hour=hour if hour is not None else 0, minute=minute or 0, second=0, microsecond=0)
    return When(at, phrase, weekday or WEEKDAYS[at.weekday()], daypart)


def _day(text: str, base: datetime) -> tuple[datetime | None, str, str]:
    if match := _RELATIVE_DAY.search(text):
        word = match.group(1).lower()
        offset = {"tomorrow": 1, "day after tomorrow": 2, "yesterday": -1}.get(word, 0)
        return base + timedelta(days=offset), match.group(0), ""
    if match := _WEEKDAY.search(text):
        qualifier, name = (match.group(1) or "").strip().lower(), match.group(2).lower()
        target = WEEKDAYS.index(name)
        if qualifier == "last":
            delta = -((base.weekday() - target) % 7 or 7)
        else:
            delta = (target - base.weekday()) % 7 or 7
        return base + timedelta(days=delta), match.group(0), name
    if match := _IN_N.search(text):
        count = int(match.group(1)) if match.group(1).isdigit() else NUMBERS[match.group(1).lower()]
        unit = {"day": 1, "week": 7, "month": 30}[match.group(2).lower()]
        return base + timedelta(days=count * unit), match.group(0), ""
    if match := _NEXT_PERIOD.search(text):
        return _period(match.group(0).lower(), base), match.group(0), ""
    if match := _WRITTEN_DATE.search(text):
        parsed = dateparser.parse(match.group(0), settings={
            "RELATIVE_BASE": base.replace(tzinfo=None), "PREFER_DATES_FROM": "future",
        })
        if parsed:
            return parsed.replace(tzinfo=base.tzinfo), match.group(0), ""
    return None, "", ""


def _period(phrase: str, base: datetime) -> datetime:
    if phrase == "this weekend":
        return base + timedelta(days=(5 - base.weekday()) % 7)
    if phrase == "next weekend":  # the Saturday of next week
        return base + timedelta(days=7 - base.weekday() + 5)
    direction, unit = phrase.split(" ")
    sign = 1 if direction == "next" else -1
    if unit == "week":
        monday = base - timedelta(days=base.weekday())
        return monday + timedelta(days=7 * sign)
    if unit == "month":
        month = base.month + sign
        year = base.year + (month - 1) // 12
        return base.replace(year=year, month=(month - 1) % 12 + 1, day=1)
    return base.replace(year=base.year + sign, month=1, day=1)


def _clock(text: str) -> tuple[int | None, int | None]:
    match = _CLOCK.search(text)
    if not match:
        return None, None
    if match.group(6):
        return 12, 0
    if match.group(1):
        hour = int(match.group(1)) % 12 + (12 if match.group(3).lower() == "pm" else 0)
        return (hour, int(match.group(2) or 0)) if hour < 24 else (None, None)
    hour, minute = int(match.group(4)), int(match.group(5))
    return (hour, minute) if hour < 24 and minute < 60 else (None, None)


def _daypart(text: str, hour: int | None) -> str:
    if match := _DAYPART.search(text):
        return match.group(1).lower()
    if hour is None:
        return ""
    return "morning" if hour < 12 else "afternoon" if hour < 17 else "evening"
