"""One live entity per (user, normalized name, kind). Duplicates left by parallel writes before this
constraint keep their rows and links: every one after the oldest gets its id appended to its normalized
name, so it no longer collides, and the console's merge suggestions offer to merge it by hand."""
from django.db import migrations, models


def separate_duplicates(apps, schema_editor):
    Entity = apps.get_model("entities", "Entity")
    seen = set()
    live = Entity.objects.filter(deleted_at__isnull=True).exclude(normalized_name="").order_by("created_at", "pk")
    for pk, user_id, name, kind in live.values_list("pk", "user_id", "normalized_name", "kind"):
        if (user_id, name, kind) in seen:
            Entity.objects.filter(pk=pk).update(normalized_name=f"{name} {pk}")
        seen.add((user_id, name, kind))


class Migration(migrations.Migration):

    dependencies = [
        ("entities", "0002_first_word_indexes"),
    ]

    operations = [
        migrations.RunPython(separate_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="entity",
            constraint=models.UniqueConstraint(
                condition=models.Q(("deleted_at__isnull", True), models.Q(("normalized_name", ""), _negated=True)),
                fields=("user_id", "normalized_name", "kind"),
                name="one_live_entity_per_name",
            ),
        ),
    ]
