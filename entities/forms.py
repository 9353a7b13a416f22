"""Console forms for entities: search, aliases, relations, merges and the contacts import. Services do the writes."""
from django import forms

from entities.models import EntityKind

KIND_CHOICES = [("", "Any kind"), *EntityKind.choices]
# Offered as suggestions when adding a relation by hand; any lowercase_words predicate is accepted.
COMMON_PREDICATES = ("partner_of", "married_to", "sibling_of", "parent_of", "friend_of", "roommate_of",
                     "colleague_of", "manager_of", "works_at", "lives_in", "member_of")


class EntitySearchForm(forms.Form):
    q = forms.CharField(required=False, max_length=200)
    kind = forms.ChoiceField(required=False, choices=KIND_CHOICES)


class AliasForm(forms.Form):
    alias = forms.CharField(max_length=200, error_messages={"required": "Type the alias to add or remove."})


class RelationForm(forms.Form):
    """A typed edge added on an entity page: this entity —predicate→ the other one, or the other way round."""

    predicate = forms.CharField(max_length=64, error_messages={"required": "Name the relation, e.g. partner_of."})
    direction = forms.ChoiceField(choices=[("out", "this → other"), ("in", "other → this")], initial="out")
    other = forms.ChoiceField(label="Other entity", error_messages={
        "required": "Choose who or what the relation goes to.", "invalid_choice": "Choose one of your entities."})

    def __init__(self, *args, others=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["other"].choices = [("", "Choose…")] + [
            (entity.public_id, "you" if entity.kind == EntityKind.SELF else entity.canonical_name or entity.public_id)
            for entity in others]

    def clean_predicate(self) -> str:
        """"Partner of" → "partner_of"; the service checks the shape."""
        return "_".join(self.cleaned_data["predicate"].lower().split())


class MergeForm(forms.Form):
    """Two entities shown side by side; the button pressed names the one that stays."""

    left = forms.CharField(max_length=32)
    right = forms.CharField(max_length=32)
    winner = forms.CharField(max_length=32)
    confirmed = forms.BooleanField(required=False)

    def clean(self):
        data = super().clean()
        if data.get("winner") and data["winner"] not in (data.get("left"), data.get("right")):
            raise forms.ValidationError("Choose one of the two entities to keep.")
        return data

    @property
    def loser(self) -> str:
        data = self.cleaned_data
        return data["right"] if data["winner"] == data["left"] else data["left"]


class PairForm(forms.Form):
    left = forms.CharField(max_length=32)
    right = forms.CharField(max_length=32)


class ContactsImportForm(forms.Form):
    file = forms.FileField(label="Contacts export", help_text="A vCard file (.vcf) or a Google/Outlook CSV export.")
    self_card = forms.CharField(
        label="Your own card (optional)", required=False, max_length=200,
        help_text="The full name on your own card, e.g. “Mark Jensen”. It enriches you instead of adding a person.",
    )
