"""docs/scaling.md's premise holds: every table of Recall's own apps carries `user_id` (so it can be
distributed and co-located by user), unless its model is declared a reference table with a reason."""
from django.apps import apps

OUR_APPS = ("access", "audit", "entities", "memories", "forgetting", "metrics")


def test_every_model_carries_user_id_or_is_declared_a_reference_table():
    models = [model for app in OUR_APPS for model in apps.get_app_config(app).get_models()]
    assert len(models) >= 12
    missing = [model.__name__ for model in models
               if not any(field.name == "user_id" for field in model._meta.get_fields())
               and not getattr(model, "citus_reference", False)]
    assert missing == [], f"add user_id, or citus_reference = True with why (docs/scaling.md): {missing}"
