"""The review queue's bulk form."""
from django import forms

from memories.review.services import BULK_ACTIONS


class BulkReviewForm(forms.Form):
    action = forms.ChoiceField(choices=[(a, a) for a in BULK_ACTIONS])
    memory_ids = forms.TypedMultipleChoiceField(coerce=int, choices=())

    def __init__(self, *args, user_memory_ids=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["memory_ids"].choices = [(pk, pk) for pk in user_memory_ids]
        self.fields["memory_ids"].error_messages["required"] = "Select at least one memory."
        self.fields["memory_ids"].error_messages["invalid_choice"] = "One of the selected memories no longer exists."
