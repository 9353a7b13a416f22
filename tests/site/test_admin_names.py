"""The admin index names every model in a plural that reads well ("Memory entity links", not "Memory entitys")."""
import re

from django.apps import apps

EXPECTED = [
    "Memories", "Memory history", "Memory entity links", "Source messages", "User profiles", "Turn injections",
    "Entities", "Aliases", "Entity mentions", "Relations", "Unresolved references", "Entity reviews",
    "Audit events", "User ID grants", "Metric snapshots",
]


def test_admin_index_lists_models_with_readable_plurals(staff_client):
    page = staff_client.get("/admin/").content.decode()
    listed = set(re.findall(r'<th scope="row"[^>]*>\s*<a href="/admin/[^"]*">([^<]+)</a>', page))
    assert set(EXPECTED) <= listed
    assert not any(name.endswith("ys") for name in listed)


def test_every_recall_model_says_its_plural():
    for app in ("access", "audit", "entities", "memories", "metrics"):
        for model in apps.get_app_config(app).get_models():
            plural = str(model._meta.verbose_name_plural)
            assert not plural.endswith(("ys", "ss", "hs", "xs")), (model, plural)
