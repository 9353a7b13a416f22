"""Console forms for the audit-log filter and the staff user switcher."""
from django import forms

USER_ID_MAX_LENGTH = 128


class AuditFilterForm(forms.Form):
    action = forms.ChoiceField(required=False)
    since = forms.DateField(required=False, label="From", widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(required=False, label="To", widget=forms.DateInput(attrs={"type": "date"}))
    user_id = forms.CharField(required=False, max_length=USER_ID_MAX_LENGTH, label="User id")

    def __init__(self, *args, actions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["action"].choices = [("", "Any")] + [(a, a) for a in actions]

    def clean(self):
        data = super().clean()
        if data.get("since") and data.get("until") and data["since"] > data["until"]:
            self.add_error("until", "The end date is before the start date.")
        return data


class SwitchUserForm(forms.Form):
    user_id = forms.RegexField(regex=r"^[\w.@:+-]+$", max_length=USER_ID_MAX_LENGTH,
                               error_messages={"invalid": "A user id has letters, digits and . @ : + - _ only."})
