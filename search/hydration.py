"""Two-tier hydration: the startup digest and per-turn retrieval.

Startup digest: pinned, reviewed (not needs_review), user_global, active
memories plus the profile, capped by memory_hydration.startup_digest_max_items
and startup_digest_max_chars (the length of the whole text, profile lines
included). Per-turn retrieval: skip short or noisy input,
honour a cooldown between injections in one session, never inject the same
memory twice within turn_reinject_window_seconds, and record each injection.
"""
import re
from dataclasses import dataclass, field
from datetime import timedelta

import pglock
from django.db import transaction
from django.utils import timezone

from memories.models import SAID_BY_ASSISTANT, Memory, Scope, TurnInjection, UserProfile
from memories.services import profile_get
from recall_site.config import recall_setting
from search.retrieval import Hit, search_memories
from search.retrieval.ranking import attach_linked_entities

_NOT_WORD = re.compile(r"[^\w\s']+")


@dataclass
class Digest:
    profile: UserProfile
    memories: list[Memory]
    text: str


@dataclass
class TurnResult:
    hits: list[Hit] = field(default_factory=list)
    text: str = ""
    skip_reason: str = ""
    domain: str = ""


def startup_digest(user_id: str) -> Digest:
    """The profile, then the most important pinned memories, within the item and character caps:
    the whole `text` (profile lines included) is at most startup_digest_max_chars long."""
    hydration = recall_setting("memory_hydration")
    profile = profile_get(user_id)
    text = _DigestText(hydration["startup_digest_max_chars"])
    _add_profile(text, profile)
    candidates = (
        Memory.objects.for_user(user_id).active()
        .filter(pinned=True, needs_review=False, scope=Scope.USER_GLOBAL)
        .exclude(details__contains={"said_by": SAID_BY_ASSISTANT})  # what the assistant said is no fact of the user
        .without_vectors()
        .order_by("-importance", "-last_reinforced_at", "-id")
    )
    chosen = []
    for memory in candidates[: hydration["startup_digest_max_items"] * 4]:
        if len(chosen) >= hydration["startup_digest_max_items"]:
            break
        heading = [] if chosen else ["Pinned memories:"]
        if text.add(*heading, f"- [{memory.type}] {memory.content}"):
            chosen.append(memory)
    attach_linked_entities(chosen)
    return Digest(profile, chosen, text.joined())


class _DigestText:
    """Lines of the digest, never longer in all than `max_chars`: lines that would not fit are left out."""

    def __init__(self, max_chars: int):
        self.lines, self.left = [], max_chars

    def fits(self, *lines: str) -> bool:
        return self._needed(lines) <= self.left

    def add(self, *lines: str) -> bool:
        """Add `lines` together if they fit, else none of them."""
        if not self.fits(*lines):
            return False
        self.left -= self._needed(lines)
        self.lines += lines
        return True

    def _needed(self, lines) -> int:
        return sum(len(line) + 1 for line in lines) - (0 if self.lines else 1)

    def joined(self) -> str:
        return "\n".join(self.lines)


def _add_profile(text: _DigestText, profile: UserProfile) -> None:
    text.add(f"Assistant name: {profile.assistant_name}.")
    if profile.name:
        text.add(f"User's name: {profile.name}.")
    for label, values in (("Preferences", profile.preferences), ("Favorites", profile.favorites)):
        kept = []
        for entry in (f"{key}: {value}" for key, value in values.items()):
            if text.fits(f"{label}: " + "; ".join([*kept, entry]) + "."):
                kept.append(entry)  # an entry too long for what is left is skipped
        if kept:
            text.add(f"{label}: " + "; ".join(kept) + ".")


def is_noise(message: str) -> bool:
    """Too short to be worth a retrieval, or a known filler phrase ("ok", "thanks")."""
    retrieval = recall_setting("memory_retrieval")
    text = " ".join(_NOT_WORD.sub(" ", message.lower()).split())
    noise = {phrase.strip() for phrase in retrieval["turn_noise_phrases"].split(",")}
    return len(message.strip()) < retrieval["turn_min_chars"] or text in noise


def turn_retrieval(user_id: str, session_id: str, message: str) -> TurnResult:
    if is_noise(message):
        return TurnResult(skip_reason="short_input")
    if _last_injection_within_cooldown(user_id, session_id):
        return TurnResult(skip_reason="cooldown")
    outcome = search_memories(user_id=user_id, query=message, session_id=session_id,
                              freshness_weight=recall_setting("memory_retrieval.turn_freshness_weight"))
    recent = _recently_injected(user_id, session_id)
    hits = [hit for hit in outcome.hits if hit.memory.pk not in recent]
    if not hits:
        reason = "already_injected" if outcome.hits else outcome.skip_reason or "no_match"
        return TurnResult(skip_reason=reason, domain=outcome.domain)
    if not turn_injection_record(user_id=user_id, session_id=session_id, memory_ids=[h.memory.pk for h in hits]):
        return TurnResult(skip_reason="cooldown", domain=outcome.domain)
    return TurnResult(hits=hits, text=turn_text(hits), domain=outcome.domain)


def turn_text(hits: list[Hit]) -> str:
    return "Relevant memories:\n" + "\n".join(f"- [{h.memory.type}] {h.content or h.memory.content}" for h in hits)


def _last_injection_within_cooldown(user_id: str, session_id: str) -> bool:
    since = timezone.now() - timedelta(seconds=recall_setting("memory_retrieval.turn_cooldown_seconds"))
    return TurnInjection.objects.filter(user_id=user_id, session_id=session_id, injected_at__gt=since).exists()


def _recently_injected(user_id: str, session_id: str) -> set[int]:
    since = timezone.now() - timedelta(seconds=recall_setting("memory_retrieval.turn_reinject_window_seconds"))
    rows = TurnInjection.objects.filter(user_id=user_id, session_id=session_id, injected_at__gt=since)
    return {pk for ids in rows.values_list("memory_ids", flat=True) for pk in ids}


@transaction.atomic
def turn_injection_record(*, user_id: str, session_id: str, memory_ids: list[int]) -> TurnInjection | None:
    """Record an injection unless another one landed in this session within the cooldown (race-safe)."""
    pglock.advisory(f"turn:{user_id}:{session_id}", xact=True).acquire()
    if _last_injection_within_cooldown(user_id, session_id):
        return None
    return TurnInjection.objects.create(user_id=user_id, session_id=session_id, memory_ids=memory_ids)
