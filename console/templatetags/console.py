"""Template helpers for the console layout: the navigation and small display filters."""
import re

from django import template
from django.urls import reverse
from django.utils import dateformat, timezone
from django.utils.timesince import timesince

from access.grants import console_user_id, granted_user_ids
from access.models import UserIdGrant
from audit.labels import ForgetReason, plural
from audit.labels import action_label as _action_label
from memories.models import Memory, UserProfile
from memories.review.selectors import review_count

register = template.Library()

NAV_ITEMS = (  # (URL name, label)
    ("dashboard", "Dashboard"),
    ("review", "Review"),
    ("memories", "Memories"),
    ("entity-list", "Entities"),
    ("metrics", "Metrics"),
    ("forget", "Forget"),
    ("audit-log", "Audit log"),
    ("profile", "Profile"),
)


@register.inclusion_tag("console/_nav.html", takes_context=True)
def console_nav(context):
    request = context["request"]
    acting = console_user_id(request)
    items = [
        {"href": href, "label": label, "active": _is_active(request.path, href)}
        for href, label in ((reverse(name), label) for name, label in NAV_ITEMS)
    ]
    return {
        "request": request, "user": request.user, "items": items, "acting_user_id": acting,
        "review_count": review_count(acting) if acting else 0,
        "switchable_user_ids": _switchable_user_ids(request.user) if acting else [],
        "csrf_token": context.get("csrf_token"),
    }


def _is_active(path: str, href: str) -> bool:
    return path == href if href == "/" else path.startswith(href)


def _switchable_user_ids(account) -> list[str]:
    """Staff may act for any known user id; others for their granted ones."""
    if not account.is_staff:
        return granted_user_ids(account)
    known = set(Memory.objects.values_list("user_id", flat=True).distinct())
    known |= set(UserIdGrant.objects.values_list("user_id", flat=True).distinct())
    known |= set(UserProfile.objects.values_list("user_id", flat=True))
    return sorted(known | {"default"})


@register.filter
def percent(value, digits=0) -> str:
    """0.125 → "12.5 %" (digits=1)."""
    if value is None:
        return "—"
    return f"{float(value) * 100:.{int(digits)}f} %"


@register.filter
def keylabel(key: str) -> str:
    """"memory_entity_links" → "Memory entity links"."""
    return str(key).replace("_", " ").capitalize()


@register.filter
def action_label(action: str) -> str:
    return _action_label(action)


@register.filter
def reason_label(reason: str) -> str:
    """A forget's reason category as words; older free-text reasons are shown as they are."""
    return ForgetReason(reason).label if reason in ForgetReason.values else reason


@register.filter
def plural_count(count: int, noun: str) -> str:
    """{{ n|plural_count:"memory,memories" }} → "1 memory", "3 memories"."""
    return plural(count, *noun.split(",", 1))


@register.filter
def idlist(value) -> str:
    """Audit target ids as short text: lists joined by commas, long lists shortened."""
    if isinstance(value, (list, tuple)):
        shown = ", ".join(str(item) for item in value[:5])
        return shown + (f" and {len(value) - 5} more" if len(value) > 5 else "")
    return "—" if value in (None, "") else str(value)


@register.filter
def zero_keys(counts: dict) -> list[str]:
    """Labels of the counts that are zero (shown in one muted line instead of a table row each)."""
    return [keylabel(key).lower() for key, value in counts.items() if not value]


@register.filter
def ago(moment) -> str:
    """"just now" under a minute, else "3 hours ago"."""
    if not moment:
        return "—"
    if (timezone.now() - moment).total_seconds() < 60:
        return "just now"
    return f"{timesince(moment)} ago"


@register.filter
def when(moment) -> str:
    """A moment in words, in the console's time zone: "Fri 4 Dec, 15:00"; the year when it is not this year,
    no time at midnight (a date said without a time)."""
    if not moment:
        return "—"
    local = timezone.localtime(moment)
    text = dateformat.format(local, "D j M" if local.year == timezone.localtime().year else "D j M Y")
    return text if (local.hour, local.minute) == (0, 0) else f"{text}, {local:%H:%M}"


# How a search hit was found, in words: retriever name → phrase (the graph's own phrase names its path).
FOUND_BY = {"lexical": "shares words with the question", "semantic": "close in meaning"}
_STEP = re.compile(r"(<)?-([a-z_]+)-(>)?")


@register.filter
def hop_words(path: str) -> str:
    """"sarah chen -partner_of-> alex" → "sarah chen → partner of → alex" (an edge walked backwards: ←)."""
    return _STEP.sub(lambda m: f"{'←' if m.group(1) else '→'} {m.group(2).replace('_', ' ')} "
                               f"{'←' if m.group(1) else '→'}", path or "")


@register.filter
def match_reasons(hit) -> list[str]:
    """Why a hit matched, a phrase per retriever: "close in meaning", "via sarah chen → partner of → alex"."""
    reasons = []
    for name in hit.retrievers:
        if name != "graph":
            reasons.append(FOUND_BY.get(name, name))
        elif "->" in hit.hop_path or "<-" in hit.hop_path:
            reasons.append(f"via {hop_words(hit.hop_path)}")
        else:
            reasons.append(f"about {hit.hop_path}" if hit.hop_path else "linked to a person you named")
    return reasons
