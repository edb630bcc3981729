"""CronJob ``schedule`` (the standard 5-field cron format with descriptors, as the API server parses it with
robfig/cron's ParseStandard) and ``timeZone`` (an IANA zone name Go's time.LoadLocation knows)."""

from __future__ import annotations

import re
from functools import cache

_DESCRIPTORS = frozenset(("@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"))
_BOUNDS = ((0, 59), (0, 23), (1, 31), (1, 12), (0, 6))
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    )
}
_DAYS = {d: i for i, d in enumerate(("sun", "mon", "tue", "wed", "thu", "fri", "sat"))}
_NAMES = ({}, {}, {}, _MONTHS, _DAYS)
_DURATION = re.compile(r"([0-9]*(\.[0-9]*)?(ns|us|µs|ms|s|m|h))+")
_INT = re.compile(r"[0-9]+")


def _number(text: str, names: dict[str, int]) -> tuple[int | None, str | None]:
    low = text.lower()
    if low in names:
        return names[low], None
    if not _INT.fullmatch(text):
        return None, f'failed to parse int from {text}: strconv.Atoi: parsing "{text}": invalid syntax'
    return int(text), None


def _field(text: str, lo: int, hi: int, names: dict[str, int]) -> str | None:
    for part in text.split(","):
        step_parts = part.split("/")
        if len(step_parts) > 2:
            return f"too many slashes: {part}"
        rng = step_parts[0].split("-")
        if len(rng) > 2:
            return f"too many hyphens: {part}"
        if rng[0] in ("*", "?"):
            if len(rng) > 1:
                return f"too many hyphens: {part}"  # "*-5" does not parse
            start, end = lo, hi
        else:
            start, err = _number(rng[0], names)
            if err:
                return err
            end = start
            if len(rng) == 2:
                end, err = _number(rng[1], names)
                if err:
                    return err
        if len(step_parts) == 2:
            step, err = _number(step_parts[1], {})
            if err:
                return err
            if step <= 0:
                return f"step of range should be a positive number: {part}"
            if len(rng) == 1 and rng[0] not in ("*", "?"):
                end = hi
        assert start is not None and end is not None
        if start < lo:
            return f"beginning of range ({start}) below minimum ({lo}): {part}"
        if end > hi:
            return f"end of range ({end}) above maximum ({hi}): {part}"
        if start > end:
            return f"beginning of range ({start}) beyond end of range ({end}): {part}"
    return None


@cache
def parse_error(schedule: str) -> str | None:
    """None when the schedule parses, else the parser's reason."""
    spec = schedule.strip()
    if not spec:
        return "empty spec string"
    if spec.startswith(("TZ=", "CRON_TZ=")):
        _, _, spec = spec.partition(" ")
        spec = spec.strip()
    if spec.startswith("@"):
        if spec in _DESCRIPTORS:
            return None
        if spec.startswith("@every "):
            dur = spec[len("@every ") :].strip()
            if _DURATION.fullmatch(dur):
                return None
            return f'failed to parse duration {spec}: time: invalid duration "{dur}"'
        return f"unrecognized descriptor: {spec}"
    fields = spec.split()
    if len(fields) != 5:
        return f"expected exactly 5 fields, found {len(fields)}: [{spec}]"
    for text, (lo, hi), names in zip(fields, _BOUNDS, _NAMES, strict=True):
        err = _field(text, lo, hi, names)
        if err:
            return err
    return None


@cache
def _zones() -> frozenset[str]:
    try:
        import zoneinfo

        return frozenset(zoneinfo.available_timezones())
    except Exception:  # pragma: no cover - no time zone database at all
        return frozenset()


@cache
def time_zone_error(tz: str) -> str | None:
    """None when ``tz`` names a zone; the server's reason otherwise. Without a time zone database on this
    machine nothing is judged but the empty and ``Local`` names."""
    if tz == "":
        return "timeZone must be nil or non-empty string"
    if tz.lower() == "local":
        return "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"
    zones = _zones()
    if not zones or tz in zones or tz == "UTC":
        return None
    try:
        import zoneinfo

        zoneinfo.ZoneInfo(tz)
        return None
    except Exception:
        return f"unknown time zone {tz}"
