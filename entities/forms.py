"""Console forms for entities: search, aliases, merges and the contacts import. Services do the writes."""
from django import forms

from entities.models import EntityKind

KIND_CHOICES = [("", "Any kind"), *EntityKind.choices]


class EntitySearchForm(forms.Form):
    q = forms.CharField(required=False, max_length=200)
    kind = forms.ChoiceField(required=False, choices=KIND_CHOICES)


class AliasForm(forms.Form):
    alias = forms.CharField(max_length=200, error_messages={"required": "Type the alias to add or remove."})


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
