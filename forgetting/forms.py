"""The console's deletion request: a person or thing, a session, one memory, or a filter; and a reason."""
from datetime import UTC, datetime, time

from django import forms

from audit.labels import ForgetReason
from entities.models import Entity, EntityKind, EntityMention
from forgetting.criteria import DeleteCriteria
from memories.models import Memory, MemoryType

FORGET_KINDS = [
    ("entity", "Everything about a person or thing"),
    ("session", "A conversation (session)"),
    ("memory", "One memory"),
    ("filter", "Memories matching a filter"),
]


class LastFilledNumberInput(forms.NumberInput):
    """A number that may come twice — picked from the search's radio buttons and typed in the box, both named
    `memory_id` — reads as the last one filled in."""

    def value_from_datadict(self, data, files, name):
        values = [value for value in (data.getlist(name) if hasattr(data, "getlist") else [data.get(name)])
                  if value not in (None, "")]
        return values[-1] if values else None


class ForgetForm(forms.Form):
    kind = forms.ChoiceField(choices=FORGET_KINDS, widget=forms.RadioSelect, initial="entity")
    entity = forms.ChoiceField(required=False, label="Person or thing")
    session = forms.ChoiceField(required=False, label="Session")
    memory_id = forms.IntegerField(required=False, min_value=1, label="…or type its id", widget=LastFilledNumberInput)
    types = forms.MultipleChoiceField(required=False, choices=MemoryType.choices,
                                      widget=forms.CheckboxSelectMultiple, label="Types")
    before = forms.DateField(required=False, label="Created before",
                             widget=forms.DateInput(attrs={"type": "date"}))
    reason = forms.ChoiceField(choices=ForgetReason.choices, initial=ForgetReason.USER_REQUEST, label="Reason",
                               required=False,
                               help_text="Kept in the audit log for 90 days, as this category only.")

    def __init__(self, *args, user_id: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.user_id = user_id
        entities = (Entity.objects.live().for_user(user_id).exclude(kind=EntityKind.SELF)
                    .order_by("canonical_name"))
        self.fields["entity"].choices = [("", "Choose…")] + [
            (entity.public_id, f"{entity.canonical_name} ({entity.get_kind_display().lower()})")
            for entity in entities
        ]
        self.fields["session"].choices = [("", "Choose…")] + [(s, s) for s in _session_ids(user_id)]

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind == "entity" and not data.get("entity"):
            self.add_error("entity", "Choose who or what to forget.")
        if kind == "session" and not data.get("session"):
            self.add_error("session", "Choose the session to forget.")
        if kind == "memory":
            self._check_memory(data.get("memory_id"))
        if kind == "filter" and not (data.get("types") or data.get("before")):
            self.add_error("types", "Pick at least one type or a date, so the filter cannot match everything by accident.")
        return data

    def _check_memory(self, memory_id):
        if memory_id is None:
            if "memory_id" not in self.errors:
                self.add_error("memory_id", "Find the memory by its words and pick it, or enter its id.")
        elif not Memory.objects.for_user(self.user_id).filter(pk=memory_id).exists():
            self.add_error("memory_id", f"There is no memory #{memory_id} for this user.")

    def criteria(self) -> DeleteCriteria:
        data, kind = self.cleaned_data, self.cleaned_data["kind"]
        if kind == "entity":
            return DeleteCriteria(entity_refs=[data["entity"]])
        if kind == "session":
            return DeleteCriteria(source_session=[data["session"]])
        if kind == "memory":
            return DeleteCriteria(memory_ids=[data["memory_id"]])
        before = datetime.combine(data["before"], time.min, tzinfo=UTC) if data.get("before") else None
        return DeleteCriteria(types=list(data["types"]), before=before)

    def target_label(self) -> str:
        """What will be forgotten, in words (shown only to the user before confirming)."""
        data, kind = self.cleaned_data, self.cleaned_data["kind"]
        if kind == "entity":
            return f"everything about {dict(self.fields['entity'].choices)[data['entity']]}"
        if kind == "session":
            return f"the conversation {data['session']}"
        if kind == "memory":
            return f"memory #{data['memory_id']}"
        parts = [", ".join(data["types"]) or "all types"]
        if data.get("before"):
            parts.append(f"created before {data['before']:%Y-%m-%d}")
        return "memories: " + ", ".join(parts)


def _session_ids(user_id: str) -> list[str]:
    from_memories = Memory.objects.for_user(user_id).values_list("session_id", flat=True)
    from_mentions = EntityMention.objects.filter(user_id=user_id).values_list("session_id", flat=True)
    return sorted(set(from_memories) | set(from_mentions))
