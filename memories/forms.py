"""Console forms for memories and the profile. They validate input; services do the writes."""
import json

from django import forms

from memories.models import Domain, MemoryType, Status
from recall_site.config import recall_setting
from recall_site.input_checks import json_problem

ANY = [("", "Any")]


class MemoryEditForm(forms.Form):
    # The API's one content limit, read at start-up.
    content = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}),
                              max_length=recall_setting("input_limits.max_content_chars"),
                              error_messages={"required": "A memory needs some text."})
    type = forms.ChoiceField(choices=MemoryType.choices)
    domain = forms.ChoiceField(choices=Domain.choices)
    confidence = forms.FloatField(min_value=0, max_value=1)
    importance = forms.FloatField(min_value=0, max_value=1)
    sensitive = forms.BooleanField(required=False)

    @classmethod
    def for_memory(cls, memory):
        return cls(initial={name: getattr(memory, name) for name in cls.base_fields})


class MemoryFilterForm(forms.Form):
    q = forms.CharField(required=False, max_length=500, label="Search")
    type = forms.ChoiceField(required=False, choices=ANY + MemoryType.choices)
    domain = forms.ChoiceField(required=False, choices=ANY + Domain.choices)
    status = forms.ChoiceField(required=False, choices=ANY + Status.choices)
    session = forms.CharField(required=False, max_length=128)
    pinned = forms.ChoiceField(required=False, choices=ANY + [("yes", "Pinned"), ("no", "Not pinned")])
    # Off: a search reads the domains its question belongs to, as the API does (search.retrieval.gating).
    all_domains = forms.BooleanField(required=False, label="All domains")

    def list_filters(self) -> dict:
        """The filters in `memories.selectors.memory_list` terms."""
        data = self.cleaned_data
        pinned = {"yes": True, "no": False}.get(data.get("pinned"))
        return {"type": data.get("type") or None, "domain": data.get("domain") or None,
                "status": data.get("status") or None, "session_id": data.get("session") or None,
                "pinned": pinned}


class JSONObjectField(forms.CharField):
    """A JSON object typed into a textarea, e.g. {"coffee": "flat white"}."""

    widget = forms.Textarea(attrs={"rows": 5, "spellcheck": "false", "class": "mono"})

    def prepare_value(self, value):
        return json.dumps(value, indent=2, ensure_ascii=False) if isinstance(value, dict) else value

    def to_python(self, value):
        value = (value or "").strip()
        if not value:
            return {}
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(f"This is not valid JSON ({error.msg}, line {error.lineno}).") from None
        if not isinstance(parsed, dict):
            raise forms.ValidationError('Enter a JSON object of key/value pairs, e.g. {"coffee": "flat white"}.')
        problem = json_problem(parsed, max_bytes=recall_setting("input_limits.max_profile_json_bytes"),
                               max_depth=recall_setting("input_limits.max_profile_json_depth"))
        if problem:
            raise forms.ValidationError(problem)  # the API's check (recall_site/api_fields.JSONObjectField)
        return parsed


class ProfileForm(forms.Form):
    name = forms.CharField(required=False, max_length=200)
    assistant_name = forms.CharField(max_length=100)
    preferences = JSONObjectField(required=False)
    favorites = JSONObjectField(required=False)
